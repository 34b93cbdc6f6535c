#ifndef EGPROF_TABLE_H
#define EGPROF_TABLE_H
/*
 * Machine-readable results (--format json|csv): a document is a few header
 * fields and one or more tables of records; each table is described by an
 * array of columns, so a new field is one row in a column table
 * (export/diff_export.c, rankstats_export.c, callpath_export.c).
 *
 * JSON: one object, {"schema": S, "version": V, <header fields>,
 * "<table>": [ {<column>: value, ...}, ... ], ...}.  Numbers that are not
 * defined (a ratio over zero, NaN) are null.
 *
 * CSV (RFC 4180): one header line naming `record` and then every column of
 * every table (the union, in order of first appearance); each row says in
 * `record` which table it belongs to and leaves the other tables' columns
 * empty.  Header fields are not in the CSV.
 *
 *   struct table_doc doc;
 *   table_begin(&doc, stdout, TABLE_JSON, "egprof-diff", 1);
 *   table_field_str(&doc, "baseline", label); ...
 *   table_write(&doc, "functions", cols, ncols, rows, nrows, ctx);
 *   return table_end(&doc);           0, or -1 on a write error (reported)
 *
 * A column's value comes from get(ctx, row, col): it fills *v and returns
 * 1, or 0 when the value is undefined (null / empty cell).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum table_format { TABLE_TEXT, TABLE_JSON, TABLE_CSV, TABLE_MARKDOWN };

/* "text", "json", "csv", "markdown" -> the format; -1 when none of them.
 * Markdown: each table is a GitHub-flavoured table (a header row named by
 * the columns, numbers right-aligned); header fields are not written. */
int table_format_parse(const char *name);

enum table_type {
	TCOL_STR, TCOL_F64, TCOL_U64, TCOL_I64, TCOL_BOOL,
	TCOL_INT,  /* read from an int, written as a number */
	TCOL_SIZE, /* read from a size_t */
};

union table_value {
	const char *s;
	double f;
	uint64_t u;
	int64_t i;
	int b;
	int n;
	size_t z;
};

struct table_column {
	const char *name;
	enum table_type type;
	int (*get)(const void *ctx, size_t row, const struct table_column *col,
		   union table_value *v);
	size_t arg;   /* for get(): an offset, a side, ... */
};

struct table_doc {
	FILE *fp;
	enum table_format fmt;
	int depth;        /* JSON: open objects */
	int first[8];     /* JSON: nothing written yet at this depth */
	/* CSV: the header is written with the first table, from every table
	 * the caller declares with table_csv_columns() first. */
	const char **csv_cols;
	size_t ncsv, alloc_csv;
	int csv_header_done;
};

int table_begin(struct table_doc *d, FILE *fp, enum table_format fmt,
		const char *schema, int version);
/* Header fields (JSON only; CSV ignores them). */
void table_field_str(struct table_doc *d, const char *key, const char *value);
void table_field_num(struct table_doc *d, const char *key, double value);
void table_field_u64(struct table_doc *d, const char *key, uint64_t value);
void table_field_bool(struct table_doc *d, const char *key, int value);
/* A list of strings (JSON only). */
void table_field_strs(struct table_doc *d, const char *key, char *const *values, size_t n);
/* An object of string and number fields ({"label": .., "runs": ..}), JSON only. */
void table_object_begin(struct table_doc *d, const char *key);
void table_object_end(struct table_doc *d);
/* CSV: every table's columns, before the first table_write(). */
int table_csv_columns(struct table_doc *d, const struct table_column *cols, size_t n);
void table_write(struct table_doc *d, const char *table, const struct table_column *cols,
		 size_t ncols, size_t nrows, const void *ctx);
/* Close the document, flush; 0 or -1 (reported) on a write error. */
int table_end(struct table_doc *d);

/* A JSON string, escaped as every document's strings are (bytes that are
 * not UTF-8 stand for Latin-1 characters): for writers of other JSON. */
void table_json_string(FILE *fp, const char *s);

/* The common getter: ctx is a struct table_array; the value is at byte
 * offset col->arg of element `row`, of col->type. */
struct table_array {
	const void *base;
	size_t size;          /* bytes per element */
	const size_t *index;  /* row r is element index[r]; NULL: element r */
};
/* The element row r stands for. */
static inline size_t table_row(const struct table_array *a, size_t r)
{
	return a->index ? a->index[r] : r;
}
int table_get_field(const void *ctx, size_t row, const struct table_column *col,
		    union table_value *v);

#endif
