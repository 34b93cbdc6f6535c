/* Unit tests for statistics across ranks (ranks/rankstats.h) and rank
 * identity (diff/ranks.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "format/sidecar.h"
#include "diff/ranks.h"
#include "ranks/rankstats.h"
#include "utils/banned.h"

/*
 * Four ranks of a Sweep3D-like program (hz 100, so ticks/100 = seconds):
 *
 *   main --1--> work      work: 100*(r+1) ticks, calls 10 on every rank
 *        --2--> timers    rank 0 only: 2 calls, no samples
 *        --1--> tiny      1 tick on every rank
 */
static struct profile *rank_profile(int r)
{
	struct profile *p = profile_new();
	const char *names[] = { "main", "work", "timers", "tiny" };
	double ticks[] = { 0, 100.0 * (r + 1), 0, 1 };
	uint64_t calls[] = { 0, 10, r == 0 ? 2 : 0, 1 };
	size_t i;

	assert_non_null(p);
	p->hz = 100;
	for (i = 0; i < 4; i++) {
		struct profile_sym s = { 0 };

		s.name = strdup(names[i]);
		s.print_name = strdup(names[i]);
		s.addr = 0x1000 + 0x100 * i;
		s.flags = PSYM_FUNC | PSYM_IN_FLAT;
		s.self_ticks = ticks[i];
		s.ncalls = calls[i];
		assert_int_not_equal(profile_add_sym(p, &s), -1);
	}
	return p;
}

static struct rankstats *four_ranks(void)
{
	struct profile *p[4];
	char t0[] = "0", t1[] = "1", t2[] = "2", t3[] = "3";
	char *tags[] = { t0, t1, t2, t3 };
	struct rankstats *rs;
	int i;

	for (i = 0; i < 4; i++)
		p[i] = rank_profile(i);
	assert_int_equal(rankstats_compute(p, tags, 4, &rs), 0);
	for (i = 0; i < 4; i++)
		profile_free(p[i]);
	return rs;
}

static void test_rankstats__function_only_rank_0_called_ran_on_1_of_4(void **state)
{
	struct rankstats *rs = four_ranks();
	const struct rankstats_fn *f = rankstats_find(rs, "timers", NULL);

	(void)state;
	assert_non_null(f);
	assert_int_equal(f->nran, 1);
	assert_int_equal(f->only_rank, 0);
	assert_int_equal(f->calls_min, 0);
	assert_int_equal(f->calls_max, 2);
	assert_int_equal(f->calls_max_rank, 0);
	assert_true(f->imbalance == 0); /* no samples anywhere: undefined */
	rankstats_free(rs);
}

static void test_rankstats__work_growing_with_rank_is_imbalanced(void **state)
{
	struct rankstats *rs = four_ranks();
	const struct rankstats_fn *f = rankstats_find(rs, "work", NULL);

	(void)state;
	assert_non_null(f);
	assert_int_equal(f->nran, 4);
	assert_float_equal(f->self_min, 1.0, 1e-9);
	assert_float_equal(f->self_max, 4.0, 1e-9);
	assert_float_equal(f->self_mean, 2.5, 1e-9);
	assert_float_equal(f->imbalance, 1.6, 1e-9);
	assert_float_equal(f->cost, 16.0, 1e-9);
	assert_int_equal(f->self_min_rank, 0);
	assert_int_equal(f->self_max_rank, 3);
	/* sd of 1,2,3,4 (n-1) */
	assert_float_equal(f->self_sd, 1.2909944, 1e-6);
	rankstats_free(rs);
}

static void test_rankstats__sorted_by_cost_then_calls_and_idle_symbols_left_out(void **state)
{
	struct rankstats *rs = four_ranks();

	(void)state;
	assert_int_equal(rs->nfns, 3); /* main neither ran nor was sampled */
	assert_string_equal(rs->fns[0].name, "work");
	assert_string_equal(rs->fns[1].name, "tiny");
	assert_string_equal(rs->fns[2].name, "timers");
	rankstats_free(rs);
}

