/*
 * Selecting what a graph shows: focus, root, depth, hot path, thresholds
 * (see graph_select.h for the rules).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gml/graph_select.h"
#include "filter/filter.h"
#include "utils/error.h"
#include "utils/banned.h"

/* Call edges as adjacency lists both ways (CSR), self-calls left out:
 * out[ostart[u] .. ostart[u+1]) are edge indices from u, in[] to u. */
struct adjacency {
	size_t *ostart, *out, *istart, *in;
};

static void adjacency_free(struct adjacency *a)
{
	free(a->ostart);
	free(a->out);
	free(a->istart);
	free(a->in);
}

static int is_call(const struct graph_edge *e)
{
	return e->kind == GEDGE_CALL && e->from != e->to;
}

static int adjacency_build(struct adjacency *a, const struct graph *g)
{
	size_t nn = g->nnodes, ne = g->nedges ? g->nedges : 1, i;
	size_t *ofill = NULL, *ifill = NULL;

	a->ostart = calloc(nn + 1, sizeof(size_t));
	a->istart = calloc(nn + 1, sizeof(size_t));
	a->out = malloc(ne * sizeof(size_t));
	a->in = malloc(ne * sizeof(size_t));
	ofill = malloc((nn + 1) * sizeof(size_t));
	ifill = malloc((nn + 1) * sizeof(size_t));
	if (!a->ostart || !a->istart || !a->out || !a->in || !ofill || !ifill) {
		free(ofill);
		free(ifill);
		adjacency_free(a);
		return -1;
	}
	for (i = 0; i < g->nedges; i++)
		if (is_call(&g->edges[i])) {
			a->ostart[g->edges[i].from + 1]++;
			a->istart[g->edges[i].to + 1]++;
		}
	for (i = 0; i < nn; i++) {
		a->ostart[i + 1] += a->ostart[i];
		a->istart[i + 1] += a->istart[i];
	}
	memcpy(ofill, a->ostart, (nn + 1) * sizeof(size_t));
	memcpy(ifill, a->istart, (nn + 1) * sizeof(size_t));
	for (i = 0; i < g->nedges; i++)
		if (is_call(&g->edges[i])) {
			a->out[ofill[g->edges[i].from]++] = i;
			a->in[ifill[g->edges[i].to]++] = i;
		}
	free(ofill);
	free(ifill);
	return 0;
}

/* The graph's functions and calls as filter/filter.h sees them. */
static const char *node_name(const void *ctx, size_t i)
{
	const struct graph_node *n = &((const struct graph *)ctx)->nodes[i];

	return n->kind == GNODE_FUNCTION ? n->name : NULL;
}

static void call_edge(const void *ctx, size_t e, size_t *from, size_t *to)
{
	const struct graph_edge *ge = &((const struct graph *)ctx)->edges[e];

	/* a cycle's member links carry no call: an edge onto itself, ignored */
	*from = ge->from;
	*to = ge->kind == GEDGE_CALL ? ge->to : ge->from;
}

/*
 * in[i]: node i stays after step 1 of graph_select.h (the shared rules of
 * filter/filter.h).  is_focus[i]: it is the function --focus/--root names.
 * -1 (reported) when that names none.
 */
static int select_region(const struct graph *g, const struct graph_opts *opts, char *in,
			 char *is_focus)
{
	struct filter_opts f = { opts->focus, opts->root, opts->depth, opts->exclude,
				 opts->nexclude };
	struct filter_graph fg = { g->nnodes, g->nedges, node_name, call_edge, g };
	size_t i;

	if (filter_functions(&f, &fg, in, is_focus) < 0)
		return -1;
	for (i = 0; i < g->nnodes; i++)
		if (g->nodes[i].kind == GNODE_LEGEND)
			in[i] = 1;
	/* A cycle's node stays with any of its members. */
	for (i = 0; i < g->nedges; i++) {
		const struct graph_edge *e = &g->edges[i];

		if (e->kind == GEDGE_MEMBER && in[e->to])
			in[e->from] = 1;
	}
	return 0;
}

/* What a hot path follows: each call's time, or its change. */
static double edge_time(const struct graph *g, const struct graph_edge *e, int change)
{
	if (change)
		return fabs(e->time_diff);
	return e->time[0] + (g->is_diff ? e->time[1] : 0);
}

