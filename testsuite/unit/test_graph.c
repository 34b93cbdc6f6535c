/* Unit tests for the call-graph model (gml/graph.c, gml/graph_diff.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "gml/graph.h"
#include "diff/diff.h"
#include "utils/banned.h"

/*
 * The profile (hz 100, ticks):
 *
 *   main (self 10) --1--> f_b (self 100) --31--> f_d (self 500)
 *        \                                        ^
 *         +------1-----> f_c (self 300) ---22-----+
 *   time along the calls (self + children share, ticks): main->f_b 392.5,
 *   main->f_c 507.5, f_b->f_d 292.5, f_c->f_d 207.5
 *   unused (never called, no time: gprof leaves it out)
 *   hidden (-Q excluded: no PSYM_IN_GRAPH)
 */
enum { MAIN, FB, FC, FD, UNUSED, HIDDEN, NSYMS };

static struct profile *make_profile(void)
{
	static const char *names[NSYMS] = { "main", "f_b", "f_c", "f_d", "unused", "hidden" };
	static const double self[NSYMS] = { 10, 100, 300, 500, 0, 40 };
	static const uint64_t calls[NSYMS] = { 0, 1, 1, 53, 0, 1 };
	struct profile *p = profile_new();
	size_t i;

	assert_non_null(p);
	p->binary = strdup("fig1");
	p->hz = 100;
	p->input = PROFILE_HAS_CG;	/* its arcs were counted */
	p->total_ticks = p->print_ticks = 950;
	for (i = 0; i < NSYMS; i++) {
		struct profile_sym s = { 0 };

		s.name = strdup(names[i]);
		s.print_name = strdup(names[i]);
		s.flags = PSYM_FUNC | (i == HIDDEN ? 0 : PSYM_IN_GRAPH);
		s.self_ticks = self[i];
		s.ncalls = calls[i];
		s.prop_self = self[i];
		assert_int_equal(profile_add_sym(p, &s), (long)i);
	}
	/* inclusive: f_d 500, f_b 100 + 31/53*500, f_c 300 + 22/53*500, main all */
	p->syms[FB].prop_child = 500.0 * 31 / 53;
	p->syms[FC].prop_child = 500.0 * 22 / 53;
	p->syms[MAIN].prop_child = 900;
	{
		struct profile_arc a[] = {
			{ MAIN, FB, 1, 100, 292.5 }, { MAIN, FC, 1, 300, 207.5 },
			{ FB, FD, 31, 292.5, 0 }, { FC, FD, 22, 207.5, 0 },
			{ MAIN, HIDDEN, 1, 40, 0 },
		};
		for (i = 0; i < sizeof(a) / sizeof(a[0]); i++)
			assert_true(profile_add_arc(p, &a[i]) >= 0);
	}
	return p;
}

static long node_named(const struct graph *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->nnodes; i++)
		if (!strcmp(g->nodes[i].name, name))
			return (long)i;
	return -1;
}

static void test_graph__single_keeps_what_gprofs_call_graph_prints(void **state)
{
	struct profile *p = make_profile();
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g;

	(void)state;
	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	assert_int_equal(g->nnodes, 4);
	assert_int_equal(g->nedges, 4);
	assert_true(node_named(g, "unused") < 0);
	assert_true(node_named(g, "hidden") < 0);
	assert_int_equal(g->pruned_nodes, 0);
	graph_free(g);
	profile_free(p);
}

static void test_graph__single_labels_show_seconds_and_percent(void **state)
{
	struct profile *p = make_profile();
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g;
	const struct graph_node *fd;
	size_t i;

	(void)state;
	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	fd = &g->nodes[node_named(g, "f_d")];
	assert_string_equal(fd->label, "f_d\nself 5.00 s (52.6%)\ntotal 5.00 s (52.6%)");
	for (i = 0; i < g->nedges; i++)
		if (g->edges[i].calls[0] == 31)
			assert_string_equal(g->edges[i].label, "31");
	graph_free(g);
	profile_free(p);
}

