/*
 * metric_evidence.c - function rows and evidence lines of an event in a
 * diff; see metric_evidence.h.
 */
#include "callpath/metric_evidence.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "callpath/folded.h"
#include "callpath/pathdiff.h"
#include "callpath/report.h"
#include "utils/error.h"
#include "utils/banned.h"

static int by_name(const void *x, const void *y)
{
	return strcmp(((const struct folded_stack *)x)->stack,
		      ((const struct folded_stack *)y)->stack);
}

/* Is frame i below another frame of its own function? */
static int inside_itself(const struct callpath_model *m, uint32_t i)
{
	uint32_t fn = m->frames[i].attributed;

	for (uint32_t p = m->frames[i].parent; p != CALLPATH_NONE; p = m->frames[p].parent)
		if (m->frames[p].attributed == fn)
			return 1;
	return 0;
}

int metric_function_overflows(const struct callpath_model *m, int inclusive,
			      struct folded **out)
{
	uint64_t *sum = calloc(m->nr_names ? m->nr_names : 1, sizeof(*sum));
	uint64_t *incl = inclusive ? malloc(((size_t)m->nr_frames + 1) * sizeof(*incl)) : NULL;
	struct folded *f = calloc(1, sizeof(*f));
	size_t n = 0;

	*out = NULL;
	if (!sum || !f || (inclusive && !incl))
		goto oom;
	if (inclusive)
		callpath_model_inclusive(m, incl);
	for (uint32_t i = 0; i < m->nr_frames; i++) {
		const struct callpath_frame *fr = &m->frames[i];

		if (inclusive && (fr->folded || inside_itself(m, i)))
			continue;
		sum[fr->attributed] += inclusive ? incl[i] : fr->samples;
	}
	for (uint32_t k = 0; k < m->nr_names; k++)
		n += sum[k] != 0;
	f->stacks = calloc(n ? n : 1, sizeof(*f->stacks));
	if (!f->stacks)
		goto oom;
	for (uint32_t k = 0; k < m->nr_names; k++) {
		if (!sum[k])
			continue;
		f->stacks[f->nr].stack = strdup(m->names[k]);
		if (!f->stacks[f->nr].stack)
			goto oom;
		f->stacks[f->nr++].count = sum[k];
	}
	qsort(f->stacks, f->nr, sizeof(*f->stacks), by_name);
	free(sum);
	free(incl);
	*out = f;
	return 0;
oom:
	free(sum);
	free(incl);
	folded_free(f);
	return error("out of memory while summing events per function");
}

/* One compared sum (self or inclusive) of both sides and its verdicts. */
struct compared {
	struct pathdiff *d;
	unsigned char *within;	/* d->nr verdicts */
};

static int compare(const struct callpath_model *a, const struct callpath_model *b,
		   int inclusive, const struct pathdiff_time_opts *t, struct compared *c)
{
	struct folded *fa = NULL, *fb = NULL;
	int ret = -1;

	c->d = NULL;
	c->within = NULL;
	if (metric_function_overflows(a, inclusive, &fa) < 0 ||
	    metric_function_overflows(b, inclusive, &fb) < 0 ||
	    pathdiff_compute(fa, fb, &c->d) < 0)
		goto out;
	c->within = malloc(c->d->nr ? c->d->nr : 1);
	if (!c->within || pathdiff_time_verdicts(c->d, t, c->within) < 0)
		goto out;
	ret = 0;
out:
	folded_free(fa);
	folded_free(fb);
	if (ret < 0)
		error("out of memory while comparing events per function");
	return ret;
}

