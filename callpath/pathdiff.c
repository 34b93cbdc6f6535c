/*
 * pathdiff.c - call paths of two profiles matched by the names along them.
 */
#include "callpath/pathdiff.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "callpath/folded.h"
#include "utils/error.h"
#include "utils/banned.h"

static int add_row(struct pathdiff *d, const char *stack, uint64_t a,
		   uint64_t a_rec, uint64_t b, uint64_t b_rec)
{
	struct pathdiff_row *r = &d->rows[d->nr];
	const char *semi;

	r->stack = strdup(stack);
	if (!r->stack)
		return -1;
	semi = strrchr(r->stack, ';');
	r->func = semi ? semi + 1 : r->stack;
	r->a = a;
	r->b = b;
	r->a_rec = a_rec;
	r->b_rec = b_rec;
	d->total_a += a;
	d->total_b += b;
	d->changed += a != b;
	d->nr++;
	return 0;
}

/* Both inputs are sorted by stack without duplicates: merge them. */
int pathdiff_compute(const struct folded *a, const struct folded *b,
		     struct pathdiff **out)
{
	struct pathdiff *d = calloc(1, sizeof(*d));
	size_t i = 0, j = 0;

	*out = NULL;
	if (!d)
		goto oom;
	d->rows = calloc(a->nr + b->nr + 1, sizeof(*d->rows));
	if (!d->rows)
		goto oom;
	while (i < a->nr || j < b->nr) {
		int c = i == a->nr ? 1 : j == b->nr ? -1
			: strcmp(a->stacks[i].stack, b->stacks[j].stack);
		int rc;

		if (c < 0) {
			rc = add_row(d, a->stacks[i].stack, a->stacks[i].count,
				     a->stacks[i].recursive, 0, 0);
			i++;
		} else if (c > 0) {
			rc = add_row(d, b->stacks[j].stack, 0, 0, b->stacks[j].count,
				     b->stacks[j].recursive);
			j++;
		} else {
			rc = add_row(d, a->stacks[i].stack, a->stacks[i].count,
				     a->stacks[i].recursive, b->stacks[j].count,
				     b->stacks[j].recursive);
			i++;
			j++;
		}
		if (rc < 0)
			goto oom;
	}
	*out = d;
	return 0;
oom:
	pathdiff_free(d);
	return error("out of memory while comparing call paths");
}

void pathdiff_free(struct pathdiff *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nr; i++)
		free(d->rows[i].stack);
	free(d->rows);
	free(d);
}

/* Baseline minus second, the sign of every table of --diff (doc/diff.md). */
static int64_t delta(const struct pathdiff_row *r)
{
	return (int64_t)r->a - (int64_t)r->b;
}

