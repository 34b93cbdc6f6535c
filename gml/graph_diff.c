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

/*
 * Recursion (issue 24, item 8).  gprof folds mutual recursion into a cycle
 * and propagates no time along the calls inside it, so an interpreter whose
 * time is nearly all in "<cycle 1 as a whole>" drew as a cycle node and
 * members pruned away or left without their calls.  A cycle's members and
 * its calls inside share the cycle's weight by the calls they carry (as
 * gprof2dot shares a cycle's time by call ratios), so the thresholds and
 * the hot path go through the recursion; with measured times (call-path
 * sidecars on both sides) a call inside a cycle weighs the change measured
 * along it instead, and a member the largest of its callers' calls.
 */
struct cycle_weights {
	double *member;  /* per entry: its weight as a cycle member */
	double *cycle;   /* per diff cycle number: the cycle's weight */
	double *calls;   /* per diff cycle number: calls inside it, both runs */
};

static void cycle_weights_release(struct cycle_weights *cw)
{
	free(cw->member);
	free(cw->cycle);
	free(cw->calls);
}

static int inside_cycle(const struct diff *d, const struct diff_arc *a)
{
	const struct diff_entry *p = &d->entries[a->parent], *c = &d->entries[a->child];

	return p->cycle && p->cycle == c->cycle && a->parent != a->child &&
	       !(p->flags & PSYM_CYCLE) && !(c->flags & PSYM_CYCLE);
}

static int cycle_weights(const struct diff *d, struct cycle_weights *cw)
{
	size_t i, n = (size_t)d->ncycles + 1;

	if (!d->ncycles)
		return 0;
	cw->member = calloc(d->nentries + 1, sizeof(double));
	cw->cycle = calloc(n, sizeof(double));
	cw->calls = calloc(n, sizeof(double));
	if (!cw->member || !cw->cycle || !cw->calls)
		return -1;
	for (i = 0; i < d->nentries; i++) {
		const struct diff_entry *e = &d->entries[i];

		if ((e->flags & PSYM_CYCLE) && e->cycle > 0 && e->cycle <= d->ncycles)
			cw->cycle[e->cycle] = fmax(fabs(e->self_diff + e->child_diff),
						   fabs(e->self_diff));
	}
	for (i = 0; i < d->narcs; i++) {
		const struct diff_arc *a = &d->arcs[i];

		if (inside_cycle(d, a))
			cw->calls[d->entries[a->child].cycle] += (double)(a->count[0] + a->count[1]);
	}
	for (i = 0; i < d->narcs; i++) {
		const struct diff_arc *a = &d->arcs[i];
		int c = d->entries[a->child].cycle;
		double w;

		if (!inside_cycle(d, a) || cw->calls[c] <= 0)
			continue;
		w = cw->cycle[c] * (double)(a->count[0] + a->count[1]) / cw->calls[c];
		cw->member[a->child] = fmax(cw->member[a->child], w);
	}
	return 0;
}

/* A call inside a cycle weighs its share of the cycle's (or its measured
 * change). */
static void cycle_edge_weight(const struct diff *d, const struct diff_arc *a,
			      struct graph_edge *e, const struct cycle_weights *cw)
{
	int c = d->entries[a->child].cycle;

	if (!cw->calls || !inside_cycle(d, a) || cw->calls[c] <= 0)
		return;
	e->weight = fmax(e->weight, cw->cycle[c] * (double)(a->count[0] + a->count[1]) /
					    cw->calls[c]);
}

/*
 * A diff keeps functions by the size of their change, and a path of calls
 * that did not change (main down to an interpreter's loop) weighs nothing:
 * the changed functions floated apart, an interpreter's in pieces (issue 24
 * item 8).  Each function the thresholds will keep is drawn with a chain of
 * callers up to a root: at each step the caller whose call carries the
 * most time in either run (gprof's split; inside a cycle, its share of the
 * cycle's calls), kept whatever its change; a chain that goes round a
 * cycle leaves it by the call from its heaviest caller outside it.
 */
/* The calls out of each node: out[ostart[u]..ostart[u + 1]) (CSR). */
struct out_calls {
	size_t *ostart, *out;
};

static int out_calls_build(const struct graph *g, struct out_calls *oc)
{
	size_t nn = g->nnodes, k;

	oc->ostart = calloc(nn + 2, sizeof(size_t));
	oc->out = malloc((g->nedges + 1) * sizeof(size_t));
	if (!oc->ostart || !oc->out)
		return -1;
	for (k = 0; k < g->nedges; k++)
		if (g->edges[k].kind == GEDGE_CALL)
			oc->ostart[g->edges[k].from + 2]++;
	for (k = 0; k < nn; k++)
		oc->ostart[k + 2] += oc->ostart[k + 1];
	for (k = 0; k < g->nedges; k++)
		if (g->edges[k].kind == GEDGE_CALL)
			oc->out[oc->ostart[g->edges[k].from + 1]++] = k;
	return 0;
}

