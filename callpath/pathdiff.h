#ifndef CALLPATH_PATHDIFF_H
#define CALLPATH_PATHDIFF_H
/*
 * pathdiff.h - subtract the call paths of two profiles (`--diff` with
 * sidecars on both sides).
 *
 * Paths are matched by the function names along them (their folded
 * stacks, folded.h), not by addresses, so the two sides may come from two
 * builds of a program.  A path seen on one side only is a row with 0 calls
 * on the other (a placeholder, so printers need no special case).
 *
 *   struct pathdiff *d;
 *   if (pathdiff_compute(fa, fb, &d) < 0) return -1;
 *   pathdiff_print(stdout, d, "old", "new", 2.0);
 *   pathdiff_free(d);
 *
 * Ownership: a struct pathdiff owns its rows and their strings; it keeps no
 * pointer into the folded stacks it was computed from.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct folded;

struct pathdiff_row {
	char *stack;		/* "main;b;c", owned */
	const char *func;	/* the called function: the stack's last name */
	uint64_t a, b;		/* calls along the path on each side */
	uint64_t a_rec, b_rec;	/* of a and b, recursive calls folded into the
				   path's last function: printed "1+N" as gprof
				   prints a recursive function's calls */
};

struct pathdiff {
	struct pathdiff_row *rows;	/* sorted by stack */
	size_t nr;
	uint64_t total_a, total_b;
	size_t changed;			/* rows with a != b */
};

int pathdiff_compute(const struct folded *a, const struct folded *b,
		     struct pathdiff **out);
void pathdiff_free(struct pathdiff *d);

/*
 * The table: rows whose counts differ, grouped by called function (the
 * functions whose calls changed most first), each path with both counts
 * and the change (A - B, as every table of the diff), marked '~' when the
 * change is within the noise of a count (Poisson, diff/signif.h: 1 -> 0
 * or 6 -> 15 calls is no evidence), corrected for the number of paths;
 * noise_sigmas is K of the rule (--noise).
 * 0 or -1 (out of memory).
 */
int pathdiff_print(FILE *out, const struct pathdiff *d, const char *label_a,
		   const char *label_b, double noise_sigmas);

/*
 * Options of the time table: each side's sampling rate (samples per
 * second, each side its own), K of the significance rule (gprof --noise K,
 * diff/signif.h) and the relative jitter assumed of a path's time from run
 * to run where the paths do not measure it (0: the diff's,
 * DIFF_JITTER_PRIOR).
 */
struct pathdiff_time_opts {
	double hz_a, hz_b;
	double noise_sigmas;
	double jitter_prior;
	/* --metric: the event the samples are overflows of (hz: 1/period,
	 * so "seconds" are events; model/metric.h); NULL for time */
	const char *metric;
};

/*
 * Whether a row's change of self time is within the sampling noise: each
 * side's count is Poisson, so |B - A| in seconds within noise_sigmas
 * standard deviations of the difference.  The time table's '~', and the
 * colour of the HTML report's differential flame graph.
 */
int pathdiff_time_within_noise(const struct pathdiff_row *r,
			       const struct pathdiff_time_opts *t);

/*
 * The time table, for a pathdiff of sample counts (folded stacks of
 * FOLDED_SAMPLES): every path whose self time changed, change = A - B (the
 * baseline minus the second run, as every table of the diff).  The rows'
 * rule (diff/noise.h, diff/signif.h): a path's samples are Poisson, with a
 * run-to-run jitter measured on the paths both sides sampled well (shrunk
 * towards the prior), one family of tests corrected for the paths that
 * could show a change.  The significant paths first, by |change|, then the
 * others marked '~'.  0 or -1 (out of memory or a stream error).
 */
int pathdiff_print_time(FILE *out, const struct pathdiff *d, const char *label_a,
			const char *label_b, const struct pathdiff_time_opts *t);

/*
 * The time table's verdicts, for the other outputs (the HTML report):
 * within_noise[i] (d->nr of them) is 1 when d->rows[i]'s change is marked
 * '~' by pathdiff_print_time, 0 when it is beyond the noise or the row did
 * not change.  0 or -1 (out of memory).
 */
int pathdiff_time_verdicts(const struct pathdiff *d, const struct pathdiff_time_opts *t,
			   unsigned char *within_noise);

#endif
