/* Unit tests for the evidence of a differential profile (diff/evidence.h):
 * significance, the impact order, call counts, moved (inlined) cost. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>
#include "diff/diff.h"
#include "diff/evidence.h"
#include "testsuite/unit/diff_fixture.h"
#include "utils/banned.h"

static const char *row(const struct diff *d, size_t i)
{
	return d->entries[i].print_name;
}

static void test_evidence__significant_rows_come_before_larger_noise_rows(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;

	(void)state;
	/* busy: 20.00 -> 20.40 s, +0.40 s but within 2*sqrt(4040) ticks and
	 * 10% of 20 s: noise.  changed: 0.10 -> 0.30 s, a third of busy's
	 * difference, but beyond both. */
	fx_sym(a, "busy", NULL, 0, 2000, 1);
	fx_sym(b, "busy", NULL, 0, 2040, 1);
	fx_sym(a, "changed", NULL, 0, 10, 1);
	fx_sym(b, "changed", NULL, 0, 30, 1);
	fx_sym(a, "other", NULL, 0, 100, 1);
	fx_sym(b, "other", NULL, 0, 95, 1);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	diff_sort(&d);
	assert_string_equal(row(&d, 0), "changed");
	assert_int_equal(d.entries[0].significant, 1);
	assert_string_equal(row(&d, 1), "busy");
	assert_int_equal(d.entries[1].significant, 0);
	assert_string_equal(row(&d, 2), "other");
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_evidence__sort_keys_give_the_plain_orders(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff_opts o = DIFF_OPTS_INIT;
	struct diff d;

	(void)state;
	fx_sym(a, "busy", NULL, 0, 2000, 1);
	fx_sym(b, "busy", NULL, 0, 2040, 1);
	fx_sym(a, "changed", NULL, 0, 10, 5);
	fx_sym(b, "changed", NULL, 0, 30, 1);
	fx_sym(a, "alpha", NULL, 0, 100, 1);
	fx_sym(b, "alpha", NULL, 0, 95, 3);
	o.sort = DIFF_SORT_ABS;
	assert_int_equal(diff_compute(&d, a, b, &o), 0);
	diff_sort(&d);
	assert_string_equal(row(&d, 0), "busy");
	d.opts.sort = DIFF_SORT_RATIO;   /* x3, x1.02, x0.95 */
	diff_sort(&d);
	assert_string_equal(row(&d, 0), "changed");
	assert_string_equal(row(&d, 1), "alpha");
	d.opts.sort = DIFF_SORT_CALLS;   /* 4, 2, 0 */
	diff_sort(&d);
	assert_string_equal(row(&d, 0), "changed");
	assert_string_equal(row(&d, 1), "alpha");
	d.opts.sort = DIFF_SORT_NAME;
	diff_sort(&d);
	assert_string_equal(row(&d, 0), "alpha");
	assert_string_equal(row(&d, 2), "changed");
	assert_int_equal(diff_sort_parse("ratio"), DIFF_SORT_RATIO);
	assert_int_equal(diff_sort_parse("size"), -1);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_evidence__calls_multiplied_at_equal_time_are_significant(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;
	long i, j, k;

	(void)state;
	/* A batch-size change: 594 -> 9,493 calls at about the same time. */
	fx_sym(a, "flush_batch", NULL, 0, 50, 594);
	fx_sym(b, "flush_batch", NULL, 0, 52, 9493);
	fx_sym(a, "work", NULL, 0, 1000, 10);
	fx_sym(b, "work", NULL, 0, 1050, 10);
	fx_sym(a, "step", NULL, 0, 100, 1000);
	fx_sym(b, "step", NULL, 0, 101, 1100);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	i = diff_find(&d, "flush_batch");
	j = diff_find(&d, "work");
	k = diff_find(&d, "step");
	assert_int_equal(d.entries[i].noise, NOISE_WITHIN);
	assert_int_equal(d.entries[i].calls_evidence, CALLS_CHANGED);
	assert_float_equal(d.entries[i].calls_factor, 9493.0 / 594, 1e-9);
	assert_int_equal(d.entries[i].significant, 1);
	/* as much as 0.52 s would have grown with its calls */
	assert_float_equal(d.entries[i].evidence_sec, 0.52 * (1 - 594.0 / 9493), 1e-9);
	assert_int_equal(d.entries[j].significant, 0);
	assert_int_equal(d.entries[k].calls_evidence, CALLS_WITHIN); /* x1.1 */
	assert_int_equal(d.entries[k].significant, 0);
	diff_sort(&d);
	assert_string_equal(row(&d, 0), "flush_batch");
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_evidence__calls_changed_rows_come_before_time_only_rows(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;

	(void)state;
	/* Exact counts x16 outrank a larger time change: a single pair's
	 * time can be off, -pg's counts cannot. */
	fx_sym(a, "slower", NULL, 0, 100, 10);
	fx_sym(b, "slower", NULL, 0, 200, 10);
	fx_sym(a, "flush_batch", NULL, 0, 5, 594);
	fx_sym(b, "flush_batch", NULL, 0, 5, 9504);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	diff_sort(&d);
	assert_string_equal(row(&d, 0), "flush_batch");
	assert_string_equal(row(&d, 1), "slower");
	assert_int_equal(d.entries[1].significant, 1);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_evidence__calls_text_says_how_the_second_run_compares(void **state)
{
	struct diff_entry e;
	char buf[48];

	(void)state;
	memset(&e, 0, sizeof(e));
	e.side[0].calls = 594;
	e.side[1].calls = 9504;
	e.calls_factor = 16;
	assert_string_equal(evidence_calls_text(buf, sizeof(buf), &e), "calls x16");
	e.side[0].calls = 9504;
	e.side[1].calls = 594;
	assert_string_equal(evidence_calls_text(buf, sizeof(buf), &e), "calls /16");
	e.side[1].calls = 0;
	assert_string_equal(evidence_calls_text(buf, sizeof(buf), &e), "calls gone");
}

static void test_evidence__sidecar_exact_counts_win_over_lossy_threaded_gmon_counts(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	char *names[] = { "batch", "steady", "main" };
	uint64_t exact_a[] = { 2000000, 2000000, 1 }, exact_b[] = { 4000000, 2000000, 1 };
	struct diff d;
	long i, j;
	char buf[48];

	(void)state;
	/* Two threads: glibc's mcount lost calls in the second run, so gmon
	 * says batch x1.14 (within the tolerance) and steady /1.75 (beyond
	 * it); the sidecars counted batch x2 and steady unchanged. */
	fx_sym(a, "batch", NULL, 0, 5, 2000000);
	fx_sym(b, "batch", NULL, 0, 5, 2283760);
	fx_sym(a, "steady", NULL, 0, 5, 2000000);
	fx_sym(b, "steady", NULL, 0, 5, 1142228);
	fx_sym(a, "main", NULL, 0, 0, 1);
	fx_sym(b, "main", NULL, 0, 0, 1);
	fx_sym(a, "unrecorded", NULL, 0, 0, 7);
	fx_sym(b, "unrecorded", NULL, 0, 0, 7);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	i = diff_find(&d, "batch");
	j = diff_find(&d, "steady");
	assert_int_equal(d.entries[i].calls_evidence, CALLS_WITHIN);
	assert_int_equal(d.entries[j].calls_evidence, CALLS_CHANGED);

	diff_set_exact_calls(&d, DIFF_BASE, names, exact_a, 3);
	diff_set_exact_calls(&d, DIFF_SECOND, names, exact_b, 3);
	diff_assess(&d);
	assert_int_equal(evidence_calls_exact(&d.entries[i]), 1);
	assert_int_equal(d.entries[i].calls_evidence, CALLS_CHANGED);
	assert_float_equal(d.entries[i].calls_factor, 2.0, 1e-12);
	assert_int_equal(d.entries[i].significant, 1);
	assert_string_equal(evidence_calls_text(buf, sizeof(buf), &d.entries[i]), "calls x2");
	assert_int_equal(d.entries[j].calls_evidence, CALLS_SAME);
	assert_int_equal(d.entries[j].significant, 0);
	/* the gprof columns keep gmon's counts */
	assert_int_equal(d.entries[i].side[DIFF_SECOND].calls, 2283760);
	assert_int_equal(d.entries[i].calls_diff, 2000000 - 2283760);
	/* a function the sidecars never saw called has 0 exact calls */
	assert_int_equal(d.entries[diff_find(&d, "unrecorded")].side[DIFF_BASE].exact_calls, 0);
	assert_int_equal(d.entries[diff_find(&d, "unrecorded")].calls_evidence, CALLS_SAME);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_evidence__exact_counts_of_one_side_only_leave_gmon_counts(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	char *names[] = { "steady" };
	uint64_t exact[] = { 2000000 };
	struct diff d;
	long j;

	(void)state;
	fx_sym(a, "steady", NULL, 0, 5, 2000000);
	fx_sym(b, "steady", NULL, 0, 5, 1142228);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	diff_set_exact_calls(&d, DIFF_BASE, names, exact, 1);
	diff_assess(&d);
	j = diff_find(&d, "steady");
	assert_int_equal(evidence_calls_exact(&d.entries[j]), 0);
	assert_int_equal(d.entries[j].calls_evidence, CALLS_CHANGED); /* gmon's /1.75 */
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_evidence__vanished_callee_is_explained_as_inlined_into_its_caller(void **state)
{
	/*
	 *  baseline:  main -> compute_forces -> lj_pair     (lj_pair 3.00 s)
	 *  second:    main -> compute_forces                (lj_pair inlined:
	 *                                                    compute_forces +2.95 s)
	 */
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;
	long f, l, m;

	(void)state;
	fx_sym(a, "main", NULL, 0, 10, 0);
	fx_sym(a, "compute_forces", NULL, 0, 100, 1);
	fx_sym(a, "lj_pair", NULL, 0, 300, 50000);
	fx_arc(a, "main", "compute_forces", 1);
	fx_arc(a, "compute_forces", "lj_pair", 50000);
	fx_sym(b, "main", NULL, 0, 11, 0);
	fx_sym(b, "compute_forces", NULL, 0, 395, 1);
	fx_arc(b, "main", "compute_forces", 1);
	a->syms[1].child_ticks = 300;
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	f = diff_find(&d, "compute_forces");
	l = diff_find(&d, "lj_pair");
	m = diff_find(&d, "main");
	assert_int_equal(d.entries[l].moved_peer, f);
	assert_int_equal(d.entries[f].moved_peer, l);
	assert_int_equal(d.entries[m].moved_peer, -1);
	/* 4.00 s (1.00 + 3.00 children) before, 3.95 s after: the cost moved */
	assert_float_equal(d.entries[f].moved_total_diff, 0.05, 1e-9);
	assert_float_equal(d.entries[l].moved_total_diff, 0.05, 1e-9);
	assert_int_equal(d.entries[f].significant, 1);
	diff_sort(&d); /* the links follow the rows */
	f = diff_find(&d, "compute_forces");
	l = diff_find(&d, "lj_pair");
	assert_int_equal(d.entries[l].moved_peer, f);
	assert_int_equal(d.entries[f].moved_peer, l);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_evidence__caller_moving_the_same_way_is_not_an_inlining(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;

	(void)state;
	fx_sym(a, "caller", NULL, 0, 200, 1);
	fx_sym(a, "gone", NULL, 0, 300, 10);
	fx_arc(a, "caller", "gone", 10);
	fx_sym(b, "caller", NULL, 0, 100, 1);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_int_equal(d.entries[diff_find(&d, "gone")].moved_peer, -1);
	assert_int_equal(d.entries[diff_find(&d, "caller")].moved_peer, -1);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_evidence__significant_rows_come_before_larger_noise_rows),
		cmocka_unit_test(test_evidence__sort_keys_give_the_plain_orders),
		cmocka_unit_test(test_evidence__calls_multiplied_at_equal_time_are_significant),
		cmocka_unit_test(test_evidence__calls_changed_rows_come_before_time_only_rows),
		cmocka_unit_test(test_evidence__calls_text_says_how_the_second_run_compares),
		cmocka_unit_test(test_evidence__sidecar_exact_counts_win_over_lossy_threaded_gmon_counts),
		cmocka_unit_test(test_evidence__exact_counts_of_one_side_only_leave_gmon_counts),
		cmocka_unit_test(test_evidence__vanished_callee_is_explained_as_inlined_into_its_caller),
		cmocka_unit_test(test_evidence__caller_moving_the_same_way_is_not_an_inlining),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
