#ifndef CALLPATH_METRIC_EVIDENCE_H
#define CALLPATH_METRIC_EVIDENCE_H
/*
 * metric_evidence.h - the diff's function rows and evidence lines for an
 * event counted per calling context (`gprof --diff --metric EV`, with
 * sidecars on both sides; doc/counters.md).
 *
 * Each side's model (callpath/report.h, built with --metric EV: a frame's
 * samples are overflows, hz 1/period) is summed per function as gprof
 * names it (the frame's `attributed` name): self, the overflows with the
 * function innermost; inclusive, those of every frame of the function
 * and its callees, a recursive function's counted once (frames below
 * another frame of the same function are inside it already).  Both sums
 * are compared with the path table's rule, pathdiff_time_verdicts() (one
 * rule, diff/signif.h: Poisson overflows, so an estimate's noise is
 * period x sqrt(overflows); the run-to-run jitter measured on the rows
 * both sides counted well; corrected for the rows that could change).
 *
 *   metric_evidence_print(stdout, ma, mb, "A", "B", 2.0);
 *
 * prints a table of the functions whose events changed (A and B, self and
 * inclusive) and, for each change beyond the noise, an evidence line:
 *
 *   touch_big: perf::PAGE-FAULTS incl x2.0 (6.0e3 -> 1.2e4), beyond noise
 */
#include <stdint.h>
#include <stdio.h>

struct callpath_model;
struct folded;

/*
 * One side's events per function as folded "stacks" of one name (the
 * function) with the overflows as counts: self (inclusive 0) or inclusive.
 * 0 or -1 (out of memory, reported).
 */
int metric_function_overflows(const struct callpath_model *m, int inclusive,
			      struct folded **out);

/*
 * The callers of the leaves outside the program (time in a library
 * function, "exp [libm.so.6]", in the instrumentation, in no known
 * object), for the flat diff's rows of them (issue 22, doc/diff.md): each
 * leaf's callers' paths with both sides' seconds, the largest changes
 * first, as one line of text:
 *
 *   main;use_libm 0.25 -> 0.50 s, main;arith;helper 0.01 -> 0.01 s
 *
 * at most `max` paths, then "and N more paths".  Paths are the frames'
 * function names from the outermost, as in the folded stacks.
 */
struct metric_leaf_callers;
/* 0 or -1 (out of memory, reported). */
int metric_leaf_callers_build(const struct callpath_model *a, const struct callpath_model *b,
			      size_t max, struct metric_leaf_callers **out);
/* The text for leaf `name`, or NULL when it has no samples on either side. */
const char *metric_leaf_callers_of(const struct metric_leaf_callers *lc, const char *name);
void metric_leaf_callers_free(struct metric_leaf_callers *lc);

/*
 * The table and evidence lines for models a and b of the same metric
 * (their `metric` descriptions name it); nothing when they hold time.
 * 0 or -1 (out of memory, reported, or a stream error).
 */
int metric_evidence_print(FILE *out, const struct callpath_model *a,
			  const struct callpath_model *b, const char *label_a,
			  const char *label_b, double noise_sigmas);

#endif
