/* Unit tests for folding GCC clones into their base function (diff/clones.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "diff/clones.h"
#include "testsuite/unit/diff_fixture.h"
#include "utils/banned.h"

static const struct profile_sym *sym(const struct profile *p, const char *name)
{
	long i = profile_find(p, name, NULL);

	assert_true(i >= 0);
	return &p->syms[i];
}

static const struct profile_arc *arc(const struct profile *p, const char *from, const char *to)
{
	long f = profile_find(p, from, NULL), t = profile_find(p, to, NULL);
	size_t i;

	for (i = 0; i < p->narcs; i++)
		if (p->arcs[i].parent == (uint32_t)f && p->arcs[i].child == (uint32_t)t)
			return &p->arcs[i];
	return NULL;
}

/*
 *   main --10--> solve --10--> solve.part.0      (partial inlining)
 *   main --4---> solve.part.0                    (the inlined test passed)
 *   solve.cold: 2 samples, no calls
 * gives
 *   main --14--> solve "solve (+ .part.0, .cold)", 10 calls within itself
 */
static void test_clones__parts_fold_into_their_base_and_inner_calls_become_recursive(void **state)
{
	struct profile *p = fx_new(100);
	const struct profile_sym *s;
	const struct profile_arc *a;

	(void)state;
	fx_sym(p, "main", NULL, 0, 1, 0);
	fx_sym(p, "solve.cold", NULL, PSYM_STATIC, 2, 0);
	fx_sym(p, "solve", NULL, 0, 3, 10);
	fx_sym(p, "solve.part.0", NULL, PSYM_STATIC, 20, 14);
	fx_sym(p, "other", NULL, 0, 7, 0);
	fx_arc(p, "main", "solve", 10);
	fx_arc(p, "solve", "solve.part.0", 10);
	fx_arc(p, "main", "solve.part.0", 4);
	p->arcs[1].time = 20.0 * 10 / 14; /* solve.part.0's time inherited by solve */
	p->syms[2].prop_child = p->arcs[1].time;
	p->syms[2].child_ticks = p->arcs[1].time;

	assert_int_equal(profile_merge_clones(p), 0);
	assert_int_equal(p->nsyms, 3);
	s = sym(p, "solve");
	assert_string_equal(s->print_name, "solve (+ .cold, .part.0)");
	assert_true(s->self_ticks == 25);
	assert_int_equal(s->ncalls, 14); /* from main: 10 + 4 */
	assert_int_equal(s->self_calls, 10);
	assert_true(s->child_ticks < 1e-9 && s->prop_child < 1e-9);
	assert_int_equal(p->narcs, 1);
	a = arc(p, "main", "solve");
	assert_non_null(a);
	assert_int_equal(a->count, 14);
	/* Everything else as it was. */
	assert_true(sym(p, "other")->self_ticks == 7);
	assert_true(sym(p, "main")->self_ticks == 1);
	profile_free(p);
}

/* GCC replaced scale by scale.constprop.0 and use_a by a chain of clones:
 * each takes its base's name. */
static void test_clones__clone_without_a_base_takes_the_base_name(void **state)
{
	struct profile *p = fx_new(100);

	(void)state;
	fx_sym(p, "main", NULL, 0, 1, 0);
	fx_sym(p, "scale.constprop.0", NULL, PSYM_STATIC, 4, 6);
	fx_sym(p, "use_a.constprop.0.isra.0", NULL, PSYM_STATIC, 5, 8);
	fx_sym(p, "use_a.constprop.0.isra.0.cold", NULL, PSYM_STATIC, 1, 0);
	fx_arc(p, "main", "scale.constprop.0", 6);
	fx_arc(p, "main", "use_a.constprop.0.isra.0", 8);

	assert_int_equal(profile_merge_clones(p), 0);
	assert_int_equal(p->nsyms, 3);
	assert_string_equal(sym(p, "scale")->print_name, "scale (+ .constprop.0)");
	assert_int_equal(sym(p, "scale")->ncalls, 6);
	assert_string_equal(sym(p, "use_a")->print_name,
			    "use_a (+ .constprop.0.isra.0, .constprop.0.isra.0.cold)");
	assert_true(sym(p, "use_a")->self_ticks == 6);
	assert_int_equal(arc(p, "main", "use_a")->count, 8);
	profile_free(p);
}

/* Callers reaching one function through two clones get one arc, summed. */
static void test_clones__arcs_to_two_clones_of_one_function_are_summed(void **state)
{
	struct profile *p = fx_new(100);

	(void)state;
	fx_sym(p, "main", NULL, 0, 1, 0);
	fx_sym(p, "f", NULL, 0, 1, 3);
	fx_sym(p, "f.isra.0", NULL, PSYM_STATIC, 1, 5);
	fx_sym(p, "g", NULL, 0, 1, 0);
	fx_arc(p, "main", "f", 3);
	fx_arc(p, "main", "f.isra.0", 5);
	fx_arc(p, "f.isra.0", "g", 2);
	fx_arc(p, "f", "g", 1);

	assert_int_equal(profile_merge_clones(p), 0);
	assert_int_equal(p->narcs, 2);
	assert_int_equal(arc(p, "main", "f")->count, 8);
	assert_int_equal(arc(p, "f", "g")->count, 3);
	assert_int_equal(sym(p, "f")->ncalls, 8);
	assert_int_equal(sym(p, "f")->self_calls, 0);
	profile_free(p);
}

/* Names that only look like clones, and a profile without clones, stay. */
static void test_clones__profile_without_clones_is_unchanged(void **state)
{
	struct profile *p = fx_new(100);

	(void)state;
	fx_sym(p, "main", NULL, 0, 1, 0);
	fx_sym(p, "x.y.z", NULL, 0, 2, 1);
	fx_sym(p, "parse.partial", NULL, 0, 3, 1);
	fx_arc(p, "main", "x.y.z", 1);
	assert_int_equal(profile_merge_clones(p), 0);
	assert_int_equal(p->nsyms, 3);
	assert_string_equal(p->syms[1].print_name, "x.y.z");
	assert_string_equal(p->syms[2].print_name, "parse.partial");
	assert_int_equal(p->narcs, 1);
	profile_free(p);
}

/* Two static functions named f in different files: each clone goes to the
 * f of its own file. */
static void test_clones__clone_goes_to_the_base_of_its_own_file(void **state)
{
	struct profile *p = fx_new(100);

	(void)state;
	fx_sym(p, "f", "a.c", PSYM_STATIC, 1, 0);
	fx_sym(p, "f", "b.c", PSYM_STATIC, 2, 0);
	fx_sym(p, "f.cold", "b.c", PSYM_STATIC, 4, 0);
	assert_int_equal(profile_merge_clones(p), 0);
	assert_int_equal(p->nsyms, 2);
	assert_true(p->syms[0].self_ticks == 1);
	assert_true(p->syms[1].self_ticks == 6);
	assert_string_equal(p->syms[1].print_name, "f (+ .cold)");
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clones__parts_fold_into_their_base_and_inner_calls_become_recursive),
		cmocka_unit_test(test_clones__clone_without_a_base_takes_the_base_name),
		cmocka_unit_test(test_clones__arcs_to_two_clones_of_one_function_are_summed),
		cmocka_unit_test(test_clones__profile_without_clones_is_unchanged),
		cmocka_unit_test(test_clones__clone_goes_to_the_base_of_its_own_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
