/*
 * test_flamegraph.c - the flame graph SVG of folded stacks
 * (export/flamegraph.c): each frame as wide as the folded counts of its
 * stack and of the stacks below it, one frame per distinct prefix, narrow
 * frames merged and the file bounded, a diff's colours by the sign of the
 * change, names escaped.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/flamegraph.h"
#include "utils/banned.h"

/* A frame as the file has it: its stack rebuilt from the parents. */
struct frame {
	char stack[512];
	unsigned long long v, sa, sb;
	char c;
	int merged;
};

static char *render(const struct flamegraph_stack *s, size_t n,
		    const struct flamegraph_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(flamegraph_write(fp, s, n, o), 0);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static unsigned long long attr(const char *g, const char *end, const char *name, int *found)
{
	char key[32];
	const char *p;

	snprintf(key, sizeof(key), " %s=\"", name);
	p = strstr(g, key);
	*found = p && p < end;
	return *found ? strtoull(p + strlen(key), NULL, 10) : 0;
}

/* Every frame of svg, in file order; *nr of them. */
static struct frame *frames(const char *svg, size_t *nr)
{
	struct frame *f = NULL;
	size_t n = 0;
	const char *g = svg;

	while ((g = strstr(g, "<g class=\"f")) != NULL) {
		const char *end = strchr(g, '>'), *t = strstr(g, "<title>") + 7;
		const char *nl = strchr(t, '\n'), *c;
		int has_p, found;
		unsigned long long p = attr(g, end, "data-p", &has_p);
		struct frame *x;

		f = realloc(f, (n + 1) * sizeof(*f));
		assert_non_null(f);
		x = &f[n];
		memset(x, 0, sizeof(*x));
		x->v = attr(g, end, "data-v", &found);
		assert_true(found);
		x->sa = attr(g, end, "data-sa", &found);
		x->sb = attr(g, end, "data-sb", &found);
		c = strstr(g, " data-c=\"");
		x->c = c && c < end ? c[9] : 0;
		attr(g, end, "data-m", &found);
		x->merged = found;
		if (has_p) {
			size_t lp, ln = (size_t)(nl - t);

			assert_true(p < n);
			lp = strlen(f[p].stack);
			assert_true(lp + 1 + ln < sizeof(x->stack));
			memcpy(x->stack, f[p].stack, lp);
			if (lp)
				x->stack[lp++] = ';';
			memcpy(x->stack + lp, t, ln);
			x->stack[lp + ln] = '\0';
		}
		n++;
		g = end;
	}
	*nr = n;
	return f;
}

static const struct frame *find(const struct frame *f, size_t n, const char *stack)
{
	for (size_t i = 1; i < n; i++)
		if (!f[i].merged && !strcmp(f[i].stack, stack))
			return &f[i];
	return NULL;
}

static void test_flamegraph__frame_widths_are_folded_sums(void **state)
{
	/* "b!x" sorts between "main;b" and "main;b;c": a tree built by
	 * walking sorted stacks would give main;b two frames */
	struct flamegraph_stack s[] = {
		{ "main", 3, 0, 0 },        { "main;b", 9, 0, 0 },   { "main;b!x", 4, 0, 0 },
		{ "main;b;c", 7, 0, 0 },    { "main;b;c;d", 2, 0, 0 }, { "main;e", 1, 0, 0 },
		{ "other;b", 5, 0, 0 },
	};
	struct flamegraph_opts o = FLAMEGRAPH_OPTS_INIT;
	char *svg;
	struct frame *f;
	size_t n, nb = 0;

	(void)state;
	svg = render(s, sizeof(s) / sizeof(s[0]), &o);
	f = frames(svg, &n);
	assert_int_equal(n, 9); /* all, main, b, b!x, c, d, e, other, other;b */
	assert_int_equal(f[0].v, 31);
	assert_int_equal(find(f, n, "main")->v, 26);
	assert_int_equal(find(f, n, "main;b")->v, 18);
	assert_int_equal(find(f, n, "main;b!x")->v, 4);
	assert_int_equal(find(f, n, "main;b;c")->v, 9);
	assert_int_equal(find(f, n, "main;b;c;d")->v, 2);
	assert_int_equal(find(f, n, "main;e")->v, 1);
	assert_int_equal(find(f, n, "other;b")->v, 5);
	for (size_t i = 0; i < n; i++)
		nb += !strcmp(f[i].stack, "main;b");
	assert_int_equal(nb, 1);
	assert_non_null(strstr(svg, "data-fg-ready"));
	free(f);
	free(svg);
}

static void test_flamegraph__children_are_drawn_by_name(void **state)
{
	struct flamegraph_stack s[] = {
		{ "main;zeta", 5, 0, 0 }, { "main;alpha", 5, 0, 0 }, { "main;mid", 5, 0, 0 },
	};
	struct flamegraph_opts o = FLAMEGRAPH_OPTS_INIT;
	char *svg = render(s, 3, &o);
	const char *a = strstr(svg, "<title>alpha"), *m = strstr(svg, "<title>mid"),
		   *z = strstr(svg, "<title>zeta");
	double xa, xm, xz;

	(void)state;
	assert_non_null(a);
	assert_non_null(m);
	assert_non_null(z);
	xa = strtod(strstr(a, "<rect x=\"") + 9, NULL);
	xm = strtod(strstr(m, "<rect x=\"") + 9, NULL);
	xz = strtod(strstr(z, "<rect x=\"") + 9, NULL);
	assert_true(xa < xm && xm < xz);
	free(svg);
}

static void test_flamegraph__merges_narrow_frames_and_says_so(void **state)
{
	/* main;big 100000 and 1000 callees of 1 sample each: each is
	 * 0.0118 px wide, under the 0.1 px minimum; together 11.8 px */
	struct flamegraph_stack *s = calloc(1001, sizeof(*s));
	char (*names)[32] = calloc(1001, sizeof(*names));
	struct flamegraph_opts o = FLAMEGRAPH_OPTS_INIT;
	struct frame *f;
	size_t n, merged = 0;
	char *svg;

	(void)state;
	assert_non_null(s);
	assert_non_null(names);
	s[0].stack = "main;big";
	s[0].a = 100000;
	for (int i = 0; i < 1000; i++) {
		snprintf(names[i], sizeof(names[i]), "main;small%04d", i);
		s[i + 1].stack = names[i];
		s[i + 1].a = 1;
	}
	svg = render(s, 1001, &o);
	f = frames(svg, &n);
	for (size_t i = 0; i < n; i++)
		if (f[i].merged) {
			merged++;
			assert_int_equal(f[i].v, 1000);
		}
	assert_int_equal(merged, 1);
	assert_int_equal(n, 4); /* all, main, big, the merged frame */
	assert_int_equal(find(f, n, "main")->v, 101000);
	assert_non_null(strstr(svg, "1000 frames narrower than"));
	free(f);
	free(svg);
	free(names);
	free(s);
}

static void test_flamegraph__bounds_the_number_of_frames(void **state)
{
	/* 2000 siblings of 100 samples each, all wide enough at 0.1 px: the
	 * limit of 50 frames raises the minimum until they are merged */
	struct flamegraph_stack *s = calloc(2000, sizeof(*s));
	char (*names)[32] = calloc(2000, sizeof(*names));
	struct flamegraph_opts o = FLAMEGRAPH_OPTS_INIT;
	struct frame *f;
	size_t n;
	char *svg;

	(void)state;
	assert_non_null(s);
	assert_non_null(names);
	for (int i = 0; i < 2000; i++) {
		snprintf(names[i], sizeof(names[i]), "main;f%04d;g", i);
		s[i].stack = names[i];
		s[i].a = 100;
	}
	o.max_frames = 50;
	svg = render(s, 2000, &o);
	f = frames(svg, &n);
	assert_true(n <= 50);
	assert_int_equal(f[0].v, 200000);
	assert_non_null(strstr(svg, "frames narrower than"));
	o.max_frames = 0;
	free(f);
	free(svg);
	svg = render(s, 2000, &o);
	f = frames(svg, &n);
	assert_int_equal(n, 2 + 4000); /* all, main, each f and its g */
	free(f);
	free(svg);
	free(names);
	free(s);
}

static void test_flamegraph__diff_colours_follow_the_change(void **state)
{
	/* change = a - b (the baseline minus the second run): red ('+') where
	 * the second run spends more, blue ('-') less, grey ('0') none or noise */
	struct flamegraph_stack s[] = {
		{ "main", 10, 10, 0 },     { "main;slower", 10, 40, 0 },
		{ "main;faster", 50, 20, 0 }, { "main;noisy", 20, 22, 1 },
	};
	struct flamegraph_opts o = FLAMEGRAPH_OPTS_INIT;
	struct frame *f;
	size_t n;
	char *svg;

	(void)state;
	o.diff = 1;
	o.label[0] = "A";
	o.label[1] = "B";
	o.hz[0] = o.hz[1] = 100;
	svg = render(s, 4, &o);
	f = frames(svg, &n);
	assert_int_equal(f[0].v, 92); /* widths: the second run */
	assert_int_equal(find(f, n, "main;slower")->c, '+');
	assert_int_equal(find(f, n, "main;slower")->sb, 40);
	assert_int_equal(find(f, n, "main;faster")->c, '-');
	assert_int_equal(find(f, n, "main;noisy")->c, '0');
	assert_int_equal(find(f, n, "main")->c, '0');
	assert_non_null(strstr(svg, "red = more time in the second run"));
	assert_non_null(strstr(svg, "first run: A; second run: B"));
	free(f);
	free(svg);
}

static void test_flamegraph__escapes_names(void **state)
{
	struct flamegraph_stack s[] = { { "main;operator<<&\"x\"", 5, 0, 0 } };
	struct flamegraph_opts o = FLAMEGRAPH_OPTS_INIT;
	char *svg;

	(void)state;
	o.title = "a<b";
	svg = render(s, 1, &o);
	assert_non_null(strstr(svg, "operator&lt;&lt;&amp;&quot;x&quot;"));
	assert_null(strstr(svg, "operator<<"));
	assert_null(strstr(svg, "a<b"));
	free(svg);
}

static void test_flamegraph__writes_an_empty_profile(void **state)
{
	struct flamegraph_opts o = FLAMEGRAPH_OPTS_INIT;
	char *svg = render(NULL, 0, &o);

	(void)state;
	assert_non_null(strstr(svg, "</svg>"));
	free(svg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flamegraph__frame_widths_are_folded_sums),
		cmocka_unit_test(test_flamegraph__children_are_drawn_by_name),
		cmocka_unit_test(test_flamegraph__merges_narrow_frames_and_says_so),
		cmocka_unit_test(test_flamegraph__bounds_the_number_of_frames),
		cmocka_unit_test(test_flamegraph__diff_colours_follow_the_change),
		cmocka_unit_test(test_flamegraph__escapes_names),
		cmocka_unit_test(test_flamegraph__writes_an_empty_profile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
