/*
 * test_metric_evidence.c - a diff's function rows of an event counted per
 * calling context (callpath/metric_evidence.c): sums per function, self
 * and inclusive (a recursive function's once), and the evidence lines,
 * decided by the path table's rule (Poisson overflows).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callpath/folded.h"
#include "callpath/leaves.h"
#include "callpath/metric_evidence.h"
#include "callpath/report.h"
#include "utils/banned.h"

/* A model of an event counted every `period`: paths with their self
 * overflows, every frame at call site "s". */
static struct callpath_model *model_of(const char *const *paths, const uint64_t *overflows,
				       size_t n, uint64_t period)
{
	struct callpath_model *m = callpath_model_new();
	uint32_t site;

	assert_non_null(m);
	site = callpath_model_intern(m, "s");
	for (size_t i = 0; i < n; i++) {
		char buf[256], *save = NULL, *tok;
		uint32_t parent = CALLPATH_NONE, idx = CALLPATH_NONE;

		snprintf(buf, sizeof(buf), "%s", paths[i]);
		for (tok = strtok_r(buf, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
			uint32_t f = callpath_model_intern(m, tok);

			assert_int_equal(callpath_model_add(m, parent, f, site, 1, &idx), 0);
			parent = idx;
		}
		callpath_model_add_samples(m, idx, overflows[i]);
	}
	snprintf(m->metric.name, sizeof(m->metric.name), "PAPI_L1_DCM");
	snprintf(m->metric.unit, sizeof(m->metric.unit), "events");
	m->metric.period = period;
	m->metric.estimated = period > 1;
	m->hz = 1.0 / (double)period;
	return m;
}

static uint64_t count_of(const struct folded *f, const char *name)
{
	for (size_t i = 0; i < f->nr; i++)
		if (!strcmp(f->stacks[i].stack, name))
			return f->stacks[i].count;
	return 0;
}

/* rec calls itself: its inclusive overflows are counted once, not per level */
static void test_metric_function_overflows__self_and_inclusive_recursion_once(void **state)
{
	static const char *const paths[] = { "main;rec", "main;rec;rec", "main;rec;rec;leaf",
					     "main;other;leaf" };
	static const uint64_t ov[] = { 5, 7, 11, 13 };
	struct callpath_model *m = model_of(paths, ov, 4, 100);
	struct folded *self, *incl;

	(void)state;
	assert_int_equal(metric_function_overflows(m, 0, &self), 0);
	assert_int_equal(metric_function_overflows(m, 1, &incl), 0);
	assert_int_equal(count_of(self, "rec"), 12);
	assert_int_equal(count_of(self, "leaf"), 24);
	assert_int_equal(count_of(self, "main"), 0);
	assert_int_equal(count_of(incl, "rec"), 23);	/* 5 + 7 + 11, once */
	assert_int_equal(count_of(incl, "leaf"), 24);
	assert_int_equal(count_of(incl, "other"), 13);
	assert_int_equal(count_of(incl, "main"), 36);
	folded_free(self);
	folded_free(incl);
	callpath_model_free(m);
}

static char *print_of(const struct callpath_model *a, const struct callpath_model *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(metric_evidence_print(f, a, b, "old", "new", 2.0), 0);
	fclose(f);
	return buf;
}

/*
 * big's misses double (600 -> 1200 overflows at a period of 10: far beyond
 * the Poisson noise, sqrt(1800) = 42 overflows); small's move by 10 of
 * 200 (z about 0.5): an evidence line for big, none for small.
 */
static void test_metric_evidence__line_for_a_doubling_none_within_noise(void **state)
{
	static const char *const paths[] = { "main;big", "main;small", "main;w1", "main;w2",
					     "main;w3", "main;w4" };
	static const uint64_t a[] = { 600, 200, 1000, 1000, 1000, 1000 };
	static const uint64_t b[] = { 1200, 210, 1000, 1000, 1000, 1000 };
	struct callpath_model *ma = model_of(paths, a, 6, 10), *mb = model_of(paths, b, 6, 10);
	char *out = print_of(ma, mb);

	(void)state;
	assert_non_null(strstr(out, "  big: PAPI_L1_DCM self x2.0 (6.0e3 -> 1.2e4), beyond noise\n"));
	assert_null(strstr(out, "  small: PAPI_L1_DCM"));
	assert_non_null(strstr(out, "~ small\n"));
	free(out);
	callpath_model_free(ma);
	callpath_model_free(mb);
}

/*
 * The same change in events, 6,000 -> 12,000, counted every 3,000 events:
 * 2 -> 4 overflows is no evidence (Poisson), so no line: the noise is the
 * overflows', not the events'.
 */
static void test_metric_evidence__noise_is_the_overflows(void **state)
{
	static const char *const paths[] = { "main;big", "main;w1" };
	static const uint64_t a[] = { 2, 1000 }, b[] = { 4, 1000 };
	struct callpath_model *ma = model_of(paths, a, 2, 3000), *mb = model_of(paths, b, 2, 3000);
	char *out = print_of(ma, mb);

	(void)state;
	assert_non_null(strstr(out, "none: every difference is within noise"));
	assert_null(strstr(out, "big: PAPI_L1_DCM"));
	free(out);
	callpath_model_free(ma);
	callpath_model_free(mb);
}

/* Models of time print nothing: the flat profile's evidence covers them. */
static void test_metric_evidence__nothing_for_time(void **state)
{
	static const char *const paths[] = { "main;big" };
	static const uint64_t a[] = { 10 }, b[] = { 100 };
	struct callpath_model *ma = model_of(paths, a, 1, 10), *mb = model_of(paths, b, 1, 10);
	char *out;

	(void)state;
	ma->metric.name[0] = mb->metric.name[0] = '\0';
	out = print_of(ma, mb);
	assert_string_equal(out, "");
	free(out);
	callpath_model_free(ma);
	callpath_model_free(mb);
}

/* A time model: paths with self samples at 1000 Hz; a last name in
 * brackets ("exp [libm.so.6]") is a library leaf. */
static struct callpath_model *time_model(const char *const *paths, const uint64_t *samples,
					 size_t n)
{
	static const uint64_t one[] = { 1 };
	struct callpath_model *m = model_of(paths, samples ? samples : one, n, 1);

	m->metric.name[0] = '\0';
	m->metric.unit[0] = '\0';
	m->metric.period = 0;
	m->hz = 1000;
	for (uint32_t i = 0; i < m->nr_frames; i++)
		if (strchr(m->names[m->frames[i].func], '['))
			m->frames[i].leaf = 1 + LEAF_LIBRARY;
	return m;
}

/* exp's callers, the largest change first, two of three shown; deep
 * paths by their last four frames; a program leaf is no library's */
static void test_metric_leaf_callers__largest_changes_first_last_four_frames(void **state)
{
	static const char *const pa[] = { "main;f;exp [libm.so.6]", "main;g;exp [libm.so.6]",
					  "main;a;b;c;d;e;exp [libm.so.6]", "main;f" };
	static const uint64_t sa[] = { 500, 100, 10, 7 }, sb[] = { 1000, 120, 10, 7 };
	struct callpath_model *a = time_model(pa, sa, 4), *b = time_model(pa, sb, 4);
	struct metric_leaf_callers *lc;

	(void)state;
	assert_int_equal(metric_leaf_callers_build(a, b, 2, &lc), 0);
	assert_string_equal(metric_leaf_callers_of(lc, "exp [libm.so.6]"),
			    "main;f 0.50 -> 1.00 s, main;g 0.10 -> 0.12 s and 1 more path");
	assert_null(metric_leaf_callers_of(lc, "f"));
	metric_leaf_callers_free(lc);
	assert_int_equal(metric_leaf_callers_build(a, b, 3, &lc), 0);
	assert_non_null(strstr(metric_leaf_callers_of(lc, "exp [libm.so.6]"),
			       ", ...;b;c;d;e 0.01 -> 0.01 s"));
	metric_leaf_callers_free(lc);
	callpath_model_free(a);
	callpath_model_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metric_function_overflows__self_and_inclusive_recursion_once),
		cmocka_unit_test(test_metric_evidence__line_for_a_doubling_none_within_noise),
		cmocka_unit_test(test_metric_evidence__noise_is_the_overflows),
		cmocka_unit_test(test_metric_evidence__nothing_for_time),
		cmocka_unit_test(test_metric_leaf_callers__largest_changes_first_last_four_frames),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