/* The row of `func` in c, or NULL. */
static const struct pathdiff_row *row_of(const struct compared *c, const char *func,
					 size_t *at)
{
	size_t lo = 0, hi = c->d->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strcmp(c->d->rows[mid].stack, func);

		if (!r) {
			*at = mid;
			return &c->d->rows[mid];
		}
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static double events(uint64_t overflows, double hz)
{
	return hz > 0 ? (double)overflows / hz : 0.0;
}

/* A row to print: a function and the size of its largest change. */
struct fn_row {
	const char *func;
	double key;		/* |change| of the significant sum, else of any */
	int significant;
};

static int cmp_rows(const void *x, const void *y)
{
	const struct fn_row *p = x, *q = y;

	if (p->significant != q->significant)
		return q->significant - p->significant;
	if (p->key != q->key)
		return p->key < q->key ? 1 : -1;
	return strcmp(p->func, q->func);
}

/* "x2.0", "/3.1", "new", "gone": B relative to A, as the diff says calls. */
static void factor_text(char *buf, size_t n, double ea, double eb)
{
	if (ea <= 0)
		snprintf(buf, n, "new");
	else if (eb <= 0)
		snprintf(buf, n, "gone");
	else if (eb >= ea)
		snprintf(buf, n, "x%.1f", eb / ea);
	else
		snprintf(buf, n, "/%.1f", ea / eb);
}

/* 6000 as "6.0e3", 12000 as "1.2e4", 0 as "0" (the brief form of the
 * evidence lines: an estimate has two significant digits at best). */
static void brief_number(char *buf, size_t n, double v)
{
	int e;

	if (v <= 0) {
		snprintf(buf, n, "0");
		return;
	}
	e = (int)floor(log10(v));
	if (v / pow(10, e) >= 9.95)	/* 9.96e3 prints as 1.0e4 */
		e++;
	snprintf(buf, n, "%.1fe%d", v / pow(10, e), e);
}

static void evidence_line(FILE *out, const char *func, const char *metric, const char *what,
			  const struct pathdiff_row *r, const struct pathdiff_time_opts *t)
{
	char f[32], na[32], nb[32];
	double ea = events(r->a, t->hz_a), eb = events(r->b, t->hz_b);

	factor_text(f, sizeof(f), ea, eb);
	brief_number(na, sizeof(na), ea);
	brief_number(nb, sizeof(nb), eb);
	fprintf(out, "  %s: %s %s%s (%s -> %s), beyond noise\n", func, metric, what, f,
		na, nb);
}

int metric_evidence_print(FILE *out, const struct callpath_model *a,
			  const struct callpath_model *b, const char *label_a,
			  const char *label_b, double noise_sigmas)
{
	struct pathdiff_time_opts t = { a->hz, b->hz, noise_sigmas, 0, a->metric.name };
	struct compared self = { NULL, NULL }, incl = { NULL, NULL };
	struct fn_row *rows = NULL;
	size_t n = 0, nsig = 0;
	int ret = -1;

	if (!a->metric.name[0] || strcmp(a->metric.name, b->metric.name))
		return 0;
	if (compare(a, b, 0, &t, &self) < 0 || compare(a, b, 1, &t, &incl) < 0)
		goto out;
	rows = calloc(incl.d->nr + self.d->nr + 1, sizeof(*rows));
	if (!rows) {
		error("out of memory while comparing events per function");
		goto out;
	}
	/* every function with inclusive events on a side; its self row too */
	for (size_t i = 0; i < incl.d->nr; i++) {
		const struct pathdiff_row *ri = &incl.d->rows[i], *rs;
		size_t j = 0;
		double di = fabs(events(ri->a, t.hz_a) - events(ri->b, t.hz_b)), ds = 0;
		int si = ri->a != ri->b && !incl.within[i], ss = 0;

		if ((rs = row_of(&self, ri->stack, &j))) {
			ds = fabs(events(rs->a, t.hz_a) - events(rs->b, t.hz_b));
			ss = rs->a != rs->b && !self.within[j];
		}
		if (ri->a == ri->b && (!rs || rs->a == rs->b))
			continue;
		rows[n] = (struct fn_row){ ri->stack, (ss && !si) || (ss == si && ds > di) ? ds : di,
					   si || ss };
		nsig += rows[n++].significant;
	}
	qsort(rows, n, sizeof(*rows), cmp_rows);
	fprintf(out, "\nFunction differences of %s (from the call-path sidecars)\n",
		a->metric.name);
	fprintf(out, "Each function's %s summed over its paths: self, with the function\n"
		"innermost; incl, with its callees (a recursive function's once).\n"
		"Estimates: a path's overflows times the period (A %llu, B %llu);\n"
		"the rule is the path table's (Poisson overflows, the runs' jitter,\n"
		"corrected for the rows). %zu of %zu rows beyond the noise, first; '~'\n"
		"marks the others.\n",
		a->metric.name, (unsigned long long)a->metric.period,
		(unsigned long long)b->metric.period, nsig, n);
	fprintf(out, "A: %s\nB: %s\n", label_a, label_b);
	fprintf(out, "  %12s %12s %12s %12s    %s\n", "A self", "B self", "A incl", "B incl",
		"function");
	for (size_t i = 0; i < n; i++) {
		size_t js = 0, ji = 0;
		const struct pathdiff_row *rs = row_of(&self, rows[i].func, &js);
		const struct pathdiff_row *ri = row_of(&incl, rows[i].func, &ji);

		fprintf(out, "  %12.0f %12.0f %12.0f %12.0f  %s %s\n",
			rs ? events(rs->a, t.hz_a) : 0.0, rs ? events(rs->b, t.hz_b) : 0.0,
			ri ? events(ri->a, t.hz_a) : 0.0, ri ? events(ri->b, t.hz_b) : 0.0,
			rows[i].significant ? " " : "~", rows[i].func);
	}
	fprintf(out, "\nEvidence of %s per function (A -> B):\n", a->metric.name);
	if (!nsig)
		fprintf(out, "  none: every difference is within noise.\n");
	for (size_t i = 0; i < n && rows[i].significant; i++) {
		size_t js = 0, ji = 0;
		const struct pathdiff_row *rs = row_of(&self, rows[i].func, &js);
		const struct pathdiff_row *ri = row_of(&incl, rows[i].func, &ji);

		if (rs && rs->a != rs->b && !self.within[js])
			evidence_line(out, rows[i].func, a->metric.name, "self ", rs, &t);
		if (ri && ri->a != ri->b && !incl.within[ji] &&
		    !(rs && rs->a == ri->a && rs->b == ri->b))
			evidence_line(out, rows[i].func, a->metric.name, "incl ", ri, &t);
	}
	if (n > nsig)
		fprintf(out, "  Within noise: the %zu other rows.\n", n - nsig);
	ret = ferror(out) ? -1 : 0;
out:
	free(rows);
	pathdiff_free(self.d);
	pathdiff_free(incl.d);
	free(self.within);
	free(incl.within);
	return ret;
}
