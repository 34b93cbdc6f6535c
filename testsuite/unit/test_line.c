/* Unit tests for the line builder (utils/line.h): each appender writes
 * what the printf conversion it stands for writes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <math.h>
#include <cmocka.h>
#include "utils/line.h"
#include "utils/banned.h"

/* The line's text so far, NUL-terminated (the builder keeps room). */
static const char *text(struct line *l)
{
	assert_int_equal(line_reserve(l, 0), 0);
	l->s[l->len] = '\0';
	return l->s;
}

static void same_int(long long v, int width)
{
	struct line l = LINE_INIT;
	char want[64];

	snprintf(want, sizeof(want), "%*lld", width, v);
	assert_int_equal(line_int(&l, v, width), 0);
	assert_string_equal(text(&l), want);
	line_release(&l);
}

static void same_uint(unsigned long long v, int width)
{
	struct line l = LINE_INIT;
	char want[64];

	snprintf(want, sizeof(want), "%*llu", width, v);
	assert_int_equal(line_uint(&l, v, width), 0);
	assert_string_equal(text(&l), want);
	line_release(&l);
}

static void test_line__integers_are_printfs(void **state)
{
	static const long long v[] = { 0, 1, -1, 9, -9, 10, 1234567, -1234567, 12345678,
				       -12345678, LLONG_MAX, LLONG_MIN };
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		for (int w = -12; w <= 12; w++) {
			same_int(v[i], w);
			same_uint((unsigned long long)v[i], w);
		}
	same_uint(ULLONG_MAX, 25);
}

static void same_fixed(double v, int width, int prec)
{
	struct line l = LINE_INIT;
	char want[512];

	snprintf(want, sizeof(want), "%*.*f", width, prec, v);
	assert_int_equal(line_fixed(&l, v, width, prec), 0);
	assert_string_equal(text(&l), want);
	line_release(&l);
	snprintf(want, sizeof(want), "%+.*f", prec, v);
	assert_int_equal(line_fixed_plus(&l, v, prec), 0);
	assert_string_equal(text(&l), want);
	line_release(&l);
}

static void test_line__fixed_and_signed_fixed_are_printfs(void **state)
{
	static const double v[] = { 0.0, -0.0, 0.004, -0.004, 0.005, 0.015, 2.675, -2.675,
				    1e15, 123.456, HUGE_VAL, -HUGE_VAL, NAN };
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		for (int prec = 0; prec <= 3; prec++)
			for (int w = 0; w <= 11; w++)
				same_fixed(v[i], w, prec);
	for (int i = -20000; i <= 20000; i++)
		same_fixed(i / 1000.0, 8, 2);
}

static void test_line__strings_are_padded_as_printf_pads_them(void **state)
{
	struct line l = LINE_INIT;
	char want[128];

	(void)state;
	snprintf(want, sizeof(want), "%9s|%-9s|%3s|%-3s|%s|%c|%*s|", "31+2", "-", "abcdef",
		 "abcdef", "x", 'y', 5, "");
	line_pad(&l, "31+2", 9);
	line_char(&l, '|');
	line_pad(&l, "-", -9);
	line_char(&l, '|');
	line_pad(&l, "abcdef", 3);
	line_char(&l, '|');
	line_pad(&l, "abcdef", -3);
	line_char(&l, '|');
	line_str(&l, "x");
	line_char(&l, '|');
	line_char(&l, 'y');
	line_char(&l, '|');
	line_spaces(&l, 5);
	line_put(&l, "|tail", 1);
	assert_string_equal(text(&l), want);
	line_release(&l);
}

/* A stream into memory, for what a flush writes. */
static FILE *memory_stream(char **out, size_t *size)
{
	FILE *f = open_memstream(out, size);

	assert_non_null(f);
	return f;
}

static void test_line__flush_writes_the_text_and_empties_the_line(void **state)
{
	struct line l = LINE_INIT;
	char *out = NULL;
	size_t size = 0;
	FILE *f = memory_stream(&out, &size);

	(void)state;
	line_str(&l, "abc");
	assert_int_equal(line_flush_over(&l, f, 4), 0);
	assert_int_equal(l.len, 3);	/* under the threshold: kept */
	line_str(&l, "d\n");
	assert_int_equal(line_flush_over(&l, f, 4), 0);
	assert_int_equal(l.len, 0);
	for (int i = 0; i < 10000; i++)	/* grows past any first allocation */
		line_int(&l, i % 10, 0);
	assert_int_equal(line_flush(&l, f), 0);
	fclose(f);
	assert_int_equal(size, 5 + 10000);
	assert_memory_equal(out, "abcd\n0123456789", 15);
	free(out);
	line_release(&l);
}

/* Out of memory once, the line writes nothing more, and line_finish says
 * so: a report is never silently cut. */
static void test_line__a_failed_append_stops_the_text_and_is_reported(void **state)
{
	struct line l = LINE_INIT;
	char *out = NULL;
	size_t size = 0;
	FILE *f = memory_stream(&out, &size);

	(void)state;
	line_str(&l, "kept\n");
	assert_int_equal(line_flush(&l, f), 0);
	line_str(&l, "lost");
	/* a reservation no allocator grants */
	assert_int_equal(line_reserve(&l, SIZE_MAX / 2), -1);
	{
		/* (called through a pointer: gcc would warn about the never
		 * run memcpy of the inline line_put, SIZE_MAX / 2 bytes) */
		int (*volatile put)(struct line *, const char *, size_t) = line_put;

		assert_int_equal(put(&l, "x", SIZE_MAX / 2), -1);
	}
	assert_true(l.failed);
	assert_int_equal(line_flush(&l, f), -1);
	line_str(&l, "after");
	assert_int_equal(line_flush(&l, f), -1);
	assert_int_equal(line_finish(&l, f), -1);
	assert_null(l.s);
	/* released: usable again */
	line_str(&l, "again\n");
	assert_int_equal(line_finish(&l, f), 0);
	fclose(f);
	assert_int_equal(size, 11);
	assert_memory_equal(out, "kept\nagain\n", 11);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line__integers_are_printfs),
		cmocka_unit_test(test_line__fixed_and_signed_fixed_are_printfs),
		cmocka_unit_test(test_line__strings_are_padded_as_printf_pads_them),
		cmocka_unit_test(test_line__flush_writes_the_text_and_empties_the_line),
		cmocka_unit_test(test_line__a_failed_append_stops_the_text_and_is_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
