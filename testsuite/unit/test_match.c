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

static void test_match__cycle_symbol_without_a_number_is_left_out(void **state)
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

/*
 * Cycles are numbered per side in each side's own order; they pair by
 * their members:
 *
 *   baseline  cycle 1 = {ping, pong}   cycle 2 = {ra, rb}
 *   second    cycle 1 = {ra, rb}       cycle 2 = {ping, pong}
 */
static void test_match__cycles_pair_by_their_members_not_by_number(void **state)
{
	static const char *const pp[] = { "ping", "pong", NULL }, *const rr[] = { "ra", "rb", NULL };
	struct profile *a = fx_new(100), *b = fx_new(100);
	long a1, a2, b1, b2;
	struct match m;
	size_t i, ncyc = 0;

	(void)state;
	fx_sym(a, "ping", NULL, 0, 1, 3);
	fx_sym(a, "pong", NULL, 0, 1, 3);
	fx_sym(a, "ra", NULL, 0, 1, 2);
	fx_sym(a, "rb", NULL, 0, 1, 2);
	fx_sym(b, "ra", NULL, 0, 1, 2);
	fx_sym(b, "rb", NULL, 0, 1, 2);
	fx_sym(b, "ping", NULL, 0, 1, 3);
	fx_sym(b, "pong", NULL, 0, 1, 3);
	a1 = fx_cycle(a, 1, 1, 5, pp);
	a2 = fx_cycle(a, 2, 1, 3, rr);
	b1 = fx_cycle(b, 1, 1, 3, rr);
	b2 = fx_cycle(b, 2, 1, 5, pp);
	assert_int_equal(match_compute(&m, a, b), 0);
	for (i = 0; i < m.npairs; i++) {
		if (m.pairs[i].sym[0] == a1) {
			assert_int_equal(m.pairs[i].sym[1], b2);
			assert_int_equal(m.pairs[i].kind, MATCH_CYCLE);
			ncyc++;
		} else if (m.pairs[i].sym[0] == a2) {
			assert_int_equal(m.pairs[i].sym[1], b1);
			ncyc++;
		}
	}
	assert_int_equal(ncyc, 2);
	assert_int_equal(m.npairs, 6);
	match_release(&m);
	profile_free(a);
	profile_free(b);
}

/* A cycle that only one run has (the recursion was removed) is on that side
 * only; a cycle that gained a member still pairs by the members it kept. */
static void test_match__one_sided_cycle_gets_a_placeholder_and_grown_cycle_pairs(void **state)
{
	static const char *const xy[] = { "x", "y", NULL }, *const pq[] = { "p", "q", NULL };
	static const char *const pqr[] = { "p", "q", "r", NULL };
	struct profile *a = fx_new(100), *b = fx_new(100);
	long axy, apq, bpqr;
	struct match m;
	size_t i, seen = 0;

	(void)state;
	fx_sym(a, "x", NULL, 0, 1, 1);
	fx_sym(a, "y", NULL, 0, 1, 1);
	fx_sym(a, "p", NULL, 0, 1, 1);
	fx_sym(a, "q", NULL, 0, 1, 1);
	fx_sym(a, "r", NULL, 0, 1, 1);
	fx_sym(b, "x", NULL, 0, 1, 1);
	fx_sym(b, "y", NULL, 0, 1, 1);
	fx_sym(b, "p", NULL, 0, 1, 1);
	fx_sym(b, "q", NULL, 0, 1, 1);
	fx_sym(b, "r", NULL, 0, 1, 1);
	axy = fx_cycle(a, 1, 1, 2, xy);
	apq = fx_cycle(a, 2, 1, 2, pq);
	bpqr = fx_cycle(b, 1, 1, 3, pqr);
	assert_int_equal(match_compute(&m, a, b), 0);
	for (i = 0; i < m.npairs; i++) {
		if (m.pairs[i].sym[0] == axy) {
			assert_int_equal(m.pairs[i].sym[1], -1);
			assert_int_equal(m.pairs[i].kind, MATCH_NONE);
			seen++;
		} else if (m.pairs[i].sym[0] == apq) {
			assert_int_equal(m.pairs[i].sym[1], bpqr);
			seen++;
		}
	}
	assert_int_equal(seen, 2);
	assert_int_equal(m.npairs, 7);
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
		cmocka_unit_test(test_match__cycle_symbol_without_a_number_is_left_out),
		cmocka_unit_test(test_match__cycles_pair_by_their_members_not_by_number),
		cmocka_unit_test(test_match__one_sided_cycle_gets_a_placeholder_and_grown_cycle_pairs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
