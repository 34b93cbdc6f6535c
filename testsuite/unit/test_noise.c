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
	struct diff_opts o = DIFF_OPTS_INIT;
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

/* One profile per file, each with "f" at the given ticks. */
static struct profile *one_run(double ticks)
{
	struct profile *p = fx_new(100);

	fx_sym(p, "f", NULL, 0, ticks, 0);
	return p;
}

static void free_runs(struct profile **r, size_t n)
{
	while (n--)
		profile_free(r[n]);
}

static void test_noise__spread_across_repeated_runs_widens_the_threshold(void **state)
{
	struct profile *a = one_run(100), *b = one_run(60);
	struct profile *r[2] = { one_run(10), one_run(90) };
	struct noise_runs runs[2] = { { r, NULL, 2 }, { NULL, NULL, 0 } };
	struct diff d;
	double before;

	(void)state;
	/* a sums two runs (no ranks) of 10 and 90 ticks; b has 60 ticks. */
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	before = d.entries[0].noise_sec;
	assert_int_equal(d.entries[0].noise, NOISE_NONE); /* 40 > 2*sqrt(160)=25.3 */
	assert_int_equal(noise_set_runs(&d, runs), 0);
	diff_assess(&d);
	/* sd(0.1, 0.9) = 0.566 s; the sum of 2 runs varies by 2 * 0.32 s^2 */
	assert_true(d.entries[0].noise_sec > before);
	assert_float_equal(d.entries[0].side[0].run_var, 2 * 0.32, 1e-9);
	assert_int_equal(d.repeated[DIFF_BASE], 1);
	assert_int_equal(d.entries[0].noise, NOISE_WITHIN);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
	free_runs(r, 2);
}

/*
 * Three repeats per side, spread about as much as sampling alone would
 * spread them: f takes 100, 110, 90 ticks (a) and 125, 135, 115 (b) at
 * 100 Hz, 0.75 s more in b.  Each side's spread, 1.4826 * MAD = 0.148 s a
 * run, is the whole noise of its sum (3 * 0.148^2 s^2): sampling (0.03 s^2)
 * is part of what the repeats measured, not an extra term.
 */
static void test_noise__spread_of_repeats_already_holds_their_sampling_noise(void **state)
{
	struct profile *ra[3] = { one_run(100), one_run(110), one_run(90) };
	struct profile *rb[3] = { one_run(125), one_run(135), one_run(115) };
	struct noise_runs runs[2] = { { ra, NULL, 3 }, { rb, NULL, 3 } };
	struct profile *a = one_run(300), *b = one_run(375);
	double sd = 1.4826 * 0.1;
	struct diff d;

	(void)state;
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_int_equal(noise_set_runs(&d, runs), 0);
	diff_assess(&d);
	assert_float_equal(d.entries[0].side[0].run_var, 3 * sd * sd, 1e-9);
	assert_float_equal(d.entries[0].noise_sec, 2 * sqrt(2 * 3 * sd * sd), 1e-9);
	assert_int_equal(d.entries[0].noise, NOISE_NONE);
	assert_int_equal(d.entries[0].significant, 1);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
	free_runs(ra, 3);
	free_runs(rb, 3);
}

