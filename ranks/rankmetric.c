/*
 * rankmetric.c - a rank's function self values from its sidecar's metric;
 * see rankmetric.h.
 */
#define _GNU_SOURCE	/* qsort_r */
#include "ranks/rankmetric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callpath/metric.h"
#include "callpath/sidecar.h"
#include "utils/error.h"
#include "utils/banned.h"

/* The index of the function of p holding link-time address a, or -1. */
static long sym_at(const struct profile *p, const long *order, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->syms[order[mid]].addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	{
		const struct profile_sym *s = &p->syms[order[lo - 1]];

		return a < s->end_addr || s->end_addr <= s->addr ? order[lo - 1] : -1;
	}
}

static int by_addr(const void *x, const void *y, void *profile)
{
	const struct profile *p = profile;
	uint64_t a = p->syms[*(const long *)x].addr;
	uint64_t b = p->syms[*(const long *)y].addr;

	return a < b ? -1 : a > b;
}

int rankmetric_of(const struct profile *p, const char *gmon, const char *name,
		  struct rankmetric *out)
{
	char path[4096], err[512];
	struct sidecar *sc = NULL;
	long *order = NULL;
	size_t n = 0;
	int k, ret = -1;
	uint64_t period;

	memset(out, 0, sizeof(*out));
	if (sidecar_name_for(gmon, path, sizeof(path)) < 0)
		return error("%s: a file name too long for its sidecar's", gmon);
	if (sidecar_read(path, &sc, err, sizeof(err)) < 0)
		return error("--metric %s: %s: %s (--rank-stats --metric reads each rank's "
			     "call-path sidecar)", name, path, err);
	if (!sidecar_belongs_to(sc, gmon, err, sizeof(err))) {
		error("%s: %s", path, err);
		goto out;
	}
	if (callpath_metric_find(sc, name, path, &k) < 0)
		goto out;
	if (k == CALLPATH_METRIC_TIME) {
		error("--metric %s: --rank-stats shows time without --metric", name);
		goto out;
	}
	period = sc->extra_metrics[k].period ? sc->extra_metrics[k].period : 1;
	out->p = *p;
	out->p.syms = malloc((p->nsyms ? p->nsyms : 1) * sizeof(*out->p.syms));
	order = malloc((p->nsyms ? p->nsyms : 1) * sizeof(*order));
	if (!out->p.syms || !order) {
		error("out of memory");
		goto out;
	}
	memcpy(out->p.syms, p->syms, p->nsyms * sizeof(*p->syms));
	for (size_t i = 0; i < p->nsyms; i++) {
		out->p.syms[i].self_ticks = 0;
		if (!(p->syms[i].flags & PSYM_CYCLE))
			order[n++] = (long)i;
	}
	qsort_r(order, n, sizeof(*order), by_addr, (void *)p);
	out->p.total_ticks = 0;
	for (uint32_t i = 0; i < sc->nr_nodes; i++) {
		uint64_t a = sc->nodes[i].callee;
		double ov = (double)callpath_metric_samples(sc, k, i);
		long s;

		if (!ov)
			continue;
		/* run-time to link-time: PIE programs load at sc->load_address */
		if (!sc->program_end || sidecar_in_program(sc, a))
			a -= sc->load_address;
		if ((s = sym_at(p, order, n, a)) < 0)
			continue;
		out->p.syms[s].self_ticks += ov;
		out->p.total_ticks += ov;
	}
	out->p.print_ticks = out->p.total_ticks;
	out->p.hz = 1.0 / (double)period;
	snprintf(out->unit, sizeof(out->unit), "%s events", name);
	ret = 0;
out:
	free(order);
	sidecar_free(sc);
	if (ret < 0) {
		free(out->p.syms);
		out->p.syms = NULL;
	}
	return ret;
}

void rankmetric_release(struct rankmetric *rm)
{
	free(rm->p.syms);
	rm->p.syms = NULL;
}
