/*
 * lines_export.c - a run's lines and a line diff as JSON or CSV
 * (lines_export.h).
 */
#include "export/lines_export.h"

#include <stddef.h>

#include "model/lines.h"
#include "utils/banned.h"

#define ROW(f) offsetof(struct line_diff_row, f)
#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

/* A string that may be NULL (no line known, nothing inlined): null. */
static int get_opt_str(const void *ctx, size_t row, const struct table_column *col,
		       union table_value *v)
{
	return table_get_field(ctx, row, col, v) && v->s != NULL;
}

/* The line number, null when none is known. */
static int get_line(const void *ctx, size_t row, const struct table_column *col,
		    union table_value *v)
{
	return table_get_field(ctx, row, col, v) && v->n > 0;
}

static const struct table_column line_cols[] = {
	{ "function", TCOL_STR, table_get_field, ROW(func) },
	{ "file", TCOL_STR, get_opt_str, ROW(file) },
	{ "line", TCOL_INT, get_line, ROW(line) },
	{ "inlined", TCOL_STR, get_opt_str, ROW(inlined) },
	{ "baseline_samples", TCOL_U64, table_get_field, ROW(a) },
	{ "second_samples", TCOL_U64, table_get_field, ROW(b) },
	{ "baseline_seconds", TCOL_F64, table_get_field, ROW(a_s) },
	{ "second_seconds", TCOL_F64, table_get_field, ROW(b_s) },
	{ "change", TCOL_F64, table_get_field, ROW(change) },
	{ "z", TCOL_F64, table_get_field, ROW(z) },
	{ "significant", TCOL_BOOL, table_get_field, ROW(significant) },
};

int lines_export(FILE *fp, enum table_format fmt, const struct line_diff *d,
		 const char *const label[2], const char *source)
{
	struct table_array x = { d->rows, sizeof(*d->rows), NULL };
	struct table_doc doc;

	table_begin(&doc, fp, fmt, "egprof-lines-diff", LINES_EXPORT_VERSION);
	table_field_str(&doc, "baseline", label[0]);
	table_field_str(&doc, "second", label[1]);
	table_field_str(&doc, "source", source);
	table_field_num(&doc, "noise_sigmas", d->k);
	table_field_num(&doc, "jitter", d->jitter);
	table_field_u64(&doc, "tests", d->counted);
	table_field_str(&doc, "warning", d->warning);
	if (table_csv_columns(&doc, line_cols, NCOLS(line_cols)) < 0) {
		table_end(&doc);
		return -1;
	}
	table_write(&doc, "lines", line_cols, NCOLS(line_cols), d->n, &x);
	return table_end(&doc);
}

/* ------------------------------------------------------------------ */
/* One run's lines                                                     */

#define PROW(f) offsetof(struct line_row, f)

struct profile_rows {
	struct table_array x;	/* first: table_get_field reads it */
	double hz;
};

static int get_seconds(const void *ctx, size_t row, const struct table_column *col,
		       union table_value *v)
{
	const struct profile_rows *p = ctx;
	const struct line_row *r = (const struct line_row *)p->x.base + row;

	(void)col;
	if (!(p->hz > 0))
		return 0;
	v->f = (double)r->samples / p->hz;
	return 1;
}

static const struct table_column row_cols[] = {
	{ "function", TCOL_STR, table_get_field, PROW(func) },
	{ "file", TCOL_STR, get_opt_str, PROW(file) },
	{ "line", TCOL_INT, get_line, PROW(line) },
	{ "inlined", TCOL_STR, get_opt_str, PROW(inlined) },
	{ "samples", TCOL_U64, table_get_field, PROW(samples) },
	{ "seconds", TCOL_F64, get_seconds, 0 },
	{ "library", TCOL_BOOL, table_get_field, PROW(library) },
};

int lines_profile_export(FILE *fp, enum table_format fmt, const struct line_profile *lp)
{
	struct profile_rows x = { { lp->rows, sizeof(*lp->rows), NULL }, lp->hz };
	struct table_doc doc;

	table_begin(&doc, fp, fmt, "egprof-lines", LINES_EXPORT_VERSION);
	table_field_str(&doc, "source", lp->source);
	table_field_num(&doc, "hz", lp->hz);
	table_field_u64(&doc, "total_samples", lp->total);
	table_field_u64(&doc, "no_line_samples", lp->no_line);
	table_field_u64(&doc, "unplaced_samples", lp->unplaced);
	table_field_str(&doc, "skipped", lp->skipped);
	if (table_csv_columns(&doc, row_cols, NCOLS(row_cols)) < 0) {
		table_end(&doc);
		return -1;
	}
	table_write(&doc, "lines", row_cols, NCOLS(row_cols), lp->n, &x);
	return table_end(&doc);
}
