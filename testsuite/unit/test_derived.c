/*
 * test_derived.c - metrics derived from counted events (model/derived.c):
 * which events each needs, the ratio of two estimates and its Poisson
 * error.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "model/derived.h"
#include "format/sidecar.h"
#include "utils/banned.h"

static struct sidecar_metric metrics[6];

static void with_events(struct sidecar *sc, const char *const *names, uint32_t n)
{
	memset(sc, 0, sizeof(*sc));
	for (uint32_t i = 0; i < n; i++)
		metrics[i] = (struct sidecar_metric){ .name = (char *)names[i],
						       .unit = (char *)"events" };
	sc->extra_metrics = metrics;
	sc->nr_extra = n;
}

static void test_derived__names(void **state)
{
	(void)state;
	assert_true(derived_is_derived("IPC"));
	assert_true(derived_is_derived("CI"));
	assert_true(derived_is_derived("PAPI_L1_DCM/KI"));
	assert_false(derived_is_derived("/KI"));
	assert_false(derived_is_derived("PAPI_TOT_INS"));
	assert_false(derived_is_derived("time"));
}

/* IPC: 100 overflows of PAPI_TOT_INS every 2,000, 50 of PAPI_TOT_CYC every
 * 2,000: 2 instructions per cycle, relative error sqrt(1/100 + 1/50). */
static void test_derived__ipc_is_the_ratio_of_estimates_with_poisson_error(void **state)
{
	static const char *const ev[] = { "PAPI_TOT_CYC", "PAPI_TOT_INS" };
	struct sidecar sc;
	struct derived_metric d;
	uint64_t n = 100, np = 2000, dn = 50, dp = 2000;
	double err, v;

	(void)state;
	with_events(&sc, ev, 2);
	assert_int_equal(derived_resolve(&sc, "IPC", "t", &d), 0);
	assert_int_equal(d.num[0], 1);
	assert_int_equal(d.den[0], 0);
	v = derived_value(&d, &n, &np, &dn, &dp, &err);
	assert_true(fabs(v - 2.0) < 1e-12);
	assert_true(fabs(err - sqrt(1.0 / 100 + 1.0 / 50)) < 1e-12);
	/* other periods, the same events: the value does not change */
	np = 4000;
	n = 50;
	v = derived_value(&d, &n, &np, &dn, &dp, &err);
	assert_true(fabs(v - 2.0) < 1e-12);
	dn = 0;
	assert_true(isnan(derived_value(&d, &n, &np, &dn, &dp, &err)));
}

/* PAPI_L1_DCM/KI: misses per 1,000 instructions */
static void test_derived__per_kilo_instruction(void **state)
{
	static const char *const ev[] = { "PAPI_L1_DCM", "PAPI_TOT_INS" };
	struct sidecar sc;
	struct derived_metric d;
	uint64_t n = 30, np = 100000, dn = 60, dp = 10000000;
	double err;

	(void)state;
	with_events(&sc, ev, 2);
	assert_int_equal(derived_resolve(&sc, "PAPI_L1_DCM/KI", "t", &d), 0);
	assert_true(fabs(derived_value(&d, &n, &np, &dn, &dp, &err) - 5.0) < 1e-12);
	assert_int_equal(derived_resolve(&sc, "PAPI_L2_TCM/KI", "t", &d), -1);
}

/* CI: GPTL's FP_OPS / L1_DCA where counted, else loads + stores */
static void test_derived__computational_intensity_terms(void **state)
{
	static const char *const ld_sr[] = { "PAPI_DP_OPS", "PAPI_LD_INS", "PAPI_SR_INS" };
	static const char *const dca[] = { "PAPI_FP_OPS", "PAPI_L1_DCA", "PAPI_LD_INS" };
	struct sidecar sc;
	struct derived_metric d;
	uint64_t n = 100, np = 10, den[2] = { 30, 20 }, dp[2] = { 10, 10 };
	double err;

	(void)state;
	with_events(&sc, ld_sr, 3);
	assert_int_equal(derived_resolve(&sc, "CI", "t", &d), 0);
	assert_int_equal(d.nnum, 1);
	assert_int_equal(d.nden, 2);
	assert_true(fabs(derived_value(&d, &n, &np, den, dp, &err) - 2.0) < 1e-12);
	with_events(&sc, dca, 3);
	assert_int_equal(derived_resolve(&sc, "CI", "t", &d), 0);
	assert_int_equal(d.nden, 1);
	assert_int_equal(d.den[0], 1);
	with_events(&sc, ld_sr + 1, 2);
	assert_int_equal(derived_resolve(&sc, "CI", "t", &d), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derived__names),
		cmocka_unit_test(test_derived__ipc_is_the_ratio_of_estimates_with_poisson_error),
		cmocka_unit_test(test_derived__per_kilo_instruction),
		cmocka_unit_test(test_derived__computational_intensity_terms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
