/*
 * metric_columns.c - several metrics as columns of the call-path report;
 * see metric_columns.h.
 *
 * Each metric's values come from a model of the sidecar built for that
 * metric (callpath_model_build with so->metric set): one sidecar named
 * through one profile gives the same frames in the same order whatever the
 * metric, so frame i is the same calling context in every model (checked:
 * the frame counts and functions must agree).
 */
#include "callpath/metric_columns.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/derived.h"
#include "model/metric.h"
#include "model/callpath_model.h"
#include "format/sidecar.h"
#include "utils/error.h"
#include "utils/banned.h"

int metric_columns_wanted(const char *arg)
{
	return callpath_metric_is_list(arg) || callpath_metric_is_derived(arg);
}

int metric_columns_refuse(const char *arg)
{
	int k;

	/* callpath_metric_find's error for a list or a derived metric */
	return callpath_metric_find(NULL, arg, NULL, &k);
}

/* A model per metric of the sidecar: slot 0 time, slot k + 1 extra metric k. */
struct models {
	struct callpath_model **m;
	uint64_t **incl;
	uint32_t n;
};

static int model_for(struct models *ms, const struct sidecar *sc, const struct profile *p,
		     const struct callpath_symopts *so, int k, struct callpath_model **out,
		     const uint64_t **incl)
{
	uint32_t slot = (uint32_t)(k + 1);

	if (!ms->m[slot]) {
		struct callpath_symopts o = *so;

		o.metric = k == CALLPATH_METRIC_TIME ? NULL : sc->extra_metrics[k].name;
		if (callpath_model_build(sc, p, &o, &ms->m[slot]) < 0)
			return -1;
		ms->incl[slot] = malloc(((size_t)ms->m[slot]->nr_frames + 1) * sizeof(uint64_t));
		if (!ms->incl[slot])
			return error("out of memory while building the metrics' columns");
		callpath_model_inclusive(ms->m[slot], ms->incl[slot]);
	}
	*out = ms->m[slot];
	*incl = ms->incl[slot];
	return 0;
}

/* One column group: a metric, or a derived one and its terms' models. */
struct column {
	char name[160];
	int derived;
	int k;					/* plain: its metric */
	struct derived_metric d;
	const struct callpath_model *m;		/* plain: its model */
	const uint64_t *incl;
	const struct callpath_model *tm[2 * DERIVED_MAX_TERMS];	/* num, then den */
	const uint64_t *tincl[2 * DERIVED_MAX_TERMS];
	uint64_t tperiod[2 * DERIVED_MAX_TERMS];
};

static int parse(const char *list, char names[][160], int *n, const char *source)
{
	const char *s = list;

	*n = 0;
	while (1) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);

		if (!len || len >= 160)
			return error("%s: --metric '%s': %s", source, list,
				     len ? "a name too long" : "an empty name");
		if (*n == CALLPATH_COLUMNS_MAX)
			return error("%s: --metric '%s': at most %d metrics", source, list,
				     CALLPATH_COLUMNS_MAX);
		memcpy(names[*n], s, len);
		names[(*n)++][len] = '\0';
		if (!end)
			return 0;
		s = end + 1;
	}
}

static int columns_of(struct column *cols, int ncols, char names[][160], struct models *ms,
		      const struct sidecar *sc, const struct profile *p,
		      const struct callpath_symopts *so, const char *source)
{
	for (int c = 0; c < ncols; c++) {
		struct column *col = &cols[c];

		memcpy(col->name, names[c], sizeof(col->name));
		if (derived_is_derived(names[c])) {
			col->derived = 1;
			if (derived_resolve(sc, names[c], source, &col->d) < 0)
				return -1;
			for (int t = 0; t < col->d.nnum + col->d.nden; t++) {
				int k = t < col->d.nnum ? col->d.num[t] : col->d.den[t - col->d.nnum];

				if (model_for(ms, sc, p, so, k, (struct callpath_model **)&col->tm[t],
					      &col->tincl[t]) < 0)
					return -1;
				col->tperiod[t] = col->tm[t]->metric.period;
			}
			continue;
		}
		if (callpath_metric_find(sc, names[c], source, &col->k) < 0 ||
		    model_for(ms, sc, p, so, col->k, (struct callpath_model **)&col->m,
			      &col->incl) < 0)
			return -1;
	}
	return 0;
}

/* The cell of a derived column at frame i (inclusive or self). */
static void derived_cell(char *buf, size_t n, const struct column *col, uint32_t i,
			 int inclusive, int with_error)
{
	uint64_t ov[2 * DERIVED_MAX_TERMS];
	double err, v;
	int nn = col->d.nnum;

	for (int t = 0; t < col->d.nnum + col->d.nden; t++)
		ov[t] = inclusive ? col->tincl[t][i] : col->tm[t]->frames[i].samples;
	v = derived_value(&col->d, ov, col->tperiod, ov + nn, col->tperiod + nn, &err);
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (with_error && !isnan(err))
		snprintf(buf, n, "%.3g±%.0f%%", v, 100 * err);
	else
		snprintf(buf, n, "%.3g", v);
}

