/* Unit tests for the bounded-memory rank statistics engine
 * (ranks/rankstate.h): what the MPI driver does (states packed, merged in
 * another order, a second pass per reader) gives the single-process
 * report, byte for byte. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "ranks/rankstate.h"
#include "ranks/rankstats.h"
#include "utils/banned.h"

#define NRANKS 7

/*
 * Rank r of a job of NRANKS (hz 100):
 *   main    never sampled, never called: left out
 *   solve   30 + 10 * (r % 3) ticks + a third of a tick (gprof splits bins)
 *   halo    calls 4 on every rank but rank 5 (9), 2 ticks
 *   io      rank 0 only: 3 calls, 1 tick
 */
static struct profile *rank_profile(int r)
{
	struct profile *p = profile_new();
	const char *names[] = { "main", "solve", "halo", "io" };
	double ticks[] = { 0, 30 + 10 * (r % 3) + 1.0 / 3, 2, r == 0 ? 1 : 0 };
	uint64_t calls[] = { 0, 1, r == 5 ? 9 : 4, r == 0 ? 3 : 0 };
	size_t i;

	assert_non_null(p);
	p->hz = 100;
	for (i = 0; i < 4; i++) {
		struct profile_sym s = { 0 };

		s.name = strdup(names[i]);
		s.print_name = strdup(names[i]);
		s.flags = PSYM_FUNC | PSYM_IN_FLAT;
		s.self_ticks = ticks[i];
		s.ncalls = calls[i];
		assert_int_not_equal(profile_add_sym(p, &s), -1);
	}
	return p;
}

static char *print(const struct rankstats *rs)
{
	struct rankstats_opts o = RANKSTATS_OPTS_INIT;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	assert_non_null(mem);
	rankstats_print(mem, rs, &o, "test");
	fclose(mem);
	return buf;
}

static char *tags[NRANKS];

static char *single_report(void)
{
	struct profile *p[NRANKS];
	struct rankstats *rs;
	char *text;
	int r;

	for (r = 0; r < NRANKS; r++)
		p[r] = rank_profile(r);
	assert_int_equal(rankstats_compute(p, tags, NRANKS, &rs), 0);
	text = print(rs);
	rankstats_free(rs);
	for (r = 0; r < NRANKS; r++)
		profile_free(p[r]);
	return text;
}

/* Three readers: ranks r with r % 3 == k, read in descending order. */
static char *three_reader_report(void)
{
	struct rankstate *st[3], *global;
	struct rankpass pass[3];
	FILE *spill[3];
	struct rankstats *rs;
	unsigned char *buf;
	size_t len;
	char *text;
	int k, r;

	for (k = 0; k < 3; k++) {
		st[k] = rankstate_new(NRANKS);
		spill[k] = tmpfile();
		assert_non_null(st[k]);
		assert_non_null(spill[k]);
		for (r = NRANKS - 1; r >= 0; r--) {
			struct profile *p;

			if (r % 3 != k)
				continue;
			p = rank_profile(r);
			assert_int_equal(rankstate_add(st[k], p, (uint64_t)r, spill[k]), 0);
			profile_free(p);
		}
	}
	/* the tree: 2 into 1, then 1 into 0, each through the wire format */
	for (k = 2; k > 0; k--) {
		struct rankstate *copy;

		assert_int_equal(rankstate_pack(st[k], &buf, &len), 0);
		assert_int_equal(rankstate_unpack(buf, len, "test", &copy), 0);
		free(buf);
		assert_int_equal(rankstate_merge(st[k - 1], copy), 0);
		rankstate_free(copy);
	}
	assert_int_equal(rankstate_pack(st[0], &buf, &len), 0);
	assert_int_equal(rankstate_unpack(buf, len, "test", &global), 0);
	free(buf);
	assert_int_equal(rankstate_finish(global), 0);
	for (k = 0; k < 3; k++) {
		assert_int_equal(rankpass_init(&pass[k], global), 0);
		assert_int_equal(rankstate_pass2(global, st[k], spill[k], &pass[k]), 0);
	}
	for (k = 2; k > 0; k--) {
		struct rankpass copy;

		assert_int_equal(rankpass_pack(&pass[k], &buf, &len), 0);
		assert_int_equal(rankpass_unpack(buf, len, "test", &copy), 0);
		free(buf);
		assert_int_equal(rankpass_merge(&pass[k - 1], &copy), 0);
		rankpass_release(&copy);
	}
	assert_int_equal(rankstate_report(global, &pass[0], tags, &rs), 0);
	text = print(rs);
	rankstats_free(rs);
	for (k = 0; k < 3; k++) {
		rankpass_release(&pass[k]);
		rankstate_free(st[k]);
		fclose(spill[k]);
	}
	rankstate_free(global);
	return text;
}

static void test_rankstate__three_readers_merged_give_the_single_report(void **state)
{
	char *a = single_report(), *b = three_reader_report();

	(void)state;
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "7 ranks, 3 functions"));
	free(a);
	free(b);
}