/* Keep the shortest path of calls inside one cycle from `from` to `to`
 * (both its members): the way in joins the members the chains reached.
 * via (all SIZE_MAX, and left so) and queue: scratch of nnodes. */
static void inside_path(struct graph *g, const struct out_calls *oc, const int *node_cycle,
			size_t from, size_t to, size_t *via, size_t *queue)
{
	size_t head = 0, tail = 0, k;
	int c = node_cycle[from];

	queue[tail++] = from;
	via[from] = g->nedges; /* the start */
	while (head < tail && via[to] == SIZE_MAX) {
		size_t u = queue[head++];

		for (k = oc->ostart[u]; k < oc->ostart[u + 1]; k++) {
			const struct graph_edge *e = &g->edges[oc->out[k]];

			if (via[e->to] != SIZE_MAX || node_cycle[e->to] != c)
				continue;
			via[e->to] = oc->out[k];
			queue[tail++] = e->to;
		}
	}
	for (k = to; via[to] != SIZE_MAX && k != from; k = g->edges[via[k]].from) {
		g->nodes[k].keep = 1;
		g->edges[via[k]].keep = 1;
	}
	for (k = 0; k < tail; k++)
		via[queue[k]] = SIZE_MAX;
}

static int keep_callers_chain(struct graph *g, const struct graph_opts *opts,
			      const int *node_cycle, int ncycles)
{
	double nmin = opts->node_thres / 100.0 * g->node_total;
	size_t nn = g->nnodes, i, k;
	size_t *best_in = malloc((nn + 1) * sizeof(size_t));
	double *best_w = malloc((nn + 1) * sizeof(double));
	unsigned char *done = calloc(nn + 1, 1);
	/* per cycle: the heaviest call into it from outside, and whether the
	 * chain went through it */
	size_t *entry = malloc(((size_t)ncycles + 1) * sizeof(size_t));
	double *entry_w = malloc(((size_t)ncycles + 1) * sizeof(double));
	unsigned char *entered = calloc((size_t)ncycles + 1, 1);
	size_t *via = malloc((nn + 1) * sizeof(size_t)), *queue = malloc((nn + 1) * sizeof(size_t));
	struct out_calls oc = { NULL, NULL };
	int ret = -1;

	if (!best_in || !best_w || !done || !entry || !entry_w || !entered || !via || !queue ||
	    out_calls_build(g, &oc) < 0)
		goto out;
	for (i = 0; i < nn; i++)
		via[i] = SIZE_MAX;
	for (int c = 0; c <= ncycles; c++) {
		entry[c] = SIZE_MAX;
		entry_w[c] = -1;
	}
	for (i = 0; i < nn; i++) {
		best_in[i] = SIZE_MAX;
		best_w[i] = -1;
	}
	for (k = 0; k < g->nedges; k++) {
		const struct graph_edge *e = &g->edges[k];
		double w = fmax(fmax(e->time[0], e->time[1]), e->weight);

		if (e->kind == GEDGE_CALL && e->from != e->to && w > best_w[e->to]) {
			best_w[e->to] = w;
			best_in[e->to] = k;
		}
		/* into a cycle: from the heaviest caller (by its inclusive
		 * time), the way in from main; gprof's split of a cycle's
		 * time by calls says little of which call carries it */
		w = fmax(g->nodes[e->from].total[0], g->nodes[e->from].total[1]);
		if (e->kind == GEDGE_CALL && node_cycle[e->to] > 0 &&
		    node_cycle[e->from] != node_cycle[e->to] && w > entry_w[node_cycle[e->to]]) {
			entry_w[node_cycle[e->to]] = w;
			entry[node_cycle[e->to]] = k;
		}
	}
	for (i = 0; i < nn; i++) {
		size_t u = i;

		if (opts->node_thres <= 0 || !(g->nodes[i].keep || g->nodes[i].weight >= nmin))
			continue;
		for (;;) {
			int c;

			while (!done[u]) {
				done[u] = 1;
				if (best_in[u] == SIZE_MAX)
					break;
				g->edges[best_in[u]].keep = 1;
				u = g->edges[best_in[u]].from;
				g->nodes[u].keep = 1;
			}
			/* a chain that went round a cycle leaves it by the
			 * heaviest call into it */
			c = node_cycle[u];
			if (c <= 0 || entered[c] || entry[c] == SIZE_MAX)
				break;
			entered[c] = 1;
			g->edges[entry[c]].keep = 1;
			g->nodes[g->edges[entry[c]].to].keep = 1;
			inside_path(g, &oc, node_cycle, g->edges[entry[c]].to, u, via, queue);
			u = g->edges[entry[c]].from;
			g->nodes[u].keep = 1;
		}
	}
	ret = 0;
out:
	free(best_in);
	free(best_w);
	free(done);
	free(entry);
	free(entry_w);
	free(entered);
	free(via);
	free(queue);
	free(oc.ostart);
	free(oc.out);
	return ret;
}