static void test_rankstats__rank_with_a_function_of_its_own_is_the_outlier(void **state)
{
	struct rankstats *rs = four_ranks();

	(void)state;
	assert_int_equal(rs->outliers[0], 0);
	assert_int_equal(rs->ranks[0].nunique, 1);
	assert_true(rs->ranks[0].calls_dist > rs->ranks[1].calls_dist);
	assert_float_equal(rs->ranks[3].self, 4.01, 1e-9);
	rankstats_free(rs);
}

static void test_rankstats__same_name_in_two_files_are_two_functions(void **state)
{
	struct profile *p = profile_new();
	char t0[] = "0";
	char *tags[] = { t0 };
	struct rankstats *rs;
	int i;

	(void)state;
	p->hz = 100;
	for (i = 0; i < 2; i++) {
		struct profile_sym s = { 0 };

		s.name = strdup("helper");
		s.print_name = strdup("helper");
		s.file = strdup(i ? "b.c" : "a.c");
		s.flags = PSYM_STATIC | PSYM_FUNC | PSYM_IN_FLAT;
		s.self_ticks = 1 + i;
		assert_int_not_equal(profile_add_sym(p, &s), -1);
	}
	assert_int_equal(rankstats_compute(&p, tags, 1, &rs), 0);
	assert_int_equal(rs->nfns, 2);
	assert_float_equal(rankstats_find(rs, "helper", "b.c")->self_max, 0.02, 1e-9);
	rankstats_free(rs);
	profile_free(p);
}

/* rankstats_print's report of rs with the default options (free it). */
static char *report_of(const struct rankstats *rs)
{
	struct rankstats_opts o = RANKSTATS_OPTS_INIT;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	assert_non_null(mem);
	rankstats_print(mem, rs, &o, "test");
	assert_int_equal(fclose(mem), 0);
	assert_non_null(buf);
	return buf;
}

static void test_rankstats__report_shows_1_of_4_and_outlier_rank(void **state)
{
	struct rankstats *rs = four_ranks();
	char *buf = report_of(rs);

	(void)state;
	assert_non_null(strstr(buf, "1/4  timers"));
	assert_non_null(strstr(buf, "only rank 0"));
	assert_non_null(strstr(buf, "    rank 0: distance"));
	assert_non_null(strstr(buf, "slowest rank 3"));
	free(buf);
	rankstats_free(rs);
}

/* With sidecars a rank's self time holds its libraries' (the MPI waits of
 * the ranks that wait for the slowest, spinning on the CPU): the summary's
 * slowest rank is the one with the most time in the program's own code.
 * Rank 3 has the most self time, but 90% of it in libraries. */
static void test_rankstats__slowest_rank_by_its_own_code_with_sidecars(void **state)
{
	struct rankstats *rs = four_ranks();
	char *buf;

	(void)state;
	assert_true(rs->ranks[3].self > rs->ranks[2].self);
	for (size_t i = 0; i < rs->nranks; i++) {
		rs->ranks[i].sampled_s = rs->ranks[i].self;
		rs->ranks[i].lib_s = i == 3 ? 0.9 * rs->ranks[i].self : 0;
		rs->ranks[i].instr_s = 0;
	}
	buf = report_of(rs);
	assert_non_null(strstr(buf, "slowest rank 2: "));
	assert_non_null(strstr(buf, " s in the program's own code ("));
	assert_null(strstr(buf, "slowest rank 3"));
	free(buf);
	rankstats_free(rs);
}

/*
 * Four ranks, hz 100 (issue 11 item 10):
 *   blip  1 tick on rank 0 only: max/mean 4, but one sample says nothing
 *   mid   2, 2, 2, 14 ticks: max/mean 2.8, the others wait 4 x 0.14 - 0.20 = 0.36 s
 *   big  10,10,10, 40 ticks: max/mean 2.29, the others wait 4 x 0.40 - 0.70 = 0.90 s
 * blip is 1.1% of the time, so a 1% floor alone would list it first.
 */
