/*
 * pathdiff.c - call paths of two profiles matched by the names along them.
 */
#include "callpath/pathdiff.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "callpath/folded.h"
#include "diff/diff.h"
#include "diff/signif.h"
#include "utils/error.h"
#include "utils/satmath.h"
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
	d->total_a = sat_add_u64(d->total_a, a);
	d->total_b = sat_add_u64(d->total_b, b);
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

/*
 * A change, baseline minus second (the sign of every table of --diff,
 * doc/diff.md), as a sign and a magnitude: counts go up to 2^64 - 1 (sums
 * saturate there), so A - B spans more than an int64_t holds, and
 * subtracting them as int64_t overflowed (undefined; 2^64 - 1 calls
 * against none printed -1).
 */
struct change {
	uint64_t mag;
	int neg;
};

static struct change row_change(const struct pathdiff_row *r)
{
	return r->a >= r->b ? (struct change){ r->a - r->b, 0 }
			    : (struct change){ r->b - r->a, 1 };
}

/* *sum += c, its magnitude saturated at 2^64 - 1. */
static void change_add(struct change *sum, struct change c)
{
	if (sum->neg == c.neg) {
		sum->mag = sat_add_u64(sum->mag, c.mag);
	} else if (sum->mag >= c.mag) {
		sum->mag -= c.mag;
	} else {
		sum->mag = c.mag - sum->mag;
		sum->neg = c.neg;
	}
	if (!sum->mag)
		sum->neg = 0;
}

/* Per called function: the sum of |change| over its paths, for ordering. */
struct func_change {
	const char *func;
	uint64_t moved;
	struct change net;
};

static int cmp_func_name(const void *pa, const void *pb)
{
	const struct pathdiff_row *a = *(const struct pathdiff_row *const *)pa;
	const struct pathdiff_row *b = *(const struct pathdiff_row *const *)pb;
	uint64_t ma, mb;
	int c = strcmp(a->func, b->func);

	if (c)
		return c;
	ma = row_change(a).mag;
	mb = row_change(b).mag;
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
		snprintf(buf, n, "%" PRIu64 "+%" PRIu64, rec <= all ? all - rec : 0, rec);
	else
		snprintf(buf, n, "%" PRIu64, all);
	return buf;
}

/* "+2", "-3", "0" */
static const char *signed_text(char *buf, size_t n, struct change v)
{
	snprintf(buf, n, "%s%" PRIu64, !v.mag ? "" : v.neg ? "-" : "+", v.mag);
	return buf;
}

/* The count rows' verdicts: Poisson z of each changed path's counts, one
 * family over them (the rows' rule, diff/signif.h); pass[i] for rows[i]. */
static void count_verdicts(const struct pathdiff_row **rows, size_t n, double k,
			   unsigned char *pass)
{
	struct signif_family f;
	size_t i;

	signif_family_init(&f, k);
	for (i = 0; i < n; i++)
		signif_add(&f, signif_count_z((double)rows[i]->a, (double)rows[i]->b, 0),
			   signif_count_zmax((double)rows[i]->a + (double)rows[i]->b));
	signif_decide(&f);
	for (i = 0; i < n; i++)
		pass[i] = signif_pass(&f, signif_count_z((double)rows[i]->a, (double)rows[i]->b, 0));
	signif_family_release(&f);
}

