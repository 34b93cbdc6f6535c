#ifndef EGPROF_NOISE_H
#define EGPROF_NOISE_H
/*
 * The noise model of a differential profile: for every row (and arc), how
 * far its time difference may go when nothing changed.  The verdicts are
 * diff/evidence.h's, with the significance rule of diff/signif.h; this
 * module only measures.
 *
 * A function's self seconds in one run vary for three reasons:
 *
 *  - sampling: gprof's manual puts the error of a count of n samples near
 *    sqrt(n); in seconds n / hz^2 of variance, each side at its own rate;
 *  - the run as a whole: a loaded machine (another program on the CPU,
 *    caches, frequency) makes every function of one run slower alike:
 *    the runs' common speed g, the median of second / baseline over the
 *    functions with SIGNIF_SCATTER_MIN samples on both sides, applied when
 *    at least five functions measure it, half of them within 20% of it,
 *    and it is 5% or more from 1 and three of its own standard deviations;
 *    its uncertainty stays in every difference judged at it;
 *  - run-to-run jitter of each function beyond sampling (where the other
 *    threads or ranks were, memory placement): a relative standard
 *    deviation c of one run's seconds.  Measured where the runs allow it:
 *    across the repeated runs of a directory side (files of one program,
 *    or of one MPI rank); else from the pair itself, by how much the
 *    functions that share the common speed scatter around it beyond their
 *    sampling noise (diff/signif.h's signif_scatter).  Few functions say
 *    little, so the estimate is shrunk towards opts.jitter_prior (the
 *    jitter of a shared machine's runs, bench/diff/real/aa.sh) with the
 *    weight of SIGNIF_PRIOR_ITEMS functions.
 *
 * So, for a row,
 *
 *     excess = g * baseline - second                       (seconds)
 *     var(side) = max(n / hz^2 + c^2 * sum of its files' t^2, V)
 *     sigma^2 = g^2 var(baseline) + var(second) + baseline^2 var(g)
 *
 * with V the variance its repeated runs show (R runs of standard deviation
 * s sum to R s^2; 1.4826 times the median absolute deviation with three
 * runs or more, so that one disturbed run does not widen every function's
 * noise).  Exact zeros are "equal", never noise.
 *
 * Two populations of rows: the program's functions, and the rows outside
 * them that the call-path sidecars measure (a library's code, an MPI
 * library's wait, the instrumentation, unknown code; diff/profile.h's
 * PSYM_KINDS).  Time outside the program moves as a whole for reasons of
 * its own, so each population has its own common speed (three rows
 * agreeing measure the outside one) and jitter.  In a job of several
 * ranks the time outside the program is mostly the MPI library's wait,
 * which varies as the other ranks' compute does: a rank's wait W =
 * max(C) - C_r has the variance 2 c^2 C_r^2 of its compute time C_r
 * (the rank's program rows), and each row outside the program carries
 * the part of it its share of the rank's outside time is, beside its own
 * jitter and sampling.
 *
 * MPI ranks are signal.  Files whose sidecar records a rank are grouped by
 * rank: only repeats of one rank measure V; the spread across the ranks of
 * one job is the program's imbalance.  When both sides know their ranks,
 * each row is also compared rank by rank: each rank's mean seconds over
 * its repeats, the baseline's at that rank's own common speed (measured
 * over that rank's functions, so a one-rank change of one function is not
 * split between the ranks), with the same sigma; the jitter c is then
 * measured over every (rank, function) pair, each rank against itself.
 *
 *   diff_compute() and diff_assess() call noise_apply();
 *   with directory sides: noise_set_runs() first.
 */
#include <stddef.h>
#include "diff/diff.h"

/* Measure the model and every entry's and arc's excess_sec and sigma_sec,
 * per-rank excess and sigma, slowest_diff. */
void noise_apply(struct diff *d);

/*
 * The largest |z| a time test can reach with these samples (na at hz_a,
 * nb at hz_b), however they fall between the sides: all on one side, with
 * the jitter c (w: the share of the jitter's weight its files leave, 1 for
 * one file).  What the significance rule counts tests by (diff/signif.h).
 */
double noise_time_zmax(double na, double hz_a, double nb, double hz_b, double c, double w);

/* The files summed into one side, read one by one (as the adapter loads
 * them with `each`, from the same binary and options as that side, so
 * symbol i is symbol i in each); rank[i] is file i's MPI rank, -1 when
 * unknown (rank may be NULL: no ranks).  n == 0: a single file. */
struct noise_runs {
	struct profile *const *prof;
	const int *rank;
	size_t n;
};

/* Store each entry's run_var, calls_var and the square sums for both
 * sides, the jitter the repeats show and, when every file of both sides
 * has a rank, the per-rank means.  Returns -1 (reported) when the runs do
 * not line up with the sides, or out of memory. */
int noise_set_runs(struct diff *d, const struct noise_runs runs[DIFF_NSIDES]);

#endif