static void test_graph__height_follows_inclusive_and_width_exclusive_time(void **state)
{
	struct profile *p = make_profile();
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g;
	const struct graph_node *m, *fd, *fb;

	(void)state;
	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	m = &g->nodes[node_named(g, "main")];
	fd = &g->nodes[node_named(g, "f_d")];
	fb = &g->nodes[node_named(g, "f_b")];
	assert_true(m->h > fd->h);   /* main: all the time inclusive */
	assert_true(fd->w > m->w);   /* f_d: most exclusive time */
	assert_true(fd->w > fb->w);
	assert_true(m->w >= 80 && m->h >= 40); /* the readable minimum */
	graph_free(g);
	profile_free(p);
}

static void test_graph__no_node_size_draws_one_size_per_label(void **state)
{
	struct profile *p = make_profile();
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g;

	(void)state;
	o.no_node_size = 1;
	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	assert_true(g->nodes[node_named(g, "f_d")].h == g->nodes[node_named(g, "main")].h);
	assert_true(g->nodes[node_named(g, "f_d")].w == g->nodes[node_named(g, "f_b")].w);
	graph_free(g);
	profile_free(p);
}

static void test_graph__layout_puts_callees_one_row_below_callers(void **state)
{
	struct profile *p = make_profile();
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g;
	const struct graph_node *m, *fb, *fc, *fd;

	(void)state;
	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	m = &g->nodes[node_named(g, "main")];
	fb = &g->nodes[node_named(g, "f_b")];
	fc = &g->nodes[node_named(g, "f_c")];
	fd = &g->nodes[node_named(g, "f_d")];
	assert_int_equal(m->depth, 0);
	assert_int_equal(fb->depth, 1);
	assert_int_equal(fc->depth, 1);
	assert_int_equal(fd->depth, 2);
	assert_true(m->y < fb->y && fb->y == fc->y && fc->y < fd->y);
	/* nodes of a row do not overlap */
	assert_true(fabs(fb->x - fc->x) >= (fb->w + fc->w) / 2);
	graph_free(g);
	profile_free(p);
}

static long edge_named(const struct graph *g, const char *from, const char *to)
{
	size_t i;

	for (i = 0; i < g->nedges; i++)
		if (g->edges[i].kind == GEDGE_CALL &&
		    !strcmp(g->nodes[g->edges[i].from].name, from) &&
		    !strcmp(g->nodes[g->edges[i].to].name, to))
			return (long)i;
	return -1;
}

static void test_graph__thresholds_are_shares_of_time_not_calls(void **state)
{
	struct profile *p = make_profile();
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g;

	(void)state;
	o.node_thres = 45; /* of 9.5 s: keeps main (9.1), f_d (5), f_c (5.08) */
	o.edge_thres = 40; /* of 9.5 s: keeps main->f_c (5.08 s, 1 call) */
	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	assert_int_equal(g->nnodes, 3);
	assert_true(node_named(g, "f_b") < 0);
	assert_int_equal(g->pruned_nodes, 1);
	/* main->f_c: 1 call but most of the time; f_c->f_d (2.08 s) stays
	 * as the hot path; f_b's calls go with it */
	assert_true(edge_named(g, "main", "f_c") >= 0);
	assert_true(edge_named(g, "f_c", "f_d") >= 0);
	assert_int_equal(g->nedges, 2);
	assert_int_equal(g->pruned_edges, 2);
	graph_free(g);
	profile_free(p);
}

static void test_graph__hot_path_survives_any_threshold(void **state)
{
	struct profile *p = make_profile();
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g;

	(void)state;
	o.node_thres = 99;
	o.edge_thres = 99;
	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	/* main -> f_c (heaviest call) -> f_d */
	assert_int_equal(g->nnodes, 3);
	assert_true(edge_named(g, "main", "f_c") >= 0);
	assert_true(edge_named(g, "f_c", "f_d") >= 0);
	assert_int_equal(g->nedges, 2);
	graph_free(g);
	profile_free(p);
}

