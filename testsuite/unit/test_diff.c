/* Unit tests for subtraction (diff/diff.h) and the printers (diff/print.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
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

static void test_diff__header_statics_are_told_apart_and_matched_by_unit(void **state)
{
	/* Three copies of a static function defined in memUtils.h, compiled
	 * into three units; the second build lists them in another order. */
	static const char *const units[] = { "CoMD.c", "linkCells.c", "timestep.c" };
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;
	size_t i, k;

	(void)state;
	for (k = 0; k < 3; k++) {
		long x = fx_sym(a, "comdFree", "src/memUtils.h", PSYM_STATIC, 10 * (double)(k + 1), 0);
		long y = fx_sym(b, "comdFree", "src/memUtils.h", PSYM_STATIC,
				10 * (double)(3 - k) + 1, 0);

		a->syms[x].unit = strdup(units[k]);
		b->syms[y].unit = strdup(units[2 - k]);
	}
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_int_equal(d.nentries, 3);
	for (i = 0; i < d.nentries; i++) {
		const struct diff_entry *e = &d.entries[i];

		/* each unit with its own copy: 0.10 -> 0.11, 0.20 -> 0.21, ... */
		assert_float_equal(e->self_diff, -0.01, 1e-9);
		assert_non_null(strstr(e->print_name, "comdFree (memUtils.h in "));
	}
	assert_non_null(strstr(d.entries[0].print_name, d.entries[0].unit));
	assert_int_equal(diff_find(&d, "comdFree (memUtils.h in linkCells.c)") >= 0, 1);
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

/*
 *   baseline: main -> is_even <-> is_odd  (its cycle 1)
 *   second:   main -> is_even <-> is_odd  (its cycle 2; cycle 1 is {ra, rb})
 * One diff cycle for the pair, one for the second run's other cycle.
 */
static void test_diff__cycles_are_entries_numbered_by_the_diff_outside_the_flat(void **state)
{
	static const char *const eo[] = { "is_even", "is_odd", NULL }, *const rr[] = { "ra", "rb", NULL };
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff d;
	long c1, c2, ev;

	(void)state;
	fx_sym(a, "main", NULL, 0, 10, 0);
	fx_sym(a, "is_even", NULL, 0, 5, 7);
	fx_sym(a, "is_odd", NULL, 0, 5, 7);
	fx_cycle(a, 1, 2, 12, eo);
	fx_sym(b, "main", NULL, 0, 10, 0);
	fx_sym(b, "ra", NULL, 0, 1, 3);
	fx_sym(b, "rb", NULL, 0, 1, 3);
	fx_sym(b, "is_even", NULL, 0, 2, 4);
	fx_sym(b, "is_odd", NULL, 0, 2, 4);
	fx_cycle(b, 1, 1, 5, rr);
	fx_cycle(b, 2, 2, 6, eo);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_int_equal(d.ncycles, 2);
	c1 = diff_find(&d, "<cycle 1 as a whole>");
	c2 = diff_find(&d, "<cycle 2 as a whole>");
	ev = diff_find(&d, "is_even");
	assert_true(c1 >= 0 && c2 >= 0 && ev >= 0);
	/* The pair: both sides present, numbers subtract. */
	assert_int_equal(d.entries[c1].match, MATCH_CYCLE);
	assert_true(d.entries[c1].side[0].present && d.entries[c1].side[1].present);
	assert_int_equal(d.entries[c1].side[1].cycle, 2);
	assert_int_equal(d.entries[c1].calls_diff, 0);
	assert_false(d.entries[c1].in_flat);
	assert_int_equal(d.entries[ev].cycle, 1);
	/* The second run's own cycle: a placeholder baseline side. */
	assert_false(d.entries[c2].side[0].present);
	assert_false(d.entries[c2].side[0].has_calls);
	assert_int_equal(d.entries[diff_find(&d, "ra")].cycle, 2);
	/* Cycles add nothing to the totals: the time is their members'. */
	assert_float_equal(d.abs_sum, 0.03 + 0.03 + 0.01 + 0.01, 1e-9);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static char *print_to_string(int (*fn)(FILE *, const struct diff *, const struct diff_print_opts *),
			     const struct diff *d, const struct diff_print_opts *po)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	assert_non_null(mem);
	assert_int_equal(fn(mem, d, po), 0);
	fclose(mem);
	if (getenv("SHOW_OUTPUT"))
		fputs(buf, stderr);
	return buf;
}

