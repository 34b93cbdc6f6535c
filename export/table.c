/*
 * JSON, CSV and markdown writers for result tables (see table.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "export/table.h"
#include "utils/array.h"
#include "utils/error.h"
#include "utils/banned.h"

int table_format_parse(const char *name)
{
	static const char *const names[] = { [TABLE_TEXT] = "text", [TABLE_JSON] = "json",
					     [TABLE_CSV] = "csv", [TABLE_MARKDOWN] = "markdown" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return (int)i;
	return -1;
}

/* Length of a valid UTF-8 sequence at s, 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n = s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : s[0] >= 0xe0 ? 3 :
		   s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
	size_t i;

	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* A JSON string; bytes that are not UTF-8 stand for Latin-1 characters. */
static void json_str(FILE *fp, const char *str)
{
	table_json_string(fp, str);
}

void table_json_string(FILE *fp, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', fp);
	while (*s) {
		size_t n;

		if (*s == '"' || *s == '\\') {
			fputc('\\', fp);
			fputc(*s++, fp);
		} else if (*s < 0x20) {
			fprintf(fp, "\\u%04x", *s++);
		} else if (*s < 0x80) {
			fputc(*s++, fp);
		} else if ((n = utf8_len(s)) > 0) {
			fwrite(s, 1, n, fp);
			s += n;
		} else {
			fprintf(fp, "\\u%04x", *s++);
		}
	}
	fputc('"', fp);
}

/* A markdown table cell: '|' escaped, line breaks as spaces, and
 * characters markdown would read as emphasis or code escaped, so a C++
 * name (operator*, a<b>) shows as it is. */
static void md_str(FILE *fp, const char *s)
{
	for (; *s; s++) {
		if (*s == '\r' || *s == '\n')
			fputc(' ', fp);
		else {
			if (strchr("|\\*_`<>[]", *s))
				fputc('\\', fp);
			fputc(*s, fp);
		}
	}
}

/* A CSV cell: quoted when it holds a comma, quote or line break. */
static void csv_str(FILE *fp, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

static void json_key(struct table_doc *d, const char *key)
{
	if (!d->first[d->depth])
		fputc(',', d->fp);
	d->first[d->depth] = 0;
	fputs("\n", d->fp);
	for (int i = 0; i <= d->depth; i++)
		fputs("  ", d->fp);
	json_str(d->fp, key);
	fputs(": ", d->fp);
}

static void json_num(FILE *fp, double v)
{
	if (!isfinite(v))
		fputs("null", fp);
	else
		fprintf(fp, "%.10g", v);
}

int table_begin(struct table_doc *d, FILE *fp, enum table_format fmt,
		const char *schema, int version)
{
	memset(d, 0, sizeof(*d));
	d->fp = fp;
	d->fmt = fmt;
	d->first[0] = 1;
	if (fmt == TABLE_JSON) {
		fputc('{', fp);
		table_field_str(d, "schema", schema);
		table_field_num(d, "version", version);
	}
	return 0;
}

void table_field_str(struct table_doc *d, const char *key, const char *value)
{
	if (d->fmt != TABLE_JSON)
		return;
	json_key(d, key);
	if (value)
		json_str(d->fp, value);
	else
		fputs("null", d->fp);
}

void table_field_num(struct table_doc *d, const char *key, double value)
{
	if (d->fmt != TABLE_JSON)
		return;
	json_key(d, key);
	json_num(d->fp, value);
}

void table_field_u64(struct table_doc *d, const char *key, uint64_t value)
{
	if (d->fmt != TABLE_JSON)
		return;
	json_key(d, key);
	fprintf(d->fp, "%llu", (unsigned long long)value);
}

void table_field_bool(struct table_doc *d, const char *key, int value)
{
	if (d->fmt != TABLE_JSON)
		return;
	json_key(d, key);
	fputs(value ? "true" : "false", d->fp);
}

void table_field_strs(struct table_doc *d, const char *key, char *const *values, size_t n)
{
	size_t i;

	if (d->fmt != TABLE_JSON)
		return;
	json_key(d, key);
	fputc('[', d->fp);
	for (i = 0; i < n; i++) {
		if (i)
			fputs(", ", d->fp);
		json_str(d->fp, values[i]);
	}
	fputc(']', d->fp);
}

void table_object_begin(struct table_doc *d, const char *key)
{
	if (d->fmt != TABLE_JSON || d->depth + 1 >= (int)(sizeof(d->first) / sizeof(d->first[0])))
		return;
	json_key(d, key);
	fputc('{', d->fp);
	d->first[++d->depth] = 1;
}

void table_object_end(struct table_doc *d)
{
	if (d->fmt != TABLE_JSON || d->depth == 0)
		return;
	d->depth--;
	fputc('}', d->fp);
}

int table_csv_columns(struct table_doc *d, const struct table_column *cols, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < d->ncsv; j++)
			if (!strcmp(d->csv_cols[j], cols[i].name))
				break;
		if (j < d->ncsv)
			continue;
		if (array_grow(&d->csv_cols, &d->alloc_csv, d->ncsv + 1, sizeof(*d->csv_cols)) < 0)
			return error("out of memory");
		d->csv_cols[d->ncsv++] = cols[i].name;
	}
	return 0;
}

