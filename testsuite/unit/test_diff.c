/* Unit tests for subtraction (diff/diff.h) and the printers (diff/print.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>
#include "diff/diff.h"
#include "diff/print.h"
#include "testsuite/unit/diff_fixture.h"
#include "utils/banned.h"

/*
 * The paper's Figure 1, in ticks at 100 Hz:
 *
 *          main                 baseline        second
 *         /    \                f_b->f_d  1     f_b->f_d  2
 *       f_b    f_c              f_c->f_d 30     f_c->f_d 20
 *         \    /
 *          f_d
 */
static void figure1(struct profile **a, struct profile **b)
{
	*a = fx_new(100);
	fx_sym(*a, "main", NULL, 0, 115, 0);
	fx_sym(*a, "f_b", NULL, 0, 109, 1);
	fx_sym(*a, "f_c", NULL, 0, 319, 1);
	fx_sym(*a, "f_d", NULL, 0, 551, 31);
	fx_arc(*a, "main", "f_b", 1);
	fx_arc(*a, "main", "f_c", 1);
	fx_arc(*a, "f_b", "f_d", 1);
	fx_arc(*a, "f_c", "f_d", 30);
	*b = fx_new(100);
	fx_sym(*b, "main", NULL, 0, 308, 0);
	fx_sym(*b, "f_b", NULL, 0, 170, 1);
	fx_sym(*b, "f_c", NULL, 0, 191, 1);
	fx_sym(*b, "f_d", NULL, 0, 204, 22);
	fx_arc(*b, "main", "f_b", 1);
	fx_arc(*b, "main", "f_c", 1);
	fx_arc(*b, "f_b", "f_d", 2);
	fx_arc(*b, "f_c", "f_d", 20);
}

static const struct diff_arc *arc_of(const struct diff *d, const char *from, const char *to)
{
	long p = diff_find(d, from), c = diff_find(d, to);
	size_t i;

	for (i = 0; i < d->narcs; i++)
		if (d->arcs[i].parent == (uint32_t)p && d->arcs[i].child == (uint32_t)c)
			return &d->arcs[i];
	fail_msg("no arc %s -> %s", from, to);
	return NULL;
}