static void test_graph__focus_keeps_callers_to_the_root_and_callees(void **state)
{
	struct profile *p = make_profile();
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g;

	(void)state;
	o.focus = "f_b";
	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	assert_int_equal(g->nnodes, 3);
	assert_true(node_named(g, "main") >= 0 && node_named(g, "f_b") >= 0 &&
		    node_named(g, "f_d") >= 0);
	assert_true(edge_named(g, "main", "f_b") >= 0 && edge_named(g, "f_b", "f_d") >= 0);
	assert_int_equal(g->nedges, 2);
	graph_free(g);
	profile_free(p);
}

static void test_graph__root_keeps_only_the_subtree(void **state)
{
	struct profile *p = make_profile();
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g;

	(void)state;
	o.root = "f_c";
	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	assert_int_equal(g->nnodes, 2);
	assert_true(node_named(g, "f_c") >= 0 && node_named(g, "f_d") >= 0);
	assert_int_equal(g->nedges, 1);
	graph_free(g);
	profile_free(p);
}

static void test_graph__depth_counts_calls_from_the_roots_or_the_focus(void **state)
{
	struct profile *p = make_profile();
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g;

	(void)state;
	o.depth = 1;
	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	assert_int_equal(g->nnodes, 3); /* main, f_b, f_c */
	assert_true(node_named(g, "f_d") < 0);
	graph_free(g);
	o.depth = 0;
	o.focus = "f_d";
	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	assert_int_equal(g->nnodes, 1);
	assert_true(node_named(g, "f_d") >= 0);
	graph_free(g);
	o.depth = 1; /* f_d's callers only */
	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	assert_int_equal(g->nnodes, 3);
	assert_true(node_named(g, "main") < 0);
	graph_free(g);
	profile_free(p);
}

static void test_graph__focus_on_an_unknown_function_fails(void **state)
{
	struct profile *p = make_profile();
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g = (struct graph *)1;

	(void)state;
	o.focus = "nosuch";
	assert_int_equal(graph_from_profile(&g, p, &o), -1);
	assert_null(g);
	o.focus = NULL;
	o.root = "hidden"; /* not in the call graph (-Q) */
	assert_int_equal(graph_from_profile(&g, p, &o), -1);
	profile_free(p);
}

/*
 * Cycles: a <-> b form cycle 1; the cycle node links to both members.
 *   main --2--> a --5--> b --4--> a
 */
static void test_graph__cycle_node_links_its_members(void **state)
{
	struct profile *p = profile_new();
	const char *names[] = { "main", "a", "b", "<cycle 1 as a whole>" };
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g;
	size_t i, members = 0;
	long c;

	(void)state;
	p->hz = 100;
	p->input = PROFILE_HAS_CG;	/* its arcs were counted */
	p->print_ticks = 10;
	for (i = 0; i < 4; i++) {
		struct profile_sym s = { 0 };

		s.name = strdup(names[i]);
		s.print_name = strdup(names[i]);
		s.flags = PSYM_IN_GRAPH | (i == 3 ? PSYM_CYCLE : PSYM_FUNC);
		s.cycle = i == 0 ? 0 : 1;
		s.ncalls = i == 0 ? 0 : 2;
		s.prop_self = i == 0 ? 0 : i == 3 ? 10 : 5;
		s.self_ticks = (i == 1 || i == 2) ? 5 : 0;
		s.prop_child = i == 0 ? 10 : 0;
		assert_int_equal(profile_add_sym(p, &s), (long)i);
	}
	{
		struct profile_arc a[] = { { 0, 1, 2, 0, 0 }, { 1, 2, 5, 0, 0 }, { 2, 1, 4, 0, 0 } };
		for (i = 0; i < 3; i++)
			assert_true(profile_add_arc(p, &a[i]) >= 0);
	}
	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	assert_int_equal(g->nnodes, 4);
	c = node_named(g, "<cycle 1 as a whole>");
	assert_true(c >= 0);
	assert_int_equal(g->nodes[c].kind, GNODE_CYCLE);
	assert_string_equal(g->nodes[c].shape, "octagon");
	for (i = 0; i < g->nedges; i++)
		if (g->edges[i].kind == GEDGE_MEMBER) {
			assert_int_equal(g->edges[i].from, c);
			members++;
		}
	assert_int_equal(members, 2);
	assert_int_equal(g->nedges, 5);
	assert_int_equal(g->nodes[c].depth, g->nodes[node_named(g, "a")].depth);
	graph_free(g);
	profile_free(p);
}

