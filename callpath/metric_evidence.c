/*
 * metric_evidence.c - function rows and evidence lines of an event in a
 * diff; see metric_evidence.h.
 */
#include "callpath/metric_evidence.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "callpath/folded.h"
#include "callpath/leaves.h"
#include "callpath/pathdiff.h"
#include "callpath/report.h"
#include "utils/array.h"
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

/* ------------------------------------------------------------------ */
/* The callers of the leaves outside the program                       */

struct leaf_text {
	char *leaf;
	char *text;
};

struct metric_leaf_callers {
	struct leaf_text *t;	/* sorted by leaf */
	size_t n;
};

/* Is frame i a leaf outside the program (a library, the instrumentation,
 * no known object)? */
static int outside_leaf(const struct callpath_frame *f)
{
	return f->leaf > 1 + (uint32_t)LEAF_PROGRAM && f->samples;
}

/* s copied into buf at pos; the position after it. */
static size_t append(char *buf, size_t pos, const char *s)
{
	size_t n = strlen(s);

	memcpy(buf + pos, s, n);
	return pos + n;
}

/* "leaf\tmain;f;g": a leaf's samples under each of its callers' paths,
 * one side's, summed per line and sorted (a struct folded). */
static int leaf_paths(const struct callpath_model *m, struct folded **out)
{
	struct folded *f = calloc(1, sizeof(*f));
	uint32_t *path = malloc(((size_t)m->nr_frames + 1) * sizeof(*path));
	size_t alloc = 0, j;
	char *line = NULL;
	size_t cap = 0;

	*out = NULL;
	if (!f || !path)
		goto oom;
	for (uint32_t i = 0; i < m->nr_frames; i++) {
		const struct callpath_frame *fr = &m->frames[i];
		uint32_t depth;
		size_t len, pos;

		if (!outside_leaf(fr))
			continue;
		depth = fr->parent == CALLPATH_NONE ? 0
			: callpath_model_path(m, fr->parent, path, m->nr_frames);
		len = strlen(m->names[fr->func]) + 2;
		for (uint32_t k = 0; k < depth; k++)
			len += strlen(m->names[m->frames[path[k]].func]) + 1;
		if (len > cap) {
			char *bigger = realloc(line, len);

			if (!bigger)
				goto oom;
			line = bigger;
			cap = len;
		}
		pos = append(line, 0, m->names[fr->func]);
		line[pos++] = '\t';
		for (uint32_t k = 0; k < depth; k++) {
			if (k)
				line[pos++] = ';';
			pos = append(line, pos, m->names[m->frames[path[k]].func]);
		}
		line[pos] = '\0';
		if (array_grow(&f->stacks, &alloc, f->nr + 1, sizeof(*f->stacks)) < 0 ||
		    !(f->stacks[f->nr].stack = strdup(line)))
			goto oom;
		f->stacks[f->nr].count = fr->samples;
		f->stacks[f->nr++].recursive = 0;
	}
	if (f->nr)
		qsort(f->stacks, f->nr, sizeof(*f->stacks), by_name);
	/* the same path through different call sites: one line */
	for (size_t i = j = 0; i < f->nr; i++) {
		if (j && !strcmp(f->stacks[j - 1].stack, f->stacks[i].stack)) {
			f->stacks[j - 1].count += f->stacks[i].count;
			free(f->stacks[i].stack);
			continue;
		}
		f->stacks[j++] = f->stacks[i];
	}
	f->nr = j;
	free(path);
	free(line);
	*out = f;
	return 0;
oom:
	free(path);
	free(line);
	folded_free(f);
	return error("out of memory while naming the callers of library time");
}

/* A row of one leaf's callers, for sorting by the size of its change. */
struct caller_row {
	const char *path;
	double a, b;
};

static int by_change(const void *x, const void *y)
{
	const struct caller_row *p = x, *q = y;
	double dp = fabs(p->a - p->b), dq = fabs(q->a - q->b);

	if (dp != dq)
		return dp < dq ? 1 : -1;
	if (p->a + p->b != q->a + q->b)
		return p->a + p->b < q->a + q->b ? 1 : -1;
	return strcmp(p->path, q->path);
}

/* How many callers of a path the text names, innermost last. */
#define CALLERS_TAIL 4

/* The last CALLERS_TAIL names of path "main;a;b;c;d;e" ("b;c;d;e"): deep
 * interpreters' paths would fill the line with their outermost frames. */