static void test_diff__figure1_self_seconds_calls_and_impact(void **state)
{
	struct profile *a, *b;
	struct diff d;
	const struct diff_entry *e;

	(void)state;
	figure1(&a, &b);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	diff_sort(&d);
	assert_int_equal(d.nentries, 4);
	assert_string_equal(d.entries[0].name, "f_d");
	assert_string_equal(d.entries[1].name, "main");
	assert_string_equal(d.entries[2].name, "f_c");
	assert_string_equal(d.entries[3].name, "f_b");
	e = &d.entries[0];
	assert_float_equal(e->self_diff, 3.47, 1e-9);
	assert_int_equal(e->calls_diff, 9);
	assert_float_equal(e->impact, 47.60, 0.005);
	assert_float_equal(d.entries[1].impact, -26.47, 0.005);
	assert_float_equal(d.entries[3].self_diff, -0.61, 1e-9);
	assert_float_equal(d.abs_sum, 7.29, 1e-9);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_diff__arcs_on_both_sides_subtract_counts(void **state)
{
	struct profile *a, *b;
	struct diff d;

	(void)state;
	figure1(&a, &b);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	diff_sort(&d); /* arcs follow the renumbering */
	assert_int_equal(d.narcs, 4);
	assert_int_equal(arc_of(&d, "f_c", "f_d")->count_diff, 10);
	assert_int_equal(arc_of(&d, "f_b", "f_d")->count_diff, -1);
	assert_int_equal(arc_of(&d, "main", "f_b")->count_diff, 0);
	assert_true(arc_of(&d, "main", "f_b")->present[0]);
	assert_true(arc_of(&d, "main", "f_b")->present[1]);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_diff__arc_only_in_second_is_negative_only_in_baseline_positive(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;

	(void)state;
	fx_sym(a, "main", NULL, 0, 0, 0);
	fx_sym(a, "old", NULL, 0, 0, 5);
	fx_arc(a, "main", "old", 5);
	fx_sym(b, "main", NULL, 0, 0, 0);
	fx_sym(b, "old", NULL, 0, 0, 0);
	fx_sym(b, "new", NULL, 0, 0, 7);
	fx_arc(b, "main", "new", 7);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_int_equal(arc_of(&d, "main", "old")->count_diff, 5);
	assert_false(arc_of(&d, "main", "old")->present[1]);
	assert_int_equal(arc_of(&d, "main", "new")->count_diff, -7);
	assert_false(arc_of(&d, "main", "new")->present[0]);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_diff__sampling_rates_differ_compare_seconds(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(1000);
	struct diff d;

	(void)state;
	fx_sym(a, "f", NULL, 0, 200, 0);   /* 2.00 s */
	fx_sym(b, "f", NULL, 0, 1500, 0);  /* 1.50 s */
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_float_equal(d.entries[0].self_diff, 0.5, 1e-9);
	assert_float_equal(d.entries[0].side[1].self_sec, 1.5, 1e-9);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_diff__missing_side_is_a_placeholder_without_samples_or_calls(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;
	long i;

	(void)state;
	fx_sym(a, "inlined_away", NULL, 0, 10, 4);
	fx_sym(b, "other", NULL, 0, 0, 0);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	i = diff_find(&d, "inlined_away");
	assert_true(i >= 0);
	assert_int_equal(d.entries[i].side[1].sym, -1);
	assert_false(d.entries[i].side[1].present);
	assert_false(d.entries[i].side[1].has_samples);
	assert_false(d.entries[i].side[1].has_calls);
	assert_float_equal(d.entries[i].self_diff, 0.10, 1e-9);
	assert_int_equal(d.entries[i].calls_diff, 4);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_diff__equal_sides_keep_a_zero_entry(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;

	(void)state;
	fx_sym(a, "same", NULL, 0, 10, 3);
	fx_sym(b, "same", NULL, 0, 10, 3);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_int_equal(d.nentries, 1);
	assert_float_equal(d.entries[0].self_diff, 0, 0);
	assert_int_equal(d.entries[0].calls_diff, 0);
	assert_float_equal(d.entries[0].impact, 0, 0);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_diff__shared_static_names_print_with_their_file(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;
	size_t i, with_a = 0, with_b = 0;

	(void)state;
	fx_sym(a, "helper", "x/stat_a.c", PSYM_STATIC, 1, 0);
	fx_sym(a, "helper", "x/stat_b.c", PSYM_STATIC, 1, 0);
	fx_sym(b, "helper", "x/stat_a.c", PSYM_STATIC, 1, 0);
	fx_sym(b, "helper", "x/stat_b.c", PSYM_STATIC, 1, 0);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_int_equal(d.nentries, 2);
	for (i = 0; i < d.nentries; i++) {
		with_a += !strcmp(d.entries[i].print_name, "helper (stat_a.c)");
		with_b += !strcmp(d.entries[i].print_name, "helper (stat_b.c)");
	}
	assert_int_equal(with_a, 1);
	assert_int_equal(with_b, 1);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_diff__unpartnered_clone_prints_its_base_name(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;

	(void)state;
	fx_sym(a, "solve.constprop.0", NULL, 0, 1, 0);
	fx_sym(b, "solve", NULL, 0, 1, 0);
	fx_sym(b, "lone.isra.0", NULL, 0, 1, 0);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_int_equal(d.nentries, 2);
	assert_string_equal(d.entries[0].print_name, "solve [solve.constprop.0 | solve]");
	assert_string_equal(d.entries[1].print_name, "lone [lone.isra.0]");
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_print__extended_marks_missing_side_with_dashes(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff_print_opts po = { 0 };
	struct diff d;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;

	(void)state;
	fx_sym(a, "gone", NULL, 0, 10, 4);
	fx_sym(b, "main", NULL, 0, 5, 0);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	po.brief = 1;
	mem = open_memstream(&buf, &len);
	assert_int_equal(print_extended_flat(mem, &d, &po), 0);
	fclose(mem);
	assert_non_null(strstr(buf, "0.10       ---      0.10        4        -        4  X.   gone"));
	assert_non_null(strstr(buf, "---      0.05     -0.05        -        -        0  .X   main"));
	free(buf);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff__figure1_self_seconds_calls_and_impact),
		cmocka_unit_test(test_diff__arcs_on_both_sides_subtract_counts),
		cmocka_unit_test(test_diff__arc_only_in_second_is_negative_only_in_baseline_positive),
		cmocka_unit_test(test_diff__sampling_rates_differ_compare_seconds),
		cmocka_unit_test(test_diff__missing_side_is_a_placeholder_without_samples_or_calls),
		cmocka_unit_test(test_diff__equal_sides_keep_a_zero_entry),
		cmocka_unit_test(test_diff__shared_static_names_print_with_their_file),
		cmocka_unit_test(test_diff__unpartnered_clone_prints_its_base_name),
		cmocka_unit_test(test_print__extended_marks_missing_side_with_dashes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
