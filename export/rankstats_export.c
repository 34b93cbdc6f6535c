/*
 * Rank statistics as records (rankstats_export.h).  A new field is one
 * row in fn_cols[] or rank_cols[].
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "export/rankstats_export.h"
#include "utils/error.h"
#include "utils/banned.h"

struct ctx {
	struct table_array a;   /* first: table_get_field reads it */
	const struct rankstats *rs;
	char *const *files;
	const char *imbalanced; /* per function: the summary calls it imbalanced */
};

#define FN(f) offsetof(struct rankstats_fn, f)
#define RANK(f) offsetof(struct rankstats_rank, f)

/* The tag of the rank whose index is the size_t at offset col->arg. */
static int get_rank_tag(const void *c, size_t row, const struct table_column *col,
			union table_value *v)
{
	const struct ctx *x = c;
	size_t idx;

	idx = *(const size_t *)((const char *)&x->rs->fns[row] + col->arg);
	if (idx >= x->rs->nranks)
		return 0;
	v->s = x->rs->ranks[idx].tag;
	return 1;
}

static int get_only_rank(const void *c, size_t row, const struct table_column *col,
			 union table_value *v)
{
	const struct ctx *x = c;

	(void)col;
	if (x->rs->fns[row].nran != 1 || x->rs->fns[row].only_rank >= x->rs->nranks)
		return 0;
	v->s = x->rs->ranks[x->rs->fns[row].only_rank].tag;
	return 1;
}

/* A count of calls, or the rank with most: null when no rank counted any
 * (sampled runs of a build without -pg: not measured, not 0). */

/* max / mean, undefined when no rank has samples (rankstats.h) */
static int get_imbalance(const void *c, size_t row, const struct table_column *col,
			 union table_value *v)
{
	const struct rankstats_fn *f = &((const struct ctx *)c)->rs->fns[row];

	(void)col;
	if (f->self_mean <= 0)
		return 0;
	v->f = f->imbalance;
	return 1;
}

/* The summary's verdict (rankstats_imbalanced(): the slowest rank's
 * excess is beyond its sampling noise). */
static int get_imbalanced(const void *c, size_t row, const struct table_column *col,
			  union table_value *v)
{
	const struct ctx *x = c;

	(void)col;
	v->b = x->imbalanced && x->imbalanced[row];
	return 1;
}

static int get_kind(const void *c, size_t row, const struct table_column *col,
		    union table_value *v)
{
	const struct rankstats_fn *f = &((const struct ctx *)c)->rs->fns[row];

	(void)col;
	v->s = profile_sym_kind(f->kind);
	return 1;
}

/* A count of calls, null for a row whose calls were never counted. */
/* Calls: null where they were not counted (a library's row, or ranks
 * whose paths were sampled from builds without -pg). */
static int calls_counted(const void *c, size_t row)
{
	const struct ctx *x = c;

	return rankstats_calls_counted(x->rs) && !x->rs->fns[row].kind;
}

static int get_calls(const void *c, size_t row, const struct table_column *col,
		     union table_value *v)
{
	if (!calls_counted(c, row))
		return 0;
	memcpy(&v->u, (const char *)&((const struct ctx *)c)->rs->fns[row] + col->arg,
	       sizeof(v->u));
	return 1;
}

static int get_calls_rank(const void *c, size_t row, const struct table_column *col,
			  union table_value *v)
{
	if (!calls_counted(c, row))
		return 0;
	return get_rank_tag(c, row, col, v);
}

