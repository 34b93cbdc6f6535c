/* Unit tests for printf-exact fixed-point numbers (utils/fixed.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>
#include "utils/fixed.h"
#include "utils/banned.h"

static void same_as_printf(double v, int width, int prec)
{
	char want[FIXED_MAX], got[FIXED_MAX];
	int n = snprintf(want, sizeof(want), "%*.*f", width, prec, v);
	size_t m = fixed_format(got, v, width, prec);

	assert_string_equal(got, want);
	assert_int_equal(m, (size_t)n);
}

static void all_ways(double v)
{
	for (int prec = 0; prec <= 3; prec++)
		for (int width = 0; width <= 12; width += 3) {
			same_as_printf(v, width, prec);
			same_as_printf(-v, width, prec);
		}
}

static void test_fixed__plain_values_are_printfs(void **state)
{
	(void)state;
	all_ways(0.0);
	all_ways(1.0);
	all_ways(3.14159);
	all_ways(99.999);
	all_ways(0.004999);
	all_ways(123456.789);
	all_ways(1e-300);
}

static void test_fixed__halves_round_as_printf_does(void **state)
{
	(void)state;
	/* exact halves (printf rounds them to even) and decimal ones that
	 * are a little above or below in binary */
	all_ways(0.5);
	all_ways(1.5);
	all_ways(2.5);
	all_ways(0.125);
	all_ways(0.375);
	all_ways(0.005);
	all_ways(0.015);
	all_ways(2.675);
	all_ways(1.005);
	all_ways(0.0005);
	for (int i = 0; i < 5000; i++) {
		all_ways(i / 1000.0 + 0.0005);
		all_ways(i / 100.0 + 0.005);
	}
}

/* Values whose scaled product lands on a half after rounding, or one ulp
 * beside it: the cases the exact remainder decides. */
static void test_fixed__near_halves_are_printfs(void **state)
{
	(void)state;
	for (int i = 0; i < 20000; i++) {
		for (int prec = 0; prec <= 3; prec++) {
			double h = (i + 0.5) / (prec == 0 ? 1.0 : prec == 1 ? 10.0
						: prec == 2 ? 100.0 : 1000.0);
			double v[3] = { nextafter(h, 0.0), h, nextafter(h, 1e300) };

			for (int j = 0; j < 3; j++) {
				same_as_printf(v[j], 8, prec);
				same_as_printf(-v[j], 8, prec);
			}
		}
		/* shares of powers of two: exact ties (3.125 -> "3.12") */
		same_as_printf(100.0 * (double)i / 65536.0, 6, 2);
		same_as_printf(100.0 / (double)(1u << (i % 31)), 6, 2);
	}
}

static void test_fixed__sample_times_are_printfs(void **state)
{
	(void)state;
	/* what the reports print: ticks / hz, percentages, per-call times */
	for (uint64_t t = 0; t < 20000; t++) {
		same_as_printf((double)t / 100.0, 9, 2);
		same_as_printf((double)t * 0.01, 8, 2);
		same_as_printf(100.0 * (double)t / 199999.0, 6, 2);
		same_as_printf(100.0 * (double)t / 7777.0, 5, 1);
		same_as_printf(-(double)t / 1000.0, 7, 2);
	}
}

static void test_fixed__random_doubles_are_printfs(void **state)
{
	uint64_t x = 88172645463325252ull;

	(void)state;
	for (int i = 0; i < 10000; i++) {
		double v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = ldexp((double)(x >> 11), -53) * pow(10.0, (double)(x % 19) - 6);
		all_ways(v);
	}
}

static void test_fixed__minus_zero_huge_and_not_finite_are_printfs(void **state)
{
	(void)state;
	all_ways(-0.0);
	all_ways(-0.001);
	all_ways(1e15);
	all_ways(1e300);
	all_ways(HUGE_VAL);
	all_ways(NAN);
	all_ways(9007199254740993.0);
}

static void test_fixed__print_writes_the_same_text(void **state)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	(void)state;
	assert_non_null(f);
	assert_int_equal(fixed_print(f, 2.675, 8, 2), 0);
	assert_int_equal(fixed_print(f, -0.004, 6, 2), 0);
	fclose(f);
	assert_string_equal(text, "    2.67 -0.00");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixed__plain_values_are_printfs),
		cmocka_unit_test(test_fixed__halves_round_as_printf_does),
		cmocka_unit_test(test_fixed__near_halves_are_printfs),
		cmocka_unit_test(test_fixed__sample_times_are_printfs),
		cmocka_unit_test(test_fixed__random_doubles_are_printfs),
		cmocka_unit_test(test_fixed__minus_zero_huge_and_not_finite_are_printfs),
		cmocka_unit_test(test_fixed__print_writes_the_same_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
