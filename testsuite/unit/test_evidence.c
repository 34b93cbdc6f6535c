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
	/* busy: 20.00 -> 20.40 s, +0.40 s but within the noise of 2000
	 * samples and an 8% jitter of 20 s.  changed: 0.30 -> 1.10 s,
	 * twice busy's difference, beyond both. */
	fx_sym(a, "busy", NULL, 0, 2000, 1);
	fx_sym(b, "busy", NULL, 0, 2040, 1);
	fx_sym(a, "changed", NULL, 0, 30, 1);
	fx_sym(b, "changed", NULL, 0, 110, 1);
	fx_sym(a, "other", NULL, 0, 100, 1);
	fx_sym(b, "other", NULL, 0, 95, 1);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	diff_sort(&d);
	assert_string_equal(row(&d, 0), "changed");
	assert_int_equal(d.entries[0].significant, 1);
	assert_float_equal(d.entries[0].evidence_sec, 0.8, 1e-12);
	assert_float_equal(d.entries[0].evidence_signed, -0.8, 1e-12);
	assert_string_equal(row(&d, 1), "busy");
	assert_int_equal(d.entries[1].significant, 0);
	assert_string_equal(row(&d, 2), "other");
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

/*
 * Issue 24 item 1: one order for every significant row, by the size of its
 * evidence in seconds, a call change counting as the time it implies.  The
 * Figure-1-style case: pad0, new with 1 call and 0.01 s, ranked above
 * residual (-1.20 s); and a helper of a database engine whose calls went
 * from 1 to 0 ranked above its bytecode loop's +1.42 s.  A call change of
 * a few calls is no evidence at all (1 -> 0, 6 -> 15: Poisson), and a
 * real one (x16 at equal time) ranks by the time it implies, below a
 * larger time change.
 */
static void test_evidence__one_order_by_evidence_in_seconds(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	char name[16];
	struct diff d;
	int i;

	(void)state;
	/* the rest of the program, unchanged within sampling */
	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "zz%d", i);
		fx_sym(a, name, NULL, 0, 500, 1);
		fx_sym(b, name, NULL, 0, 500 + (i % 3 - 1) * 10, 1);
	}
	fx_sym(a, "main", NULL, 0, 10, 0);
	fx_sym(b, "main", NULL, 0, 10, 0);
	fx_sym(a, "residual", NULL, 0, 200, 10);
	fx_sym(b, "residual", NULL, 0, 320, 10);
	fx_sym(b, "pad0", NULL, 0, 1, 1);
	fx_sym(a, "vdbe_exec", NULL, 0, 300, 1);
	fx_sym(b, "vdbe_exec", NULL, 0, 158, 1);
	fx_sym(a, "helper", NULL, 0, 0, 1);
	fx_sym(b, "helper", NULL, 0, 0, 0);
	fx_sym(a, "seeded", NULL, 0, 0, 6);
	fx_sym(b, "seeded", NULL, 0, 0, 15);
	fx_sym(a, "flush_batch", NULL, 0, 40, 594);
	fx_sym(b, "flush_batch", NULL, 0, 40, 9504);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	diff_sort(&d);
	assert_string_equal(row(&d, 0), "vdbe_exec");  /* +1.42 s */
	assert_string_equal(row(&d, 1), "residual");   /* -1.20 s */
	assert_string_equal(row(&d, 2), "flush_batch"); /* x16: 0.375 s */
	assert_float_equal(d.entries[2].evidence_sec, 0.40 * (1 - 594.0 / 9504), 1e-12);
	assert_int_equal(d.entries[2].calls_evidence, CALLS_CHANGED);
	assert_int_equal(d.entries[3].significant, 0);
	assert_int_equal(d.entries[diff_find(&d, "pad0")].significant, 0);
	assert_int_equal(d.entries[diff_find(&d, "helper")].significant, 0);
	assert_int_equal(d.entries[diff_find(&d, "helper")].calls_evidence, CALLS_WITHIN);
	assert_int_equal(d.entries[diff_find(&d, "seeded")].significant, 0);
	assert_int_equal(d.entries[diff_find(&d, "seeded")].calls_evidence, CALLS_WITHIN);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