int pathdiff_print(FILE *out, const struct pathdiff *d, const char *label_a,
		   const char *label_b, double noise_sigmas)
{
	const struct pathdiff_row **rows = malloc((d->changed + 1) * sizeof(*rows));
	struct func_change *funcs = calloc(d->changed + 1, sizeof(*funcs));
	unsigned char *pass = calloc(d->changed + 1, 1);
	size_t n = 0, nf = 0, nsig = 0;

	if (!rows || !funcs || !pass) {
		free(rows);
		free(funcs);
		free(pass);
		return error("out of memory while printing call-path changes");
	}
	for (size_t i = 0; i < d->nr; i++)
		if (d->rows[i].a != d->rows[i].b)
			rows[n++] = &d->rows[i];
	qsort(rows, n, sizeof(*rows), cmp_func_name);
	count_verdicts(rows, n, noise_sigmas, pass);
	for (size_t i = 0; i < n; i++) {
		if (!nf || strcmp(funcs[nf - 1].func, rows[i]->func))
			funcs[nf++].func = rows[i]->func;
		funcs[nf - 1].moved = sat_add_u64(funcs[nf - 1].moved, row_change(rows[i]).mag);
		change_add(&funcs[nf - 1].net, row_change(rows[i]));
		nsig += pass[i];
	}
	qsort(funcs, nf, sizeof(*funcs), cmp_func_change);

	fprintf(out, "\f\n\t\t\tCall-path differences\n\n"
		"Paths are matched by the function names along them; A is '%s',\n"
		"B is '%s'.  change = A - B, baseline minus second as in every\n"
		"table of the diff.  %zu of %zu paths changed; calls %" PRIu64 " -> %" PRIu64 ".\n"
		"~ marks a change within the noise of a count (Poisson, corrected for\n"
		"the number of paths): %zu of the changes are beyond it.\n",
		label_a, label_b, d->changed, d->nr, d->total_a, d->total_b, nsig);
	for (size_t k = 0; k < nf; k++) {
		char buf[32], ta[48], tb[48];

		fprintf(out, "\n%s: %s calls\n", funcs[k].func,
			signed_text(buf, sizeof(buf), funcs[k].net));
		fputs("    A calls     B calls      change    path\n", out);
		/* rows of one function are adjacent, largest change first */
		for (size_t i = 0; i < n; i++) {
			if (strcmp(rows[i]->func, funcs[k].func))
				continue;
			fprintf(out, "%11s %11s %11s %c  %s\n",
				calls_text(ta, sizeof(ta), rows[i]->a, rows[i]->a_rec),
				calls_text(tb, sizeof(tb), rows[i]->b, rows[i]->b_rec),
				signed_text(buf, sizeof(buf), row_change(rows[i])),
				pass[i] ? ' ' : '~', rows[i]->stack);
		}
	}
	free(rows);
	free(funcs);
	free(pass);
	return ferror(out) ? -1 : 0;
}

struct time_row {
	const struct pathdiff_row *r;
	double change;		/* seconds, A - B */
	double z;
	int significant;
};

static int cmp_time_rows(const void *pa, const void *pb)
{
	const struct time_row *a = pa, *b = pb;
	double ma = fabs(a->change), mb = fabs(b->change);

	if (a->significant != b->significant)
		return a->significant ? -1 : 1;
	if (ma != mb)
		return ma > mb ? -1 : 1;
	return strcmp(a->r->stack, b->r->stack);
}

static double per_second(uint64_t samples, double hz)
{
	return hz > 0 ? (double)samples / hz : 0.0;
}

/*
 * The time table's rows (every path whose samples differ) with their
 * verdicts by the one rule for counts of samples (signif_counts_decide):
 * *rows malloc'd, *n of them, in d->rows' order; *jitter the run-to-run
 * jitter used and *counted the tests the family corrected for.
 */
