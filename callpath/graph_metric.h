#ifndef CALLPATH_GRAPH_METRIC_H
#define CALLPATH_GRAPH_METRIC_H
/*
 * graph_metric.h - an event counted per calling context (`--metric EV`,
 * callpath/metric.h) as the call-graph exports draw it (gml/graph.h's
 * struct graph_measured): each function's self and inclusive value, each
 * arc's (callpath/arcs.h), and, for a diff, whether each change is beyond
 * the noise.
 *
 * The sums are the diff's function table's (metric_evidence.h: self, the
 * overflows with the function innermost; inclusive, those of the function
 * and its callees, a recursive function's counted once), so a graph and
 * `--diff --metric EV` say the same numbers; the verdicts are the path
 * tables' rule (pathdiff_time_verdicts(): Poisson overflows, the runs'
 * jitter, one family per table: the functions' self values and their
 * inclusive values, as the diff's function table tests them; the arcs,
 * each the callee's inclusive value along one caller, with the functions'
 * inclusive values, whose jitter they share).  Values are in the metric's unit (events:
 * overflows / hz, hz being 1/period).
 *
 *   struct graph_metric *gm;
 *   if (graph_metric_build(models, arcs, 2, noise_sigmas, &gm) < 0) ...
 *   graph_metric_value(gm, 0, (const char *[]){ "f" }, 1, &self, &incl);
 *   graph_metric_free(gm);
 *
 * Ownership: gm keeps pointers to the models (for cycles' values) and
 * owns the rest; the models must outlive it.
 */
#include <stddef.h>

struct callpath_model;
struct callpath_arcs;
struct graph_metric;

/*
 * nsides models (1, or 2 for a diff) of the same metric, with their arcs
 * (callpath_arcs_build of the same models).  0 or -1 (out of memory,
 * reported).
 */
int graph_metric_build(const struct callpath_model *const *models,
		       const struct callpath_arcs *const *arcs, int nsides,
		       double noise_sigmas, struct graph_metric **out);
void graph_metric_free(struct graph_metric *gm);

/* Self and inclusive value of a function on `side` (n == 1), or of a
 * cycle's members names[0..n) taken as one function (a frame inside
 * another frame of the set is counted once); 0 for names never reached. */
void graph_metric_value(const struct graph_metric *gm, int side, const char *const *names,
			size_t n, double *self, double *total);

/* Every placed value of `side`. */
double graph_metric_total(const struct graph_metric *gm, int side);

/* diff: is the change of `name`'s self (inclusive 0) or inclusive value
 * beyond the noise?  0 for a single profile or an unchanged value. */
int graph_metric_changed(const struct graph_metric *gm, const char *name, int inclusive);

/* diff: is the change along caller -> callee beyond the noise? */
int graph_metric_arc_changed(const struct graph_metric *gm, const char *caller,
			     const char *callee);

#endif
