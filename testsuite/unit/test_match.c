/* Unit tests for matching functions across two binaries (diff/match.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "diff/match.h"
#include "diff/diff.h"
#include "testsuite/unit/diff_fixture.h"
#include "utils/banned.h"

/* The pair holding a's symbol `name` (or b's when a has none). */
static const struct match_pair *pair_of(const struct match *m, const struct profile *a,
					const struct profile *b, const char *name,
					const char *file)
{
	size_t i;

	for (i = 0; i < m->npairs; i++) {
		const struct match_pair *mp = &m->pairs[i];
		const struct profile_sym *s = mp->sym[0] >= 0 ? &a->syms[mp->sym[0]]
							      : &b->syms[mp->sym[1]];

		if (!strcmp(s->name, name) &&
		    (!file || (s->file && !strcmp(s->file, file))))
			return mp;
	}
	fail_msg("no pair for %s", name);
	return NULL;
}

static void test_match__same_name_pairs_even_when_addresses_differ(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct match m;

	(void)state;
	fx_sym(a, "main", NULL, 0, 1, 0);
	fx_sym(a, "work", NULL, 0, 5, 1);
	fx_sym(b, "pad", NULL, 0, 0, 0);  /* shifts every address in b */
	fx_sym(b, "work", NULL, 0, 3, 1);
	fx_sym(b, "main", NULL, 0, 2, 0);
	assert_int_equal(match_compute(&m, a, b), 0);
	assert_int_equal(m.npairs, 3);
	assert_int_equal(pair_of(&m, a, b, "work", NULL)->sym[1], 1);
	assert_int_equal(pair_of(&m, a, b, "main", NULL)->sym[1], 2);
	assert_int_equal(pair_of(&m, a, b, "work", NULL)->kind, MATCH_NAME);
	match_release(&m);
	profile_free(a);
	profile_free(b);
}

static void test_match__one_sided_symbols_get_a_placeholder_side(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct match m;

	(void)state;
	fx_sym(a, "removed", NULL, 0, 1, 0);
	fx_sym(a, "kept", NULL, 0, 1, 0);
	fx_sym(b, "kept", NULL, 0, 1, 0);
	fx_sym(b, "added", NULL, 0, 1, 0);
	assert_int_equal(match_compute(&m, a, b), 0);
	assert_int_equal(m.npairs, 3);
	assert_int_equal(pair_of(&m, a, b, "removed", NULL)->sym[1], -1);
	assert_int_equal(pair_of(&m, a, b, "added", NULL)->sym[0], -1);
	assert_int_equal(pair_of(&m, a, b, "added", NULL)->kind, MATCH_NONE);
	match_release(&m);
	profile_free(a);
	profile_free(b);
}

static void test_match__static_functions_are_told_apart_by_file(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct match m;

	(void)state;
	fx_sym(a, "helper", "src/stat_a.c", PSYM_STATIC, 1, 0);
	fx_sym(a, "helper", "src/stat_b.c", PSYM_STATIC, 2, 0);
	/* b lists them the other way round */
	fx_sym(b, "helper", "src/stat_b.c", PSYM_STATIC, 3, 0);
	fx_sym(b, "helper", "src/stat_a.c", PSYM_STATIC, 4, 0);
	assert_int_equal(match_compute(&m, a, b), 0);
	assert_int_equal(m.npairs, 2);
	assert_int_equal(pair_of(&m, a, b, "helper", "src/stat_a.c")->sym[1], 1);
	assert_int_equal(pair_of(&m, a, b, "helper", "src/stat_b.c")->sym[1], 0);
	match_release(&m);
	profile_free(a);
	profile_free(b);
}

static void test_match__statics_of_different_files_are_never_merged(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct match m;

	(void)state;
	fx_sym(a, "helper", "stat_a.c", PSYM_STATIC, 1, 0);
	fx_sym(b, "helper", "stat_b.c", PSYM_STATIC, 1, 0);
	assert_int_equal(match_compute(&m, a, b), 0);
	assert_int_equal(m.npairs, 2);
	assert_int_equal(m.pairs[0].sym[1], -1);
	assert_int_equal(m.pairs[1].sym[0], -1);
	match_release(&m);
	profile_free(a);
	profile_free(b);
}

static void test_match__static_file_matches_by_base_name_across_build_dirs(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct match m;

	(void)state;
	fx_sym(a, "helper", "/build1/stat_a.c", PSYM_STATIC, 1, 0);
	fx_sym(b, "helper", "/build2/stat_a.c", PSYM_STATIC, 1, 0);
	assert_int_equal(match_compute(&m, a, b), 0);
	assert_int_equal(m.npairs, 1);
	match_release(&m);
	profile_free(a);
	profile_free(b);
}