static const struct table_column fn_cols[] = {
	{ "name", TCOL_STR, table_get_field, FN(name) },
	{ "file", TCOL_STR, table_get_field, FN(file) },
	{ "kind", TCOL_STR, get_kind, 0 },
	{ "cost_sec", TCOL_F64, table_get_field, FN(cost) },
	{ "imbalance", TCOL_F64, get_imbalance, 0 },
	{ "self_total", TCOL_F64, table_get_field, FN(self_total) },
	{ "self_min", TCOL_F64, table_get_field, FN(self_min) },
	{ "self_mean", TCOL_F64, table_get_field, FN(self_mean) },
	{ "self_max", TCOL_F64, table_get_field, FN(self_max) },
	{ "self_sd", TCOL_F64, table_get_field, FN(self_sd) },
	{ "self_min_rank", TCOL_STR, get_rank_tag, FN(self_min_rank) },
	{ "self_max_rank", TCOL_STR, get_rank_tag, FN(self_max_rank) },
	{ "calls_total", TCOL_U64, get_calls, FN(calls_total) },
	{ "calls_min", TCOL_U64, get_calls, FN(calls_min) },
	{ "calls_max", TCOL_U64, get_calls, FN(calls_max) },
	{ "calls_min_rank", TCOL_STR, get_calls_rank, FN(calls_min_rank) },
	{ "calls_max_rank", TCOL_STR, get_calls_rank, FN(calls_max_rank) },
	{ "ran_on", TCOL_SIZE, table_get_field, FN(nran) },
	{ "only_rank", TCOL_STR, get_only_rank, 0 },
	{ "imbalanced", TCOL_BOOL, get_imbalanced, 0 },
};

static int get_file(const void *c, size_t row, const struct table_column *col,
		    union table_value *v)
{
	const struct ctx *x = c;

	(void)col;
	if (!x->files)
		return 0;
	v->s = x->files[row];
	return 1;
}

/* Place among the outliers, 1 = most distant; undefined when not one. */
static int get_outlier(const void *c, size_t row, const struct table_column *col,
		       union table_value *v)
{
	const struct rankstats *rs = ((const struct ctx *)c)->rs;
	size_t i;

	(void)col;
	for (i = 0; rs->outliers && i < rs->nranks; i++)
		if (rs->outliers[i] == row) {
			v->z = i + 1;
			return 1;
		}
	return 0;
}

static const struct table_column rank_cols[] = {
	{ "rank", TCOL_STR, table_get_field, RANK(tag) },
	{ "gmon_file", TCOL_STR, get_file, 0 },
	{ "self_sec", TCOL_F64, table_get_field, RANK(self) },
	{ "calls", TCOL_U64, get_calls, RANK(calls) },
	{ "time_distance", TCOL_F64, table_get_field, RANK(time_dist) },
	{ "calls_distance", TCOL_F64, get_calls, RANK(calls_dist) },
	{ "functions_ran", TCOL_SIZE, table_get_field, RANK(nran) },
	{ "functions_unique", TCOL_SIZE, table_get_field, RANK(nunique) },
	{ "functions_calls_differ", TCOL_SIZE, get_calls, RANK(ncalls_differ) },
	{ "outlier_place", TCOL_SIZE, get_outlier, 0 },
};

#define NCOLS(t) (sizeof(t) / sizeof((t)[0]))

int rankstats_export(FILE *fp, enum table_format fmt, const struct rankstats *rs,
		     const char *title, char *const *files)
{
	struct table_doc doc;
	struct ctx fc = { { rs->fns, sizeof(*rs->fns), NULL }, rs, files, NULL };
	struct ctx rc = { { rs->ranks, sizeof(*rs->ranks), NULL }, rs, files, NULL };
	char *imb = calloc(rs->nfns + 1, 1);
	size_t *idx = NULL, n = 0, i;
	int ret = -1;

	if (!imb || rankstats_imbalanced(rs, &idx, &n) < 0) {
		free(imb);
		return error("out of memory");
	}
	for (i = 0; i < n; i++)
		imb[idx[i]] = 1;
	free(idx);
	fc.imbalanced = imb;
	table_begin(&doc, fp, fmt, "egprof-rank-stats", RANKSTATS_EXPORT_VERSION);
	table_field_str(&doc, "title", title);
	table_field_u64(&doc, "rank_count", rs->nranks);
	table_field_num(&doc, "self_total_sec", rs->total_self);
	if (table_csv_columns(&doc, fn_cols, NCOLS(fn_cols)) < 0 ||
	    table_csv_columns(&doc, rank_cols, NCOLS(rank_cols)) < 0) {
		table_end(&doc);
		goto out;
	}
	table_write(&doc, "functions", fn_cols, NCOLS(fn_cols), rs->nfns, &fc);
	table_write(&doc, "ranks", rank_cols, NCOLS(rank_cols), rs->nranks, &rc);
	ret = table_end(&doc);
out:
	free(imb);
	return ret;
}
