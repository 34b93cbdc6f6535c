#define _GNU_SOURCE /* qsort_r */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ranks/rankstats.h"
#include "utils/array.h"
#include "utils/error.h"
#include "utils/banned.h"

/*
 * While computing: one row per function, one column per rank.  Rows are
 * found by a hash of (name, file); a profile symbol adds into its row, so
 * two symbols with one key (aliases) count as one function.
 */
struct row {
	char *name;        /* symbol-table name: the key */
	char *file;        /* key, may be NULL */
	char *print_name;
	double *self;      /* seconds per rank */
	uint64_t *calls;   /* calls per rank */
};

struct table {
	struct row *rows;
	size_t nrows, cap;
	size_t *slots;     /* row index + 1, 0 = empty; size is a power of two */
	size_t nslots;
	size_t nranks;
};

static uint64_t hash_key(const char *name, const char *file)
{
	uint64_t h = 1469598103934665603ULL;
	const unsigned char *s;

	for (s = (const unsigned char *)name; *s; s++)
		h = (h ^ *s) * 1099511628211ULL;
	h = (h ^ 0xff) * 1099511628211ULL;
	for (s = (const unsigned char *)(file ? file : ""); *s; s++)
		h = (h ^ *s) * 1099511628211ULL;
	return h;
}

static int same_key(const struct row *r, const char *name, const char *file)
{
	if (strcmp(r->name, name) != 0)
		return 0;
	if (!r->file || !file)
		return !r->file && !file;
	return !strcmp(r->file, file);
}

static size_t row_hash_of(const void *ctx, size_t i)
{
	const struct row *rows = ctx;

	return hash_key(rows[i].name, rows[i].file);
}

/* The row for a symbol, created when missing; NULL when out of memory. */
static struct row *table_row(struct table *t, const struct profile_sym *s)
{
	size_t j;
	struct row *r;

	if (2 * (t->nrows + 1) > t->nslots &&
	    array_index_grow(&t->slots, &t->nslots, t->nrows, row_hash_of, t->rows) < 0)
		return NULL;
	j = hash_key(s->name, s->file) & (t->nslots - 1);
	while (t->slots[j]) {
		r = &t->rows[t->slots[j] - 1];
		if (same_key(r, s->name, s->file))
			return r;
		j = (j + 1) & (t->nslots - 1);
	}
	if (array_grow(&t->rows, &t->cap, t->nrows + 1, sizeof(*t->rows)) < 0)
		return NULL;
	r = &t->rows[t->nrows];
	memset(r, 0, sizeof(*r));
	r->name = strdup(s->name);
	r->file = s->file ? strdup(s->file) : NULL;
	r->print_name = strdup(s->print_name ? s->print_name : s->name);
	r->self = calloc(t->nranks, sizeof(*r->self));
	r->calls = calloc(t->nranks, sizeof(*r->calls));
	if (!r->name || (s->file && !r->file) || !r->print_name || !r->self || !r->calls) {
		free(r->name);
		free(r->file);
		free(r->print_name);
		free(r->self);
		free(r->calls);
		return NULL;
	}
	t->slots[j] = ++t->nrows;
	return r;
}

static void table_release(struct table *t)
{
	size_t i;

	for (i = 0; i < t->nrows; i++) {
		free(t->rows[i].name);
		free(t->rows[i].file);
		free(t->rows[i].print_name);
		free(t->rows[i].self);
		free(t->rows[i].calls);
	}
	free(t->rows);
	free(t->slots);
}

static int table_add_profile(struct table *t, const struct profile *p, size_t rank)
{
	size_t i;

	for (i = 0; i < p->nsyms; i++) {
		const struct profile_sym *s = &p->syms[i];
		struct row *r;

		if ((s->flags & PSYM_CYCLE) || !(s->flags & PSYM_IN_FLAT))
			continue;
		if (s->self_ticks == 0 && s->ncalls == 0 && s->self_calls == 0)
			continue; /* keeps the table to what ran somewhere */
		r = table_row(t, s);
		if (!r)
			return -1;
		r->self[rank] += profile_seconds(p, s->self_ticks);
		r->calls[rank] += s->ncalls + s->self_calls;
	}
	return 0;
}

/* ------------------------------------------------------------------------ */

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

static void fn_stats(struct rankstats_fn *f, const struct row *r, size_t n)
{
	double sum = 0, sq = 0;
	size_t i;

	f->calls_min = f->calls_max = r->calls[0];
	f->self_min = f->self_max = r->self[0];
	for (i = 0; i < n; i++) {
		double t = r->self[i];
		uint64_t c = r->calls[i];

		if (c < f->calls_min)
			f->calls_min = c, f->calls_min_rank = i;
		if (c > f->calls_max)
			f->calls_max = c, f->calls_max_rank = i;
		if (t < f->self_min)
			f->self_min = t, f->self_min_rank = i;
		if (t > f->self_max)
			f->self_max = t, f->self_max_rank = i;
		f->calls_total += c;
		sum += t;
		if (c > 0 || t > 0) {
			f->nran++;
			f->only_rank = i;
		}
	}
	f->self_total = sum;
	f->self_mean = sum / (double)n;
	for (i = 0; i < n; i++)
		sq += (r->self[i] - f->self_mean) * (r->self[i] - f->self_mean);
	f->self_sd = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	f->imbalance = f->self_mean > 0 ? f->self_max / f->self_mean : 0;
	f->cost = (double)n * f->self_max;
}