static void plain_cell(char *buf, size_t n, const struct column *col, uint32_t i, int inclusive)
{
	const struct callpath_model *m = col->m;
	uint64_t s = inclusive ? col->incl[i] : m->frames[i].samples;
	double v = m->hz > 0 ? (double)s / m->hz : 0;

	if (m->metric.name[0])
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.2f", v);
}

static int same_frames(const struct callpath_model *a, const struct callpath_model *b)
{
	if (a->nr_frames != b->nr_frames)
		return 0;
	for (uint32_t i = 0; i < a->nr_frames; i++)
		if (a->frames[i].parent != b->frames[i].parent ||
		    strcmp(a->names[a->frames[i].func], b->names[b->frames[i].func]))
			return 0;
	return 1;
}

static void legend(FILE *out, const struct column *cols, int ncols)
{
	for (int c = 0; c < ncols; c++) {
		const struct column *col = &cols[c];

		fprintf(out, "  %s: ", col->name);
		if (col->derived) {
			const char *what = !strcmp(col->name, "IPC") ? "instructions per cycle"
					   : !strcmp(col->name, "CI")
						   ? "computational intensity, floating-point "
						     "operations per memory reference"
						   : "events per 1,000 instructions";

			fprintf(out, "%s, ", what);
			for (int t = 0; t < col->d.nnum; t++)
				fprintf(out, "%s%s", t ? " + " : "", col->tm[t]->metric.name);
			fprintf(out, " / (");
			for (int t = 0; t < col->d.nden; t++)
				fprintf(out, "%s%s", t ? " + " : "",
					col->tm[col->d.nnum + t]->metric.name);
			fprintf(out, ")%s; the ratio of the node's estimates, ± its relative "
				"standard error (Poisson overflows)\n",
				col->d.scale != 1.0 ? " x 1000" : "");
		} else if (col->m->metric.name[0]) {
			fprintf(out, "estimated events (overflows x %llu)\n",
				(unsigned long long)col->m->metric.period);
		} else {
			fprintf(out, "seconds (time samples)\n");
		}
	}
}

int metric_columns_check(const struct sidecar *sc, const char *list, const char *source)
{
	char names[CALLPATH_COLUMNS_MAX][160];
	int n, k;
	struct derived_metric d;

	if (parse(list, names, &n, source) < 0)
		return -1;
	for (int c = 0; c < n; c++)
		if (derived_is_derived(names[c]) ? derived_resolve(sc, names[c], source, &d) < 0
						 : callpath_metric_find(sc, names[c], source, &k) < 0)
			return -1;
	return 0;
}

int metric_columns_print(FILE *out, const struct sidecar *sc, const struct profile *p,
			 const struct callpath_symopts *so, const char *list,
			 const char *source)
{
	char names[CALLPATH_COLUMNS_MAX][160];
	struct column *cols = NULL;
	struct models ms = { NULL, NULL, sc->nr_extra + 1 };
	const struct callpath_model *base = NULL;
	int ncols = 0, ret = -1;

	if (parse(list, names, &ncols, source) < 0)
		return -1;
	cols = calloc((size_t)ncols, sizeof(*cols));
	ms.m = calloc(ms.n, sizeof(*ms.m));
	ms.incl = calloc(ms.n, sizeof(*ms.incl));
	if (!cols || !ms.m || !ms.incl) {
		error("out of memory while building the metrics' columns");
		goto out;
	}
	if (columns_of(cols, ncols, names, &ms, sc, p, so, source) < 0)
		goto out;
	for (uint32_t s = 0; s < ms.n; s++) {
		if (!ms.m[s])
			continue;
		if (!base)
			base = ms.m[s];
		else if (!same_frames(base, ms.m[s])) {
			error("%s: the metrics' call paths differ (internal error)", source);
			goto out;
		}
	}
	fprintf(out, "\nCall-path metrics: %s\n", list);
	legend(out, cols, ncols);
	fprintf(out, "%12s", "");
	for (int c = 0; c < ncols; c++)
		fprintf(out, " %27.27s", cols[c].name);
	fprintf(out, "\n%12s", "calls");
	for (int c = 0; c < ncols; c++)
		fprintf(out, " %13s %13s", "incl", "self");
	fprintf(out, "  path\n");
	for (uint32_t i = 0; base && i < base->nr_frames; i++) {
		const struct callpath_frame *f = &base->frames[i];
		uint32_t depth = callpath_model_path(base, i, NULL, 0);

		if (f->folded)
			continue;
		fprintf(out, "%12llu", (unsigned long long)f->count);
		for (int c = 0; c < ncols; c++) {
			char a[48], b[48];

			if (cols[c].derived) {
				derived_cell(a, sizeof(a), &cols[c], i, 1, 1);
				derived_cell(b, sizeof(b), &cols[c], i, 0, 0);
			} else {
				plain_cell(a, sizeof(a), &cols[c], i, 1);
				plain_cell(b, sizeof(b), &cols[c], i, 0);
			}
			fprintf(out, " %13s %13s", a, b);
		}
		fprintf(out, "  %*s%s\n", (int)(2 * (depth - 1)), "", base->names[f->func]);
	}
	ret = ferror(out) ? -1 : 0;
out:
	for (uint32_t s = 0; ms.m && s < ms.n; s++) {
		callpath_model_free(ms.m[s]);
		free(ms.incl[s]);
	}
	free(ms.m);
	free(ms.incl);
	free(cols);
	return ret;
}
