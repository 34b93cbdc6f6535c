/* Unit tests for the significance rule (diff/signif.h) and, on simulated
 * A/A pairs, for the whole of a diff's verdicts (diff/noise.h,
 * diff/evidence.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <cmocka.h>
#include "diff/diff.h"
#include "diff/signif.h"
#include "testsuite/unit/diff_fixture.h"
#include "utils/banned.h"

static void test_signif__p_and_z_are_inverse(void **state)
{
	(void)state;
	assert_float_equal(signif_p(2), 0.0455003, 1e-6);
	assert_float_equal(signif_p(-2), 0.0455003, 1e-6);
	assert_float_equal(signif_z(0.0455003), 2, 1e-5);
	assert_float_equal(signif_z(0.05), 1.959964, 1e-5);
	assert_float_equal(signif_z(1), 0, 0);
	assert_float_equal(signif_z(0.05 / 300), 3.7648, 1e-3);
}

/* Bonferroni over the tests: alpha/10 for ten tests that could all pass. */
static void test_signif__the_cut_is_corrected_for_the_tests(void **state)
{
	struct signif_family f;
	int i;

	(void)state;
	signif_family_init(&f, 2);
	signif_add(&f, 5.0, INFINITY);
	signif_add(&f, -2.85, INFINITY);
	signif_add(&f, 2.81, INFINITY);
	for (i = 0; i < 7; i++)
		signif_add(&f, 0.5, INFINITY);
	signif_decide(&f);
	assert_int_equal(f.counted, 10);
	assert_float_equal(f.z_cut, signif_z(signif_p(2) / 10), 1e-9); /* 2.837 */
	assert_true(signif_pass(&f, 5.0));
	assert_true(signif_pass(&f, -2.85));
	assert_false(signif_pass(&f, 2.81));
	signif_family_release(&f);
}

/* Tarone: tests that cannot reach the cut (a function of 3 samples) are
 * not counted, so 200 of them do not raise the bar of the one that can. */
static void test_signif__tests_that_cannot_pass_are_not_counted(void **state)
{
	struct signif_family f, g;
	int i;

	(void)state;
	signif_family_init(&f, 2);
	signif_family_init(&g, 2);
	for (i = 0; i < 200; i++) {
		signif_add(&f, 0.5, 1.7);
		signif_add(&g, 0.5, INFINITY);
	}
	signif_add(&f, 3.0, 10);
	signif_add(&g, 3.0, 10);
	signif_decide(&f);
	signif_decide(&g);
	assert_int_equal(f.counted, 1);
	assert_true(signif_pass(&f, 3.0));   /* alpha/1: 2.0 */
	assert_int_equal(g.counted, 201);
	assert_false(signif_pass(&g, 3.0));  /* alpha/201: 3.89 */
	signif_family_release(&f);
	signif_family_release(&g);
}

static void test_signif__k_zero_passes_every_difference(void **state)
{
	struct signif_family f;

	(void)state;
	signif_family_init(&f, 0);
	signif_add(&f, 0.01, INFINITY);
	signif_decide(&f);
	assert_true(signif_pass(&f, 0.01));
	assert_false(signif_pass(&f, 0));
	signif_family_release(&f);
}

static void test_signif__counts_are_poisson(void **state)
{
	(void)state;
	assert_float_equal(signif_count_z(1, 0, 0), 1, 1e-12);
	assert_float_equal(signif_count_z(6, 15, 0), -9 / sqrt(21), 1e-12);
	assert_float_equal(signif_count_z(594, 9504, 0), -8910 / sqrt(10098), 1e-12);
	assert_float_equal(signif_count_z(7, 7, 0), 0, 0);
	assert_float_equal(signif_count_z(10, 0, 10), 10 / sqrt(20), 1e-12);
	assert_float_equal(signif_count_zmax(9), 3, 0);
}

/* 2 of 3 samples where gprof says 1/3 is no evidence; 80 of 100 where it
 * says 50% is. */
static void test_signif__shares_small_and_large(void **state)
{
	(void)state;
	/* exact: P(X >= 2 | n=3, p=1/3) = 7/27, doubled */
	assert_float_equal(signif_share_z(2, 3, 1.0 / 3), signif_z(14.0 / 27), 1e-9);
	assert_true(fabs(signif_share_z(2, 3, 1.0 / 3)) < 1);
	assert_float_equal(signif_share_z(80, 100, 0.5), 29.5 / 5, 1e-12);
	assert_float_equal(signif_share_z(50, 100, 0.5), 0, 0);
	assert_true(signif_share_z(20, 100, 0.5) < -5);
}

/* A tiny share of a huge count (a forged sidecar's 2^64 - 1 samples) is
 * answered at once: the exact sum looped over every count up to n. */
static void test_signif__shares_of_huge_counts_end(void **state)
{
	(void)state;
	assert_true(signif_share_z(UINT64_MAX, UINT64_MAX, 1e-19) > 5);
	assert_float_equal(signif_share_z(2, UINT64_MAX, 1.0 / 18446744073709551615.0),
			   signif_share_z(2, 1000000, 1e-6), 1e-3);
	/* g above 1/2: the complement's answer, with its sign */
	assert_float_equal(signif_share_z(1, 3, 2.0 / 3), -signif_share_z(2, 3, 1.0 / 3), 1e-9);
	assert_true(signif_share_z(0, UINT64_MAX, 1 - 1e-19) < -5);
}