/* Issue 24 item 2: every row has one verdict, "~" rows included: 0.00 s
 * with a small call difference is within noise, an identical row equal. */
static void test_evidence__every_row_has_a_verdict(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;
	size_t i;

	(void)state;
	fx_sym(a, "quiet", NULL, 0, 0, 40);
	fx_sym(b, "quiet", NULL, 0, 0, 44);
	fx_sym(a, "same", NULL, 0, 0, 7);
	fx_sym(b, "same", NULL, 0, 0, 7);
	fx_sym(a, "big", NULL, 0, 1000, 1);
	fx_sym(b, "big", NULL, 0, 3000, 1);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_int_equal(d.entries[diff_find(&d, "quiet")].verdict, VERDICT_NOISE);
	assert_int_equal(d.entries[diff_find(&d, "same")].verdict, VERDICT_EQUAL);
	assert_int_equal(d.entries[diff_find(&d, "big")].verdict, VERDICT_SIGNIFICANT);
	for (i = 0; i < d.nentries; i++)
		assert_int_equal(d.entries[i].significant,
				 d.entries[i].verdict == VERDICT_SIGNIFICANT);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

/* A cycle as a whole has its members' verdict, not one of its own: the
 * JSON flagged "<cycle 1 as a whole>" where no member was significant. */
static void test_evidence__a_cycle_is_significant_only_through_a_member(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	const char *members[] = { "even", "odd", NULL };
	struct diff d;
	long c;

	(void)state;
	fx_sym(a, "main", NULL, 0, 0, 0);
	fx_sym(b, "main", NULL, 0, 0, 0);
	fx_sym(a, "even", NULL, 0, 500, 10);
	fx_sym(b, "even", NULL, 0, 510, 10);
	fx_sym(a, "odd", NULL, 0, 500, 10);
	fx_sym(b, "odd", NULL, 0, 495, 10);
	fx_arc(a, "even", "odd", 10);
	fx_arc(a, "odd", "even", 10);
	fx_arc(b, "even", "odd", 10);
	fx_arc(b, "odd", "even", 10);
	fx_cycle(a, 1, 1, 20, members);
	fx_cycle(b, 1, 1, 20, members);
	a->syms[a->nsyms - 1].self_ticks = 1000;
	b->syms[b->nsyms - 1].self_ticks = 1405;
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	c = diff_find(&d, "<cycle 1 as a whole>");
	assert_true(c >= 0);
	assert_int_equal(d.entries[c].significant, 0);
	assert_int_equal(d.entries[c].verdict, VERDICT_NOISE);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

/* Issue 24 item 7: arcs by the same rule.  +12 calls of 1.1 million and a
 * -28 of 14,000 are no change; 10 -> 1,000 calls of a callee whose time
 * went with them is one. */
static void test_evidence__arcs_have_the_rows_rule(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;
	size_t i;

	(void)state;
	fx_sym(a, "main", NULL, 0, 10, 0);
	fx_sym(b, "main", NULL, 0, 10, 0);
	fx_sym(a, "get", NULL, 0, 100, 1100000);
	fx_sym(b, "get", NULL, 0, 100, 1100012);
	fx_sym(a, "put", NULL, 0, 50, 14000);
	fx_sym(b, "put", NULL, 0, 50, 13972);
	fx_sym(a, "grow", NULL, 0, 10, 10);
	fx_sym(b, "grow", NULL, 0, 1000, 1000);
	fx_arc(a, "main", "get", 1100000);
	fx_arc(b, "main", "get", 1100012);
	fx_arc(a, "main", "put", 14000);
	fx_arc(b, "main", "put", 13972);
	fx_arc(a, "main", "grow", 10);
	fx_arc(b, "main", "grow", 1000);
	a->arcs[2].time = 10;
	b->arcs[2].time = 1000;
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	for (i = 0; i < d.narcs; i++) {
		const struct diff_arc *x = &d.arcs[i];
		const char *to = d.entries[x->child].name;

		if (!strcmp(to, "grow")) {
			assert_int_equal(x->significant, 1);
			assert_true(x->evidence_signed < 0); /* more in the second run */
			assert_int_equal(x->calls_changed, 1);
		} else {
			assert_int_equal(x->significant, 0);
			assert_int_equal(x->verdict, VERDICT_NOISE);
		}
	}
	assert_true(d.arc_ntests >= 1);
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
	/* x1.1: beyond Poisson (z 2.2) but within the factor of lossy
	 * threaded counts */
	assert_int_equal(d.entries[k].calls_evidence, CALLS_WITHIN);
	assert_int_equal(d.entries[k].significant, 0);
	diff_sort(&d);
	assert_string_equal(row(&d, 0), "flush_batch");
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
	struct profile *ea = fx_new(1000), *eb = fx_new(1000);
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
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	i = diff_find(&d, "batch");
	j = diff_find(&d, "steady");
	assert_int_equal(evidence_calls_exact(&d), 0);
	assert_int_equal(d.entries[i].calls_evidence, CALLS_WITHIN);
	assert_int_equal(d.entries[j].calls_evidence, CALLS_CHANGED);
	diff_release(&d);

	/* the same runs as their sidecars measured them (model/measured.h) */
	ea->measure.source = eb->measure.source = PROFILE_FROM_SIDECARS;
	fx_sym(ea, "batch", NULL, 0, 50, 2000000);
	fx_sym(eb, "batch", NULL, 0, 50, 4000000);
	fx_sym(ea, "steady", NULL, 0, 50, 2000000);
	fx_sym(eb, "steady", NULL, 0, 50, 2000000);
	assert_int_equal(diff_compute(&d, ea, eb, NULL), 0);
	i = diff_find(&d, "batch");
	j = diff_find(&d, "steady");
	assert_int_equal(evidence_calls_exact(&d), 1);
	assert_int_equal(d.entries[i].calls_evidence, CALLS_CHANGED);
	assert_float_equal(d.entries[i].calls_factor, 2.0, 1e-12);
	assert_int_equal(d.entries[i].significant, 1);
	assert_string_equal(evidence_calls_text(buf, sizeof(buf), &d.entries[i]), "calls x2");
	assert_int_equal(d.entries[j].calls_evidence, CALLS_SAME);
	assert_int_equal(d.entries[j].significant, 0);
	/* one source: the table's counts are the compared ones */
	assert_int_equal(d.entries[i].calls_diff, 2000000 - 4000000);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
	profile_free(ea);
	profile_free(eb);
}

/* A row whose calls a run did not count (a library's, a sampling-only
 * run's) has no calls test, whatever its numbers say. */
static void test_evidence__unmeasured_calls_are_no_evidence(void **state)
{
	struct profile *a = fx_new(1000), *b = fx_new(1000);
	struct diff d;
	long j;

	(void)state;
	a->measure.source = b->measure.source = PROFILE_FROM_SIDECARS;
	b->measure.calls_unmeasured = 1;
	fx_sym(a, "steady", NULL, 0, 500, 2000000);
	fx_sym(b, "steady", NULL, 0, 500, 0);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	j = diff_find(&d, "steady");
	assert_int_equal(d.entries[j].side[1].calls_measured, 0);
	assert_int_equal(d.entries[j].side[1].has_calls, 0);
	assert_int_equal(d.entries[j].calls_evidence, CALLS_SAME);
	assert_int_equal(d.entries[j].significant, 0);
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
		cmocka_unit_test(test_evidence__one_order_by_evidence_in_seconds),
		cmocka_unit_test(test_evidence__every_row_has_a_verdict),
		cmocka_unit_test(test_evidence__a_cycle_is_significant_only_through_a_member),
		cmocka_unit_test(test_evidence__arcs_have_the_rows_rule),
		cmocka_unit_test(test_evidence__calls_text_says_how_the_second_run_compares),
		cmocka_unit_test(test_evidence__sidecar_exact_counts_win_over_lossy_threaded_gmon_counts),
		cmocka_unit_test(test_evidence__unmeasured_calls_are_no_evidence),
		cmocka_unit_test(test_evidence__vanished_callee_is_explained_as_inlined_into_its_caller),
		cmocka_unit_test(test_evidence__caller_moving_the_same_way_is_not_an_inlining),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
