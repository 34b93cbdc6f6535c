/* Unit tests for the noise model of a diff (diff/noise.h): sampling,
 * run-to-run jitter (assumed, measured on the pair, measured by repeats),
 * the runs' common speed, MPI ranks. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>
#include "diff/diff.h"
#include "diff/noise.h"
#include "diff/signif.h"
#include "testsuite/unit/diff_fixture.h"
#include "utils/banned.h"

static void test_noise__sampling_and_jitter_make_a_functions_noise(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff_opts o = DIFF_OPTS_INIT;
	struct diff d;
	double var;

	(void)state;
	/* one function: nothing to measure the jitter on, the prior (8%)
	 * stands; 1.00 s of 100 samples against 0.90 s of 90 */
	fx_sym(a, "f", NULL, 0, 100, 0);
	fx_sym(b, "f", NULL, 0, 90, 0);
	assert_int_equal(diff_compute(&d, a, b, &o), 0);
	assert_float_equal(d.jitter, 0.08, 1e-12);
	var = (100 + 90) / 1e4 + 0.08 * 0.08 * (1.0 + 0.81);
	assert_float_equal(d.entries[0].sigma_sec, sqrt(var), 1e-12);
	assert_float_equal(d.entries[0].noise_sec, d.z_cut * sqrt(var), 1e-12);
	assert_float_equal(d.entries[0].time_z, 0.1 / sqrt(var), 1e-12);
	assert_int_equal(d.entries[0].noise, NOISE_WITHIN);
	assert_int_equal(d.entries[0].verdict, VERDICT_NOISE);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_noise__sampling_rates_weigh_each_side(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(1000);
	struct diff_opts o = DIFF_OPTS_INIT;
	struct diff d;

	(void)state;
	o.jitter_prior = 0; /* sampling alone */
	fx_sym(a, "f", NULL, 0, 100, 0);   /* 1 s, sigma 0.1 s */
	fx_sym(b, "f", NULL, 0, 1000, 0);  /* 1 s, sigma 0.0316 s */
	assert_int_equal(diff_compute(&d, a, b, &o), 0);
	assert_float_equal(d.entries[0].sigma_sec, sqrt(100.0 / 1e4 + 1000.0 / 1e6), 1e-12);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_noise__equal_sides_are_equal_not_noise(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;

	(void)state;
	fx_sym(a, "f", NULL, 0, 50, 3);
	fx_sym(b, "f", NULL, 0, 50, 3);
	fx_sym(a, "g", NULL, 0, 0, 2);
	fx_sym(b, "g", NULL, 0, 0, 2);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_int_equal(d.entries[0].noise, NOISE_NONE);
	assert_int_equal(d.entries[0].verdict, VERDICT_EQUAL);
	assert_int_equal(d.entries[1].verdict, VERDICT_EQUAL);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

/*
 * 40 functions of 100 s each (10,000 samples: their sampling hides little),
 * the second run at e^x of them, x spread as a normal of standard
 * deviation 0.1 (its quantiles): no common speed, and a scatter of 0.1 in
 * log, 0.0098 beyond sampling, is a jitter of 7% per side.  Shrunk a
 * little towards the 8% prior.
 */
static void test_noise__jitter_is_measured_on_the_functions_of_the_pair(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	char name[16];
	struct diff d;
	int i;

	(void)state;
	for (i = 0; i < 40; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		fx_sym(a, name, NULL, 0, 10000, 1);
		double q = (i + 0.5) / 40, x = 0.1 * (q < 0.5 ? -signif_z(2 * q) : signif_z(2 - 2 * q));

		fx_sym(b, name, NULL, 0, 10000 * exp(x), 1);
	}
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_float_equal(d.speed, 1.0, 0);
	assert_true(d.jitter_weight > 30);
	assert_true(d.jitter > 0.065 && d.jitter < 0.078);
	for (i = 0; i < 40; i++)
		assert_int_equal(d.entries[i].significant, 0);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_noise__a_run_slowed_as_a_whole_is_judged_at_its_speed(void **state)
{
	/* The second run ran on a loaded machine: every function took twice
	 * its time, `changed` only 1.5 times: it got faster at the run's
	 * speed (by 5 s), although it took 5 s more. */
	struct profile *a = fx_new(100), *b = fx_new(100);
	char name[16];
	struct diff d;
	int i;

	(void)state;
	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		fx_sym(a, name, NULL, 0, 1000, 1);
		fx_sym(b, name, NULL, 0, 2000 + 10 * i, 1);
	}
	fx_sym(a, "changed", NULL, 0, 1000, 1);
	fx_sym(b, "changed", NULL, 0, 1500, 1);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_float_equal(d.speed, 2.03, 1e-9); /* median of 2.00..2.07 and 1.5 */
	assert_true(d.speed_var > 0);
	for (i = 0; i < 8; i++)
		assert_int_equal(d.entries[i].significant, 0);
	assert_float_equal(d.entries[8].excess_sec, 2.03 * 10 - 15, 1e-6);
	assert_int_equal(d.entries[8].significant, 1);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

/* A speed most functions share but most of the time does not is no
 * machine's: eight setup functions of 40 samples at half their time, the
 * one function of 5,000 samples unchanged (an A/A pair of a release build
 * of an MPI code on a loaded machine).  Judged at 0.5x, that function's
 * unchanged 50 s were a false change of -25 s. */
static void test_noise__a_speed_the_time_contradicts_is_not_applied(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	char name[32];
	struct diff d;
	int i;

	(void)state;
	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "setup%d", i);
		fx_sym(a, name, NULL, 0, 40, 1);
		fx_sym(b, name, NULL, 0, 20, 1);
	}
	fx_sym(a, "force", NULL, 0, 5000, 1);
	fx_sym(b, "force", NULL, 0, 5010, 1);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_float_equal(d.speed, 1.0, 0);
	assert_int_equal(d.entries[8].significant, 0);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

/* Three functions do not make a speed (issue 24 item 3: an A/A pair of an
 * MPI program was "judged at the runs' common speed" into a false row). */
static void test_noise__a_speed_few_functions_share_is_not_applied(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;

	(void)state;
	fx_sym(a, "x", NULL, 0, 1000, 1);
	fx_sym(b, "x", NULL, 0, 700, 1);
	fx_sym(a, "y", NULL, 0, 1000, 1);
	fx_sym(b, "y", NULL, 0, 710, 1);
	fx_sym(a, "z", NULL, 0, 100, 1);
	fx_sym(b, "z", NULL, 0, 103, 1);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_float_equal(d.speed, 1.0, 0);
	assert_float_equal(d.entries[2].excess_sec, -0.03, 1e-12);
	assert_int_equal(d.entries[2].significant, 0);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

/* One profile per file, with the functions names[i] at ticks[i]. */
static struct profile *run_of(size_t n, const char *const *names, const double *ticks)
{
	struct profile *p = fx_new(100);
	size_t i;

	for (i = 0; i < n; i++)
		fx_sym(p, names[i], NULL, 0, ticks[i], 1);
	return p;
}

static struct profile *one_run(double ticks)
{
	return run_of(1, (const char *[]){ "f" }, &ticks);
}

static void free_runs(struct profile **r, size_t n)
{
	while (n--)
		profile_free(r[n]);
}

static void test_noise__spread_across_repeated_runs_widens_the_noise(void **state)
{
	struct profile *a = one_run(100), *b = one_run(60);
	struct profile *r[2] = { one_run(10), one_run(90) };
	struct noise_runs runs[2] = { { r, NULL, 2 }, { NULL, NULL, 0 } };
	struct diff d;
	double before;

	(void)state;
	/* a sums two runs (no ranks) of 10 and 90 ticks; b has 60 ticks. */
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	before = d.entries[0].sigma_sec;
	assert_int_equal(noise_set_runs(&d, runs), 0);
	diff_assess(&d);
	/* sd(0.1, 0.9) = 0.566 s; the sum of 2 runs varies by 2 * 0.32 s^2 */
	assert_float_equal(d.entries[0].side[0].run_var, 2 * 0.32, 1e-9);
	assert_true(d.entries[0].sigma_sec > before);
	assert_true(d.entries[0].sigma_sec >= sqrt(0.64));
	assert_int_equal(d.repeated[DIFF_BASE], 1);
	assert_int_equal(d.entries[0].noise, NOISE_WITHIN);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
	free_runs(r, 2);
}

/*
 * Three repeats per side of ten functions, each 1000, 1050, 950 samples:
 * a spread of 5% a run, 3.9% beyond the sampling of 1000 samples.  The
 * repeats measure the jitter (shrunk towards the prior by what 20 such
 * estimates are worth), and it replaces the prior.
 */
static void test_noise__repeats_measure_the_jitter(void **state)
{
	const char *names[10] = { "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9" };
	double t[3][10];
	struct profile *ra[3], *rb[3], *a, *b;
	struct noise_runs runs[2] = { { ra, NULL, 3 }, { rb, NULL, 3 } };
	double sum[10];
	struct diff d;
	int i, k;

	(void)state;
	for (k = 0; k < 10; k++) {
		t[0][k] = 1000;
		t[1][k] = 1050;
		t[2][k] = 950;
		sum[k] = 3000;
	}
	for (i = 0; i < 3; i++) {
		ra[i] = run_of(10, names, t[i]);
		rb[i] = run_of(10, names, t[i]);
	}
	a = run_of(10, names, sum);
	b = run_of(10, names, sum);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_int_equal(noise_set_runs(&d, runs), 0);
	diff_assess(&d);
	assert_int_equal(d.jitter_from_repeats, 1);
	assert_float_equal(d.repeat_jitter2, 0.0025 - 0.001, 1e-12);
	assert_true(d.jitter > sqrt(0.0015) && d.jitter < 0.08);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
	free_runs(ra, 3);
	free_runs(rb, 3);
}

/* Six functions on each of two ranks, one job per side (no repeats). */
#define NF 6
static const char *rank_names[NF] = { "relax", "f1", "f2", "f3", "f4", "f5" };

static void rank_diff(struct diff *d, struct profile **out, const double b0[NF],
		      const double b1[NF], struct profile *rr[4])
{
	static const double base[NF] = { 1000, 800, 900, 1100, 1000, 1200 };
	double sa[NF], sb[NF];
	static int rank[2] = { 0, 1 };
	struct noise_runs runs[2];
	int i;

	for (i = 0; i < NF; i++) {
		sa[i] = 2 * base[i];
		sb[i] = b0[i] + b1[i];
	}
	rr[0] = run_of(NF, rank_names, base);
	rr[1] = run_of(NF, rank_names, base);
	rr[2] = run_of(NF, rank_names, b0);
	rr[3] = run_of(NF, rank_names, b1);
	out[0] = run_of(NF, rank_names, sa);
	out[1] = run_of(NF, rank_names, sb);
	runs[0] = (struct noise_runs){ rr, rank, 2 };
	runs[1] = (struct noise_runs){ rr + 2, rank, 2 };
	assert_int_equal(diff_compute(d, out[0], out[1], NULL), 0);
	assert_int_equal(noise_set_runs(d, runs), 0);
	diff_assess(d);
}

static void rank_release(struct diff *d, struct profile **out, struct profile *rr[4])
{
	diff_release(d);
	profile_free(out[0]);
	profile_free(out[1]);
	free_runs(rr, 4);
}

/* Issue 24 item 3: with two ranks, "the speed across ranks" was their
 * mean, which split a one-rank change between both.  Each rank is judged
 * at its own speed, measured over its functions. */
static void test_noise__a_one_rank_change_is_that_rank_s_with_two_ranks(void **state)
{
	const double b0[NF] = { 1000, 800, 900, 1100, 1000, 1200 };
	const double b1[NF] = { 2000, 800, 900, 1100, 1000, 1200 };
	struct profile *out[2], *rr[4];
	struct diff d;
	long e;

	(void)state;
	rank_diff(&d, out, b0, b1, rr);
	e = diff_find(&d, "relax");
	assert_int_equal(d.nranks, 2);
	assert_int_equal(d.entries[e].significant, 1);
	assert_int_equal(d.entries[e].rank_changed[0], 0);
	assert_int_equal(d.entries[e].rank_changed[1], 1);
	assert_float_equal(d.entries[e].rank_diff[1], -10, 1e-9);
	assert_int_equal(d.entries[e].ranks_alike, 0);
	assert_float_equal(d.entries[e].slowest_diff, 10 - 20, 1e-9);
	for (int i = 1; i < NF; i++)
		assert_int_equal(d.entries[diff_find(&d, rank_names[i])].significant, 0);
	rank_release(&d, out, rr);
}

/* The same change on both ranks is the function's, not "rank 0, other
 * ranks within noise". */
static void test_noise__a_change_on_every_rank_is_not_rank_specific(void **state)
{
	const double b0[NF] = { 1500, 800, 900, 1100, 1000, 1200 };
	const double b1[NF] = { 1560, 800, 900, 1100, 1000, 1200 };
	struct profile *out[2], *rr[4];
	struct diff d;
	long e;

	(void)state;
	rank_diff(&d, out, b0, b1, rr);
	e = diff_find(&d, "relax");
	assert_int_equal(d.entries[e].significant, 1);
	assert_true(d.entries[e].nranks_changed >= 1);
	assert_int_equal(d.entries[e].ranks_alike, 1);
	rank_release(&d, out, rr);
}

/* A blip of a sample or two on one rank is no change of that rank. */
static void test_noise__a_one_sample_blip_of_a_rank_is_no_change(void **state)
{
	const char *names[2] = { "big", "tiny" };
	double base[2] = { 1000, 1 }, blip[2] = { 1000, 3 }, sa[2] = { 2000, 2 }, sb[2] = { 2000, 4 };
	struct profile *rr[4] = { run_of(2, names, base), run_of(2, names, base),
				  run_of(2, names, base), run_of(2, names, blip) };
	static int rank[2] = { 0, 1 };
	struct noise_runs runs[2] = { { rr, rank, 2 }, { rr + 2, rank, 2 } };
	struct profile *a = run_of(2, names, sa), *b = run_of(2, names, sb);
	struct diff d;

	(void)state;
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_int_equal(noise_set_runs(&d, runs), 0);
	diff_assess(&d);
	assert_int_equal(d.entries[diff_find(&d, "tiny")].nranks_changed, 0);
	assert_int_equal(d.entries[diff_find(&d, "tiny")].significant, 0);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
	free_runs(rr, 4);
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

/* A time test can only pass with samples enough: 3 samples in all reach
 * no 3-sigma change however they fall (diff/signif.h, Tarone). */
static void test_noise__few_samples_cannot_make_a_change(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;

	(void)state;
	fx_sym(a, "f", NULL, 0, 3, 0);
	fx_sym(b, "f", NULL, 0, 0, 0);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_float_equal(d.entries[0].time_zmax,
			   noise_time_zmax(3, 100, 0, 100, d.jitter, 1), 1e-12);
	assert_true(d.entries[0].time_zmax < 2);
	assert_int_equal(d.ntests, 0);
	assert_int_equal(d.entries[0].significant, 0);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_noise__k_zero_turns_the_rule_off(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff_opts o = DIFF_OPTS_INIT;
	struct diff d;

	(void)state;
	o.noise_sigmas = 0;
	fx_sym(a, "f", NULL, 0, 100, 0);
	fx_sym(b, "f", NULL, 0, 99, 0);
	assert_int_equal(diff_compute(&d, a, b, &o), 0);
	assert_int_equal(d.entries[0].noise, NOISE_NONE);
	assert_int_equal(d.entries[0].significant, 1);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

/* Both runs measured by their sidecars (model/measured.h): 1000 Hz
 * samples of f, g and a library's exp, a row of its own kind. */
static struct profile *sidecar_run(const double *self, double weight)
{
	struct profile *p = fx_new(1000);

	p->measure.source = PROFILE_FROM_SIDECARS;
	p->measure.weight = weight;
	fx_sym(p, "f", NULL, 0, self[0], 1);
	fx_sym(p, "g", NULL, 0, self[1], 1);
	fx_sym(p, "exp [libm.so.6]", NULL, PSYM_LIBRARY, self[2], 0);
	return p;
}

static void test_noise__library_rows_are_tested_with_the_functions(void **state)
{
	static const double a_self[] = { 100, 400, 500 }, b_self[] = { 300, 400, 1000 };
	struct profile *a = sidecar_run(a_self, 1), *b = sidecar_run(b_self, 1);
	struct diff_opts o = DIFF_OPTS_INIT;
	struct diff d;
	long f, lib;

	(void)state;
	assert_int_equal(diff_compute(&d, a, b, &o), 0);
	assert_int_equal(diff_from_sidecars(&d), 1);
	f = diff_find(&d, "f");
	lib = diff_find(&d, "exp [libm.so.6]");
	/* one source: the table's seconds are the tested ones */
	assert_float_equal(d.entries[f].self_diff, -0.2, 1e-12);
	assert_float_equal(d.entries[f].excess_sec, -0.2, 1e-12);
	assert_int_equal(d.entries[f].verdict, VERDICT_SIGNIFICANT);
	assert_int_equal(d.entries[diff_find(&d, "g")].verdict, VERDICT_EQUAL);
	/* the library's row: in the flat table, its calls not counted */
	assert_true(lib >= 0);
	assert_int_equal(d.entries[lib].in_flat, 1);
	assert_int_equal(d.entries[lib].side[0].calls_measured, 0);
	assert_int_equal(d.entries[lib].side[0].has_calls, 0);
	assert_float_equal(d.entries[lib].self_diff, -0.5, 1e-12);
	assert_int_equal(d.entries[lib].verdict, VERDICT_SIGNIFICANT);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

/* A timer signal that stands for 4 periods: 300 samples are 75
 * independent ones, four times the sampling variance. */
static void test_noise__sidecar_samples_weigh_by_their_signals(void **state)
{
	static const double a_self[] = { 100, 400, 500 }, b_self[] = { 300, 400, 1000 };
	struct profile *a = sidecar_run(a_self, 1), *b = sidecar_run(b_self, 4);
	struct diff_opts o = DIFF_OPTS_INIT;
	struct diff d;
	long f;

	(void)state;
	o.jitter_prior = 0; /* sampling alone */
	assert_int_equal(diff_compute(&d, a, b, &o), 0);
	f = diff_find(&d, "f");
	assert_float_equal(d.entries[f].sigma_sec, sqrt(100.0 / 1e6 + 4 * 300.0 / 1e6), 1e-9);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

/*
 * An MPI job of two ranks a side, measured by its sidecars (1000 Hz): the
 * program's rows (compute and five helpers) and two rows of the MPI
 * library's wait, sampled in opal_progress or in the library's unnamed
 * code by chance.  ticks[rank][row].
 */
#define MPI_ROWS 8
static const char *const mpi_names[MPI_ROWS] = {
	"compute", "h1", "h2", "h3", "h4", "h5",
	"opal_progress [libopen-pal.so.40]", "[unknown]",
};

static struct profile *mpi_run(const double *ticks)
{
	struct profile *p = fx_new(1000);

	p->measure.source = PROFILE_FROM_SIDECARS;
	for (int i = 0; i < MPI_ROWS; i++)
		fx_sym(p, mpi_names[i], NULL, i >= 6 ? (i == 6 ? PSYM_LIBRARY : PSYM_UNKNOWN) : 0,
		       ticks[i], i >= 6 ? 0 : 1);
	return p;
}

static void mpi_diff(struct diff *d, struct profile **p, const double a[2][MPI_ROWS],
		     const double b[2][MPI_ROWS])
{
	static int rank[2] = { 0, 1 };
	double sa[MPI_ROWS], sb[MPI_ROWS];
	struct noise_runs runs[2];

	for (int i = 0; i < MPI_ROWS; i++) {
		sa[i] = a[0][i] + a[1][i];
		sb[i] = b[0][i] + b[1][i];
	}
	p[0] = mpi_run(a[0]);
	p[1] = mpi_run(a[1]);
	p[2] = mpi_run(b[0]);
	p[3] = mpi_run(b[1]);
	p[4] = mpi_run(sa);
	p[5] = mpi_run(sb);
	runs[0] = (struct noise_runs){ p, rank, 2 };
	runs[1] = (struct noise_runs){ p + 2, rank, 2 };
	assert_int_equal(diff_compute(d, p[4], p[5], NULL), 0);
	assert_int_equal(noise_set_runs(d, runs), 0);
	diff_assess(d);
}

/*
 * Two runs of one job: each rank's wait (its ranks' compute, not its own
 * work) moved by a third and split between its two rows differently; the
 * program's rows alike.  The wait varies as the ranks' compute does
 * (diff/noise.h): nothing is significant.
 */
static void test_noise__an_mpi_wait_varies_as_the_ranks_compute(void **state)
{
	static const double a[2][MPI_ROWS] = {
		{ 1000, 200, 200, 200, 200, 200, 300, 300 },
		{ 1000, 200, 200, 200, 200, 200, 300, 300 },
	};
	static const double b[2][MPI_ROWS] = {
		{ 1000, 200, 200, 200, 200, 200, 150, 420 },
		{ 1000, 200, 200, 200, 200, 200, 420, 150 },
	};
	struct profile *p[6];
	struct diff d;

	(void)state;
	mpi_diff(&d, p, a, b);
	for (size_t i = 0; i < d.nentries; i++)
		assert_int_equal(d.entries[i].significant, 0);
	diff_release(&d);
	free_runs(p, 6);
}

/* Twice the compute on rank 1 (the other rank waits for it): found, that
 * rank's; the wait that follows is not a change of its own. */
static void test_noise__an_imbalance_is_found_beside_the_wait_it_makes(void **state)
{
	static const double a[2][MPI_ROWS] = {
		{ 1000, 200, 200, 200, 200, 200, 300, 300 },
		{ 1000, 200, 200, 200, 200, 200, 300, 300 },
	};
	static const double b[2][MPI_ROWS] = {
		{ 1000, 200, 200, 200, 200, 200, 800, 800 },
		{ 2000, 200, 200, 200, 200, 200, 300, 300 },
	};
	struct profile *p[6];
	struct diff d;
	long c;

	(void)state;
	mpi_diff(&d, p, a, b);
	c = diff_find(&d, "compute");
	assert_int_equal(d.entries[c].significant, 1);
	assert_int_equal(d.entries[c].rank_changed[1], 1);
	assert_int_equal(d.entries[c].rank_changed[0], 0);
	assert_int_equal(d.entries[diff_find(&d, "[unknown]")].significant, 0);
	diff_sort(&d);
	assert_string_equal(d.entries[0].name, "compute");
	diff_release(&d);
	free_runs(p, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_noise__sampling_and_jitter_make_a_functions_noise),
		cmocka_unit_test(test_noise__sampling_rates_weigh_each_side),
		cmocka_unit_test(test_noise__equal_sides_are_equal_not_noise),
		cmocka_unit_test(test_noise__jitter_is_measured_on_the_functions_of_the_pair),
		cmocka_unit_test(test_noise__a_run_slowed_as_a_whole_is_judged_at_its_speed),
		cmocka_unit_test(test_noise__a_speed_few_functions_share_is_not_applied),
		cmocka_unit_test(test_noise__a_speed_the_time_contradicts_is_not_applied),
		cmocka_unit_test(test_noise__spread_across_repeated_runs_widens_the_noise),
		cmocka_unit_test(test_noise__repeats_measure_the_jitter),
		cmocka_unit_test(test_noise__a_one_rank_change_is_that_rank_s_with_two_ranks),
		cmocka_unit_test(test_noise__a_change_on_every_rank_is_not_rank_specific),
		cmocka_unit_test(test_noise__a_one_sample_blip_of_a_rank_is_no_change),
		cmocka_unit_test(test_noise__repeats_of_the_same_rank_measure_the_noise),
		cmocka_unit_test(test_noise__few_samples_cannot_make_a_change),
		cmocka_unit_test(test_noise__k_zero_turns_the_rule_off),
		cmocka_unit_test(test_noise__library_rows_are_tested_with_the_functions),
		cmocka_unit_test(test_noise__sidecar_samples_weigh_by_their_signals),
		cmocka_unit_test(test_noise__an_mpi_wait_varies_as_the_ranks_compute),
		cmocka_unit_test(test_noise__an_imbalance_is_found_beside_the_wait_it_makes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