static void test_match__clone_matches_the_same_clone_first(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct match m;

	(void)state;
	fx_sym(a, "solve", NULL, 0, 1, 0);
	fx_sym(a, "solve.constprop.0", NULL, 0, 1, 0);
	fx_sym(b, "solve.constprop.0", NULL, 0, 1, 0);
	fx_sym(b, "solve", NULL, 0, 1, 0);
	assert_int_equal(match_compute(&m, a, b), 0);
	assert_int_equal(m.npairs, 2);
	assert_int_equal(pair_of(&m, a, b, "solve.constprop.0", NULL)->sym[1], 0);
	assert_int_equal(pair_of(&m, a, b, "solve", NULL)->sym[1], 1);
	match_release(&m);
	profile_free(a);
	profile_free(b);
}

static void test_match__unpartnered_clone_pairs_with_its_base_name(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct match m;

	(void)state;
	fx_sym(a, "kernel.isra.0", NULL, 0, 1, 0);
	fx_sym(b, "kernel", NULL, 0, 1, 0);
	assert_int_equal(match_compute(&m, a, b), 0);
	assert_int_equal(m.npairs, 1);
	assert_int_equal(m.pairs[0].kind, MATCH_CLONE_BASE);
	match_release(&m);
	profile_free(a);
	profile_free(b);
}

static void test_match__plain_names_never_match_by_prefix(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct match m;

	(void)state;
	fx_sym(a, "f.part", NULL, 0, 1, 0);   /* not a clone suffix: no number */
	fx_sym(b, "g", NULL, 0, 1, 0);
	assert_int_equal(match_compute(&m, a, b), 0);
	assert_int_equal(m.npairs, 2);
	match_release(&m);
	profile_free(a);
	profile_free(b);
}

static void test_match__clone_base_strips_gcc_suffix_chains(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(match_clone_base("f.constprop.0.isra.0", buf, sizeof(buf)), 1);
	assert_string_equal(buf, "f");
	assert_true(match_clone_base("solve.part.0.cold", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "solve");
	assert_true(match_clone_base("g.lto_priv.3", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "g");
	assert_true(match_clone_base("h.cold", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "h");
	assert_true(match_clone_base("ns::k(int) [clone .isra.0]", buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "ns::k(int)");
	assert_int_equal(match_clone_base("plain", buf, sizeof(buf)), 0);
	assert_int_equal(match_clone_base("x.y.z", buf, sizeof(buf)), 0);
	assert_int_equal(match_clone_base(".isra.0", buf, sizeof(buf)), 0);
}

static void test_match__cxx_matches_by_mangled_name(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct match m;

	(void)state;
	fx_sym(a, "_Z4worki", NULL, 0, 1, 0);   /* work(int) */
	fx_sym(a, "_Z4workd", NULL, 0, 1, 0);   /* work(double) */
	fx_sym(b, "_Z4workd", NULL, 0, 1, 0);
	fx_sym(b, "_Z4worki", NULL, 0, 1, 0);
	assert_int_equal(match_compute(&m, a, b), 0);
	assert_int_equal(m.npairs, 2);
	assert_int_equal(pair_of(&m, a, b, "_Z4workd", NULL)->sym[1], 0);
	match_release(&m);
	profile_free(a);
	profile_free(b);
}

static void test_match__cycle_pseudo_symbols_are_left_out(void **state)
{
	struct profile *a = fx_new(100), *b = fx_new(100);
	struct match m;

	(void)state;
	fx_sym(a, "f", NULL, 0, 1, 0);
	fx_sym(a, "<cycle 1 as a whole>", NULL, PSYM_CYCLE, 1, 0);
	fx_sym(b, "f", NULL, 0, 1, 0);
	assert_int_equal(match_compute(&m, a, b), 0);
	assert_int_equal(m.npairs, 1);
	match_release(&m);
	profile_free(a);
	profile_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_match__same_name_pairs_even_when_addresses_differ),
		cmocka_unit_test(test_match__one_sided_symbols_get_a_placeholder_side),
		cmocka_unit_test(test_match__static_functions_are_told_apart_by_file),
		cmocka_unit_test(test_match__statics_of_different_files_are_never_merged),
		cmocka_unit_test(test_match__static_file_matches_by_base_name_across_build_dirs),
		cmocka_unit_test(test_match__clone_matches_the_same_clone_first),
		cmocka_unit_test(test_match__unpartnered_clone_pairs_with_its_base_name),
		cmocka_unit_test(test_match__plain_names_never_match_by_prefix),
		cmocka_unit_test(test_match__clone_base_strips_gcc_suffix_chains),
		cmocka_unit_test(test_match__cxx_matches_by_mangled_name),
		cmocka_unit_test(test_match__cycle_pseudo_symbols_are_left_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
