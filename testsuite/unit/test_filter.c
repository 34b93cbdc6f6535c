/*
 * test_filter.c - --focus, --root, --depth, --exclude on call graphs of
 * functions and on calling-context trees (filter/filter.h), and on the
 * diff model (filter/filter_models.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/callpath_model.h"
#include "filter/filter.h"
#include "utils/banned.h"

/*
 * The call graph of the function-level tests:
 *
 *   main -> a -> c -> d
 *   main -> b -> c
 *   a -> e -> e (self-call)
 *   orphan (called by nobody, calls nothing)
 */
static const char *const fn_names[] = { "main", "a", "b", "c", "d", "e", "orphan" };
enum { MAIN, A, B, C, D, E, ORPHAN, NFN };
static const size_t fn_edges[][2] = {
	{ MAIN, A }, { MAIN, B }, { A, C }, { B, C }, { C, D }, { A, E }, { E, E },
};
#define NEDGES (sizeof(fn_edges) / sizeof(fn_edges[0]))

static const char *fn_name(const void *ctx, size_t i)
{
	(void)ctx;
	return fn_names[i];
}

static void fn_edge(const void *ctx, size_t e, size_t *from, size_t *to)
{
	(void)ctx;
	*from = fn_edges[e][0];
	*to = fn_edges[e][1];
}

static const struct filter_graph graph = { NFN, NEDGES, fn_name, fn_edge, NULL };

/* The names kept, as one string "a b c" in node order. */
static const char *kept(const struct filter_opts *f, char *buf, size_t len)
{
	char in[NFN];
	size_t at = 0;

	buf[0] = 0;
	if (filter_functions(f, &graph, in, NULL) < 0)
		return "(error)";
	for (size_t i = 0; i < NFN; i++)
		if (in[i])
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? " " : "", fn_names[i]);
	return buf;
}

static void test_filter__exclude_drops_only_what_is_reached_through_it(void **state)
{
	const char *ex[] = { "a" };
	struct filter_opts f = { NULL, NULL, -1, ex, 1 };
	char buf[128];

	(void)state;
	/* c is also called from b: it stays; e is a's alone */
	assert_string_equal(kept(&f, buf, sizeof(buf)), "main b c d orphan");
	ex[0] = "c";
	assert_string_equal(kept(&f, buf, sizeof(buf)), "main a b e orphan");
}

static void test_filter__focus_keeps_callers_and_callees(void **state)
{
	struct filter_opts f = { "c", NULL, -1, NULL, 0 };
	char buf[128];

	(void)state;
	assert_string_equal(kept(&f, buf, sizeof(buf)), "main a b c d");
	f.depth = 0;
	assert_string_equal(kept(&f, buf, sizeof(buf)), "c");
	f.focus = "a";
	f.depth = 1;
	assert_string_equal(kept(&f, buf, sizeof(buf)), "main a c e");
}

static void test_filter__root_and_depth(void **state)
{
	struct filter_opts f = { NULL, "a", -1, NULL, 0 };
	char buf[128];

	(void)state;
	assert_string_equal(kept(&f, buf, sizeof(buf)), "a c d e");
	f.root = NULL;
	f.depth = 1;
	/* from the uncalled functions: main and orphan */
	assert_string_equal(kept(&f, buf, sizeof(buf)), "main a b orphan");
}

static void test_filter__exclude_comes_before_focus(void **state)
{
	const char *ex[] = { "b" };
	struct filter_opts f = { "c", NULL, -1, ex, 1 };
	char buf[128];

	(void)state;
	assert_string_equal(kept(&f, buf, sizeof(buf)), "main a c d");
	f.focus = "b";
	assert_string_equal(kept(&f, buf, sizeof(buf)), "(error)");
}

static void test_filter__unknown_names_are_errors(void **state)
{
	const char *ex[] = { "nosuch" };
	struct filter_opts f = { NULL, NULL, -1, ex, 1 };
	char buf[128];

	(void)state;
	assert_string_equal(kept(&f, buf, sizeof(buf)), "(error)");
	f.nexclude = 0;
	f.root = "nosuch";
	assert_string_equal(kept(&f, buf, sizeof(buf)), "(error)");
}

