#ifndef CALLPATH_METRIC_H
#define CALLPATH_METRIC_H
/*
 * metric.h - which per-node value of a sidecar the call-path outputs show
 * (`--metric NAME`): the time samples (the default, "time"), or one of the
 * metrics the runtime recorded beside them, such as the event counts of
 * CALLPATH_EVENTS (runtime/counters.h, doc/counters.md).
 *
 * The model's frames keep *samples* whatever the metric, so that every
 * output and the one significance rule (diff/signif.h) treat them alike:
 * for an event counted by overflow every `period` events, a sample is one
 * overflow, and the model's rate (`hz`, samples per unit) is 1/period, so
 * that samples / hz is the estimated number of events, and the Poisson
 * noise of a path's value is that of its overflows.  For time, a sample is
 * a tick and hz the profiling timer's rate (seconds).  `weight` is the
 * unit's worth of one sample in the metric's own unit: what --folded
 * writes (events; 1 for time, whose folded files hold samples).
 *
 *   int k;
 *   if (callpath_metric_find(sc, name, &k) < 0) ...      reported
 *   samples of node i: callpath_metric_samples(sc, k, i)
 *   callpath_metric_describe(&desc, sc, k, gmon_hz)
 */
#include <stdint.h>

struct sidecar;

#define CALLPATH_METRIC_TIME (-1)	/* the time samples */
#define CALLPATH_METRIC_NAME_MAX 128

/* What a model's samples are (report.h's struct callpath_model holds one). */
struct callpath_metric_desc {
	char name[CALLPATH_METRIC_NAME_MAX];	/* "" for time */
	char unit[32];				/* "events"; "" for time */
	uint64_t period;	/* events per sample (overflow); 0 for time */
	int estimated;		/* period > 1: counts are estimates */
	int user_only;		/* SIDECAR_METRIC_USER_ONLY: the kernel's events not seen */
};

/*
 * The metric `name` of `sc`: CALLPATH_METRIC_TIME for NULL, "time" or the
 * time metric's own name ("prof-timer"), else the index of the extra
 * metric of that name.  -1 with an error naming the metrics the sidecar
 * has when it has none of that name (`source` names the sidecar).
 */
int callpath_metric_find(const struct sidecar *sc, const char *name,
			 const char *source, int *k);

/* Node i's samples of metric k: self samples, or overflows (value/period). */
uint64_t callpath_metric_samples(const struct sidecar *sc, int k, uint32_t i);

/* The unplaced samples of metric k (overflows no context took). */
uint64_t callpath_metric_unplaced(const struct sidecar *sc, int k);

/*
 * Describe metric k into *d and give the model's rate: gmon_hz for time,
 * 1/period for events (a period of 0, unknown, counts as 1).
 */
double callpath_metric_describe(struct callpath_metric_desc *d,
				const struct sidecar *sc, int k, double gmon_hz);

/* Is `name` a comma-separated list (metric_columns.h)? */
int callpath_metric_is_list(const char *name);

/* Is `name` a derived metric's (derived.h: IPC, CI, EV/KI)? */
int callpath_metric_is_derived(const char *name);

/* Does `name` (--metric's argument, NULL when not given) ask for time? */
int callpath_metric_is_time(const char *name);

#endif