static double node_time(const struct graph *g, const struct graph_node *n, int change)
{
	if (change)
		return n->weight;
	return n->total[0] + (g->is_diff ? n->total[1] : 0);
}

/*
 * Mark keep along the hot path among the nodes in[]: from the heaviest
 * uncalled function (the heaviest function when every one is called),
 * follow the heaviest call to a node not on the path yet.
 */
static int mark_hot_path(struct graph *g, const struct adjacency *a, const char *in,
			 int change)
{
	size_t nn = g->nnodes, i, u = SIZE_MAX;
	char *seen = calloc(nn ? nn : 1, 1);
	double best = -1;
	int pass;

	if (!seen)
		return -1;
	for (pass = 0; pass < 2 && u == SIZE_MAX; pass++)
		for (i = 0; i < nn; i++) {
			const struct graph_node *n = &g->nodes[i];
			int uncalled = 1;

			for (size_t k = a->istart[i]; k < a->istart[i + 1]; k++)
				uncalled &= !in[g->edges[a->in[k]].from];
			if (n->kind != GNODE_FUNCTION || !in[i] || (pass == 0 && !uncalled))
				continue;
			if (node_time(g, n, change) > best) {
				best = node_time(g, n, change);
				u = i;
			}
		}
	while (u != SIZE_MAX && !seen[u]) {
		size_t next = SIZE_MAX, via = SIZE_MAX;

		seen[u] = 1;
		g->nodes[u].keep = 1;
		best = 0;
		for (size_t k = a->ostart[u]; k < a->ostart[u + 1]; k++) {
			const struct graph_edge *e = &g->edges[a->out[k]];
			double t = edge_time(g, e, change);

			if (in[e->to] && !seen[e->to] && t > best) {
				best = t;
				next = e->to;
				via = a->out[k];
			}
		}
		if (via != SIZE_MAX)
			g->edges[via].keep = 1;
		u = next;
	}
	free(seen);
	return 0;
}

int graph_select(struct graph *g, const struct graph_opts *opts)
{
	struct adjacency a = { NULL, NULL, NULL, NULL };
	size_t nn = g->nnodes, i, n = 0, m = 0;
	double nmin = opts->node_thres / 100.0 * g->node_total;
	double emin = opts->edge_thres / 100.0 * g->edge_total;
	char *in = calloc(nn ? nn : 1, 1), *is_focus = calloc(nn ? nn : 1, 1);
	size_t *newidx = malloc((nn ? nn : 1) * sizeof(size_t));
	int ret = -1;

	if (!in || !is_focus || !newidx || adjacency_build(&a, g) < 0) {
		error("out of memory");
		goto out;
	}
	if (opts->focus || opts->root || opts->depth >= 0 || opts->nexclude) {
		if (select_region(g, opts, in, is_focus) < 0)
			goto out;
	} else {
		memset(in, 1, nn);
	}
	if (mark_hot_path(g, &a, in, 0) < 0 || (g->is_diff && mark_hot_path(g, &a, in, 1) < 0)) {
		error("out of memory");
		goto out;
	}
	for (i = 0; i < nn; i++) {
		struct graph_node *nd = &g->nodes[i];

		if (!in[i] || (opts->node_thres > 0 && nd->kind != GNODE_LEGEND &&
			       !nd->keep && !is_focus[i] && nd->weight < nmin)) {
			free(nd->name);
			free(nd->label);
			newidx[i] = SIZE_MAX;
			continue;
		}
		newidx[i] = n;
		g->nodes[n++] = *nd;
	}
	g->pruned_nodes += nn - n;
	g->nnodes = n;
	/* Cycle-member links carry no time: they go only with their nodes. */
	for (i = 0; i < g->nedges; i++) {
		struct graph_edge *e = &g->edges[i];

		if (newidx[e->from] == SIZE_MAX || newidx[e->to] == SIZE_MAX ||
		    (opts->edge_thres > 0 && e->kind == GEDGE_CALL && !e->keep &&
		     e->weight < emin)) {
			free(e->label);
			continue;
		}
		e->from = newidx[e->from];
		e->to = newidx[e->to];
		g->edges[m++] = *e;
	}
	g->pruned_edges += g->nedges - m;
	g->nedges = m;
	ret = 0;
out:
	adjacency_free(&a);
	free(in);
	free(is_focus);
	free(newidx);
	return ret;
}