/*
 * The calling-context tree of the call-path tests (calls, self samples):
 *
 *   main (1, 1)
 *   ├── a (2, 2)            site main+1
 *   │   ├── c (3, 5)        site a+1
 *   │   │   └── d (4, 7)    site c+1
 *   │   └── e (1, 1)        site a+2
 *   │       └── e* folded: 6 recursive calls of e, from e+1
 *   └── b (2, 3)            site main+2
 *       └── c (2, 11)       site b+1
 *           └── d (1, 13)   site c+1
 */
static uint32_t frame(struct callpath_model *m, uint32_t parent, const char *func,
		      const char *site, uint64_t calls, uint64_t samples)
{
	uint32_t idx;

	assert_int_equal(callpath_model_add(m, parent, callpath_model_intern(m, func),
					    callpath_model_intern(m, site), calls, &idx), 0);
	callpath_model_add_samples(m, idx, samples);
	return idx;
}

static struct callpath_model *fixture_tree(void)
{
	struct callpath_model *m = callpath_model_new();
	uint32_t main_, a, b, c, e, fold;

	assert_non_null(m);
	main_ = frame(m, CALLPATH_NONE, "main", "[external]", 1, 1);
	a = frame(m, main_, "a", "main+1", 2, 2);
	c = frame(m, a, "c", "a+1", 3, 5);
	frame(m, c, "d", "c+1", 4, 7);
	e = frame(m, a, "e", "a+2", 1, 1);
	fold = frame(m, e, "e", "e+1", 0, 0);
	m->frames[fold].folded = 1;
	m->frames[fold].recursive = 6;
	m->frames[fold].caller = callpath_model_intern(m, "e");
	m->total += 6;
	b = frame(m, main_, "b", "main+2", 2, 3);
	c = frame(m, b, "c", "b+1", 2, 11);
	frame(m, c, "d", "c+1", 1, 13);
	m->sampling = 1;
	m->hz = 100;
	m->unplaced_samples = 9;
	return m;
}

/* "path calls samples" per frame, parents first, one per line. */
static const char *dump(const struct callpath_model *m, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (uint32_t i = 0; i < m->nr_frames; i++) {
		uint32_t path[16], n = callpath_model_path(m, i, path, 16);

		for (uint32_t k = 0; k < n; k++)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", k ? ";" : "",
					       m->names[m->frames[path[k]].func]);
		at += (size_t)snprintf(buf + at, len - at, " %llu%s %llu\n",
				       (unsigned long long)m->frames[i].count,
				       m->frames[i].folded ? "+" : "",
				       (unsigned long long)m->frames[i].samples);
	}
	return buf;
}

static struct callpath_model *filtered(const struct filter_opts *f)
{
	struct callpath_model *m = fixture_tree(), *out = NULL;

	assert_int_equal(filter_callpath(f, m, &out), 0);
	callpath_model_free(m);
	return out;
}

static void test_filter__callpath_exclude_drops_frames_and_their_time(void **state)
{
	const char *ex[] = { "c" };
	struct filter_opts f = { NULL, NULL, -1, ex, 1 };
	struct callpath_model *m = filtered(&f);
	char buf[1024];

	(void)state;
	assert_string_equal(dump(m, buf, sizeof(buf)),
			    "main 1 1\nmain;a 2 2\nmain;a;e 1 1\nmain;a;e;e 0+ 0\n"
			    "main;b 2 3\n");
	assert_int_equal(m->total_samples, 7);
	assert_int_equal(m->total, 1 + 2 + 1 + 6 + 2);
	assert_int_equal(m->unplaced_samples, 9);
	callpath_model_free(m);
}

static void test_filter__callpath_focus_keeps_paths_through_it(void **state)
{
	struct filter_opts f = { "c", NULL, -1, NULL, 0 };
	struct callpath_model *m = filtered(&f);
	char buf[1024];

	(void)state;
	/* callers stay as the way to c, without values; e is not on it */
	assert_string_equal(dump(m, buf, sizeof(buf)),
			    "main 0 0\nmain;a 0 0\nmain;a;c 3 5\nmain;a;c;d 4 7\n"
			    "main;b 0 0\nmain;b;c 2 11\nmain;b;c;d 1 13\n");
	assert_int_equal(m->total_samples, 36);
	assert_int_equal(m->unplaced_samples, 0);
	callpath_model_free(m);
	/* one call up: b and a start the tree */
	f.depth = 1;
	m = filtered(&f);
	assert_string_equal(dump(m, buf, sizeof(buf)),
			    "a 0 0\na;c 3 5\na;c;d 4 7\nb 0 0\nb;c 2 11\nb;c;d 1 13\n");
	callpath_model_free(m);
}