static void write_value(struct table_doc *d, const struct table_column *c,
			const void *ctx, size_t row)
{
	union table_value v;
	FILE *fp = d->fp;
	int json = d->fmt == TABLE_JSON;

	if (!c->get(ctx, row, c, &v)) {
		if (json)
			fputs("null", fp);
		return;
	}
	switch (c->type) {
	case TCOL_STR:
		if (!v.s)
			fputs(json ? "null" : "", fp);
		else if (json)
			json_str(fp, v.s);
		else if (d->fmt == TABLE_MARKDOWN)
			md_str(fp, v.s);
		else
			csv_str(fp, v.s);
		break;
	case TCOL_F64:
		if (json)
			json_num(fp, v.f);
		else if (isfinite(v.f))
			fprintf(fp, "%.10g", v.f);
		break;
	case TCOL_U64:
		fprintf(fp, "%llu", (unsigned long long)v.u);
		break;
	case TCOL_I64:
		fprintf(fp, "%lld", (long long)v.i);
		break;
	case TCOL_BOOL:
		fputs(json ? (v.b ? "true" : "false") : (v.b ? "1" : "0"), fp);
		break;
	case TCOL_INT:
		fprintf(fp, "%d", v.n);
		break;
	case TCOL_SIZE:
		fprintf(fp, "%zu", v.z);
		break;
	}
}

/* A GitHub-flavoured markdown table: the columns' names, then a row per
 * record, numbers right-aligned. */
static void md_table(struct table_doc *d, const struct table_column *cols, size_t ncols,
		     size_t nrows, const void *ctx)
{
	size_t r, i;

	for (i = 0; i < ncols; i++) {
		fputs("| ", d->fp);
		md_str(d->fp, cols[i].name);
		fputc(' ', d->fp);
	}
	fputs("|\n", d->fp);
	for (i = 0; i < ncols; i++)
		fputs(cols[i].type == TCOL_STR || cols[i].type == TCOL_BOOL ? "|---" : "|---:",
		      d->fp);
	fputs("|\n", d->fp);
	for (r = 0; r < nrows; r++) {
		for (i = 0; i < ncols; i++) {
			fputs("| ", d->fp);
			write_value(d, &cols[i], ctx, r);
			fputc(' ', d->fp);
		}
		fputs("|\n", d->fp);
	}
}

void table_write(struct table_doc *d, const char *table, const struct table_column *cols,
		 size_t ncols, size_t nrows, const void *ctx)
{
	size_t r, i, j;

	if (d->fmt == TABLE_MARKDOWN) {
		md_table(d, cols, ncols, nrows, ctx);
		return;
	}

	if (d->fmt == TABLE_JSON) {
		json_key(d, table);
		fputc('[', d->fp);
		for (r = 0; r < nrows; r++) {
			fputs(r ? ",\n    {" : "\n    {", d->fp);
			for (i = 0; i < ncols; i++) {
				if (i)
					fputs(", ", d->fp);
				json_str(d->fp, cols[i].name);
				fputs(": ", d->fp);
				write_value(d, &cols[i], ctx, r);
			}
			fputc('}', d->fp);
		}
		fputs(nrows ? "\n  ]" : "]", d->fp);
		return;
	}
	if (!d->csv_header_done) {
		fputs("record", d->fp);
		for (j = 0; j < d->ncsv; j++) {
			fputc(',', d->fp);
			csv_str(d->fp, d->csv_cols[j]);
		}
		fputs("\r\n", d->fp);
		d->csv_header_done = 1;
	}
	for (r = 0; r < nrows; r++) {
		csv_str(d->fp, table);
		for (j = 0; j < d->ncsv; j++) {
			fputc(',', d->fp);
			for (i = 0; i < ncols; i++)
				if (!strcmp(cols[i].name, d->csv_cols[j]))
					break;
			if (i < ncols)
				write_value(d, &cols[i], ctx, r);
		}
		fputs("\r\n", d->fp);
	}
}

int table_end(struct table_doc *d)
{
	int ret = 0;

	if (d->fmt == TABLE_JSON) {
		while (d->depth > 0)
			table_object_end(d);
		fputs("\n}\n", d->fp);
	}
	if (fflush(d->fp) != 0 || ferror(d->fp))
		ret = error("cannot write the results: %s", strerror(errno ? errno : EIO));
	free(d->csv_cols);
	d->csv_cols = NULL;
	return ret;
}

int table_get_field(const void *ctx, size_t row, const struct table_column *col,
		    union table_value *v)
{
	const struct table_array *a = ctx;
	const char *p = (const char *)a->base + table_row(a, row) * a->size + col->arg;

	switch (col->type) {
	case TCOL_STR:
		memcpy(&v->s, p, sizeof(v->s));
		return 1;
	case TCOL_F64:
		memcpy(&v->f, p, sizeof(v->f));
		return 1;
	case TCOL_U64:
		memcpy(&v->u, p, sizeof(v->u));
		return 1;
	case TCOL_I64:
		memcpy(&v->i, p, sizeof(v->i));
		return 1;
	case TCOL_BOOL:
		memcpy(&v->b, p, sizeof(v->b));
		return 1;
	case TCOL_INT:
		memcpy(&v->n, p, sizeof(v->n));
		return 1;
	case TCOL_SIZE:
		memcpy(&v->z, p, sizeof(v->z));
		return 1;
	}
	return 0;
}
