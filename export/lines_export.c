/*
 * lines_export.c - a line diff as JSON or CSV (lines_export.h).
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
