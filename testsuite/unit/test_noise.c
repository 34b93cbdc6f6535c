/* Unit tests for the sampling-noise rule (diff/noise.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>
#include "diff/diff.h"
#include "diff/noise.h"
#include "testsuite/unit/diff_fixture.h"
#include "utils/banned.h"

static void test_noise__within_two_sqrt_of_total_samples_is_flagged(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff_opts o = { 2.0 };
	struct diff d;

	(void)state;
	/* 2*sqrt(100+90) = 27.6 ticks: 10 is noise, 60 is not. */
	fx_sym(a, "noisy", NULL, 0, 100, 0);
	fx_sym(b, "noisy", NULL, 0, 90, 0);
	fx_sym(a, "real", NULL, 0, 100, 0);
	fx_sym(b, "real", NULL, 0, 40, 0);
	assert_int_equal(diff_compute(&d, a, b, &o), 0);
	assert_int_equal(d.entries[diff_find(&d, "noisy")].noise, NOISE_WITHIN);
	assert_int_equal(d.entries[diff_find(&d, "real")].noise, NOISE_NONE);
	assert_float_equal(d.entries[diff_find(&d, "noisy")].noise_sec,
			   2 * sqrt(190) / 100, 1e-12);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_noise__equal_sides_are_not_noise(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;

	(void)state;
	fx_sym(a, "f", NULL, 0, 50, 0);
	fx_sym(b, "f", NULL, 0, 50, 0);
	fx_sym(a, "g", NULL, 0, 0, 0);
	fx_sym(b, "g", NULL, 0, 0, 0);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_int_equal(d.entries[0].noise, NOISE_NONE);
	assert_int_equal(d.entries[1].noise, NOISE_NONE);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_noise__sampling_rates_weigh_each_side(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(1000);
	struct diff d;

	(void)state;
	fx_sym(a, "f", NULL, 0, 100, 0);   /* 1 s, sigma 0.1 s */
	fx_sym(b, "f", NULL, 0, 1000, 0);  /* 1 s, sigma 0.0316 s */
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_float_equal(d.entries[0].noise_sec,
			   2 * sqrt(100.0 / 1e4 + 1000.0 / 1e6), 1e-12);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_noise__spread_across_ranks_widens_the_threshold(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct profile *r[2];
	struct diff d;
	double before;

	(void)state;
	/* a sums two ranks of 10 and 90 ticks; b has 60 ticks. */
	fx_sym(a, "f", NULL, 0, 100, 0);
	fx_sym(b, "f", NULL, 0, 60, 0);
	r[0] = fx_new(100);
	fx_sym(r[0], "f", NULL, 0, 10, 0);
	r[1] = fx_new(100);
	fx_sym(r[1], "f", NULL, 0, 90, 0);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	before = d.entries[0].noise_sec;
	assert_int_equal(d.entries[0].noise, NOISE_NONE); /* 40 > 2*sqrt(160)=25.3 */
	assert_int_equal(noise_set_spread(&d, DIFF_BASE, r, 2), 0);
	noise_apply(&d, 2.0);
	/* spread: sd(0.1, 0.9) = 0.566 s, times sqrt(2) runs */
	assert_true(d.entries[0].noise_sec > before);
	assert_float_equal(d.entries[0].side[0].spread_sec, sqrt(0.32), 1e-9);
	assert_int_equal(d.entries[0].noise, NOISE_WITHIN);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
	profile_free(r[0]);
	profile_free(r[1]);
}

static void test_noise__k_zero_turns_the_rule_off(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff_opts o = { 0 };
	struct diff d;

	(void)state;
	fx_sym(a, "f", NULL, 0, 100, 0);
	fx_sym(b, "f", NULL, 0, 99, 0);
	assert_int_equal(diff_compute(&d, a, b, &o), 0);
	assert_int_equal(d.entries[0].noise, NOISE_NONE);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_noise__within_two_sqrt_of_total_samples_is_flagged),
		cmocka_unit_test(test_noise__equal_sides_are_not_noise),
		cmocka_unit_test(test_noise__sampling_rates_weigh_each_side),
		cmocka_unit_test(test_noise__spread_across_ranks_widens_the_threshold),
		cmocka_unit_test(test_noise__k_zero_turns_the_rule_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