static int time_rows_decide(const struct pathdiff *d, const struct pathdiff_time_opts *t,
			    struct time_row **out, size_t *nout, double *jitter,
			    size_t *counted)
{
	struct time_row *rows = malloc((d->changed + 1) * sizeof(*rows));
	double prior = t->jitter_prior > 0 ? t->jitter_prior : DIFF_JITTER_PRIOR;
	uint64_t *cnt = malloc((2 * d->nr + 1) * sizeof(*cnt));
	double *z = malloc((d->nr + 1) * sizeof(*z));
	unsigned char *pass = malloc(d->nr + 1);
	size_t n = 0;
	int ret = -1;

	if (!rows || !cnt || !z || !pass)
		goto out;
	for (size_t i = 0; i < d->nr; i++) {
		cnt[i] = d->rows[i].a;
		cnt[d->nr + i] = d->rows[i].b;
	}
	if (signif_counts_decide(cnt, cnt + d->nr, d->nr, t->hz_a, t->hz_b, t->noise_sigmas,
				 prior, z, pass, jitter, counted) < 0)
		goto out;
	for (size_t i = 0; i < d->nr; i++) {
		const struct pathdiff_row *r = &d->rows[i];

		if (r->a == r->b)
			continue;
		rows[n].r = r;
		rows[n].change = per_second(r->a, t->hz_a) - per_second(r->b, t->hz_b);
		rows[n].z = z[i];
		rows[n].significant = pass[i];
		n++;
	}
	*out = rows;
	*nout = n;
	rows = NULL;
	ret = 0;
out:
	free(rows);
	free(cnt);
	free(z);
	free(pass);
	return ret < 0 ? error("out of memory while comparing call-path times") : 0;
}

int pathdiff_time_verdicts(const struct pathdiff *d, const struct pathdiff_time_opts *t,
			   unsigned char *within_noise)
{
	struct time_row *rows;
	size_t n, counted, k = 0;
	double c;

	if (time_rows_decide(d, t, &rows, &n, &c, &counted) < 0)
		return -1;
	for (size_t i = 0; i < d->nr; i++) {
		within_noise[i] = 0;
		if (k < n && rows[k].r == &d->rows[i])
			within_noise[i] = !rows[k++].significant;
	}
	free(rows);
	return 0;
}

int pathdiff_print_time(FILE *out, const struct pathdiff *d, const char *label_a,
			const char *label_b, const struct pathdiff_time_opts *t)
{
	struct time_row *rows;
	size_t n, nsig = 0, counted;
	double c;

	if (time_rows_decide(d, t, &rows, &n, &c, &counted) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		nsig += rows[i].significant;
	qsort(rows, n, sizeof(*rows), cmp_time_rows);
	if (t->metric)
		fprintf(out, "\f\n\t\t\tCall-path differences of %s\n\n"
			"Self events measured on each path (estimated: overflows times their\n"
			"period); A is '%s', B is '%s'.\n"
			"change = A - B, baseline minus second as in every table of the diff.\n"
			"%zu paths changed, %zu beyond the noise first, by |change|; events\n"
			"%.0f -> %.0f.  ~ marks a change within the noise: the Poisson noise of\n"
			"the overflows and a run-to-run jitter of %.0f%% of a path's count,\n"
			"corrected for the %zu paths that could show a change (--noise %g).\n\n"
			"  A events   B events     change    path\n",
			t->metric, label_a, label_b, n, nsig, per_second(d->total_a, t->hz_a),
			per_second(d->total_b, t->hz_b), 100 * c, counted, t->noise_sigmas);
	else
	fprintf(out, "\f\n\t\t\tCall-path time differences\n\n"
		"Self seconds measured on each path; A is '%s', B is '%s'.\n"
		"change = A - B, baseline minus second as in every table of the diff.\n"
		"%zu paths changed, %zu beyond the noise first, by |change|; self time\n"
		"%.2f -> %.2f seconds.  ~ marks a change within the noise: sampling and a\n"
		"run-to-run jitter of %.0f%% of a path's time, corrected for the %zu paths\n"
		"that could show a change (--noise %g).\n\n"
		"       A s        B s     change    path\n",
		label_a, label_b, n, nsig, per_second(d->total_a, t->hz_a),
		per_second(d->total_b, t->hz_b), 100 * c, counted, t->noise_sigmas);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%10.2f %10.2f %+10.2f %c  %s\n",
			per_second(rows[i].r->a, t->hz_a),
			per_second(rows[i].r->b, t->hz_b), rows[i].change,
			rows[i].significant ? ' ' : '~', rows[i].r->stack);
	free(rows);
	return ferror(out) ? -1 : 0;
}