static struct rankstats *waiting_ranks(void)
{
	const char *names[] = { "blip", "mid", "big" };
	double ticks[3][4] = { { 1, 0, 0, 0 }, { 2, 2, 2, 14 }, { 10, 10, 10, 40 } };
	char t0[] = "0", t1[] = "1", t2[] = "2", t3[] = "3";
	char *tags[] = { t0, t1, t2, t3 };
	struct profile *p[4];
	struct rankstats *rs;
	int r, i;

	for (r = 0; r < 4; r++) {
		p[r] = profile_new();
		assert_non_null(p[r]);
		p[r]->hz = 100;
		for (i = 0; i < 3; i++) {
			struct profile_sym s = { 0 };

			s.name = strdup(names[i]);
			s.print_name = strdup(names[i]);
			s.addr = 0x1000 + 0x100 * (uint64_t)i;
			s.flags = PSYM_FUNC | PSYM_IN_FLAT;
			s.self_ticks = ticks[i][r];
			assert_int_not_equal(profile_add_sym(p[r], &s), -1);
		}
	}
	assert_int_equal(rankstats_compute(p, tags, 4, &rs), 0);
	for (r = 0; r < 4; r++)
		profile_free(p[r]);
	return rs;
}

static void test_rankstats__summary_needs_samples_and_orders_by_waiting_time(void **state)
{
	struct rankstats *rs = waiting_ranks();
	char *buf = report_of(rs), *from, *to;

	(void)state;
	from = strstr(buf, "most imbalanced");
	assert_non_null(from);
	to = strstr(from, "functions that ran on some ranks only");
	assert_non_null(to);
	*to = 0;
	assert_null(strstr(from, "blip"));
	assert_non_null(strstr(from, "big"));
	assert_non_null(strstr(from, "mid"));
	assert_true(strstr(from, "big") < strstr(from, "mid"));
	assert_non_null(strstr(from, "wait 0.90 s"));
	free(buf);
	rankstats_free(rs);
}

/*
 * Two ranks, `hot` 18 samples on rank 0 and none on rank 1: the excess over
 * the mean (9) is 2.1 standard deviations of 18 Poisson samples, beyond
 * noise (one function: the cut is 2).  Samples of weight 4 (a 1 kHz timer
 * on a 250 Hz kernel: each signal stands for 4 periods) are 4 events: the
 * same 18 samples are 9 / sqrt(18 x 4) = 1.06 standard deviations, within
 * noise.
 */
static struct rankstats *two_ranks_weighted(double weight)
{
	struct profile *p[2];
	char t0[] = "0", t1[] = "1";
	char *tags[] = { t0, t1 };
	struct rankstats *rs;

	for (int r = 0; r < 2; r++) {
		struct profile_sym s = { 0 };

		assert_non_null(p[r] = profile_new());
		p[r]->hz = 1000;
		p[r]->measure.weight = weight;
		s.name = strdup("hot");
		s.print_name = strdup("hot");
		s.addr = 0x1000;
		s.flags = PSYM_FUNC | PSYM_IN_FLAT;
		s.self_ticks = r == 0 ? 18 : 0;
		s.ncalls = 10;
		assert_int_not_equal(profile_add_sym(p[r], &s), -1);
	}
	assert_int_equal(rankstats_compute(p, tags, 2, &rs), 0);
	profile_free(p[0]);
	profile_free(p[1]);
	return rs;
}

