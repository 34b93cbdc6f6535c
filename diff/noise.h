#ifndef EGPROF_NOISE_H
#define EGPROF_NOISE_H
/*
 * Sampling noise of a difference.  gprof's manual puts the error of a
 * count of n samples near sqrt(n).  An entry's difference is flagged
 * NOISE_WITHIN when
 *
 *     |self_diff| < K * sigma,
 *     sigma^2 = nA/hzA^2 + nB/hzB^2 + RA*sA^2 + RB*sB^2      (seconds^2)
 *
 * where n is the side's samples in the function, hz its sampling rate
 * (so with one rate this is |dticks| < K*sqrt(nA+nB)), and for a side that
 * sums R runs or ranks (a directory), s is the standard deviation of the
 * function's self seconds across them (0 for a single file).  K is
 * --noise (default 2); K = 0 turns the rule off.  Equal sides (including
 * two zeros) are never flagged: an exact zero is "equal", not noise.
 *
 *   diff_compute() calls noise_apply() with the options' K;
 *   with directory sides, noise_set_spread() for each, then noise_apply()
 *   again.
 */
#include <stddef.h>
#include "diff/diff.h"

/* K * sigma for one entry, seconds. */
double noise_threshold(const struct diff *d, const struct diff_entry *e, double k);

/* Set noise_sec and noise for every entry. */
void noise_apply(struct diff *d, double k);

/*
 * Side `side` of d is the sum of the n profiles runs[] (one per file, as
 * the adapter loads them with `each`, from the same binary and options as
 * that side, so symbol i is symbol i in each): store each entry's spread.
 * Returns -1 (reported) when the runs do not line up with the side.
 */
int noise_set_spread(struct diff *d, int side, struct profile *const *runs, size_t n);

#endif
