/*
 * test_pathdiff.c - call paths of two profiles matched by names
 * (callpath/pathdiff.c) and the two-column folded file (folded.c).
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
#include "callpath/pathdiff.h"
#include "model/callpath_model.h"
#include "utils/banned.h"

/* A model from folded-style paths, every frame at call site "s". */
static struct callpath_model *model_of(const char *const *paths, const uint64_t *counts,
				       size_t n)
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
			char *next = save && *save ? save : NULL;
			uint32_t f = callpath_model_intern(m, tok);

			assert_int_equal(callpath_model_add(m, parent, f, site,
							    next ? 0 : counts[i], &idx), 0);
			parent = idx;
		}
	}
	return m;
}

static struct folded *folded_of(const char *const *paths, const uint64_t *counts, size_t n)
{
	struct callpath_model *m = model_of(paths, counts, n);
	struct folded *f;

	assert_int_equal(folded_build(m, FOLDED_CALLS, &f), 0);
	callpath_model_free(m);
	return f;
}

/*
 * Old:  main;a;c 3   main;b;c 7   main;b;d;c 2
 * New:  main;a;c 3   main;b;c 4   main;e;c 5      (d gone, e new)
 */
static const char *const old_paths[] = { "main;a;c", "main;b;c", "main;b;d;c" };
static const uint64_t old_counts[] = { 3, 7, 2 };
static const char *const new_paths[] = { "main;a;c", "main;b;c", "main;e;c" };
static const uint64_t new_counts[] = { 3, 4, 5 };

static void test_pathdiff__paths_on_one_side_get_zero_on_the_other(void **state)
{
	struct folded *a = folded_of(old_paths, old_counts, 3);
	struct folded *b = folded_of(new_paths, new_counts, 3);
	struct pathdiff *d;

	(void)state;
	assert_int_equal(pathdiff_compute(a, b, &d), 0);
	assert_int_equal(d->nr, 4);
	assert_string_equal(d->rows[0].stack, "main;a;c");
	assert_int_equal(d->rows[0].a, 3);
	assert_int_equal(d->rows[0].b, 3);
	assert_string_equal(d->rows[1].stack, "main;b;c");
	assert_int_equal(d->rows[1].b, 4);
	assert_string_equal(d->rows[2].stack, "main;b;d;c");
	assert_int_equal(d->rows[2].a, 2);
	assert_int_equal(d->rows[2].b, 0);
	assert_string_equal(d->rows[3].stack, "main;e;c");
	assert_int_equal(d->rows[3].a, 0);
	assert_int_equal(d->rows[3].b, 5);
	assert_string_equal(d->rows[3].func, "c");
	assert_int_equal(d->changed, 3);
	assert_int_equal(d->total_a, 12);
	assert_int_equal(d->total_b, 12);
	pathdiff_free(d);
	folded_free(a);
	folded_free(b);
}

static void test_folded__diff_is_difffolded_two_columns(void **state)
{
	struct folded *a = folded_of(old_paths, old_counts, 3);
	struct folded *b = folded_of(new_paths, new_counts, 3);
	struct pathdiff *d;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(pathdiff_compute(a, b, &d), 0);
	assert_int_equal(folded_write_diff(mem, d), 0);
	fclose(mem);
	assert_string_equal(buf, "main;a;c 3 3\nmain;b;c 7 4\nmain;b;d;c 2 0\nmain;e;c 0 5\n");
	free(buf);
	pathdiff_free(d);
	folded_free(a);
	folded_free(b);
}

static void test_pathdiff__table_lists_changed_paths_by_function(void **state)
{
	struct folded *a = folded_of(old_paths, old_counts, 3);
	struct folded *b = folded_of(new_paths, new_counts, 3);
	struct pathdiff *d;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(pathdiff_compute(a, b, &d), 0);
	assert_int_equal(pathdiff_print(mem, d, "old", "new", 2.0), 0);
	fclose(mem);
	assert_non_null(strstr(buf, "3 of 4 paths changed; calls 12 -> 12."));
	/* a handful of calls is no evidence (Poisson): every row "~" */
	assert_non_null(strstr(buf, "\nc: 0 calls\n"
				    "    A calls     B calls      change    path\n"
				    "          0           5          -5 ~  main;e;c\n"
				    "          7           4          +3 ~  main;b;c\n"
				    "          2           0          +2 ~  main;b;d;c\n"));
	assert_non_null(strstr(buf, "0 of the changes are beyond it."));
	assert_null(strstr(buf, "main;a;c"));
	free(buf);
	pathdiff_free(d);
	folded_free(a);
	folded_free(b);
}