static void test_rankstats__weighted_samples_are_fewer_events_so_more_noise(void **state)
{
	struct rankstats *rs;
	size_t *idx = NULL, n = 99;

	(void)state;
	rs = two_ranks_weighted(1);
	assert_int_equal(rankstats_imbalanced(rs, &idx, &n), 0);
	assert_int_equal(n, 1);
	free(idx);
	rankstats_free(rs);
	rs = two_ranks_weighted(4);
	assert_true(rs->weight == 4);
	assert_int_equal(rankstats_imbalanced(rs, &idx, &n), 0);
	assert_int_equal(n, 0);
	free(idx);
	rankstats_free(rs);
}

/* ------------------------------------------------------------------------ */
/* ranks.h, with sidecars written in a scratch directory */

static char scratch[64];

static int make_scratch(void **state)
{
	(void)state;
	snprintf(scratch, sizeof(scratch), "/tmp/test_rankstats.XXXXXX");
	return mkdtemp(scratch) ? 0 : -1;
}

static int remove_scratch(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *path)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs("gmon", fp);
	fclose(fp);
}

static void write_sidecar(const char *gmon, int rank, uint64_t pid, uint64_t count)
{
	struct sidecar *sc = sidecar_new();
	char path[256], err[256];
	uint32_t idx;

	assert_non_null(sc);
	sc->rank = rank;
	sc->pid = pid;
	assert_int_equal(sidecar_add(sc, SIDECAR_ROOT, 0x10, 0x20, count, &idx), 0);
	assert_true(sidecar_name_for(gmon, path, sizeof(path)) > 0);
	assert_int_equal(sidecar_write_atomic(sc, path, err, sizeof(err)), 0);
	sidecar_free(sc);
}

static void test_ranks__sidecar_gives_rank_else_file_name_and_pid(void **state)
{
	char a[128], b[128], c[128];
	char *files[3] = { a, b, c };
	struct rank_id *ids;
	size_t order[3];

	(void)state;
	snprintf(a, sizeof(a), "%s/gmon.300", scratch);
	snprintf(b, sizeof(b), "%s/gmon.100", scratch);
	snprintf(c, sizeof(c), "%s/gmon.200", scratch);
	write_file(a);
	write_file(b);
	write_file(c);
	write_sidecar(a, 1, 300, 5);
	write_sidecar(b, 0, 100, 7);
	assert_int_equal(ranks_identify(files, 3, &ids), 0);
	assert_int_equal(ids[0].rank, 1);
	assert_string_equal(ids[0].label, "rank 1");
	assert_int_equal(ids[1].rank, 0);
	assert_int_equal(ids[2].rank, -1);
	assert_string_equal(ids[2].label, "gmon.200");
	assert_string_equal(ids[2].tag, "#2");
	assert_int_equal(ids[2].pid, 200);
	assert_int_equal(ranks_known(ids, 3), 2);
	ranks_sort(ids, 3, order);
	assert_int_equal(order[0], 1);
	assert_int_equal(order[1], 0);
	assert_int_equal(order[2], 2);
	ranks_free(ids, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rankstats__function_only_rank_0_called_ran_on_1_of_4),
		cmocka_unit_test(test_rankstats__work_growing_with_rank_is_imbalanced),
		cmocka_unit_test(test_rankstats__sorted_by_cost_then_calls_and_idle_symbols_left_out),
		cmocka_unit_test(test_rankstats__rank_with_a_function_of_its_own_is_the_outlier),
		cmocka_unit_test(test_rankstats__same_name_in_two_files_are_two_functions),
		cmocka_unit_test(test_rankstats__report_shows_1_of_4_and_outlier_rank),
		cmocka_unit_test(test_rankstats__slowest_rank_by_its_own_code_with_sidecars),
		cmocka_unit_test(test_rankstats__summary_needs_samples_and_orders_by_waiting_time),
		cmocka_unit_test(test_rankstats__weighted_samples_are_fewer_events_so_more_noise),
		cmocka_unit_test(test_ranks__sidecar_gives_rank_else_file_name_and_pid),
	};

	return cmocka_run_group_tests(tests, make_scratch, remove_scratch);
}
