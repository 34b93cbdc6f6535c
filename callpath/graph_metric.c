/*
 * graph_metric.c - a metric per function and per arc for the graph
 * exports; see graph_metric.h.
 */
#define _GNU_SOURCE /* asprintf */
#include "callpath/graph_metric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callpath/arcs.h"
#include "callpath/folded.h"
#include "callpath/metric_evidence.h"
#include "callpath/pathdiff.h"
#include "callpath/report.h"
#include "utils/error.h"
#include "utils/banned.h"

/* One table of the diff (functions' self, their inclusive, the arcs) and
 * its verdicts. */
struct compared {
	struct pathdiff *d;
	unsigned char *within;
};

struct graph_metric {
	const struct callpath_model *m[2];
	int nsides;
	struct folded *self[2], *incl[2];	/* overflows per function, by name */
	double hz[2];
	struct compared cself, cincl, carcs;	/* diff only */
};

static int by_string(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The arcs' "stacks": caller, a separator no symbol holds, callee. */
#define ARC_SEP "\001"

static int by_stack(const void *x, const void *y)
{
	return strcmp(((const struct folded_stack *)x)->stack,
		      ((const struct folded_stack *)y)->stack);
}

/*
 * The arcs' table: each arc's value is its callee's inclusive value along
 * that caller, so the arcs are one family with the functions' inclusive
 * values (`incl`, copied in), whose jitter they share: a small program's
 * few arcs alone, half of them changed, would read as jitter.
 */
static int arcs_folded(const struct callpath_arcs *a, const struct folded *incl,
		       struct folded **out)
{
	struct folded *f = calloc(1, sizeof(*f));

	*out = NULL;
	if (!f || !(f->stacks = calloc(a->nr + incl->nr + 1, sizeof(*f->stacks)))) {
		free(f);
		return -1;
	}
	for (size_t i = 0; i < incl->nr; i++) {
		if (!(f->stacks[f->nr].stack = strdup(incl->stacks[i].stack))) {
			folded_free(f);
			return -1;
		}
		f->stacks[f->nr++].count = incl->stacks[i].count;
	}
	for (size_t i = 0; i < a->nr; i++) {
		if (asprintf(&f->stacks[f->nr].stack, "%s" ARC_SEP "%s", a->arcs[i].caller,
			     a->arcs[i].callee) < 0) {
			folded_free(f);
			return -1;
		}
		f->stacks[f->nr++].count = a->arcs[i].samples;
	}
	qsort(f->stacks, f->nr, sizeof(*f->stacks), by_stack);
	*out = f;
	return 0;
}

static int compare(const struct folded *a, const struct folded *b,
		   const struct pathdiff_time_opts *t, struct compared *c)
{
	if (pathdiff_compute(a, b, &c->d) < 0)
		return -1;
	c->within = malloc(c->d->nr + 1);
	if (!c->within || pathdiff_time_verdicts(c->d, t, c->within) < 0)
		return -1;
	return 0;
}

int graph_metric_build(const struct callpath_model *const *models,
		       const struct callpath_arcs *const *arcs, int nsides,
		       double noise_sigmas, struct graph_metric **out)
{
	struct graph_metric *gm = calloc(1, sizeof(*gm));
	struct folded *fa[2] = { NULL, NULL };

	*out = NULL;
	if (!gm)
		return error("out of memory while summing the metric for the graphs");
	gm->nsides = nsides;
	for (int s = 0; s < nsides; s++) {
		gm->m[s] = models[s];
		gm->hz[s] = models[s]->hz;
		if (metric_function_overflows(models[s], 0, &gm->self[s]) < 0 ||
		    metric_function_overflows(models[s], 1, &gm->incl[s]) < 0)
			goto fail;
	}
	if (nsides == 2) {
		struct pathdiff_time_opts t = { gm->hz[0], gm->hz[1], noise_sigmas, 0,
						models[0]->metric.name };

		if (arcs_folded(arcs[0], gm->incl[0], &fa[0]) < 0 ||
		    arcs_folded(arcs[1], gm->incl[1], &fa[1]) < 0 ||
		    compare(gm->self[0], gm->self[1], &t, &gm->cself) < 0 ||
		    compare(gm->incl[0], gm->incl[1], &t, &gm->cincl) < 0 ||
		    compare(fa[0], fa[1], &t, &gm->carcs) < 0) {
			folded_free(fa[0]);
			folded_free(fa[1]);
			graph_metric_free(gm);
			return error("out of memory while comparing the metric for the graphs");
		}
		folded_free(fa[0]);
		folded_free(fa[1]);
	}
	*out = gm;
	return 0;
fail:
	graph_metric_free(gm);
	return -1;
}

static void compared_release(struct compared *c)
{
	pathdiff_free(c->d);
	free(c->within);
}

void graph_metric_free(struct graph_metric *gm)
{
	if (!gm)
		return;
	for (int s = 0; s < 2; s++) {
		folded_free(gm->self[s]);
		folded_free(gm->incl[s]);
	}
	compared_release(&gm->cself);
	compared_release(&gm->cincl);
	compared_release(&gm->carcs);
	free(gm);
}

static uint64_t folded_count(const struct folded *f, const char *name)
{
	struct folded_stack key = { (char *)name, 0, 0 };
	const struct folded_stack *r;

	if (!f || !f->nr)
		return 0;
	r = bsearch(&key, f->stacks, f->nr, sizeof(*f->stacks), by_stack);
	return r ? r->count : 0;
}

static double in_unit(const struct graph_metric *gm, int side, uint64_t overflows)
{
	return gm->hz[side] > 0 ? (double)overflows / gm->hz[side] : 0.0;
}

/* A cycle's members as one function: self, the members' own; inclusive,
 * the frames of a member with no member above them. */
static void set_value(const struct graph_metric *gm, int side, const char *const *names,
		      size_t n, double *self, double *total)
{
	const struct callpath_model *m = gm->m[side];
	unsigned char *in = calloc(m->nr_names + 1, 1);
	uint64_t *incl = malloc(((size_t)m->nr_frames + 1) * sizeof(*incl));
	const char **sorted = malloc((n + 1) * sizeof(*sorted));
	uint64_t s = 0, t = 0;

	*self = *total = 0;
	if (!in || !incl || !sorted) {
		/* out of memory: the members' sums, a recursion between
		 * them counted more than once */
		for (size_t k = 0; k < n; k++) {
			*self += in_unit(gm, side, folded_count(gm->self[side], names[k]));
			*total += in_unit(gm, side, folded_count(gm->incl[side], names[k]));
		}
		free(in);
		free(incl);
		free(sorted);
		return;
	}
	/* an interpreter's cycle may have hundreds of members */
	memcpy(sorted, names, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), by_string);
	for (uint32_t k = 0; k < m->nr_names; k++)
		in[k] = bsearch(&m->names[k], sorted, n, sizeof(*sorted), by_string) != NULL;
	callpath_model_inclusive(m, incl);
	for (uint32_t i = 0; i < m->nr_frames; i++) {
		const struct callpath_frame *fr = &m->frames[i];
		int inside = 0;

		if (!in[fr->attributed])
			continue;
		s += fr->samples;
		if (fr->folded)
			continue;
		for (uint32_t p = fr->parent; p != CALLPATH_NONE && !inside; p = m->frames[p].parent)
			inside = in[m->frames[p].attributed];
		if (!inside)
			t += incl[i];
	}
	*self = in_unit(gm, side, s);
	*total = in_unit(gm, side, t);
	free(in);
	free(incl);
	free(sorted);
}