static uint64_t magnitude(int64_t v)
{
	return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* Per called function: the sum of |change| over its paths, for ordering. */
struct func_change {
	const char *func;
	uint64_t moved;
	int64_t net;
};

static int cmp_func_name(const void *pa, const void *pb)
{
	const struct pathdiff_row *a = *(const struct pathdiff_row *const *)pa;
	const struct pathdiff_row *b = *(const struct pathdiff_row *const *)pb;
	uint64_t ma, mb;
	int c = strcmp(a->func, b->func);

	if (c)
		return c;
	ma = magnitude(delta(a));
	mb = magnitude(delta(b));
	if (ma != mb)
		return ma > mb ? -1 : 1;
	return strcmp(a->stack, b->stack);
}

static int cmp_func_change(const void *pa, const void *pb)
{
	const struct func_change *a = pa, *b = pb;

	if (a->moved != b->moved)
		return a->moved > b->moved ? -1 : 1;
	return strcmp(a->func, b->func);
}

/* A side's calls, "1+2692536" where recursion folded calls into the path
 * (as gprof prints a recursive function's calls). */
static const char *calls_text(char *buf, size_t n, uint64_t all, uint64_t rec)
{
	if (rec)
		snprintf(buf, n, "%" PRIu64 "+%" PRIu64, all - rec, rec);
	else
		snprintf(buf, n, "%" PRIu64, all);
	return buf;
}

/* "+2", "-3", "0" */
static const char *signed_text(char *buf, size_t n, int64_t v)
{
	snprintf(buf, n, "%s%" PRIu64, v < 0 ? "-" : v > 0 ? "+" : "", magnitude(v));
	return buf;
}

int pathdiff_print(FILE *out, const struct pathdiff *d, const char *label_a,
		   const char *label_b)
{
	const struct pathdiff_row **rows = malloc((d->changed + 1) * sizeof(*rows));
	struct func_change *funcs = calloc(d->changed + 1, sizeof(*funcs));
	size_t n = 0, nf = 0;

	if (!rows || !funcs) {
		free(rows);
		free(funcs);
		return error("out of memory while printing call-path changes");
	}
	for (size_t i = 0; i < d->nr; i++)
		if (d->rows[i].a != d->rows[i].b)
			rows[n++] = &d->rows[i];
	qsort(rows, n, sizeof(*rows), cmp_func_name);
	for (size_t i = 0; i < n; i++) {
		if (!nf || strcmp(funcs[nf - 1].func, rows[i]->func))
			funcs[nf++].func = rows[i]->func;
		funcs[nf - 1].moved += magnitude(delta(rows[i]));
		funcs[nf - 1].net += delta(rows[i]);
	}
	qsort(funcs, nf, sizeof(*funcs), cmp_func_change);

	fprintf(out, "\f\n\t\t\tCall-path differences\n\n"
		"Paths are matched by the function names along them; A is '%s',\n"
		"B is '%s'.  change = A - B, baseline minus second as in every\n"
		"table of the diff.  %zu of %zu paths changed; calls %" PRIu64 " -> %" PRIu64 ".\n",
		label_a, label_b, d->changed, d->nr, d->total_a, d->total_b);
	for (size_t k = 0; k < nf; k++) {
		char buf[32], ta[48], tb[48];

		fprintf(out, "\n%s: %s calls\n", funcs[k].func,
			signed_text(buf, sizeof(buf), funcs[k].net));
		fputs("    A calls     B calls      change  path\n", out);
		/* rows of one function are adjacent, largest change first */
		for (size_t i = 0; i < n; i++) {
			if (strcmp(rows[i]->func, funcs[k].func))
				continue;
			fprintf(out, "%11s %11s %11s  %s\n",
				calls_text(ta, sizeof(ta), rows[i]->a, rows[i]->a_rec),
				calls_text(tb, sizeof(tb), rows[i]->b, rows[i]->b_rec),
				signed_text(buf, sizeof(buf), delta(rows[i])),
				rows[i]->stack);
		}
	}
	free(rows);
	free(funcs);
	return ferror(out) ? -1 : 0;
}

struct time_row {
	const struct pathdiff_row *r;
	double change;		/* seconds, B - A */
	int noise;
};

static int cmp_time_rows(const void *pa, const void *pb)
{
	const struct time_row *a = pa, *b = pb;
	double ma = fabs(a->change), mb = fabs(b->change);

	if (ma != mb)
		return ma > mb ? -1 : 1;
	return strcmp(a->r->stack, b->r->stack);
}

static double per_second(uint64_t samples, double hz)
{
	return hz > 0 ? (double)samples / hz : 0.0;
}

int pathdiff_time_within_noise(const struct pathdiff_row *r,
			       const struct pathdiff_time_opts *t)
{
	/* each side's count is Poisson: its variance in seconds is n/hz^2 */
	double sigma = sqrt((t->hz_a > 0 ? (double)r->a / (t->hz_a * t->hz_a) : 0) +
			    (t->hz_b > 0 ? (double)r->b / (t->hz_b * t->hz_b) : 0));

	return fabs(per_second(r->b, t->hz_b) - per_second(r->a, t->hz_a)) <=
	       t->noise_sigmas * sigma;
}

int pathdiff_print_time(FILE *out, const struct pathdiff *d, const char *label_a,
			const char *label_b, const struct pathdiff_time_opts *t)
{
	struct time_row *rows = malloc((d->changed + 1) * sizeof(*rows));
	size_t n = 0;

	if (!rows)
		return error("out of memory while printing call-path changes");
	for (size_t i = 0; i < d->nr; i++) {
		const struct pathdiff_row *r = &d->rows[i];
		double sa, sb;

		if (r->a == r->b)
			continue;
		sa = per_second(r->a, t->hz_a);
		sb = per_second(r->b, t->hz_b);
		rows[n].r = r;
		rows[n].change = sb - sa;
		rows[n].noise = pathdiff_time_within_noise(r, t);
		n++;
	}
	qsort(rows, n, sizeof(*rows), cmp_time_rows);
	fprintf(out, "\f\n\t\t\tCall-path time differences\n\n"
		"Self seconds measured on each path; A is '%s', B is '%s'.\n"
		"%zu paths changed, largest change first; self time %.2f -> %.2f\n"
		"seconds.  ~ marks a change within the sampling noise (%g standard\n"
		"deviations).\n\n"
		"       A s        B s     change    path\n",
		label_a, label_b, n, per_second(d->total_a, t->hz_a),
		per_second(d->total_b, t->hz_b), t->noise_sigmas);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%10.2f %10.2f %+10.2f %c  %s\n",
			per_second(rows[i].r->a, t->hz_a),
			per_second(rows[i].r->b, t->hz_b), rows[i].change,
			rows[i].noise ? '~' : ' ', rows[i].r->stack);
	free(rows);
	return ferror(out) ? -1 : 0;
}