static void test_pathdiff__empty_sides(void **state)
{
	struct folded *a = folded_of(NULL, NULL, 0);
	struct folded *b = folded_of(old_paths, old_counts, 3);
	struct pathdiff *d;

	(void)state;
	assert_int_equal(pathdiff_compute(a, a, &d), 0);
	assert_int_equal(d->nr, 0);
	pathdiff_free(d);
	assert_int_equal(pathdiff_compute(a, b, &d), 0);
	assert_int_equal(d->nr, 3);
	assert_int_equal(d->changed, 3);
	pathdiff_free(d);
	folded_free(a);
	folded_free(b);
}

/*
 * Time per path: A  main;a;c 100  main;b;c 100
 *                B  main;a;c 104  main;b;c 300   (only b's path slower)
 * b's path first, a's change within the noise (2 sigma of 204 samples).
 */
static void test_pathdiff__time_table_ranks_the_largest_change_and_marks_noise(void **state)
{
	static const char *const paths[] = { "main;a;c", "main;b;c" };
	static const uint64_t ta[] = { 100, 100 }, tb[] = { 104, 300 };
	struct folded *fa = folded_of(paths, ta, 2), *fb = folded_of(paths, tb, 2);
	struct pathdiff_time_opts to = { 100, 100, 2.0, 0, NULL };
	struct pathdiff *d;
	char *buf = NULL, *rb, *ra;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(mem);
	assert_int_equal(pathdiff_compute(fa, fb, &d), 0);
	assert_int_equal(pathdiff_print_time(mem, d, "one", "two", &to), 0);
	fclose(mem);
	assert_non_null(strstr(buf, "2 paths changed, 1 beyond the noise first, by |change|; self time\n"
				    "2.00 -> 4.04 seconds."));
	/* one sign in every table (issue 24 item 14): A - B, the baseline
	 * minus the second run, as the call-count table and the flat
	 * profile */
	assert_non_null(strstr(buf, "change = A - B"));
	rb = strstr(buf, "      1.00       3.00      -2.00    main;b;c\n");
	ra = strstr(buf, "      1.00       1.04      -0.04 ~  main;a;c\n");
	assert_non_null(rb);
	assert_non_null(ra);
	assert_true(rb < ra);
	free(buf);
	pathdiff_free(d);
	folded_free(fa);
	folded_free(fb);
}

/*
 * A model with folded recursion:
 *
 *   main [1]
 *   └── fib [1] (main)      folded into it: 6 recursive calls from fib
 *
 * folded as gprof counts calls, one line "main;fib" of 7 calls, 6 of them
 * recursive; the plain calls keep a line per call site.
 */
static struct folded *fib_folded(uint64_t recursive, enum folded_value value)
{
	struct callpath_model *m = callpath_model_new();
	uint32_t site, fmain, ffib, imain, ifib, irec;
	struct folded *f;

	assert_non_null(m);
	site = callpath_model_intern(m, "s");
	fmain = callpath_model_intern(m, "main");
	ffib = callpath_model_intern(m, "fib");
	assert_int_equal(callpath_model_add(m, CALLPATH_NONE, fmain, site, 1, &imain), 0);
	assert_int_equal(callpath_model_add(m, imain, ffib, site, 1, &ifib), 0);
	assert_int_equal(callpath_model_add(m, ifib, ffib,
					    callpath_model_intern(m, "fib+0x9"), 0, &irec), 0);
	m->frames[irec].folded = 1;
	m->frames[irec].recursive = recursive;
	m->frames[irec].caller = ffib;
	assert_int_equal(folded_build(m, value, &f), 0);
	callpath_model_free(m);
	return f;
}

