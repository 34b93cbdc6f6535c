/*
 * test_pathrank.c - ranks of a tree's paths against strcmp() of their
 * written texts (callpath/pathrank.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callpath/pathrank.h"
#include "utils/banned.h"

struct tree {
	uint32_t n;
	const uint32_t *parent;
	const char *const *seg;
};

static size_t segment_of(void *ctx, uint32_t node, char *buf, size_t len)
{
	const struct tree *t = ctx;
	int n = snprintf(buf, len, "%s", t->seg[node]);

	return (size_t)n;
}

/* The full text of node i's path, as a report writes it. */
static void text_of(const struct tree *t, uint32_t i, const char *sep, char *out,
		    size_t len)
{
	uint32_t path[64], d = 0;

	for (; i != PATHRANK_ROOT; i = t->parent[i])
		path[d++] = i;
	out[0] = '\0';
	while (d--) {
		size_t o = strlen(out);

		snprintf(out + o, len - o, "%s%s",
			 (t->parent[path[d]] != PATHRANK_ROOT) ? sep : "", t->seg[path[d]]);
	}
}

/* rank order must be strcmp order of the texts, ties by index */
static void assert_ranks_match_texts(const struct tree *t, const char *sep)
{
	uint32_t *rank = malloc(t->n * sizeof(*rank));
	char a[512], b[512];

	assert_int_equal(pathrank(t->n, t->parent, segment_of, (void *)t, sep, rank), 0);
	for (uint32_t i = 0; i < t->n; i++) {
		text_of(t, i, sep, a, sizeof(a));
		for (uint32_t j = 0; j < t->n; j++) {
			int c;

			if (i == j)
				continue;
			text_of(t, j, sep, b, sizeof(b));
			c = strcmp(a, b);
			if (!c)
				c = i < j ? -1 : 1;
			if ((c < 0) != (rank[i] < rank[j]))
				fail_msg("'%s' (rank %u) against '%s' (rank %u)", a, rank[i],
					 b, rank[j]);
		}
	}
	free(rank);
}

/*
 *   main
 *   ├── foo2
 *   ├── foo ── bar
 *   │      └── a
 *   └── fo
 *  x (second root)
 * "main;foo" < "main;foo2" < "main;foo;a": a sibling's name that is a
 * prefix of another's splits its subtree from itself.
 */
static void test_pathrank__orders_prefix_names_like_strcmp(void **state)
{
	static const uint32_t parent[] = { PATHRANK_ROOT, 0, 0, 2, 2, 0, PATHRANK_ROOT };
	static const char *const seg[] = { "main", "foo2", "foo", "bar", "a", "fo", "x" };
	struct tree t = { 7, parent, seg };

	(void)state;
	assert_ranks_match_texts(&t, ";");
	assert_ranks_match_texts(&t, " -> ");
}

/* equal texts (two roots "main") are ranked by index */
static void test_pathrank__ranks_equal_texts_by_index(void **state)
{
	static const uint32_t parent[] = { PATHRANK_ROOT, PATHRANK_ROOT, 1, 0 };
	static const char *const seg[] = { "main", "main", "b", "b" };
	struct tree t = { 4, parent, seg };

	(void)state;
	assert_ranks_match_texts(&t, ";");
}

/* random trees over a small alphabet, where prefixes and repeats abound */
static void test_pathrank__matches_strcmp_on_random_trees(void **state)
{
	static const char *const alphabet[] = { "a", "ab", "b", "a;", "", "ba", "a b" };
	uint32_t parent[40];
	const char *seg[40];
	unsigned seed = 7;

	(void)state;
	for (int round = 0; round < 200; round++) {
		struct tree t = { 1 + (uint32_t)(round % 40), parent, seg };

		for (uint32_t i = 0; i < t.n; i++) {
			seed = seed * 1103515245u + 12345u;
			parent[i] = i == 0 || (seed >> 16) % 5 == 0 ? PATHRANK_ROOT
								     : (seed >> 8) % i;
			seed = seed * 1103515245u + 12345u;
			/* the separator never occurs in a segment: skip "a;" for ';' */
			seg[i] = alphabet[(seed >> 16) % 7];
			if (!strcmp(seg[i], "a;"))
				seg[i] = "aa";
		}
		assert_ranks_match_texts(&t, ";");
	}
}

/* a path 100,000 deep: no recursion in the walk */
static void test_pathrank__handles_a_deep_chain(void **state)
{
	uint32_t n = 100000;
	uint32_t *parent = malloc(n * sizeof(*parent)), *rank = malloc(n * sizeof(*rank));
	const char **seg = malloc(n * sizeof(*seg));
	struct tree t = { n, parent, NULL };

	(void)state;
	for (uint32_t i = 0; i < n; i++) {
		parent[i] = i ? i - 1 : PATHRANK_ROOT;
		seg[i] = "f";
	}
	t.seg = seg;
	assert_int_equal(pathrank(n, parent, segment_of, &t, ";", rank), 0);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(rank[i], i);
	free(parent);
	free(rank);
	free(seg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pathrank__orders_prefix_names_like_strcmp),
		cmocka_unit_test(test_pathrank__ranks_equal_texts_by_index),
		cmocka_unit_test(test_pathrank__matches_strcmp_on_random_trees),
		cmocka_unit_test(test_pathrank__handles_a_deep_chain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