static void test_print__cg_cycle_lists_members_and_calls_within_show_counts_only(void **state)
{
	static const char *const eo[] = { "is_even", "is_odd", NULL };
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct diff_print_opts po = { 0 };
	struct diff d;
	char *out;

	(void)state;
	fx_sym(a, "main", NULL, 0, 10, 0);
	fx_sym(a, "is_even", NULL, 0, 5, 7);
	fx_sym(a, "is_odd", NULL, 0, 5, 7);
	fx_arc(a, "main", "is_even", 2);
	fx_arc(a, "is_even", "is_odd", 6);
	fx_arc(a, "is_odd", "is_even", 5);
	fx_cycle(a, 1, 2, 11, eo);
	fx_sym(b, "main", NULL, 0, 10, 0);
	fx_sym(b, "is_even", NULL, 0, 2, 4);
	fx_sym(b, "is_odd", NULL, 0, 2, 4);
	fx_arc(b, "main", "is_even", 2);
	fx_arc(b, "is_even", "is_odd", 4);
	fx_arc(b, "is_odd", "is_even", 2);
	fx_cycle(b, 1, 2, 6, eo);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	po.brief = 1;
	out = print_to_string(print_cg, &d, &po);
	assert_non_null(strstr(out, "0+5       <cycle 1 as a whole> [3]"));
	assert_non_null(strstr(out, "is_even <cycle 1> ["));
	/* is_even -> is_odd within the cycle: its count change only. */
	assert_non_null(strstr(out, "                                   2             is_odd <cycle 1> ["));
	free(out);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_print__cg_ends_with_an_index_by_name_as_wide_as_w(void **state)
{
	struct profile *a, *b;
	struct diff_print_opts po = { 0 };
	struct diff d;
	char *out, *ix;

	(void)state;
	figure1(&a, &b);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	po.brief = 1;
	po.width = 120;
	out = print_to_string(print_cg, &d, &po);
	ix = strstr(out, "\f\nIndex by function name\n\n");
	assert_non_null(ix);
	/* gprof's layout: three columns of (width - 1) / 3 = 39. */
	assert_non_null(strstr(ix, "   [4] f_b                                  [1] f_d"));
	free(out);
	po.width = 0; /* gprof's default, 80: columns of 26 */
	out = print_to_string(print_cg, &d, &po);
	assert_non_null(strstr(out, "   [4] f_b                     [1] f_d\n"));
	assert_null(strstr(out, "Every number")); /* -b: no blurb */
	free(out);
	po.brief = 0;
	out = print_to_string(print_cg, &d, &po);
	assert_non_null(strstr(out, " % time    the change of self + children time"));
	free(out);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

static void test_print__extended_cg_shows_both_runs_calls_and_their_diff_in_columns(void **state)
{
	struct profile *a, *b;
	struct diff_print_opts po = { 0 };
	struct diff d;
	char *out;

	(void)state;
	figure1(&a, &b);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	po.brief = 1;
	po.extended = 1;
	out = print_to_string(print_cg, &d, &po);
	assert_non_null(strstr(out, "index  % time     self  children    +calls    -calls      diff   name\n"));
	/* f_c -> f_d: 30 calls, then 20, 10 fewer; f_d's own line 31, 22, 9. */
	assert_non_null(strstr(out, "        30        20        10       f_d [1]\n"));
	assert_non_null(strstr(out, "        31        22         9   f_d [1]\n"));
	/* main has no call counts on either side. */
	assert_non_null(strstr(out, "         -         -         0   main [2]\n"));
	free(out);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

/* The printers' name keys order names as strcmp does: names of up to 8
 * bytes, longer ones with a common prefix, one a prefix of the other,
 * bytes above 127 (strcmp compares them unsigned). */
static void test_diff__name_keys_order_names_as_strcmp(void **state)
{
	static const char *const names[] = {
		"", "a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "abcdefgh0",
		"abcdefgi", "f1", "f10", "f100", "f2", "main", "_start",
		"std::vector<int>::push_back(int const&)",
		"std::vector<int>::push_back(int&&)", "std::vector<int>::size() const",
		"\xc3\xa9t\xc3\xa9", "\x7f", "\x80", "\xff\xff\xff\xff\xff\xff\xff\xff",
		"\xff\xff\xff\xff\xff\xff\xff\xff\x01",
	};
	size_t n = sizeof(names) / sizeof(names[0]);

	(void)state;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			int want = strcmp(names[i], names[j]);
			int got = diff_name_cmp(diff_name_key(names[i]), names[i],
						diff_name_key(names[j]), names[j]);

			assert_int_equal((want > 0) - (want < 0), (got > 0) - (got < 0));
		}
}

/* The arc index lists each arc once, under its callee (in) and its caller
 * (out), in the diff's arc order; an entry without arcs has empty lists;
 * a self-arc is in both of its entry's lists. */
static void test_diff__arc_index_lists_each_arc_under_its_ends_in_arc_order(void **state)
{
	struct profile *a, *b;
	struct diff d;
	struct diff_arc_index ix;
	size_t nin = 0, nout = 0;

	(void)state;
	figure1(&a, &b);
	fx_arc(a, "f_d", "f_d", 3);
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	diff_sort(&d);
	assert_int_equal(d.narcs, 5);
	assert_int_equal(diff_arc_index_build(&d, &ix), 0);
	assert_int_equal(ix.in_at[0], 0);
	assert_int_equal(ix.out_at[0], 0);
	for (size_t e = 0; e < d.nentries; e++) {
		size_t want_in = 0, want_out = 0;

		for (size_t k = 0; k < d.narcs; k++) {
			want_in += d.arcs[k].child == e;
			want_out += d.arcs[k].parent == e;
		}
		assert_int_equal(ix.in_at[e + 1] - ix.in_at[e], want_in);
		assert_int_equal(ix.out_at[e + 1] - ix.out_at[e], want_out);
		for (size_t j = ix.in_at[e]; j < ix.in_at[e + 1]; j++) {
			assert_int_equal(d.arcs[ix.in[j]].child, e);
			if (j > ix.in_at[e])
				assert_true(ix.in[j] > ix.in[j - 1]);
		}
		for (size_t j = ix.out_at[e]; j < ix.out_at[e + 1]; j++) {
			assert_int_equal(d.arcs[ix.out[j]].parent, e);
			if (j > ix.out_at[e])
				assert_true(ix.out[j] > ix.out[j - 1]);
		}
		nin += want_in;
		nout += want_out;
	}
	assert_int_equal(nin, d.narcs);
	assert_int_equal(nout, d.narcs);
	assert_int_equal(ix.in_at[d.nentries], d.narcs);
	diff_arc_index_free(&ix);
	assert_null(ix.in);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

/*
 * A significant row with several callers names the three whose time along
 * the call changed most, largest first, a tie in the arcs' order:
 *   hot: 100 -> 3000 ticks, from c1 (+1000 ticks along the arc), c2
 *   (+200), c3 (+1000, after c1) and c4 (+50); stable functions around
 *   it keep the noise model's speed at 1.
 */
static void test_print__evidence_names_the_three_callers_that_changed_most(void **state)
{
	static const char *const callers[] = { "c1", "c2", "c3", "c4" };
	static const double before[] = { 25, 25, 25, 25 }, after[] = { 1025, 225, 1025, 75 };
	struct profile *p[2] = { fx_new(100), fx_new(100) };
	struct diff_print_opts po = { 0 };
	struct diff d;
	char *buf = NULL, name[32];
	size_t len = 0;
	FILE *mem;

	(void)state;
	for (int s = 0; s < 2; s++) {
		fx_sym(p[s], "main", NULL, 0, 0, 1);
		for (int k = 0; k < 4; k++)
			fx_sym(p[s], callers[k], NULL, 0, 0, 1);
		fx_sym(p[s], "hot", NULL, 0, s ? 3000 : 100, 4);
		for (int k = 0; k < 30; k++) {
			snprintf(name, sizeof(name), "stable%d", k);
			fx_sym(p[s], name, NULL, 0, 500, 1);
			fx_arc(p[s], "main", name, 1);
		}
		for (int k = 0; k < 4; k++) {
			fx_arc(p[s], "main", callers[k], 1);
			fx_arc(p[s], callers[k], "hot", 1);
			p[s]->arcs[p[s]->narcs - 1].time = s ? after[k] : before[k];
		}
	}
	assert_int_equal(diff_compute(&d, p[0], p[1], NULL), 0);
	diff_sort(&d);
	po.brief = 1;
	po.noise_marker = 1;
	mem = open_memstream(&buf, &len);
	assert_int_equal(print_evidence(mem, &d, &po), 0);
	fclose(mem);
	assert_non_null(strstr(buf, "  hot: "));
	assert_non_null(strstr(buf, "; under c1 0.25 -> 10.25 s, c3 0.25 -> 10.25 s, "
				    "c2 0.25 -> 2.25 s\n"));
	assert_null(strstr(buf, "c4 0.25"));
	free(buf);
	diff_release(&d);
	profile_free(p[0]);
	profile_free(p[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff__figure1_self_seconds_calls_and_impact),
		cmocka_unit_test(test_diff__name_keys_order_names_as_strcmp),
		cmocka_unit_test(test_diff__arcs_on_both_sides_subtract_counts),
		cmocka_unit_test(test_diff__arc_index_lists_each_arc_under_its_ends_in_arc_order),
		cmocka_unit_test(test_diff__arc_only_in_second_is_negative_only_in_baseline_positive),
		cmocka_unit_test(test_diff__sampling_rates_differ_compare_seconds),
		cmocka_unit_test(test_diff__missing_side_is_a_placeholder_without_samples_or_calls),
		cmocka_unit_test(test_diff__equal_sides_keep_a_zero_entry),
		cmocka_unit_test(test_diff__shared_static_names_print_with_their_file),
		cmocka_unit_test(test_diff__header_statics_are_told_apart_and_matched_by_unit),
		cmocka_unit_test(test_diff__unpartnered_clone_prints_its_base_name),
		cmocka_unit_test(test_print__extended_marks_missing_side_with_dashes),
		cmocka_unit_test(test_print__evidence_names_the_three_callers_that_changed_most),
		cmocka_unit_test(test_diff__cycles_are_entries_numbered_by_the_diff_outside_the_flat),
		cmocka_unit_test(test_print__cg_cycle_lists_members_and_calls_within_show_counts_only),
		cmocka_unit_test(test_print__cg_ends_with_an_index_by_name_as_wide_as_w),
		cmocka_unit_test(test_print__extended_cg_shows_both_runs_calls_and_their_diff_in_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
