#ifndef CALLPATH_METRIC_COLUMNS_H
#define CALLPATH_METRIC_COLUMNS_H
/*
 * metric_columns.h - several metrics side by side in the call-path report
 * (`gprof --callpath --metric time,perf::PAGE-FAULTS,IPC`; doc/counters.md).
 *
 * --metric takes one name (metric.h) or a comma-separated list of up to
 * CALLPATH_COLUMNS_MAX: `time`, an event the run counted, or a derived
 * metric (derived.h: IPC, CI, EV/KI).  A list, or a derived metric, is a
 * table of the calling-context tree after the report (which shows time):
 * per node its calls and, per metric, its inclusive and self values
 * (seconds for time, estimated events for an event, the ratio of the
 * node's estimates with its relative standard error for a derived one).
 * The other outputs (--folded, --pprof, --html, --diff, --format) take one
 * event or time.
 */
#include <stdio.h>

#define CALLPATH_COLUMNS_MAX 8

struct sidecar;
struct profile;
struct callpath_symopts;

/* Is `arg` (--metric's argument, NULL when absent) a list or derived? */
int metric_columns_wanted(const char *arg);

/* The error for a list or derived metric where one metric is needed
 * (reported; returns -1). */
int metric_columns_refuse(const char *arg);

/* Every name of `list` is one sc can show: 0, or -1 after reporting. */
int metric_columns_check(const struct sidecar *sc, const char *list, const char *source);

/*
 * The table for the metrics of `list`, from sidecar sc named through p and
 * so (so->metric is ignored).  0, or -1 after reporting an error (a name
 * the sidecar lacks, out of memory, a stream error).
 */
int metric_columns_print(FILE *out, const struct sidecar *sc, const struct profile *p,
			 const struct callpath_symopts *so, const char *list,
			 const char *source);

#endif