int graph_from_diff(struct graph **out, const struct diff *d,
		    const struct graph_opts *opts)
{
	struct graph *g = graph_new(1);
	struct cycle_weights cw = { NULL, NULL, NULL };
	long *node_of = NULL;
	size_t i;

	*out = NULL;
	if (!g || !(node_of = malloc((d->nentries ? d->nentries : 1) * sizeof(long))))
		goto oom;
	/* measured edges and the metric, when both runs' numbers are the
	 * sidecars' (the diff compares one source) */
	if (diff_from_sidecars(d))
		graph_source(g, d->prof[0]);
	{
		/* the sides as the text header names them, when the command says */
		char *a = opts->side_label[0] ? strdup(opts->side_label[0])
					      : graph_profile_name(d->prof[0]);
		char *b = opts->side_label[1] ? strdup(opts->side_label[1])
					      : graph_profile_name(d->prof[1]);

		if (!a || !b || asprintf(&g->title, g->metric ? "differential call graph: %s "
					 "minus %s: %s in %s" : "differential call graph: %s minus %s",
					 a, b, g->metric, g->unit) < 0)
			g->title = NULL;
		free(a);
		free(b);
		if (!g->title)
			goto oom;
	}
	/* Shares of the change, for nodes and edges alike. */
	g->node_total = g->edge_total = d->abs_sum;
	if (cycle_weights(d, &cw) < 0)
		goto oom;
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
		/* the diff's one verdict (diff/evidence.h), as the text's */
		n.noise = e->verdict == VERDICT_NOISE;
		n.significant = e->significant;
		n.evidence = e->evidence_signed;
		if (e->significant && n.evidence == 0)
			/* calls of no measurable time: the palest colour of
			 * their direction */
			n.evidence = e->calls_diff > 0 ? 1e-9 : -1e-9;
		n.calls_measured = e->side[0].calls_measured || e->side[1].calls_measured;
		n.sym_flags = e->flags & PSYM_KINDS;
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
		/* Absolute values: a large change either way stays; a
		 * cycle's member by its part of the cycle's change */
		n.weight = fmax(fabs(n.total_diff), fabs(n.self_diff));
		if (e->cycle && !(e->flags & PSYM_CYCLE) && cw.member)
			n.weight = fmax(n.weight, cw.member[i]);
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
		e.measured = g->measured;
		e.calls_measured = d->entries[a->child].side[0].calls_measured ||
				   d->entries[a->child].side[1].calls_measured;
		e.calls[0] = a->count[0];
		e.calls[1] = a->count[1];
		e.calls_diff = a->count_diff;
		for (int s = 0; s < DIFF_NSIDES; s++)
			e.time[s] = a->time_sec[s] + a->child_time_sec[s];
		e.time_diff = e.time[0] - e.time[1];
		e.weight = fabs(e.time_diff);
		e.significant = a->significant;
		e.evidence = a->evidence_signed;
		if (a->significant && e.evidence == 0)
			e.evidence = a->count_diff > 0 ? 1e-9 : -1e-9;
		if (a->calls_changed) {
			/* the time its calls' change implies (diff/evidence.h) */
			double top = fmax(e.time[0], e.time[1]);
			double sec = a->calls_factor > 0 ? top * (1 - 1 / a->calls_factor) : top;

			e.calls_evidence = a->count[0] > a->count[1] ? sec : -sec;
		}
		e.keep = (e.presence != GPRES_BOTH && e.calls_diff != 0) ||
			 (d->entries[a->parent].cycle != 0 &&
			  d->entries[a->parent].cycle == d->entries[a->child].cycle);
		cycle_edge_weight(d, a, &e, &cw);
		if (graph_add_arc(g, node_of, d->nentries, a->parent, a->child, &e) < 0)
			goto oom;
	}
	cycle_weights_release(&cw);
	{
		/* node_cycle: functions' cycles only */
		int *node_cycle = calloc(g->nnodes + 1, sizeof(int));
		int bad = !node_cycle;

		for (i = 0; !bad && i < d->nentries; i++)
			if (node_of[i] >= 0 && !(d->entries[i].flags & PSYM_CYCLE))
				node_cycle[node_of[i]] = d->entries[i].cycle;
		bad = bad || keep_callers_chain(g, opts, node_cycle, d->ncycles) < 0;
		free(node_cycle);
		if (bad)
			goto oom;
	}
	return graph_build_end(out, g, node_of, d->nentries, entry_cycle, d, opts);
oom:
	cycle_weights_release(&cw);
	free(node_of);
	graph_free(g);
	return error("out of memory");
}