static void test_pathdiff__folded_recursion_is_one_row_of_gprof_calls(void **state)
{
	struct folded *a = fib_folded(6, FOLDED_CALLS_GPROF);
	struct folded *b = fib_folded(2, FOLDED_CALLS_GPROF);
	struct folded *plain = fib_folded(6, FOLDED_CALLS);
	struct pathdiff *d;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	assert_int_equal(plain->nr, 3);
	assert_string_equal(plain->stacks[2].stack, "main;fib;fib");
	assert_int_equal(a->nr, 2);
	assert_string_equal(a->stacks[1].stack, "main;fib");
	assert_int_equal(a->stacks[1].count, 7);
	assert_int_equal(a->stacks[1].recursive, 6);
	assert_int_equal(pathdiff_compute(a, b, &d), 0);
	assert_int_equal(d->nr, 2);
	assert_int_equal(d->rows[1].a, 7);
	assert_int_equal(d->rows[1].b, 3);
	fp = open_memstream(&text, &len);
	assert_int_equal(pathdiff_print(fp, d, "a", "b", 2.0), 0);
	fclose(fp);
	assert_non_null(strstr(text, "        1+6         1+2          +4 ~  main;fib\n"));
	assert_null(strstr(text, "fib;fib"));
	free(text);
	pathdiff_free(d);
	folded_free(a);
	folded_free(b);
	folded_free(plain);
}

/*
 * Counts beyond 2^63 (a sum saturated at 2^64 - 1, a forged sidecar, an
 * event's samples times its period): each change is A - B exactly, the
 * paths ordered by its size, the function's net change summed without
 * wrapping.  A - B was taken as int64_t: undefined (UBSan: -9223372036854771808
 * - 6000) and, for 2^64 - 1 calls against none, printed -1.
 *
 *   main;f   A 2^64 - 1   B 0
 *   main;g;f A 0          B 2^64 - 1
 *   main;h   A 2^63+4000  B 6000
 */
static void test_pathdiff__changes_beyond_int64_are_exact(void **state)
{
	static const char *const pa[] = { "main;f", "main;h" };
	static const char *const pb[] = { "main;g;f", "main;h" };
	const uint64_t ca[] = { UINT64_MAX, (1ull << 63) + 4000 };
	const uint64_t cb[] = { UINT64_MAX, 6000 };
	struct folded *a = folded_of(pa, ca, 2), *b = folded_of(pb, cb, 2);
	struct pathdiff *d;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(pathdiff_compute(a, b, &d), 0);
	assert_int_equal(d->total_a, UINT64_MAX);	/* saturated, not wrapped */
	assert_int_equal(pathdiff_print(mem, d, "old", "new", 2.0), 0);
	fclose(mem);
	assert_non_null(strstr(buf, "\nh: +9223372036854773808 calls\n"));
	assert_non_null(strstr(buf, " +9223372036854773808    main;h\n"));
	/* f: +(2^64 - 1) on one path, -(2^64 - 1) on the other: net 0, both
	 * rows printed whole, the larger first */
	assert_non_null(strstr(buf, "\nf: 0 calls\n"));
	assert_non_null(strstr(buf, " +18446744073709551615    main;f\n"));
	assert_non_null(strstr(buf, " -18446744073709551615    main;g;f\n"));
	assert_true(strstr(buf, "main;f\n") < strstr(buf, "main;g;f\n"));
	/* f's paths moved the most: its group first */
	assert_true(strstr(buf, "\nf: ") < strstr(buf, "\nh: "));
	free(buf);
	pathdiff_free(d);
	folded_free(a);
	folded_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pathdiff__paths_on_one_side_get_zero_on_the_other),
		cmocka_unit_test(test_pathdiff__changes_beyond_int64_are_exact),
		cmocka_unit_test(test_folded__diff_is_difffolded_two_columns),
		cmocka_unit_test(test_pathdiff__table_lists_changed_paths_by_function),
		cmocka_unit_test(test_pathdiff__empty_sides),
		cmocka_unit_test(test_pathdiff__folded_recursion_is_one_row_of_gprof_calls),
		cmocka_unit_test(test_pathdiff__time_table_ranks_the_largest_change_and_marks_noise),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