static void test_filter__callpath_root_merges_the_subtrees(void **state)
{
	struct filter_opts f = { NULL, "c", -1, NULL, 0 };
	struct callpath_model *m = filtered(&f);
	char buf[1024];

	(void)state;
	/* two call sites of c: two top frames; d below both */
	assert_string_equal(dump(m, buf, sizeof(buf)),
			    "c 3 5\nc;d 4 7\nc 2 11\nc;d 1 13\n");
	callpath_model_free(m);
	/* --depth 0: d's time becomes c's own, d's calls go */
	f.depth = 0;
	m = filtered(&f);
	assert_string_equal(dump(m, buf, sizeof(buf)), "c 3 12\nc 2 24\n");
	assert_int_equal(m->total_samples, 36);
	assert_int_equal(m->total, 5);
	callpath_model_free(m);
}

static void test_filter__callpath_depth_folds_deeper_time(void **state)
{
	struct filter_opts f = { NULL, NULL, 1, NULL, 0 };
	struct callpath_model *m = filtered(&f);
	char buf[1024];

	(void)state;
	/* recursion folded into e stays with e's subtree: it is below a */
	assert_string_equal(dump(m, buf, sizeof(buf)),
			    "main 1 1\nmain;a 2 15\nmain;b 2 27\n");
	assert_int_equal(m->total_samples, 43);
	callpath_model_free(m);
}

static void test_filter__callpath_unknown_function_fails(void **state)
{
	struct filter_opts f = { "nosuch", NULL, -1, NULL, 0 };
	struct callpath_model *m = fixture_tree(), *out = NULL;
	const struct callpath_model *pair[2] = { m, m };
	struct callpath_model *outs[2];

	(void)state;
	assert_int_equal(filter_callpath(&f, m, &out), -1);
	assert_null(out);
	assert_int_equal(filter_callpath_pair(&f, pair, outs), -1);
	/* a function on one side only: the other side is empty, not an error */
	f.focus = "d";
	pair[1] = NULL;
	assert_int_equal(filter_callpath_pair(&f, pair, outs), 0);
	assert_non_null(outs[0]);
	assert_null(outs[1]);
	callpath_model_free(outs[0]);
	callpath_model_free(m);
}

static void test_filter__callpath_exclude_names_a_function_of_either_side(void **state)
{
	const char *ex[] = { "nosuch" };
	struct filter_opts f = { NULL, NULL, -1, ex, 1 };
	struct callpath_model *m = fixture_tree(), *other = callpath_model_new(), *out = NULL;
	struct callpath_model *outs[2];
	char buf[1024];

	(void)state;
	assert_int_equal(filter_callpath(&f, m, &out), -1);
	assert_int_equal(filter_callpath_pair(&f, (const struct callpath_model *const[2]){ m, m },
					      outs), -1);
	/* d on one side only: that side loses it, the other is whole */
	assert_int_equal(callpath_model_add(other, CALLPATH_NONE,
					    callpath_model_intern(other, "main"),
					    callpath_model_intern(other, "[external]"), 1, NULL), 0);
	ex[0] = "d";
	assert_int_equal(filter_callpath_pair(&f, (const struct callpath_model *const[2]){ m, other },
					      outs), 0);
	assert_string_equal(dump(outs[1], buf, sizeof(buf)), "main 1 0\n");
	assert_null(strstr(dump(outs[0], buf, sizeof(buf)), ";d "));
	callpath_model_free(outs[0]);
	callpath_model_free(outs[1]);
	callpath_model_free(other);
	callpath_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter__exclude_drops_only_what_is_reached_through_it),
		cmocka_unit_test(test_filter__focus_keeps_callers_and_callees),
		cmocka_unit_test(test_filter__root_and_depth),
		cmocka_unit_test(test_filter__exclude_comes_before_focus),
		cmocka_unit_test(test_filter__unknown_names_are_errors),
		cmocka_unit_test(test_filter__callpath_exclude_drops_frames_and_their_time),
		cmocka_unit_test(test_filter__callpath_focus_keeps_paths_through_it),
		cmocka_unit_test(test_filter__callpath_root_merges_the_subtrees),
		cmocka_unit_test(test_filter__callpath_depth_folds_deeper_time),
		cmocka_unit_test(test_filter__callpath_unknown_function_fails),
		cmocka_unit_test(test_filter__callpath_exclude_names_a_function_of_either_side),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
