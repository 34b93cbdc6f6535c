#ifndef CALLPATH_RECURSION_H
#define CALLPATH_RECURSION_H
/*
 * recursion.h - the frame that made a folded node's recursive calls.
 *
 * The runtime folds recursion (doc/dev/sidecar-format.md): a call of a
 * function already on the path, say a, goes back to a's frame N, and the
 * calls are counted in a folded node under N keyed by their call site,
 * which lies in the function C that made them.  The node does not say
 * which frame of C that was.  A folded stack written as N's path, C, a
 * ("main;a;c;a") names a call a -> c that never happened when c was
 * reached through b (main -> a -> b -> c -> a): flame graphs then draw it.
 *
 * Every frame of C under N is a candidate (the call was made from the
 * path the runtime was on, which went through N); when exactly one exists,
 * it made the calls, and the stack is its path and a
 * ("main;a;b;c;a"; for direct recursion C is a and the frame is N:
 * "main;fib;fib").  When there are several, or none (a call from outside
 * the program, [external], or a frame not recorded), the maker is unknown
 * and the caller counts the calls on N's own line, as gprof counts a
 * recursive function's calls ("1+N"): never a stack that did not happen.
 *
 *   uint32_t *maker = malloc(n * sizeof(*maker));
 *   if (recursion_makers(n, parent, NONE, func, folded, caller, maker) < 0)
 *           ...out of memory...
 *   // maker[i]: for folded node i, its maker's index or NONE
 *
 * parent[i] is `none` for a top-level node, else < i (parents first).
 * func[i] identifies node i's function, caller[i] (folded nodes) the
 * function holding its call site: equal keys mean the same function;
 * RECURSION_UNKNOWN matches nothing.  O(n log n).
 */
#include <stdint.h>

#define RECURSION_UNKNOWN UINT64_MAX

/* 0 or -1 (out of memory; not reported).  maker[i] is `none` for nodes
 * that are not folded. */
int recursion_makers(uint32_t n, const uint32_t *parent, uint32_t none,
		     const uint64_t *func, const unsigned char *folded,
		     const uint64_t *caller, uint32_t *maker);

#endif
