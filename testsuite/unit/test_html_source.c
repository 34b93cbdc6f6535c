/* Unit tests for the source view's bounded text (export/html_source.c). */
#define _GNU_SOURCE /* open_memstream */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "export/html_source.h"
#include "utils/banned.h"

/* A file of `n` lines "line K" (one line of `long_line` bytes at 7). */
static char *make_file(int n, size_t long_line)
{
	char *path = strdup("/tmp/test_html_source.XXXXXX");
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	assert_non_null(f);
	for (int i = 1; i <= n; i++) {
		if (i == 7 && long_line) {
			for (size_t k = 0; k < long_line; k++)
				fputc('x', f);
			fputc('\n', f);
		} else {
			fprintf(f, "line %d\n", i);
		}
	}
	fclose(f);
	return path;
}

static char *doc(const struct source_mark *m, size_t n, const struct source_limits *lim)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(source_doc_write(fp, m, n, lim), 0);
	fclose(fp);
	return buf;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

static void test_a_function_in_a_long_file_embeds_its_neighbourhood_only(void **state)
{
	char *path = make_file(20000, 0), *d;
	struct source_mark m[] = {
		{ "f", path, 10000, 30 }, { "f", path, 10003, 10 },
	};
	const struct source_limits lim = SOURCE_LIMITS_INIT;

	(void)state;
	d = doc(m, 2, &lim);
	/* the span 10000..10003 and 5 lines each side: 9995..10008 */
	assert_non_null(strstr(d, "\"first\": 9995, \"text\": [\"line 9995\""));
	assert_non_null(strstr(d, "\"line 10008\"]}"));
	assert_int_equal(count(d, "\"line "), 14);
	assert_null(strstr(d, "\"line 9994\""));
	assert_null(strstr(d, "\"line 10009\""));
	assert_non_null(strstr(d, "\"truncated\": false"));
	free(d);
	unlink(path);
	free(path);
}

static void test_a_long_span_embeds_each_sampled_line_with_its_context(void **state)
{
	char *path = make_file(20000, 0), *d;
	struct source_mark m[] = {
		{ "g", path, 100, 1 }, { "g", path, 5000, 1 },
		{ "h", path, 3, 1 },	/* another function: its own span */
	};
	const struct source_limits lim = { 2, 50, 1 << 20, 1000 };

	(void)state;
	d = doc(m, 3, &lim);
	assert_non_null(strstr(d, "\"first\": 1, \"text\": [\"line 1\""));
	assert_non_null(strstr(d, "\"first\": 98, \"text\": [\"line 98\""));
	assert_non_null(strstr(d, "\"first\": 4998, \"text\": [\"line 4998\""));
	assert_int_equal(count(d, "\"line "), 5 + 5 + 5);
	free(d);
	unlink(path);
	free(path);
}

static void test_the_cap_stops_the_text_and_says_so(void **state)
{
	char *hot = make_file(100, 0), *cold = make_file(100, 0), *d;
	struct source_mark m[] = {
		{ "hot", hot, 50, 100 }, { "cold", cold, 50, 1 },
	};
	/* 11 lines of "line NN" (7 bytes): the hot file's fits in 80 bytes,
	 * the cold one's does not */
	const struct source_limits lim = { 5, 400, 80, 1000 };
	size_t bytes = 0;
	const char *b;

	(void)state;
	d = doc(m, 2, &lim);
	assert_non_null(strstr(d, "\"truncated\": true"));
	assert_int_equal(count(d, "\"line "), 11);
	/* the hottest file first, whole; the other left out, said so */
	assert_true(strstr(d, hot) < strstr(d, cold));
	assert_non_null(strstr(d, "\"cut\": false"));
	assert_non_null(strstr(d, "\"cut\": true"));
	b = strstr(d, "\"bytes\": ");
	assert_non_null(b);
	bytes = (size_t)strtoul(b + 9, NULL, 10);
	assert_true(bytes <= 80 && bytes == 77);
	free(d);
	unlink(hot);
	unlink(cold);
	free(hot);
	free(cold);
}

static void test_an_unreadable_file_is_named_with_its_reason(void **state)
{
	struct source_mark m[] = { { "f", "/nonexistent/dir/x.c", 3, 1 } };
	const struct source_limits lim = SOURCE_LIMITS_INIT;
	char *d;

	(void)state;
	d = doc(m, 1, &lim);
	assert_non_null(strstr(d, "\"file\": \"/nonexistent/dir/x.c\", \"readable\": false, \"why\": \""));
	assert_non_null(strstr(d, "/nonexistent/dir/x.c"));
	assert_non_null(strstr(d, "\"files_read\": 0"));
	free(d);
}

static void test_a_long_line_is_cut(void **state)
{
	char *path = make_file(10, 5000), *d;
	struct source_mark m[] = { { "f", path, 7, 1 } };
	const struct source_limits lim = { 0, 400, 1 << 20, 100 };

	(void)state;
	d = doc(m, 1, &lim);
	assert_int_equal(count(d, "xxxxxxxxxx"), 10);
	assert_non_null(strstr(d, "\"xxxxxxxxxx"));
	assert_non_null(strstr(d, "xxx...\"]"));
	free(d);
	unlink(path);
	free(path);
}

static void test_lines_without_a_file_are_left_out(void **state)
{
	struct source_mark m[] = { { "f", NULL, 0, 9 } };
	const struct source_limits lim = SOURCE_LIMITS_INIT;
	char *d;

	(void)state;
	d = doc(m, 1, &lim);
	assert_non_null(strstr(d, "\"files\": []"));
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_function_in_a_long_file_embeds_its_neighbourhood_only),
		cmocka_unit_test(test_a_long_span_embeds_each_sampled_line_with_its_context),
		cmocka_unit_test(test_the_cap_stops_the_text_and_says_so),
		cmocka_unit_test(test_an_unreadable_file_is_named_with_its_reason),
		cmocka_unit_test(test_a_long_line_is_cut),
		cmocka_unit_test(test_lines_without_a_file_are_left_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
