#ifndef CALLPATH_DERIVED_H
#define CALLPATH_DERIVED_H
/*
 * derived.h - metrics computed per calling context from the events the run
 * counted (`--metric IPC`, doc/counters.md), as GPTL derives them (its
 * paper, "PAPI-based derived counters"):
 *
 *   IPC      instructions per cycle: PAPI_TOT_INS / PAPI_TOT_CYC
 *   CI       computational intensity, floating-point operations per memory
 *            reference: PAPI_FP_OPS (else PAPI_DP_OPS, else PAPI_SP_OPS)
 *            over PAPI_L1_DCA (GPTL's definition on the machines it names),
 *            else PAPI_LST_INS, else PAPI_LD_INS + PAPI_SR_INS
 *   EV/KI    events EV per 1,000 instructions: EV / PAPI_TOT_INS x 1000
 *            (PAPI_L1_DCM/KI, misses per kilo-instruction; any counted
 *            event, *_DCM, *_TCM and *_ICM the usual ones)
 *
 * A node's value is the ratio of its two estimates (overflows x period of
 * each event): each is Poisson in its overflows, so the ratio's relative
 * standard error is sqrt(sum period_i^2 n_i / N^2 + sum period_j^2 n_j /
 * D^2), about sqrt(1/n + 1/d) for one event each side with n and d
 * overflows (derived_value()).  Both events are sampled over the same
 * stretch of the program, so the error is that of the counts, not of a
 * second run.
 */
#include <stdint.h>

#define DERIVED_MAX_TERMS 2

struct sidecar;

/* A derived metric resolved against a sidecar's extra metrics. */
struct derived_metric {
	char name[160];
	int num[DERIVED_MAX_TERMS], nnum;	/* extra-metric indices summed */
	int den[DERIVED_MAX_TERMS], nden;
	double scale;				/* 1000 for /KI */
};

/* Is `name` a derived metric's name (IPC, CI, EV/KI)? */
int derived_is_derived(const char *name);

/*
 * Resolve `name` against sc's extra metrics (by name).  0, or -1 with an
 * error naming the events it needs and how to record them (`source`
 * names the sidecar).
 */
int derived_resolve(const struct sidecar *sc, const char *name, const char *source,
		    struct derived_metric *d);

/*
 * A value from the terms' overflows and periods: num_ov[i] overflows of
 * num[i] at num_period[i] events each, likewise den.  *rel_err gets the
 * relative standard error (Poisson); the value and the error are NAN when
 * the denominator is 0.
 */
double derived_value(const struct derived_metric *d, const uint64_t *num_ov,
		     const uint64_t *num_period, const uint64_t *den_ov,
		     const uint64_t *den_period, double *rel_err);

#endif
