#ifndef EGPROF_NOISE_H
#define EGPROF_NOISE_H
/*
 * The one noise model of a difference.  gprof's manual puts the error of a
 * count of n samples near sqrt(n).  An entry's difference is flagged
 * NOISE_WITHIN when |self_diff| < T, with
 *
 *     T = K * sigma,
 *     sigma^2 = max(nA/hzA^2, VA) + max(nB/hzB^2, VB)        (seconds^2)
 *
 * where n is the side's samples in the function, hz its sampling rate (so
 * with one rate and no V this is |dticks| < K*sqrt(nA+nB)), and V the
 * side's run-to-run variance (run_var), measured only where the side holds
 * repeated runs: files without a rank are repeated runs of one program
 * (V = R * s^2 for R files of standard deviation s); files with MPI ranks
 * are grouped by rank and only the repeats of the same rank count
 * (V = sum over ranks of R_r * s_r^2), because the spread across the ranks
 * of one job is the program's imbalance, a signal, not noise.  The larger
 * of the two, not their sum: each repeat's seconds hold its own sampling
 * noise, so V measures it too (sampling is the floor of few repeats).
 *
 * Sampling noise alone underestimates the run-to-run variance of a shared
 * machine, so when neither side has repeated runs the threshold is at
 * least floor_share of the larger side's self seconds: rel_floor (default
 * 10%), or K times the scatter (root mean square of the log ratios) of the
 * functions that share the run-wide speed below, when that is larger: they
 * stand for repeated measurements of "no change" within the one pair.
 *
 * A loaded machine also slows a whole run: every function of the second
 * run takes, say, 0.5x or 1.3x its baseline time.  That is noise too, and
 * it is measured: the speed ratio is the median of second/baseline over
 * the functions with SPEED_MIN_TICKS samples on both sides, when at least
 * three such functions exist, half of them within 20% of the median, and it
 * is 5% or more from 1 (closer, the floor covers it).  The difference
 * judged is then excess_sec = baseline * speed - second (with speed 1,
 * self_diff), the variances above scale with it.  Repeated runs are put
 * on one speed the same way before their spread is taken.  In the per-rank
 * comparison a function's speed is the median of its ranks' seconds in the
 * second job over that in the baseline (with 3 ranks or more): the ranks'
 * change against each other is the signal.
 *
 * K is --noise (default 2); K = 0 turns the rule off.  Equal sides
 * (including two zeros) are never flagged: an exact zero is "equal", not
 * noise.
 *
 * With ranks on both sides, every entry also gets a per-rank comparison
 * (rank_diff, rank_changed: the same rule on each rank's mean self seconds)
 * and slowest_diff.
 *
 *   diff_compute() calls noise_apply();
 *   with directory sides: noise_set_runs(), then diff_assess() (diff.h).
 */
#include <stddef.h>
#include "diff/diff.h"

/* The threshold T for one entry, seconds. */
double noise_threshold(const struct diff *d, const struct diff_entry *e, double k);

/* Set noise_sec and noise for every entry, and the per-rank verdicts. */
void noise_apply(struct diff *d, double k);

/* The files summed into one side, read one by one (as the adapter loads
 * them with `each`, from the same binary and options as that side, so
 * symbol i is symbol i in each); rank[i] is file i's MPI rank, -1 when
 * unknown (rank may be NULL: no ranks).  n == 0: a single file. */
struct noise_runs {
	struct profile *const *prof;
	const int *rank;
	size_t n;
};

/* Store each entry's run_var for both sides and, when every file of both
 * sides has a rank, the per-rank means.  Returns -1 (reported) when the
 * runs do not line up with the sides, or out of memory. */
int noise_set_runs(struct diff *d, const struct noise_runs runs[DIFF_NSIDES]);

#endif
