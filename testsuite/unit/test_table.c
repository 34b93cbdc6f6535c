/* Unit tests for the result-table writer (export/table.c). */
#define _GNU_SOURCE /* open_memstream */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "export/table.h"
#include "utils/banned.h"

/* Two rows: a name with every character JSON and CSV must escape, and a
 * row whose ratio is undefined. */
struct row { const char *name; double ratio; uint64_t calls; int flag; };
static const struct row rows[] = {
	{ "a \"b\", c\\d\n\x01\xe2\x82\xac\xff", 0.5, 3, 1 },
	{ "plain", NAN, 18446744073709551615ull, 0 },
};

static int get_ratio(const void *c, size_t row, const struct table_column *col,
		     union table_value *v)
{
	int r = table_get_field(c, row, col, v);

	return r && !isnan(v->f);
}

static const struct table_column cols[] = {
	{ "name", TCOL_STR, table_get_field, offsetof(struct row, name) },
	{ "ratio", TCOL_F64, get_ratio, offsetof(struct row, ratio) },
	{ "calls", TCOL_U64, table_get_field, offsetof(struct row, calls) },
	{ "flag", TCOL_BOOL, table_get_field, offsetof(struct row, flag) },
};

static const struct table_column other[] = {
	{ "calls", TCOL_U64, table_get_field, offsetof(struct row, calls) },
	{ "extra", TCOL_U64, table_get_field, offsetof(struct row, calls) },
};

static char *write_doc(enum table_format fmt)
{
	struct table_array a = { rows, sizeof(rows[0]), NULL };
	struct table_doc d;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	table_begin(&d, fp, fmt, "test-schema", 7);
	table_object_begin(&d, "side");
	table_field_str(&d, "label", "x\ty");
	table_object_end(&d);
	assert_int_equal(table_csv_columns(&d, cols, 4), 0);
	assert_int_equal(table_csv_columns(&d, other, 2), 0);
	table_write(&d, "rows", cols, 4, 2, &a);
	table_write(&d, "others", other, 2, 1, &a);
	assert_int_equal(table_end(&d), 0);
	fclose(fp);
	return buf;
}

static void test_table__json_escapes_and_nulls(void **state)
{
	char *s = write_doc(TABLE_JSON);

	(void)state;
	assert_non_null(strstr(s, "\"schema\": \"test-schema\""));
	assert_non_null(strstr(s, "\"version\": 7"));
	assert_non_null(strstr(s, "\"side\": {\n    \"label\": \"x\\u0009y\"}"));
	/* quote, backslash, control characters escaped; UTF-8 kept; a byte
	 * that is not UTF-8 read as Latin-1 */
	assert_non_null(strstr(s, "\"name\": \"a \\\"b\\\", c\\\\d\\u000a\\u0001\xe2\x82\xac\\u00ff\""));
	assert_non_null(strstr(s, "\"ratio\": 0.5, \"calls\": 3, \"flag\": true}"));
	assert_non_null(strstr(s, "\"ratio\": null, \"calls\": 18446744073709551615, \"flag\": false}"));
	free(s);
}

static void test_table__csv_has_one_header_for_every_table(void **state)
{
	char *s = write_doc(TABLE_CSV);

	(void)state;
	assert_true(!strncmp(s, "record,name,ratio,calls,flag,extra\r\n", 36));
	assert_non_null(strstr(s, "\r\nrows,\"a \"\"b\"\", c\\d\n\x01\xe2\x82\xac\xff\",0.5,3,1,\r\n"));
	assert_non_null(strstr(s, "\r\nrows,plain,,18446744073709551615,0,\r\n"));
	assert_non_null(strstr(s, "\r\nothers,,,3,,3\r\n"));
	assert_null(strstr(s, "test-schema"));
	free(s);
}

static void test_table__format_names(void **state)
{
	(void)state;
	assert_int_equal(table_format_parse("json"), TABLE_JSON);
	assert_int_equal(table_format_parse("csv"), TABLE_CSV);
	assert_int_equal(table_format_parse("text"), TABLE_TEXT);
	assert_int_equal(table_format_parse("xml"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table__json_escapes_and_nulls),
		cmocka_unit_test(test_table__csv_has_one_header_for_every_table),
		cmocka_unit_test(test_table__format_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