/* ------------------------------------------------------------------------ */
/* Simulated A/A pairs                                                      */

/* xorshift64*: the same numbers on every machine */
static uint64_t rng = 88172645463325252ull;

static double uniform(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (double)((rng * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

static double normal(void)
{
	double u = uniform(), v = uniform();

	return sqrt(-2 * log(u > 0 ? u : 1e-300)) * cos(2 * M_PI * v);
}

static double poisson(double lambda)
{
	double l, p = 1;
	int k = 0;

	if (lambda > 50)
		return fmax(0, round(lambda + sqrt(lambda) * normal()));
	l = exp(-lambda);
	do {
		k++;
		p *= uniform();
	} while (p > l);
	return k - 1;
}

#define NFUNC 150

/* One run of a program of NFUNC functions: time t[f] seconds at 100 Hz,
 * each function off by a jitter of 6% of its time and the run by a speed
 * of 3%, its samples Poisson; calls exact, but a few functions' counts
 * vary from run to run (a random hash seed) and one calls 0 to 20 times. */
static struct profile *sim_run(const double *t, double factor, int changed)
{
	struct profile *p = fx_new(100);
	double speed = exp(0.03 * normal());
	char name[16];
	int f;

	for (f = 0; f < NFUNC; f++) {
		double sec = t[f] * speed * exp(0.06 * normal()) * (f == changed ? factor : 1);
		uint64_t calls = 1000 + 37 * (uint64_t)f;

		if (f % 25 == 3)
			calls = (uint64_t)poisson((double)calls);
		if (f == 7) {
			/* 0 to 20 calls, its time with them */
			calls = (uint64_t)(uniform() * 21);
			sec *= (double)calls / 10;
		}
		snprintf(name, sizeof(name), "fn%03d", f);
		fx_sym(p, name, NULL, 0, poisson(sec * 100), calls);
	}
	return p;
}

/* Pairs of runs, `changed` slowed by `factor` in the second (-1: none):
 * how many pairs show any significant row, and how many show `changed`
 * first. */
static void simulate(int pairs, int changed, double factor, int *any, int *first)
{
	double t[NFUNC];
	int f, i;

	*any = *first = 0;
	for (f = 0; f < NFUNC; f++) /* 10 ms .. 5 s, log-uniform */
		t[f] = 0.01 * pow(500, uniform());
	if (changed >= 0)
		t[changed] = 2.0;
	for (i = 0; i < pairs; i++) {
		struct profile *a = sim_run(t, 1, -1), *b = sim_run(t, factor, changed);
		struct diff d;
		size_t k, n = 0;

		assert_int_equal(diff_compute(&d, a, b, NULL), 0);
		diff_sort(&d);
		for (k = 0; k < d.nentries; k++)
			n += d.entries[k].significant;
		*any += n > 0;
		if (changed >= 0 && d.entries[0].significant) {
			char name[16];

			snprintf(name, sizeof(name), "fn%03d", changed);
			*first += strcmp(d.entries[0].name, name) == 0;
		}
		diff_release(&d);
		profile_free(a);
		profile_free(b);
	}
}

/*
 * The noise bound: the rule promises that two runs of one program show any
 * significant row with a chance of at most signif_p(2) = 4.55% (K = 2),
 * when its noise model holds: the simulated runs follow it (sampling,
 * a 6% jitter of each function, a 3% speed of each run, call counts that
 * vary for a few functions).  60 pairs: 2.7 expected; more than 8 has a
 * chance under 0.3% (binomial); the numbers are fixed (a seeded generator),
 * so the test does not flicker.  A rule without the correction for the
 * number of rows (z_cut = 2) shows a false row in nearly every pair, one
 * without the jitter in most: both fail here.
 */
static void test_signif__simulated_aa_pairs_show_few_false_rows(void **state)
{
	int any, first;

	(void)state;
	rng = 88172645463325252ull;
	simulate(60, -1, 1, &any, &first);
	printf("# %d of 60 simulated A/A pairs showed a significant row\n", any);
	assert_true(any <= 8);
}

/* ... and the rule still sees a real change: a function of 2 s made 2.5
 * times as slow among 150 is the first significant row in at least 54 of
 * 60 pairs (the acceptance's 90%). */
static void test_signif__simulated_changes_come_first(void **state)
{
	int any, first;

	(void)state;
	rng = 1181783497276652981ull;
	simulate(60, 42, 2.5, &any, &first);
	printf("# the changed function came first in %d of 60 simulated pairs\n", first);
	assert_true(first >= 54);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signif__p_and_z_are_inverse),
		cmocka_unit_test(test_signif__the_cut_is_corrected_for_the_tests),
		cmocka_unit_test(test_signif__tests_that_cannot_pass_are_not_counted),
		cmocka_unit_test(test_signif__k_zero_passes_every_difference),
		cmocka_unit_test(test_signif__counts_are_poisson),
		cmocka_unit_test(test_signif__shares_small_and_large),
		cmocka_unit_test(test_signif__shares_of_huge_counts_end),
		cmocka_unit_test(test_signif__simulated_aa_pairs_show_few_false_rows),
		cmocka_unit_test(test_signif__simulated_changes_come_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