/* Rank r's counts poured into `table` (same symbols, any order). */
static void refill(struct profile *table, int r)
{
	struct profile *src = rank_profile(r);
	size_t i, j;

	table->hz = src->hz;
	for (i = 0; i < table->nsyms; i++)
		for (j = 0; j < src->nsyms; j++)
			if (!strcmp(table->syms[i].name, src->syms[j].name)) {
				table->syms[i].self_ticks = src->syms[j].self_ticks;
				table->syms[i].ncalls = src->syms[j].ncalls;
			}
	profile_free(src);
}

/* What gprof --rank-stats does with upstream_load_counts: one table
 * refilled per rank, the memo naming each symbol's function; halfway, a
 * second table with the symbols in the reverse order (the memo must not
 * carry the first table's indices over to it). */
static void test_rankstate__memo_over_refilled_tables_gives_the_single_report(void **state)
{
	struct profile *t1 = rank_profile(0), *t2 = profile_new();
	struct rankstate_memo memo;
	struct rankstate *st = rankstate_new(NRANKS);
	struct rankpass pass;
	struct rankstats *rs;
	FILE *spill = tmpfile();
	char *a, *b;
	size_t i;
	int r;

	(void)state;
	assert_non_null(st);
	assert_non_null(spill);
	assert_non_null(t2);
	for (i = t1->nsyms; i-- > 0;) {
		struct profile_sym s = t1->syms[i];

		s.name = strdup(s.name);
		s.print_name = strdup(s.print_name);
		assert_int_not_equal(profile_add_sym(t2, &s), -1);
	}
	memset(&memo, 0, sizeof(memo));
	for (r = 0; r < NRANKS; r++) {
		struct profile *t = r < NRANKS / 2 ? t1 : t2;

		refill(t, r);
		assert_int_equal(rankstate_add_memo(st, t, (uint64_t)r, spill, &memo), 0);
	}
	assert_ptr_equal(memo.table, t2);
	rankstate_memo_release(&memo);
	assert_int_equal(rankstate_finish(st), 0);
	assert_int_equal(rankpass_init(&pass, st), 0);
	assert_int_equal(rankstate_pass2(st, st, spill, &pass), 0);
	assert_int_equal(rankstate_report(st, &pass, tags, &rs), 0);
	a = single_report();
	b = print(rs);
	assert_string_equal(a, b);
	free(a);
	free(b);
	rankstats_free(rs);
	rankpass_release(&pass);
	rankstate_free(st);
	fclose(spill);
	profile_free(t1);
	profile_free(t2);
}

static void test_rankstate__ties_go_to_the_lower_rank_and_absent_ranks_count_zero(void **state)
{
	struct profile *p[NRANKS];
	struct rankstats *rs;
	const struct rankstats_fn *f;
	int r;

	(void)state;
	for (r = 0; r < NRANKS; r++)
		p[r] = rank_profile(r);
	assert_int_equal(rankstats_compute(p, tags, NRANKS, &rs), 0);
	f = rankstats_find(rs, "solve", NULL);
	assert_non_null(f);
	assert_int_equal(f->self_max_rank, 2);  /* 50 ticks on ranks 2 and 5 */
	assert_int_equal(f->self_min_rank, 0);  /* 30 on 0, 3, 6 */
	f = rankstats_find(rs, "io", NULL);
	assert_non_null(f);
	assert_int_equal(f->nran, 1);
	assert_int_equal(f->calls_min, 0);
	assert_int_equal(f->calls_min_rank, 1); /* the first rank it did not run on */
	assert_int_equal(f->calls_max_rank, 0);
	/* medians: halo 4 calls, io 0 (six ranks never call it): rank 5
	 * differs in halo only, rank 0 in io only */
	assert_int_equal(rs->ranks[5].ncalls_differ, 1);
	assert_int_equal(rs->ranks[0].ncalls_differ, 1);
	assert_int_equal(rs->ranks[1].ncalls_differ, 0);
	rankstats_free(rs);
	for (r = 0; r < NRANKS; r++)
		profile_free(p[r]);
}

static void test_rankstate__unpack_refuses_a_truncated_state(void **state)
{
	struct rankstate *st = rankstate_new(2), *out = NULL;
	struct profile *p = rank_profile(0);
	FILE *spill = tmpfile();
	unsigned char *buf;
	size_t len;

	(void)state;
	assert_int_equal(rankstate_add(st, p, 0, spill), 0);
	assert_int_equal(rankstate_pack(st, &buf, &len), 0);
	assert_int_equal(rankstate_unpack(buf, len - 3, "test", &out), -1);
	assert_null(out);
	free(buf);
	fclose(spill);
	profile_free(p);
	rankstate_free(st);
}

int main(void)
{
	static char t[NRANKS][16];
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rankstate__three_readers_merged_give_the_single_report),
		cmocka_unit_test(test_rankstate__memo_over_refilled_tables_gives_the_single_report),
		cmocka_unit_test(test_rankstate__ties_go_to_the_lower_rank_and_absent_ranks_count_zero),
		cmocka_unit_test(test_rankstate__unpack_refuses_a_truncated_state),
	};
	int r;

	for (r = 0; r < NRANKS; r++) {
		snprintf(t[r], sizeof(t[r]), "%d", r);
		tags[r] = t[r];
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