/* ------------------------------------------------------------------------ */
/* Differential graphs, from a diff built by hand.                          */

/*
 * Figure 1 of the paper (seconds, first run | second run):
 *   f_d self 5.51 | 2.04  calls 31 | 22   (less time in the second run)
 *   main self 1.15 | 3.08                 (more time)
 *   f_c 3.19 | 1.91, f_b 1.09 | 1.70, gone only in the first run,
 *   new only in the second run, still 0.50 | 0.49 (within noise).
 *   main -> f_b 1|1, main -> f_c 1|1, f_b -> f_d 9|10, f_c -> f_d 22|12
 */
struct fig1_row { const char *name; double s0, s1, c0, c1; int p0, p1, noise; };
static const struct fig1_row rows[] = {
	{ "f_d", 5.51, 2.04, 0, 0, 1, 1, 0 },
	{ "main", 1.15, 3.08, 1.0, 5.0, 1, 1, 0 },
	{ "f_c", 3.19, 1.91, 0, 0, 1, 1, 0 },
	{ "f_b", 1.09, 1.70, 0, 0, 1, 1, 0 },
	{ "gone", 0.30, 0, 0, 0, 1, 0, 0 },
	{ "new", 0, 0.40, 0, 0, 0, 1, 0 },
	{ "still", 0.50, 0.49, 0, 0, 1, 1, 1 },
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

static void make_diff(struct diff *d)
{
	/* evidence: the arc's verdict, signed as time_diff (0: not
	 * significant) */
	static const struct { uint32_t p, c; uint64_t n0, n1; int p0, p1; double ev; } arcs[] = {
		{ 1, 3, 1, 1, 1, 1, 0 }, { 1, 2, 1, 1, 1, 1, 0 }, { 3, 0, 9, 10, 1, 1, -0.4 },
		{ 2, 0, 22, 12, 1, 1, 1.5 }, { 1, 4, 3, 0, 1, 0, 0.3 }, { 1, 5, 0, 2, 0, 1, -0.4 },
		{ 1, 6, 4, 4, 1, 1, 0 },
	};
	size_t i;

	memset(d, 0, sizeof(*d));
	d->nentries = NROWS;
	d->entries = calloc(NROWS, sizeof(*d->entries));
	assert_non_null(d->entries);
	for (i = 0; i < NROWS; i++) {
		struct diff_entry *e = &d->entries[i];

		e->name = strdup(rows[i].name);
		e->print_name = strdup(rows[i].name);
		e->in_graph = 1;
		e->side[0].present = rows[i].p0;
		e->side[1].present = rows[i].p1;
		e->side[0].calls_measured = rows[i].p0;
		e->side[1].calls_measured = rows[i].p1;
		e->side[0].sym = rows[i].p0 ? (long)i : -1;
		e->side[1].sym = rows[i].p1 ? (long)i : -1;
		e->side[0].self_sec = rows[i].s0;
		e->side[1].self_sec = rows[i].s1;
		e->side[0].child_sec = rows[i].c0;
		e->side[1].child_sec = rows[i].c1;
		e->self_diff = rows[i].s0 - rows[i].s1;
		e->child_diff = rows[i].c0 - rows[i].c1;
		/* the diff's verdicts (diff/evidence.h), as it would give them:
		 * "still" within noise, every other row significant by its
		 * time */
		e->noise = rows[i].noise ? NOISE_WITHIN : NOISE_NONE;
		e->verdict = rows[i].noise ? VERDICT_NOISE : VERDICT_SIGNIFICANT;
		e->significant = !rows[i].noise;
		e->evidence_signed = e->significant ? e->self_diff : 0;
		e->evidence_sec = fabs(e->evidence_signed);
		d->abs_sum += fabs(e->self_diff);
	}
	for (i = 0; i < NROWS; i++)
		d->entries[i].impact = 100 * d->entries[i].self_diff / d->abs_sum;
	d->narcs = sizeof(arcs) / sizeof(arcs[0]);
	d->arcs = calloc(d->narcs, sizeof(*d->arcs));
	assert_non_null(d->arcs);
	for (i = 0; i < d->narcs; i++) {
		struct diff_arc *a = &d->arcs[i];

		a->parent = arcs[i].p;
		a->child = arcs[i].c;
		a->count[0] = arcs[i].n0;
		a->count[1] = arcs[i].n1;
		a->present[0] = arcs[i].p0;
		a->present[1] = arcs[i].p1;
		a->count_diff = (int64_t)arcs[i].n0 - (int64_t)arcs[i].n1;
		a->significant = arcs[i].ev != 0;
		a->verdict = a->significant ? VERDICT_SIGNIFICANT :
			     a->count_diff ? VERDICT_NOISE : VERDICT_EQUAL;
		a->evidence_signed = arcs[i].ev;
		a->evidence_sec = fabs(arcs[i].ev);
	}
}

static void free_diff(struct diff *d)
{
	size_t i;

	for (i = 0; i < d->nentries; i++) {
		free(d->entries[i].name);
		free(d->entries[i].print_name);
	}
	free(d->entries);
	free(d->arcs);
}

static uint32_t red_of(uint32_t c) { return c >> 16; }
static uint32_t blue_of(uint32_t c) { return c & 0xff; }

static void test_graph_diff__colours_say_which_run_spent_more(void **state)
{
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct diff d;
	struct graph *g;
	const struct graph_node *fd, *m, *fb, *still;

	(void)state;
	make_diff(&d);
	assert_int_equal(graph_from_diff(&g, &d, &o), 0);
	assert_int_equal(g->nnodes, NROWS + 1); /* and the legend */
	assert_int_equal(g->nodes[g->nnodes - 1].kind, GNODE_LEGEND);
	fd = &g->nodes[node_named(g, "f_d")];
	m = &g->nodes[node_named(g, "main")];
	fb = &g->nodes[node_named(g, "f_b")];
	still = &g->nodes[node_named(g, "still")];
	/* less time in the second run: blue; more: red */
	assert_true(blue_of(fd->fill) > red_of(fd->fill));
	assert_true(red_of(m->fill) > blue_of(m->fill));
	/* intensity by magnitude: f_d (+3.47) a deeper blue than gone (+0.30) */
	assert_true(red_of(fd->fill) < red_of(g->nodes[node_named(g, "gone")].fill));
	assert_true(red_of(fb->fill) > blue_of(fb->fill));
	/* within the noise rule: grey */
	assert_int_equal(still->fill, 0xd9d9d9);
	/* its own change (the second run's self time over the first's) and
	 * its share of the change (issue 24 item 7) */
	assert_string_equal(fd->label,
		"f_d\nself 5.51 | 2.04 s, diff +3.47 (x0.37, 43.4% of change)\n"
		"total 5.51 | 2.04 s, diff +3.47");
	assert_string_equal(g->nodes[node_named(g, "gone")].label,
		"gone\nself 0.30 | 0.00 s, diff +0.30 (gone, 3.7% of change)\n"
		"total 0.30 | 0.00 s, diff +0.30\nonly in the first run");
	graph_free(g);
	free_diff(&d);
}

static void test_graph_diff__one_sided_nodes_and_edges_are_drawn_dashed_or_dotted(void **state)
{
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct diff d;
	struct graph *g;
	size_t i;
	int seen = 0;

	(void)state;
	make_diff(&d);
	assert_int_equal(graph_from_diff(&g, &d, &o), 0);
	assert_int_equal(g->nodes[node_named(g, "gone")].outline_style, GLINE_DASHED);
	assert_int_equal(g->nodes[node_named(g, "new")].outline_style, GLINE_DOTTED);
	assert_int_equal(g->nodes[node_named(g, "f_d")].outline_style, GLINE_SOLID);
	for (i = 0; i < g->nedges; i++) {
		const struct graph_edge *e = &g->edges[i];

		if (e->to == (size_t)node_named(g, "gone")) {
			assert_int_equal(e->style, GLINE_DASHED);
			seen++;
		}
		if (e->to == (size_t)node_named(g, "new")) {
			assert_int_equal(e->style, GLINE_DOTTED);
			seen++;
		}
	}
	assert_int_equal(seen, 2);
	graph_free(g);
	free_diff(&d);
}

/* Edges follow the diff's verdict of each arc, in the nodes' palette: blue
 * less time (or fewer calls, as the time they imply) in the second run,
 * red more, grey not significant, however the raw counts moved (issue 24
 * item 7: a +12 of 1.1 million calls drew width 3.1). */
static void test_graph_diff__edges_coloured_by_the_diffs_verdict_as_nodes_are(void **state)
{
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct diff d;
	struct graph *g;
	const struct graph_edge *fc_fd = NULL, *fb_fd = NULL, *m_fb = NULL;
	size_t i;

	(void)state;
	make_diff(&d);
	assert_int_equal(graph_from_diff(&g, &d, &o), 0);
	for (i = 0; i < g->nedges; i++) {
		const struct graph_edge *e = &g->edges[i];
		const char *from = g->nodes[e->from].name, *to = g->nodes[e->to].name;

		if (!strcmp(from, "f_c") && !strcmp(to, "f_d"))
			fc_fd = e;
		if (!strcmp(from, "f_b") && !strcmp(to, "f_d"))
			fb_fd = e;
		if (!strcmp(from, "main") && !strcmp(to, "f_b"))
			m_fb = e;
	}
	assert_non_null(fc_fd);
	assert_non_null(fb_fd);
	assert_non_null(m_fb);
	assert_string_equal(fc_fd->label, "22 | 12 (+10)");
	assert_string_equal(fb_fd->label, "9 | 10 (-1)");
	/* blue on an edge is blue on a node: less in the second run */
	assert_true(blue_of(fc_fd->color) > red_of(fc_fd->color));
	assert_true(blue_of(g->nodes[node_named(g, "f_d")].fill) >
		    red_of(g->nodes[node_named(g, "f_d")].fill));
	assert_true(red_of(fb_fd->color) > blue_of(fb_fd->color));
	assert_int_equal(m_fb->color, 0x999999);                   /* not significant */
	assert_true(fc_fd->width > fb_fd->width);                  /* by evidence */
	assert_true(fb_fd->width > m_fb->width);
	assert_true(m_fb->width == 1);
	graph_free(g);
	free_diff(&d);
}

static void test_graph_diff__thresholds_keep_large_changes_either_way(void **state)
{
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct diff d;
	struct graph *g;

	(void)state;
	make_diff(&d);
	o.node_thres = 20; /* of sum |diff| = 8.00 s: 1.6 s */
	assert_int_equal(graph_from_diff(&g, &d, &o), 0);
	assert_true(node_named(g, "f_d") >= 0);  /* -3.47... +3.47 */
	assert_true(node_named(g, "main") >= 0); /* more time: -1.93, total -5.93 */
	assert_true(node_named(g, "still") < 0);
	assert_true(node_named(g, "f_c") < 0);   /* +1.28 */
	/* one-sided and changed: never pruned, however small */
	assert_true(node_named(g, "gone") >= 0); /* +0.30 */
	assert_true(node_named(g, "new") >= 0);  /* -0.40 */
	/* f_b (-0.61) stays: f_d's caller up to main (issue 24 item 8: a
	 * kept function is drawn with a chain of callers to a root) */
	assert_true(node_named(g, "f_b") >= 0);
	assert_int_equal(g->pruned_nodes, 2);
	graph_free(g);
	free_diff(&d);
}

/*
 * --metric EV: the run's functions in an event, measured by its sidecars
 * (model/measured.h): its shape is not the time's, f_b has nearly all of
 * the events, f_c few; `scale` 0.5 is a second run with half of
 * everything.  One event per sample (hz 1).
 */
static struct profile *make_metric_profile(double scale)
{
	static const char *names[] = { "main", "f_b", "f_c", "f_d" };
	static const double self[] = { 0, 800, 50, 145 }, total[] = { 1000, 900, 100, 145 };
	struct profile *p = profile_new();

	assert_non_null(p);
	p->binary = strdup("fig1");
	p->hz = 1;
	p->input = PROFILE_HAS_CG;	/* its arcs were counted */
	p->measure.source = PROFILE_FROM_SIDECARS;
	snprintf(p->measure.metric, sizeof(p->measure.metric), "PAPI_L1_DCM");
	snprintf(p->measure.unit, sizeof(p->measure.unit), "events");
	for (size_t i = 0; i < 4; i++) {
		struct profile_sym s = { 0 };

		s.name = strdup(names[i]);
		s.print_name = strdup(names[i]);
		s.flags = PSYM_FUNC | PSYM_IN_GRAPH | PSYM_IN_FLAT;
		s.self_ticks = s.prop_self = self[i] * scale;
		s.prop_child = s.child_ticks = (total[i] - self[i]) * scale;
		s.ncalls = i ? 1 : 0;
		p->total_ticks += s.self_ticks;
		assert_int_equal(profile_add_sym(p, &s), (long)i);
	}
	p->print_ticks = p->total_ticks;
	{
		struct profile_arc a[] = {
			{ MAIN, FB, 1, 800 * scale, 100 * scale }, { MAIN, FC, 1, 50 * scale, 50 * scale },
			{ FB, FD, 1, 100 * scale, 0 }, { FC, FD, 1, 45 * scale, 0 },
		};
		for (size_t i = 0; i < sizeof(a) / sizeof(a[0]); i++)
			assert_true(profile_add_arc(p, &a[i]) >= 0);
	}
	return p;
}

static void test_graph_metric__nodes_edges_labels_are_the_events(void **state)
{
	struct profile *p = make_metric_profile(1);
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g;
	const struct graph_node *fb;
	long e;

	(void)state;
	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	assert_string_equal(g->metric, "PAPI_L1_DCM");
	assert_non_null(strstr(g->title, ": PAPI_L1_DCM in events"));
	assert_true(g->node_total == 995);
	fb = &g->nodes[node_named(g, "f_b")];
	assert_true(fb->self[0] == 800 && fb->total[0] == 900);
	assert_string_equal(fb->label, "f_b\nself 800 events (80.4%)\ntotal 900 events (90.5%)");
	e = edge_named(g, "main", "f_b");
	assert_true(e >= 0 && g->edges[e].time[0] == 900);
	assert_string_equal(g->edges[e].label, "1 calls\n900 events");
	assert_non_null(strstr(g->legend, "PAPI_L1_DCM, in events"));
	graph_free(g);
	profile_free(p);
}

/* The thresholds compare the events: 45% of 995 keeps main and f_b, and
 * f_d on the hot path; f_c goes. */
static void test_graph_metric__thresholds_compare_the_events_not_time(void **state)
{
	struct profile *p = make_metric_profile(1);
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g;

	(void)state;
	o.node_thres = 45;
	o.edge_thres = 40;
	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	assert_true(node_named(g, "main") >= 0 && node_named(g, "f_b") >= 0);
	assert_true(node_named(g, "f_d") >= 0);
	assert_true(node_named(g, "f_c") < 0);
	assert_true(g->nodes[node_named(g, "f_b")].h > g->nodes[node_named(g, "f_d")].h);
	graph_free(g);
	profile_free(p);
}

/* A diff in the event: baseline minus second run, its numbers and
 * verdicts the diff's (one source for the table and the graph). */
static void test_graph_metric_diff__baseline_minus_second_and_verdicts(void **state)
{
	struct profile *a = make_metric_profile(1), *b = make_metric_profile(0.5);
	struct diff d;
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g;
	const struct graph_node *fb;
	long e;

	(void)state;
	assert_int_equal(diff_compute(&d, a, b, NULL), 0);
	assert_int_equal(graph_from_diff(&g, &d, &o), 0);
	assert_string_equal(g->metric, "PAPI_L1_DCM");
	fb = &g->nodes[node_named(g, "f_b")];
	assert_true(fb->self[0] == 800 && fb->self[1] == 400 && fb->self_diff == 400);
	assert_true(fb->total_diff == 450);
	assert_true(fb->significant == d.entries[diff_find(&d, "f_b")].significant);
	assert_string_equal(fb->label, "f_b\nself 800 | 400 events, diff +400 (x0.50, 80.4% of "
			    "change)\ntotal 900 | 450 events, diff +450");
	e = edge_named(g, "main", "f_b");
	assert_true(e >= 0);
	assert_string_equal(g->edges[e].label, "1 | 1 (+0)\n900 | 450 events, diff +450");
	/* an edge never carries more than its callee's total */
	for (size_t k = 0; k < g->nedges; k++)
		for (int s = 0; s < 2; s++)
			if (g->edges[k].kind == GEDGE_CALL)
				assert_true(g->edges[k].time[s] <= g->nodes[g->edges[k].to].total[s]);
	graph_free(g);
	diff_release(&d);
	profile_free(a);
	profile_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_graph__single_keeps_what_gprofs_call_graph_prints),
		cmocka_unit_test(test_graph__single_labels_show_seconds_and_percent),
		cmocka_unit_test(test_graph__height_follows_inclusive_and_width_exclusive_time),
		cmocka_unit_test(test_graph__no_node_size_draws_one_size_per_label),
		cmocka_unit_test(test_graph__layout_puts_callees_one_row_below_callers),
		cmocka_unit_test(test_graph__thresholds_are_shares_of_time_not_calls),
		cmocka_unit_test(test_graph__hot_path_survives_any_threshold),
		cmocka_unit_test(test_graph__focus_keeps_callers_to_the_root_and_callees),
		cmocka_unit_test(test_graph__root_keeps_only_the_subtree),
		cmocka_unit_test(test_graph__depth_counts_calls_from_the_roots_or_the_focus),
		cmocka_unit_test(test_graph__focus_on_an_unknown_function_fails),
		cmocka_unit_test(test_graph__cycle_node_links_its_members),
		cmocka_unit_test(test_graph_diff__colours_say_which_run_spent_more),
		cmocka_unit_test(test_graph_diff__one_sided_nodes_and_edges_are_drawn_dashed_or_dotted),
		cmocka_unit_test(test_graph_diff__edges_coloured_by_the_diffs_verdict_as_nodes_are),
		cmocka_unit_test(test_graph_diff__thresholds_keep_large_changes_either_way),
		cmocka_unit_test(test_graph_metric__nodes_edges_labels_are_the_events),
		cmocka_unit_test(test_graph_metric__thresholds_compare_the_events_not_time),
		cmocka_unit_test(test_graph_metric_diff__baseline_minus_second_and_verdicts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
