#ifndef EGPROF_RANKMETRIC_H
#define EGPROF_RANKMETRIC_H
/*
 * rankmetric.h - rank statistics of an event counted per calling context
 * (`gprof --rank-stats --metric EV`, doc/counters.md): each rank's
 * function self values come from its sidecar's metric EV instead of the
 * gmon histogram, so that the same statistics (min, mean, max, imbalance,
 * cost, outliers) are of events.
 *
 * A rank's profile is copied with every function's self ticks replaced by
 * the overflows of EV whose calling context ends in that function (a
 * sidecar node's callee, link-time address inside the function), and hz
 * set to 1/period: "seconds" (ticks / hz) are then events, the overflows
 * the samples behind them, as in the call-path outputs (callpath/metric.h).
 * Calls stay gmon's.
 *
 *   struct rankmetric rm;
 *   if (rankmetric_of(p, gmon, "perf::PAGE-FAULTS", &rm) < 0) ...
 *   rankstate_add(st, &rm.p, rank, spill);
 *   rankmetric_release(&rm);
 */
#include "diff/profile.h"

struct rankmetric {
	struct profile p;	/* a shallow copy: strings borrowed from the
				   original, syms[] its own */
	char unit[64];		/* "perf::PAGE-FAULTS events" */
};

/*
 * The copy of p for metric `name` from the sidecar beside `gmon`.  0, or
 * -1 after an error naming the file (no sidecar, another run's, no such
 * metric: the metrics it has, out of memory).
 */
int rankmetric_of(const struct profile *p, const char *gmon, const char *name,
		  struct rankmetric *out);
void rankmetric_release(struct rankmetric *rm);

#endif