void graph_metric_value(const struct graph_metric *gm, int side, const char *const *names,
			size_t n, double *self, double *total)
{
	*self = *total = 0;
	if (side < 0 || side >= gm->nsides || n == 0)
		return;
	if (n > 1) {
		set_value(gm, side, names, n, self, total);
		return;
	}
	*self = in_unit(gm, side, folded_count(gm->self[side], names[0]));
	*total = in_unit(gm, side, folded_count(gm->incl[side], names[0]));
}

double graph_metric_total(const struct graph_metric *gm, int side)
{
	return side >= 0 && side < gm->nsides ? in_unit(gm, side, gm->m[side]->total_samples)
					      : 0.0;
}

static int changed(const struct compared *c, const char *stack)
{
	size_t lo = 0, hi = c->d ? c->d->nr : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strcmp(c->d->rows[mid].stack, stack);

		if (!r)
			return c->d->rows[mid].a != c->d->rows[mid].b && !c->within[mid];
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

int graph_metric_changed(const struct graph_metric *gm, const char *name, int inclusive)
{
	return gm->nsides == 2 && changed(inclusive ? &gm->cincl : &gm->cself, name);
}

int graph_metric_arc_changed(const struct graph_metric *gm, const char *caller,
			     const char *callee)
{
	char *key;
	int r;

	if (gm->nsides != 2 || asprintf(&key, "%s" ARC_SEP "%s", caller, callee) < 0)
		return 0;
	r = changed(&gm->carcs, key);
	free(key);
	return r;
}