static const char *path_tail(const char *path)
{
	const char *p = path + strlen(path);
	int names = 0;

	while (p > path) {
		if (p[-1] == ';' && ++names == CALLERS_TAIL)
			return p;
		p--;
	}
	return path;
}

/* The text of rows[0..n) (one leaf's callers). */
static char *callers_text(struct caller_row *rows, size_t n, size_t max)
{
	size_t cap = 64, len = 0;
	char *out = malloc(cap);

	if (!out)
		return NULL;
	out[0] = '\0';
	qsort(rows, n, sizeof(*rows), by_change);
	for (size_t i = 0; i < n && i < max; i++) {
		size_t need = strlen(rows[i].path) + 64;
		char *bigger;

		if (len + need > cap) {
			cap = 2 * (len + need);
			if (!(bigger = realloc(out, cap))) {
				free(out);
				return NULL;
			}
			out = bigger;
		}
		len += (size_t)snprintf(out + len, cap - len, "%s%s%s %.2f -> %.2f s", i ? ", " : "",
					path_tail(rows[i].path) != rows[i].path ? "...;" : "",
					rows[i].path[0] ? path_tail(rows[i].path) : "(top level)",
					rows[i].a, rows[i].b);
	}
	if (n > max) {
		char *bigger = realloc(out, len + 64);

		if (!bigger) {
			free(out);
			return NULL;
		}
		out = bigger;
		snprintf(out + len, 64, " and %zu more path%s", n - max, n - max == 1 ? "" : "s");
	}
	return out;
}

int metric_leaf_callers_build(const struct callpath_model *a, const struct callpath_model *b,
			      size_t max, struct metric_leaf_callers **out)
{
	struct metric_leaf_callers *lc = calloc(1, sizeof(*lc));
	struct folded *fa = NULL, *fb = NULL;
	struct pathdiff *d = NULL;
	struct caller_row *rows = NULL;
	size_t alloc = 0;
	int ret = -1;

	*out = NULL;
	if (!lc || leaf_paths(a, &fa) < 0 || leaf_paths(b, &fb) < 0 ||
	    pathdiff_compute(fa, fb, &d) < 0)
		goto out;
	rows = calloc(d->nr + 1, sizeof(*rows));
	if (!rows)
		goto oom;
	/* rows sorted by "leaf\tpath": one leaf's rows are consecutive */
	for (size_t i = 0; i < d->nr;) {
		const char *tab = strchr(d->rows[i].stack, '\t');
		size_t llen = tab ? (size_t)(tab - d->rows[i].stack) : strlen(d->rows[i].stack);
		size_t n = 0, j;

		for (j = i; j < d->nr && !strncmp(d->rows[j].stack, d->rows[i].stack, llen) &&
			    d->rows[j].stack[llen] == '\t'; j++)
			rows[n++] = (struct caller_row){ d->rows[j].stack + llen + 1,
							 a->hz > 0 ? (double)d->rows[j].a / a->hz : 0,
							 b->hz > 0 ? (double)d->rows[j].b / b->hz : 0 };
		if (j == i)
			j = i + 1;	/* no tab: not ours (cannot happen) */
		if (n) {
			if (array_grow(&lc->t, &alloc, lc->n + 1, sizeof(*lc->t)) < 0)
				goto oom;
			lc->t[lc->n].leaf = strndup(d->rows[i].stack, llen);
			lc->t[lc->n].text = callers_text(rows, n, max);
			lc->n++;
			if (!lc->t[lc->n - 1].leaf || !lc->t[lc->n - 1].text)
				goto oom;
		}
		i = j;
	}
	*out = lc;
	lc = NULL;
	ret = 0;
	goto out;
oom:
	error("out of memory while naming the callers of library time");
out:
	free(rows);
	folded_free(fa);
	folded_free(fb);
	pathdiff_free(d);
	metric_leaf_callers_free(lc);
	return ret;
}

static int by_leaf(const void *key, const void *elem)
{
	return strcmp(key, ((const struct leaf_text *)elem)->leaf);
}

const char *metric_leaf_callers_of(const struct metric_leaf_callers *lc, const char *name)
{
	const struct leaf_text *t;

	if (!lc || !lc->n)
		return NULL;
	t = bsearch(name, lc->t, lc->n, sizeof(*lc->t), by_leaf);
	return t ? t->text : NULL;
}

void metric_leaf_callers_free(struct metric_leaf_callers *lc)
{
	if (!lc)
		return;
	for (size_t i = 0; i < lc->n; i++) {
		free(lc->t[i].leaf);
		free(lc->t[i].text);
	}
	free(lc->t);
	free(lc);
}
