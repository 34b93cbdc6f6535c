#ifndef CALLPATH_ELIDE_H
#define CALLPATH_ELIDE_H
/*
 * elide.h - deep call paths printed with their middle left out, so that
 * every report is linear in its input.
 *
 * A report prints a line per node of the calling-context tree, and a line
 * names the node's whole path: a recursion 20,000 deep recorded with
 * CALLPATH_RECURSION=full (20,000 nodes, a 0.96 MB sidecar) made 200
 * million frames of text, a 4.4 GB `--callpath` report.  A path of more than
 * ELIDE_HEAD + ELIDE_TAIL frames is therefore printed as its first
 * ELIDE_HEAD frames, a marker naming how many were left out, and its last
 * ELIDE_TAIL frames:
 *
 *   main;down;down;...;down;…(19,969 frames)…;down;...;down;down
 *
 * and trees are indented by at most ELIDE_HEAD + ELIDE_TAIL levels, deeper
 * nodes saying their depth.  Each line then holds at most
 * ELIDE_HEAD + ELIDE_TAIL names: a report's size is at most a constant
 * times the number of nodes times the longest name, whatever the depth.
 * Paths up to that depth (every path of the real programs we measured:
 * Lua 19 frames, LULESH 4 at -O2) are printed whole.
 *
 * path_elider gives the frames of a node's printed path in O(ELIDE_HEAD +
 * ELIDE_TAIL) steps whatever its depth, from each node's ancestor at depth
 * ELIDE_HEAD, computed once.
 *
 *   struct path_elider pe;
 *   if (path_elider_init(&pe, n, parent, NONE) < 0) return -1;
 *   uint32_t frames[ELIDE_FRAMES], omitted;
 *   uint32_t k = path_elider_frames(&pe, node, frames, &omitted);
 *   // frames[0 .. k): root first; when omitted > 0, the marker goes
 *   // between frames[ELIDE_HEAD - 1] and frames[ELIDE_HEAD]
 *   path_elider_release(&pe);
 *
 * parent[i] is `none` for a top-level node, else < i (parents first).
 * Ownership: the elider owns its arrays and keeps a pointer to parent[],
 * which must outlive it.
 */
#include <stddef.h>
#include <stdint.h>

#define ELIDE_HEAD 16
#define ELIDE_TAIL 16
#define ELIDE_FRAMES (ELIDE_HEAD + ELIDE_TAIL)

/* Frames left out of a path of `depth` frames: 0 when it is printed whole. */
static inline uint32_t elide_omitted(uint32_t depth)
{
	return depth > ELIDE_FRAMES ? depth - ELIDE_FRAMES : 0;
}

/* v with a comma between groups of three digits ("19,969") and a NUL,
 * in buf (32 bytes); its length. */
size_t elide_count(char *buf, uint64_t v);

/* Room for any marker with its NUL. */
#define ELIDE_MARKER_MAX 48

/* "…(19,969 frames)…" (U+2026 either side; "1 frame" in the singular)
 * into buf (ELIDE_MARKER_MAX bytes); its length. */
size_t elide_marker(char *buf, uint64_t omitted);

struct path_elider {
	const uint32_t *parent;
	uint32_t none;
	uint32_t *depth;	/* 1 for a top-level node */
	uint32_t *anchor;	/* ancestor at depth ELIDE_HEAD, or none when
				   shallower */
};

/* 0 or -1 (out of memory; not reported). */
int path_elider_init(struct path_elider *pe, uint32_t n, const uint32_t *parent,
		     uint32_t none);
void path_elider_release(struct path_elider *pe);

/*
 * The frames of node's printed path, root first, in frames[] (room for
 * ELIDE_FRAMES); their count.  *omitted: the frames left out between the
 * head (frames[0 .. ELIDE_HEAD)) and the tail, 0 when the path is whole.
 */
uint32_t path_elider_frames(const struct path_elider *pe, uint32_t node,
			    uint32_t *frames, uint32_t *omitted);

/* The same for node's path followed by `extra` (a node not on it, or
 * `none`): a folded-recursion line, its maker's path and the callee. */
uint32_t path_elider_line(const struct path_elider *pe, uint32_t node,
			  uint32_t extra, uint32_t *frames, uint32_t *omitted);

#endif
