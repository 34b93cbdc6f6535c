/*
 * The differential call graph: one node per diff entry (matched, or
 * linked to a placeholder on the other side), one edge per diff arc.
 * Because the diff links one-sided entries to placeholders, nothing here
 * tests for a missing side: presence only chooses the border.
 */
#define _GNU_SOURCE /* asprintf */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gml/graph.h"
#include "diff/diff.h"
#include "utils/error.h"
#include "utils/banned.h"

static enum graph_presence presence(int base, int second)
{
	if (base && !second)
		return GPRES_BASE_ONLY;
	if (second && !base)
		return GPRES_SECOND_ONLY;
	return GPRES_BOTH;
}

/* As gprof leaves lines of zeros out of its call graph, on both sides. */
static int entry_in_graph(const struct diff_entry *e)
{
	int s;

	if (!e->in_graph)
		return 0;
	for (s = 0; s < DIFF_NSIDES; s++)
		if (e->side[s].calls || e->side[s].self_calls ||
		    e->side[s].self_sec != 0 || e->side[s].child_sec != 0)
			return 1;
	return 0;
}

static int entry_cycle(const void *ctx, size_t i, int *whole)
{
	const struct diff_entry *e = &((const struct diff *)ctx)->entries[i];

	*whole = !!(e->flags & PSYM_CYCLE);
	return e->cycle;
}

int graph_from_diff(struct graph **out, const struct diff *d,
		    const struct graph_opts *opts)
{
	struct graph *g = graph_new(1);
	long *node_of = NULL;
	size_t i;

	*out = NULL;
	if (!g || !(node_of = malloc((d->nentries ? d->nentries : 1) * sizeof(long))))
		goto oom;
	{
		/* the sides as the text header names them, when the command says */
		char *a = opts->side_label[0] ? strdup(opts->side_label[0])
					      : graph_profile_name(d->prof[0]);
		char *b = opts->side_label[1] ? strdup(opts->side_label[1])
					      : graph_profile_name(d->prof[1]);

		if (!a || !b || asprintf(&g->title, "differential call graph: %s minus %s",
					 a, b) < 0)
			g->title = NULL;
		free(a);
		free(b);
		if (!g->title)
			goto oom;
	}
	/* Shares of the change, for nodes and edges alike. */
	g->node_total = g->edge_total = d->abs_sum;
	for (i = 0; i < d->nentries; i++) {
		const struct diff_entry *e = &d->entries[i];
		struct graph_node n = { 0 };
		int s;

		node_of[i] = -1;
		if (!entry_in_graph(e))
			continue;
		n.name = strdup(e->print_name ? e->print_name : e->name);
		n.kind = (e->flags & PSYM_CYCLE) ? GNODE_CYCLE : GNODE_FUNCTION;
		n.presence = presence(e->side[0].present, e->side[1].present);
		n.noise = e->noise == NOISE_WITHIN;
		for (s = 0; s < DIFF_NSIDES; s++) {
			n.self[s] = e->side[s].self_sec;
			n.total[s] = e->side[s].self_sec + e->side[s].child_sec;
			n.calls[s] = e->side[s].calls;
		}
		n.self_diff = e->self_diff;
		n.total_diff = e->self_diff + e->child_diff;
		n.calls_diff = e->calls_diff;
		n.self_pct = e->impact;
		n.total_pct = d->abs_sum > 0 ? 100.0 * n.total_diff / d->abs_sum : 0;
		/* Absolute values: a large change either way stays. */
		n.weight = fmax(fabs(n.total_diff), fabs(n.self_diff));
		/* A function that appeared or went is news, however small. */
		n.keep = n.presence != GPRES_BOTH &&
			 (n.self_diff != 0 || n.total_diff != 0 || n.calls_diff != 0);
		if (!n.name || (node_of[i] = graph_add_node(g, &n)) < 0) {
			free(n.name);
			goto oom;
		}
	}
	for (i = 0; i < d->narcs; i++) {
		const struct diff_arc *a = &d->arcs[i];
		struct graph_edge e = { 0 };

		e.presence = presence(a->present[0], a->present[1]);
		e.calls[0] = a->count[0];
		e.calls[1] = a->count[1];
		e.calls_diff = a->count_diff;
		for (int s = 0; s < DIFF_NSIDES; s++)
			e.time[s] = a->time_sec[s] + a->child_time_sec[s];
		e.time_diff = e.time[0] - e.time[1];
		e.weight = fabs(e.time_diff);
		e.keep = (e.presence != GPRES_BOTH && e.calls_diff != 0) ||
			 (d->entries[a->parent].cycle != 0 &&
			  d->entries[a->parent].cycle == d->entries[a->child].cycle);
		if (graph_add_arc(g, node_of, d->nentries, a->parent, a->child, &e) < 0)
			goto oom;
	}
	return graph_build_end(out, g, node_of, d->nentries, entry_cycle, d, opts);
oom:
	free(node_of);
	graph_free(g);
	return error("out of memory");
}
