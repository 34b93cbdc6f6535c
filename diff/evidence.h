#ifndef EGPROF_EVIDENCE_H
#define EGPROF_EVIDENCE_H
/*
 * What makes a row of a differential profile significant, and its place in
 * the evidence order (--sort impact, the default).  Reads the noise verdicts
 * (diff/noise.h) and fills, for every entry, the fields a printer or a
 * machine-readable writer shows as they are:
 *
 *  - calls_evidence, calls_factor: -pg call counts are exact in a
 *    single-threaded run, so a count that changed by calls_factor (default
 *    1.5) or more is a change in its own right even at equal time (a batch
 *    size change: 594 -> 9,493 calls).  The factor is also the tolerance for
 *    threaded runs without sidecars, whose gmon counts lose arcs.  When
 *    both sides have call-path sidecars (diff_set_exact_calls), their
 *    exact counts (calls+recursive) are compared instead, with the same
 *    factor as gmon's exact single-threaded counts: in a threaded run
 *    they win over gmon's, which still print in the gprof columns.
 *  - evidence_sec: |excess_sec| (self_diff beyond a run-wide speed
 *    change, diff/noise.h), or the time the call-count change implies
 *    when larger: max side self seconds * (1 - 1/factor) (the time a
 *    function would have changed by had its cost followed its calls).
 *  - significant: time beyond noise, calls changed, a rank changed beyond
 *    its noise, or the cost moved into or out of an inlined function.
 *  - moved_peer, moved_total_diff: a function present in one binary only
 *    whose caller's self time moved the opposite way (by at least a quarter
 *    of it) was probably inlined into it (or outlined from it); both rows
 *    point at each other, and the caller's self+children difference shows
 *    whether the cost only moved (near zero).
 *  - ratio: second / baseline self seconds.
 *
 *   diff_compute() and diff_assess() call evidence_apply() after noise_apply().
 */
#include "diff/diff.h"

void evidence_apply(struct diff *d);

/* The calls factor as a reader sees it, second relative to the baseline:
 * "x16" (16 times the calls), "/16" (a 16th), "x0->5" style cases give
 * "new" / "gone".  buf of at least 32 bytes. */
const char *evidence_calls_text(char *buf, size_t n, const struct diff_entry *e);

/* Both sides' counts are the sidecars' exact ones. */
int evidence_calls_exact(const struct diff_entry *e);

/* The two counts the calls evidence compares (baseline, second): the
 * sidecars' when evidence_calls_exact(), else gmon's "called". */
void evidence_call_counts(const struct diff_entry *e, uint64_t *a, uint64_t *b);

#endif
