/*
 * derived.c - metrics derived from counted events; see derived.h.
 */
#include "model/derived.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/metric.h"
#include "format/sidecar.h"
#include "utils/error.h"
#include "utils/banned.h"

#define PER_KI "/KI"

static int is_per_ki(const char *name)
{
	size_t n = strlen(name);

	return n > strlen(PER_KI) && !strcmp(name + n - strlen(PER_KI), PER_KI);
}

int derived_is_derived(const char *name)
{
	return callpath_metric_is_derived(name);
}

static int find(const struct sidecar *sc, const char *event, size_t len)
{
	for (uint32_t i = 0; i < sc->nr_extra; i++)
		if (strlen(sc->extra_metrics[i].name) == len &&
		    !strncmp(sc->extra_metrics[i].name, event, len))
			return (int)i;
	return -1;
}

static int find_name(const struct sidecar *sc, const char *event)
{
	return find(sc, event, strlen(event));
}

static int missing(const struct sidecar *sc, const char *name, const char *needs,
		   const char *record, const char *source)
{
	char have[1024];
	size_t len = (size_t)snprintf(have, sizeof(have), "time");

	for (uint32_t i = 0; i < sc->nr_extra && len < sizeof(have); i++)
		len += (size_t)snprintf(have + len, sizeof(have) - len, ", %s",
					sc->extra_metrics[i].name);
	return error("%s: --metric %s needs %s (it has %s); record them with "
		     "CALLPATH_EVENTS=%s (doc/counters.md)", source, name, needs, have, record);
}

int derived_resolve(const struct sidecar *sc, const char *name, const char *source,
		    struct derived_metric *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->scale = 1.0;
	if (!strcmp(name, "IPC")) {
		d->num[0] = find_name(sc, "PAPI_TOT_INS");
		d->den[0] = find_name(sc, "PAPI_TOT_CYC");
		if (d->num[0] < 0 || d->den[0] < 0)
			return missing(sc, name, "PAPI_TOT_INS and PAPI_TOT_CYC",
				       "PAPI_TOT_INS,PAPI_TOT_CYC", source);
		d->nnum = d->nden = 1;
		return 0;
	}
	if (!strcmp(name, "CI")) {
		static const char *const flops[] = { "PAPI_FP_OPS", "PAPI_DP_OPS", "PAPI_SP_OPS" };

		for (size_t i = 0; i < 3 && !d->nnum; i++)
			if ((d->num[0] = find_name(sc, flops[i])) >= 0)
				d->nnum = 1;
		if ((d->den[0] = find_name(sc, "PAPI_L1_DCA")) >= 0 ||
		    (d->den[0] = find_name(sc, "PAPI_LST_INS")) >= 0) {
			d->nden = 1;
		} else if ((d->den[0] = find_name(sc, "PAPI_LD_INS")) >= 0 &&
			   (d->den[1] = find_name(sc, "PAPI_SR_INS")) >= 0) {
			d->nden = 2;
		}
		if (!d->nnum || !d->nden)
			return missing(sc, name, "floating-point operations (PAPI_FP_OPS, "
				       "PAPI_DP_OPS or PAPI_SP_OPS) and memory references "
				       "(PAPI_L1_DCA, PAPI_LST_INS, or PAPI_LD_INS and "
				       "PAPI_SR_INS)", "PAPI_FP_OPS,PAPI_L1_DCA", source);
		return 0;
	}
	if (is_per_ki(name)) {
		size_t len = strlen(name) - strlen(PER_KI);
		char rec[160];

		snprintf(rec, sizeof(rec), "%.*s,PAPI_TOT_INS", (int)len, name);
		d->num[0] = find(sc, name, len);
		d->den[0] = find_name(sc, "PAPI_TOT_INS");
		if (d->num[0] < 0 || d->den[0] < 0) {
			char needs[200];

			snprintf(needs, sizeof(needs), "%.*s and PAPI_TOT_INS", (int)len, name);
			return missing(sc, name, needs, rec, source);
		}
		d->nnum = d->nden = 1;
		d->scale = 1000.0;
		return 0;
	}
	return error("%s: '%s' is not a derived metric (IPC, CI, EV/KI)", source, name);
}

/* The sum of the terms' events and its variance (Poisson overflows). */
static double sum_terms(int n, const uint64_t *ov, const uint64_t *period, double *var)
{
	double s = 0;

	*var = 0;
	for (int i = 0; i < n; i++) {
		double p = period[i] ? (double)period[i] : 1.0;

		s += (double)ov[i] * p;
		*var += (double)ov[i] * p * p;
	}
	return s;
}

double derived_value(const struct derived_metric *d, const uint64_t *num_ov,
		     const uint64_t *num_period, const uint64_t *den_ov,
		     const uint64_t *den_period, double *rel_err)
{
	double vn, vd, n = sum_terms(d->nnum, num_ov, num_period, &vn),
		   den = sum_terms(d->nden, den_ov, den_period, &vd);

	if (den <= 0) {
		*rel_err = NAN;
		return NAN;
	}
	*rel_err = n > 0 ? sqrt(vn / (n * n) + vd / (den * den)) : NAN;
	return d->scale * n / den;
}