static int cmp_fn(const void *pa, const void *pb)
{
	const struct rankstats_fn *a = pa, *b = pb;

	if (a->cost != b->cost)
		return a->cost > b->cost ? -1 : 1;
	if (a->calls_max != b->calls_max)
		return a->calls_max > b->calls_max ? -1 : 1;
	return strcmp(a->name, b->name);
}

static int cmp_outlier(const void *pa, const void *pb, void *ctx)
{
	const struct rankstats *rs = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	double da = rs->ranks[a].time_dist + rs->ranks[a].calls_dist;
	double db = rs->ranks[b].time_dist + rs->ranks[b].calls_dist;

	if (da != db)
		return da > db ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Per-rank totals, distances from the mean mix, and calls that differ from
 * each function's median. */
static int rank_stats(struct rankstats *rs, const struct table *t)
{
	size_t n = rs->nranks, i, f;
	uint64_t *sorted = malloc(n * sizeof(*sorted));

	if (!sorted)
		return -1;
	for (f = 0; f < t->nrows; f++)
		for (i = 0; i < n; i++) {
			rs->ranks[i].self += t->rows[f].self[i];
			rs->ranks[i].calls += t->rows[f].calls[i];
		}
	for (f = 0; f < t->nrows; f++) {
		const struct row *r = &t->rows[f];
		double mt = 0, mc = 0;
		size_t nran = 0;
		uint64_t median;

		for (i = 0; i < n; i++) {
			const struct rankstats_rank *k = &rs->ranks[i];

			mt += k->self > 0 ? r->self[i] / k->self : 0;
			mc += k->calls > 0 ? (double)r->calls[i] / (double)k->calls : 0;
			nran += r->self[i] > 0 || r->calls[i] > 0;
			sorted[i] = r->calls[i];
		}
		mt /= (double)n;
		mc /= (double)n;
		qsort(sorted, n, sizeof(*sorted), cmp_u64);
		median = sorted[n / 2];
		for (i = 0; i < n; i++) {
			struct rankstats_rank *k = &rs->ranks[i];
			double st = k->self > 0 ? r->self[i] / k->self : 0;
			double sc = k->calls > 0 ? (double)r->calls[i] / (double)k->calls : 0;
			int ran = r->self[i] > 0 || r->calls[i] > 0;

			k->time_dist += 0.5 * fabs(st - mt);
			k->calls_dist += 0.5 * fabs(sc - mc);
			k->nran += ran;
			k->nunique += ran && 2 * nran < n;
			k->ncalls_differ += r->calls[i] != median;
		}
	}
	free(sorted);
	for (i = 0; i < n; i++)
		rs->outliers[i] = i;
	qsort_r(rs->outliers, n, sizeof(*rs->outliers), cmp_outlier, rs);
	return 0;
}

int rankstats_compute(struct profile *const *profiles, char *const *tags, size_t n,
		      struct rankstats **out)
{
	struct table t;
	struct rankstats *rs = NULL;
	size_t i;

	*out = NULL;
	if (n == 0)
		return error("no rank profiles to compare");
	memset(&t, 0, sizeof(t));
	t.nranks = n;
	for (i = 0; i < n; i++)
		if (table_add_profile(&t, profiles[i], i) < 0)
			goto oom;
	rs = calloc(1, sizeof(*rs));
	if (!rs)
		goto oom;
	rs->nranks = n;
	rs->ranks = calloc(n, sizeof(*rs->ranks));
	rs->outliers = calloc(n, sizeof(*rs->outliers));
	rs->fns = calloc(t.nrows ? t.nrows : 1, sizeof(*rs->fns));
	if (!rs->ranks || !rs->outliers || !rs->fns)
		goto oom;
	for (i = 0; i < n; i++)
		if (!(rs->ranks[i].tag = strdup(tags[i])))
			goto oom;
	for (i = 0; i < t.nrows; i++) {
		struct rankstats_fn *f = &rs->fns[rs->nfns];

		fn_stats(f, &t.rows[i], n);
		/* The strings move from the table to the result. */
		f->name = t.rows[i].print_name;
		f->file = t.rows[i].file;
		t.rows[i].print_name = NULL;
		t.rows[i].file = NULL;
		rs->total_self += f->self_total;
		rs->nfns++;
	}
	if (rank_stats(rs, &t) < 0)
		goto oom;
	qsort(rs->fns, rs->nfns, sizeof(*rs->fns), cmp_fn);
	table_release(&t);
	*out = rs;
	return 0;
oom:
	table_release(&t);
	rankstats_free(rs);
	return error("out of memory");
}

void rankstats_free(struct rankstats *rs)
{
	size_t i;

	if (!rs)
		return;
	for (i = 0; rs->ranks && i < rs->nranks; i++)
		free(rs->ranks[i].tag);
	for (i = 0; i < rs->nfns; i++) {
		free(rs->fns[i].name);
		free(rs->fns[i].file);
	}
	free(rs->ranks);
	free(rs->fns);
	free(rs->outliers);
	free(rs);
}

const struct rankstats_fn *rankstats_find(const struct rankstats *rs,
					  const char *name, const char *file)
{
	size_t i;

	for (i = 0; i < rs->nfns; i++) {
		const struct rankstats_fn *f = &rs->fns[i];

		if (strcmp(f->name, name) != 0)
			continue;
		if (file && (!f->file || strcmp(f->file, file) != 0))
			continue;
		return f;
	}
	return NULL;
}
