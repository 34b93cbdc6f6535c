#ifndef CALLPATH_ARCS_H
#define CALLPATH_ARCS_H
/*
 * arcs.h - the measured time of each arc (caller function -> callee
 * function) from a call-path model with samples: what gprof estimates by
 * splitting the callee's time in proportion to calls, measured on the
 * paths.  Used by the report's misattribution section (report.c) and by the
 * graph exports (gml/), which label and size arcs by it.
 *
 * An arc's samples are the inclusive samples (the callee and everything it
 * called from there) of the callee's frames under that caller that are the
 * callee's outermost frame on their path, so that a recursion's time is
 * counted once; its calls are all the calls of those frames.
 * Self-recursive calls (caller == callee) and folded-recursion frames are
 * left out, as gprof leaves self-recursion out of its arcs' time.
 *
 *   struct callpath_arcs *arcs;
 *   if (callpath_arcs_build(model, &arcs) < 0) return -1;
 *   const struct callpath_arc *a = callpath_arcs_find(arcs, "b", "c");
 *   callpath_arcs_free(arcs);
 *
 * Ownership: a struct callpath_arcs owns its arcs and their name strings;
 * it keeps no pointer into the model.
 */
#include <stddef.h>
#include <stdint.h>

struct callpath_model;

struct callpath_arc {
	char *caller, *callee;	/* function names as gprof prints them */
	uint64_t calls;		/* calls along the arc */
	uint64_t samples;	/* inclusive samples measured along the arc */
	/* the callee's sums over all its callers' arcs, for shares */
	uint64_t callee_calls, callee_samples;
};

struct callpath_arcs {
	struct callpath_arc *arcs;	/* sorted by (callee, caller) */
	size_t nr;
	double hz;			/* samples per second (the model's) */
	int timed;			/* the model has samples */
};

/* 0 or -1 (out of memory, reported with error()). */
int callpath_arcs_build(const struct callpath_model *m, struct callpath_arcs **out);
void callpath_arcs_free(struct callpath_arcs *a);

/* The arc caller -> callee, or NULL. */
const struct callpath_arc *callpath_arcs_find(const struct callpath_arcs *a,
					      const char *caller, const char *callee);

/* An arc's measured seconds. */
static inline double callpath_arc_seconds(const struct callpath_arcs *a,
					  const struct callpath_arc *arc)
{
	return a->hz > 0 ? (double)arc->samples / a->hz : 0.0;
}

#endif
