#ifndef CALLPATH_PATHRANK_H
#define CALLPATH_PATHRANK_H
/*
 * pathrank.h - the order of a tree's path texts, without writing them.
 *
 * Reports sort call paths by their text ("main -> b (main+0x4a) -> c
 * (b+0x13)", "main;b;c").  Writing every path of a million-node tree to
 * sort it costs its depth in bytes per node (430 MB for a depth-20 tree)
 * and most of the report's time.  A path's text is its nodes' segments
 * joined by a separator, so the order of the texts follows from the order
 * of siblings' segments: pathrank() gives each node a rank such that rank
 * order is strcmp() order of the full texts, looking at each segment once.
 *
 * It is exact, also where a sibling's segment is a prefix of another's
 * ("foo" and "foo2" under ';': "x;foo" < "x;foo2" < "x;foo;bar"): a node
 * and its subtree are ranked as two entries, keyed by its segment and by
 * its segment followed by the separator.  The separator must not occur in
 * any segment (folded stacks write ';' in a name as ':').  Siblings with
 * equal segments (two top-level "main" from different untold call sites)
 * are ranked as if their subtrees were one; nodes with equal texts are
 * ranked by index.
 *
 *   uint32_t *rank = malloc(n * sizeof(*rank));
 *   if (pathrank(n, parent, segment_of, ctx, " -> ", rank) < 0) ...
 *
 * parent[i] is PATHRANK_ROOT or < i (parents first).
 */
#include <stddef.h>
#include <stdint.h>

#define PATHRANK_ROOT UINT32_MAX

/* Write node's segment and a NUL to buf when both fit in len bytes (when
 * they do not, buf's bytes are left undefined: pathrank grows the buffer
 * and asks again); return the segment's full length. */
typedef size_t (*pathrank_segment_fn)(void *ctx, uint32_t node, char *buf,
				      size_t len);

/* rank[] gets 0..n-1.  0 or -1 (out of memory; not reported). */
int pathrank(uint32_t n, const uint32_t *parent, pathrank_segment_fn segment,
	     void *ctx, const char *sep, uint32_t *rank);

#endif