static void test_noise__single_runs_apply_a_relative_floor(void **state)
{
	struct profile *a = one_run(10000), *b = one_run(9500);
	struct diff d;

	(void)state;
	/* 100 s vs 95 s: 2*sqrt(19500) = 279 ticks = 2.8 s of sampling noise,
	 * but one run per side varies more than that: 10% of 100 s. */
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_float_equal(d.entries[0].noise_sec, 10.0, 1e-9);
	assert_int_equal(d.entries[0].noise, NOISE_WITHIN);
	assert_int_equal(d.entries[0].significant, 0);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_noise__spread_across_ranks_of_one_job_is_signal_not_noise(void **state)
{
	/* Rank 2 doubles its time in the second job: 0.85 -> 1.72 s on that
	 * rank, the others equal.  The spread across ranks is the change
	 * itself; it must not widen the noise. */
	struct profile *ra[4] = { one_run(85), one_run(85), one_run(85), one_run(85) };
	struct profile *rb[4] = { one_run(85), one_run(85), one_run(172), one_run(85) };
	int rank[4] = { 0, 1, 2, 3 };
	struct noise_runs runs[2] = { { ra, rank, 4 }, { rb, rank, 4 } };
	struct profile *a = one_run(340), *b = one_run(427);
	struct diff d;

	(void)state;
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_int_equal(noise_set_runs(&d, runs), 0);
	diff_assess(&d);
	assert_float_equal(d.entries[0].side[1].run_var, 0, 0);
	assert_int_equal(d.entries[0].noise, NOISE_NONE);
	assert_int_equal(d.entries[0].significant, 1);
	assert_int_equal(d.nranks, 4);
	assert_int_equal(d.entries[0].nranks_changed, 1);
	assert_int_equal(d.entries[0].rank_changed[2], 1);
	assert_float_equal(d.entries[0].rank_diff[2], -0.87, 1e-9);
	assert_float_equal(d.entries[0].rank_diff[0], 0, 0);
	assert_float_equal(d.entries[0].slowest_diff, 0.85 - 1.72, 1e-9);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
	free_runs(ra, 4);
	free_runs(rb, 4);
}

static void test_noise__repeats_of_the_same_rank_measure_the_noise(void **state)
{
	/* Two runs of ranks 0 and 1 per side: rank 0 is fast, rank 1 slow
	 * (imbalance, not noise); each rank repeats within 2 ticks. */
	struct profile *ra[4] = { one_run(10), one_run(300), one_run(12), one_run(302) };
	struct profile *rb[4] = { one_run(11), one_run(301), one_run(11), one_run(301) };
	int rank[4] = { 0, 1, 0, 1 };
	struct noise_runs runs[2] = { { ra, rank, 4 }, { rb, rank, 4 } };
	struct profile *a = one_run(624), *b = one_run(624);
	struct diff d;

	(void)state;
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_int_equal(noise_set_runs(&d, runs), 0);
	diff_assess(&d);
	/* per rank sd(0.10, 0.12) = 0.01414 s, 2 runs: 2 * 2e-4 per rank */
	assert_float_equal(d.entries[0].side[0].run_var, 2 * (2e-4 + 2e-4), 1e-12);
	assert_int_equal(d.repeated[DIFF_BASE], 1);
	assert_int_equal(d.entries[0].nranks_changed, 0);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
	free_runs(ra, 4);
	free_runs(rb, 4);
}

static void test_noise__a_run_slowed_as_a_whole_is_judged_at_its_speed(void **state)
{
	/* The second run ran on a loaded machine: every function took twice
	 * its time, `changed` only 1.5 times: it got faster (by 0.51 s at
	 * the run's speed), although it took 0.50 s more. */
	struct profile *a = fx_new(100), *b = fx_new(100);
	const char *same[] = { "f1", "f2", "f3", "f4" };
	struct diff d;
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		fx_sym(a, same[i], NULL, 0, 100, 1);
		fx_sym(b, same[i], NULL, 0, 200 + (double)i, 1);
	}
	fx_sym(a, "changed", NULL, 0, 100, 1);
	fx_sym(b, "changed", NULL, 0, 150, 1);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_float_equal(d.speed, 2.01, 1e-9); /* median of 2, 2.01, 2.02, 2.03, 1.5 */
	for (i = 0; i < 4; i++)
		assert_int_equal(d.entries[diff_find(&d, same[i])].significant, 0);
	assert_float_equal(d.entries[diff_find(&d, "changed")].excess_sec, 0.51, 1e-9);
	assert_int_equal(d.entries[diff_find(&d, "changed")].significant, 1);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_noise__k_zero_turns_the_rule_off(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff_opts o = DIFF_OPTS_INIT;

	o.noise_sigmas = 0;
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
		cmocka_unit_test(test_noise__spread_across_repeated_runs_widens_the_threshold),
		cmocka_unit_test(test_noise__spread_of_repeats_already_holds_their_sampling_noise),
		cmocka_unit_test(test_noise__single_runs_apply_a_relative_floor),
		cmocka_unit_test(test_noise__spread_across_ranks_of_one_job_is_signal_not_noise),
		cmocka_unit_test(test_noise__repeats_of_the_same_rank_measure_the_noise),
		cmocka_unit_test(test_noise__a_run_slowed_as_a_whole_is_judged_at_its_speed),
		cmocka_unit_test(test_noise__k_zero_turns_the_rule_off),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
