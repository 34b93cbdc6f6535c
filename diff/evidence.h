#ifndef EGPROF_EVIDENCE_H
#define EGPROF_EVIDENCE_H
/*
 * The verdict of every row and arc of a differential profile, and its
 * place in the evidence order (--sort impact, the default): the one
 * significance rule (diff/signif.h) over the noise model (diff/noise.h).
 * Every printer, writer and graph reads these fields as they are.
 *
 * The rows make one family of tests, the arcs another; each is corrected
 * for its number of tests (diff/signif.h), so that the chance of any false row in
 * a diff of two runs of one binary is about that of K sigmas (--noise K).
 * A row with samples or calls on either side is tested for
 *
 *  - time: excess_sec over sigma_sec;
 *  - calls: -pg counts are exact in a single-threaded run, but a program
 *    may call a function a different number of times from run to run (a
 *    random hash seed, the scheduler): the counts are Poisson-tested
 *    (signif_count_z: 1 -> 0 or 6 -> 15 calls is no evidence), widened by
 *    the variance repeated runs show; a change must also reach the factor
 *    calls_factor (1.5: the tolerance of threaded runs, whose gmon counts
 *    lose calls; with call-path sidecars on both sides their exact counts
 *    are compared instead, diff_set_exact_calls) and imply a measurable
 *    time, two samples or more (max side self seconds * (1 - 1/factor));
 *  - each MPI rank's time, when both sides know their ranks.
 *
 * A row is significant when a test passes, or when the cost of a function
 * moved into it (below).  evidence_sec is the size of what passed, in
 * seconds, the one key of the order; evidence_signed its direction (> 0:
 * less in the second run).  The other rows are within noise (NOISE) or
 * equal (EQUAL).  A cycle as a whole is significant when a member is.
 *
 * Moved cost: a function present in one binary only was probably inlined
 * into a caller (or outlined from it) when the caller's self time moved
 * the opposite way (by a quarter of it or more), when the caller's code
 * grew (or shrank) by a quarter of the function's size or more, or when
 * it has one caller; a tail call leaves no arc from the real caller
 * (gprof records the caller's caller), so the callees of the callers are
 * candidates too.  A function present in both whose calls from one caller
 * went (the arc gone, the caller still there) was inlined there.  Both rows
 * point at each other (moved_peer) and the caller's self+children
 * difference shows whether the cost only moved (near zero).
 *
 *   diff_compute() and diff_assess() call evidence_apply() after noise_apply().
 */
#include "diff/diff.h"

enum evidence_moved_why {
	MOVED_NONE,
	MOVED_TIME,    /* the caller's self time moved the other way */
	MOVED_SIZE,    /* the caller's code grew by the function's size */
	MOVED_ONLY,    /* its only caller */
	MOVED_TAIL,    /* tail-called: gprof saw the calls from the caller's
			  caller */
	MOVED_PARTIAL, /* present in both: its calls from one caller went */
	MOVED__COUNT
};

void evidence_apply(struct diff *d);

/* The calls factor as a reader sees it, second relative to the baseline:
 * "x16" (16 times the calls), "/16" (a 16th), "x0->5" style cases give
 * "new" / "gone".  buf of at least 32 bytes. */
const char *evidence_calls_text(char *buf, size_t n, const struct diff_entry *e);

/* Both sides' counts are the sidecars' exact ones (the diff's source). */
int evidence_calls_exact(const struct diff *d);

/* The two counts the calls evidence compares (baseline, second): the
 * source's "called" (0 for a side that counted none). */
void evidence_call_counts(const struct diff_entry *e, uint64_t *a, uint64_t *b);

/* A symbol's code size on one side (bytes), 0 when absent. */
uint64_t evidence_code_size(const struct diff *d, const struct diff_entry *e, int side);

#endif
