#ifndef EGPROF_GRAPH_SELECT_H
#define EGPROF_GRAPH_SELECT_H
/*
 * Which nodes and edges of a built graph stay (graph_finish() calls it
 * before labelling):
 *
 *  1. --exclude, --focus, --root and --depth, by the rules every output
 *     shares (filter/filter.h): --exclude F drops F's subtree; --focus F
 *     keeps F, every function on a chain of callers from F up to the roots
 *     and every function F calls directly or not; --root F keeps F and
 *     what it calls.  --depth N keeps only what is at most N calls away
 *     from F (or, without --focus/--root, from the uncalled functions).
 *     A cycle's node stays when one of its members does.
 *  2. The hot path is marked keep: from the heaviest uncalled function,
 *     the heaviest call at each step (by time; in a diff also by the
 *     change), so the chain holding most of the time is never pruned.
 *  3. Thresholds, as gprof2dot's: a node whose weight is under node_thres
 *     percent of node_total, an edge under edge_thres percent of
 *     edge_total, goes unless it is marked keep or is the focus.  Edges
 *     go with their nodes.
 *
 * Returns 0, or -1 (reported) when --focus/--root/--exclude names no function of the
 * graph or memory runs out.  pruned_nodes/pruned_edges count what went.
 */
#include "gml/graph.h"

int graph_select(struct graph *g, const struct graph_opts *opts);

#endif
