#ifndef CALLPATH_REPORT_H
#define CALLPATH_REPORT_H

/* The call-path reports of a run's calling contexts (the model's,
 * model/callpath_model.h). */
#include <stdio.h>

#include "model/callpath_model.h"

/*
 * The report: a heading naming `source`, then for each function (most
 * calls first; most self time first when the sidecar has samples) each
 * distinct path that reached it with its calls and its share of the
 * function's calls (iPath's call-path profile), with samples also the self
 * and inclusive seconds measured on that path; then the calling-context
 * tree indented two spaces per level (GPTL; a '*' marks a function reached
 * along more than one path) with calls, and with samples inclusive and
 * self seconds per node; then, with samples, the arcs where gprof's
 * proportional assumption is wrong (callpath_misattribution).
 * 0 or -1 (out of memory).
 */
int callpath_report_print(FILE *out, const struct callpath_model *m,
			  const char *source);
/*
 * The same, where each function's paths stop once they cover 95% of its
 * time (its calls when the sidecar has no samples), at 20 at most, and the
 * tree leaves out subtrees under 0.5% of the run's: each cut is counted on
 * a line of its own.  With all_paths nothing is left out (what
 * callpath_report_print prints).
 */
int callpath_report_write(FILE *out, const struct callpath_model *m,
			  const char *source, int all_paths);

/*
 * The "Time:" paragraph: the samples, their rate and kind, and how the
 * process's samples divide between the program, libraries, the
 * instrumentation and no known object, and those not placed.
 */
void callpath_sampling_print(FILE *out, const struct callpath_model *m);
/* callpath_model_coverage() in one line, with a warning below
 * SIDECAR_CPU_COVERAGE_WARN; nothing when unknown (-1). */
void callpath_coverage_print(FILE *out, double coverage);

/*
 * The misattribution test: gprof gives each caller of a function a share
 * of its time equal to the caller's share of its calls; an arc is listed
 * when the measured share of the callee's time (inclusive samples of its
 * outermost frames under that caller, over all its outermost frames')
 * differs from that by more than `threshold` (a fraction, e.g. 0.10) and
 * by more than two binomial standard deviations of the measured share
 * (a handful of samples proves nothing).
 */
#define CALLPATH_MISATTRIBUTION_THRESHOLD 0.10

#endif
