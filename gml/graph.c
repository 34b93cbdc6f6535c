/*
 * The graph model: building from a single profile, pruning, labels, sizes,
 * colours and the layout by call depth.  The differential builder is in
 * graph_diff.c; the writers only translate what is computed here.
 */
#define _GNU_SOURCE /* asprintf, qsort_r */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gml/graph.h"
#include "gml/graph_select.h"
#include "utils/array.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/printable.h"
#include "utils/names.h"
#include "utils/banned.h"

const char *const graph_node_kind_names[GNODE__COUNT] = {
	[GNODE_FUNCTION] = "function",
	[GNODE_CYCLE] = "cycle",
	[GNODE_LEGEND] = "legend",
};

const char *const graph_presence_names[GPRES__COUNT] = {
	[GPRES_BOTH] = "both",
	[GPRES_BASE_ONLY] = "first",
	[GPRES_SECOND_ONLY] = "second",
};

const char *graph_node_kind(const struct graph_node *n)
{
	return n->kind == GNODE_FUNCTION ? profile_sym_kind(n->sym_flags)
					 : graph_node_kind_names[n->kind];
}

const char *const graph_edge_kind_names[GEDGE__COUNT] = {
	[GEDGE_CALL] = "call",
	[GEDGE_MEMBER] = "member",
};

/* ------------------------------------------------------------------------ */
/* Storage                                                                  */

struct graph *graph_new(int is_diff)
{
	struct graph *g = calloc(1, sizeof(*g));

	if (g)
		g->is_diff = is_diff;
	return g;
}

long graph_add_node(struct graph *g, const struct graph_node *n)
{
	if (array_grow(&g->nodes, &g->alloc_nodes, g->nnodes + 1, sizeof(*g->nodes)) < 0)
		return -1;
	g->nodes[g->nnodes] = *n;
	return (long)g->nnodes++;
}

long graph_add_edge(struct graph *g, const struct graph_edge *e)
{
	if (array_grow(&g->edges, &g->alloc_edges, g->nedges + 1, sizeof(*g->edges)) < 0)
		return -1;
	g->edges[g->nedges] = *e;
	return (long)g->nedges++;
}

void graph_free(struct graph *g)
{
	size_t i;

	if (!g)
		return;
	for (i = 0; i < g->nnodes; i++) {
		free(g->nodes[i].name);
		free(g->nodes[i].label);
	}
	for (i = 0; i < g->nedges; i++)
		free(g->edges[i].label);
	free(g->nodes);
	free(g->edges);
	free(g->title);
	free(g->legend);
	free(g);
}

/* By hand, not snprintf: the writers call it for every node and edge. */
const char *graph_color_str(uint32_t rgb, char *buf)
{
	static const char hex[] = "0123456789abcdef";
	int i;

	buf[0] = '#';
	for (i = 0; i < 6; i++)
		buf[1 + i] = hex[(rgb >> (20 - 4 * i)) & 0xf];
	buf[7] = 0;
	return buf;
}

/* ------------------------------------------------------------------------ */
/* Labels                                                                   */

/* A node's own change: the second run's self time relative to the
 * baseline's ("x0.37"; "new", "gone"; "=" when equal). */
static const char *relative_change(char *buf, size_t n, double a, double b)
{
	if (a == b)
		snprintf(buf, n, "=");
	else if (a > 0 && b > 0)
		snprintf(buf, n, "x%.2f", b / a);
	else
		snprintf(buf, n, "%s", a > 0 ? "gone" : "new");
	return buf;
}

static char *node_label(const struct graph *g, const struct graph_node *n, const char *name)
{
	char *s = NULL, rel[32];
	const char *side = n->presence == GPRES_BASE_ONLY ? "\nonly in the first run" :
			   n->presence == GPRES_SECOND_ONLY ? "\nonly in the second run" : "";
	int r;

	if (g->metric && !g->is_diff)
		/* estimates (overflows times the period): whole numbers */
		r = asprintf(&s, "%s\nself %.0f %s (%.1f%%)\ntotal %.0f %s (%.1f%%)",
			     name, n->self[0], g->unit, n->self_pct, n->total[0], g->unit,
			     n->total_pct);
	else if (g->metric)
		r = asprintf(&s, "%s\nself %.0f | %.0f %s, diff %+.0f (%s, %.1f%% of change)%s\n"
			     "total %.0f | %.0f %s, diff %+.0f%s",
			     name, n->self[0], n->self[1], g->unit, n->self_diff,
			     relative_change(rel, sizeof(rel), n->self[0], n->self[1]), n->self_pct,
			     n->noise ? " ~noise" : "", n->total[0], n->total[1], g->unit,
			     n->total_diff, side);
	else if (!g->is_diff)
		r = asprintf(&s, "%s\nself %.2f s (%.1f%%)\ntotal %.2f s (%.1f%%)",
			     name, n->self[0], n->self_pct, n->total[0], n->total_pct);
	else
		r = asprintf(&s, "%s\nself %.2f | %.2f s, diff %+.2f (%s, %.1f%% of change)%s\n"
			     "total %.2f | %.2f s, diff %+.2f%s",
			     name, n->self[0], n->self[1], n->self_diff,
			     relative_change(rel, sizeof(rel), n->self[0], n->self[1]), n->self_pct,
			     n->noise ? " ~noise" : "", n->total[0], n->total[1],
			     n->total_diff, side);
	return r < 0 ? NULL : s;
}

/*
 * Nodes' labels name their function shortly (utils/names.h: template
 * arguments left out, distinct functions still distinct), in lines of
 * LABEL_WIDTH characters, at most LABEL_LINES: a C++ program's names run
 * to a thousand characters, and a graph of them to 14,000 pixels wide.
 * The full name is the node's tooltip (DOT, SVG) and its name attribute
 * (GML, GraphML).
 */
enum { LABEL_WIDTH = 40, LABEL_LINES = 4 };

static int label_nodes(struct graph *g)
{
	const char **names = malloc((g->nnodes + 1) * sizeof(*names));
	struct name_map *nm = name_map_new();
	size_t i, k = 0;
	int ret = -1;

	if (!names || !nm)
		goto out;
	for (i = 0; i < g->nnodes; i++)
		if (!g->nodes[i].label)
			names[k++] = g->nodes[i].name;
	if (name_map_add_all(nm, names, k) < 0)
		goto out;
	for (i = 0; i < g->nnodes; i++) {
		struct graph_node *n = &g->nodes[i];
		const char *sn;
		char *wrapped;

		if (n->label)
			continue;
		if (!(sn = name_map_short(nm, n->name)) ||
		    !(wrapped = name_wrap(sn, LABEL_WIDTH, LABEL_LINES)))
			goto out;
		n->label = node_label(g, n, wrapped);
		free(wrapped);
		if (!n->label)
			goto out;
	}
	ret = 0;
out:
	free(names);
	name_map_free(nm);
	return ret;
}

/* An edge's calls on side s, "-" where they were not counted. */
static void calls_text(char *buf, size_t n, const struct graph_edge *e, int s)
{
	if (!e->calls_measured)
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%llu", (unsigned long long)e->calls[s]);
}

static char *edge_label(const struct graph *g, const struct graph_edge *e)
{
	char *s = NULL, a[32], b[32], d[32];
	int r;

	calls_text(a, sizeof(a), e, 0);
	calls_text(b, sizeof(b), e, 1);
	if (e->calls_measured)
		snprintf(d, sizeof(d), "%+lld", (long long)e->calls_diff);
	else
		snprintf(d, sizeof(d), "-");
	if (e->kind == GEDGE_MEMBER)
		r = asprintf(&s, "member");
	else if (g->metric && !g->is_diff)
		r = asprintf(&s, "%s calls\n%.0f %s", a, e->time[0], g->unit);
	else if (g->metric)
		r = asprintf(&s, "%s | %s (%s)\n%.0f | %.0f %s, diff %+.0f", a, b, d, e->time[0],
			     e->time[1], g->unit, e->time_diff);
	else if (e->measured && !e->calls_measured && !g->is_diff)
		r = asprintf(&s, "%.2f s measured", e->time[0]);	/* no call counted */
	else if (e->measured && !e->calls_measured)
		r = asprintf(&s, "%.2f | %.2f s, diff %+.2f", e->time[0], e->time[1],
			     e->time_diff);
	else if (e->measured && !g->is_diff)
		r = asprintf(&s, "%s calls\n%.2f s measured", a, e->time[0]);
	else if (e->measured)
		r = asprintf(&s, "%s | %s (%s)\n%.2f | %.2f s, diff %+.2f", a, b, d, e->time[0],
			     e->time[1], e->time_diff);
	else if (!g->is_diff)
		r = asprintf(&s, "%s", a);
	else
		r = asprintf(&s, "%s | %s (%s)", a, b, d);
	return r < 0 ? NULL : s;
}

static const char diff_legend[] =
	"Legend: diff = first run - second run\n"
	"blue: less time in the second run\n"
	"red: more time in the second run\n"
	"(nodes and edges alike; fewer or more calls\n"
	"count as the time they imply)\n"
	"grey: no significant change (within noise)\n"
	"deeper colour, wider edge: more evidence, seconds\n"
	"xN: the second run's self time over the first's\n"
	"dashed: only in the first run\n"
	"dotted: only in the second run";

static const char single_legend[] =
	"Legend: height = inclusive time, width = self time\n"
	"deeper orange: more inclusive time; edges: calls";

/* --metric EV (graph_measured.metric): the first %s is the metric, every
 * other its unit (metric_legend_text). */
static const char metric_legend[] =
	"Legend: %s, in %s, from the call-path sidecar\n"
	"height = inclusive %s, width = self %s\n"
	"deeper orange: more inclusive %s\n"
	"edges: %s measured along each call path";
static const char metric_diff_legend[] =
	"Legend: %s, in %s, from the call-path sidecars\n"
	"diff = first run - second run\n"
	"blue: fewer %s in the second run\n"
	"red: more %s in the second run\n"
	"grey: no significant change (within noise,\n"
	"the path tables' rule)\n"
	"deeper colour, wider edge: larger change, %s\n"
	"xN: the second run's self %s over the first's\n"
	"dashed: only in the first run\n"
	"dotted: only in the second run";

/* g->legend of a graph in a metric; asprintf's result. */
static int metric_legend_text(struct graph *g)
{
	const char *u = g->unit;

	return asprintf(&g->legend, g->is_diff ? metric_diff_legend : metric_legend, g->metric,
			u, u, u, u, u);
}

/* Appended when call edges carry measured time (graph_opts.measured). */
static const char measured_legend[] =
	"\nedges: time measured along each call path (call-path\n"
	"sidecar), not gprof's split of the callee's time by calls";
static const char measured_diff_legend[] =
	"\nedge times: measured along the call paths (call-path\n"
	"sidecars); their change is tested by the same rule";

/* ------------------------------------------------------------------------ */
/* Sizes and colours                                                        */

/* Readable minimum and the span the times scale into, pixels. */
enum { CHAR_W = 7, LINE_H = 16, PAD = 12, MIN_W = 80, MIN_H = 40,
       SPAN_W = 320, SPAN_H = 160, MAX_LABEL_W = 480 };

static void label_box(const char *label, double *w, double *h)
{
	size_t lines = 1, len = 0, longest = 0;
	const char *c;

	for (c = label; *c; c++) {
		if (*c == '\n') {
			lines++;
			len = 0;
			continue;
		}
		if (++len > longest)
			longest = len;
	}
	*w = (double)longest * CHAR_W + PAD;
	if (*w > MAX_LABEL_W)
		*w = MAX_LABEL_W; /* longer C++ names overflow the box */
	*h = (double)lines * LINE_H + PAD;
}

static uint32_t lerp_rgb(uint32_t a, uint32_t b, double t)
{
	uint32_t out = 0;
	int shift;

	if (t < 0)
		t = 0;
	if (t > 1)
		t = 1;
	for (shift = 16; shift >= 0; shift -= 8) {
		double ca = (a >> shift) & 0xff, cb = (b >> shift) & 0xff;
		out |= (uint32_t)lround(ca + (cb - ca) * t) << shift;
	}
	return out;
}

/* The diverging palette (ColorBrewer RdBu ends, lightened so black labels
 * stay readable); grey is "no change". */
#define GREY 0xd9d9d9u
#define LESS 0x4393c3u   /* less time / fewer calls in the second run */
#define MORE 0xd6604du   /* more time / more calls in the second run */
#define EDGE_GREY 0x999999u

/* Intensity of a change: never as pale as grey, so a small real change is
 * still told apart from "unchanged". */
static uint32_t diverging(double d, double maxabs)
{
	double t;

	if (d == 0 || maxabs <= 0)
		return GREY;
	t = 0.3 + 0.7 * fabs(d) / maxabs;
	return lerp_rgb(GREY, d > 0 ? LESS : MORE, t);
}

static double frac(double v, double max)
{
	return max > 0 ? fabs(v) / max : 0;
}

static void style(struct graph *g, const struct graph_opts *opts)
{
	double max_self = 0, max_total = 0, max_calls = 0, max_time = 0;
	double max_node_ev = 0, max_edge_ev = 0;
	size_t i;

	for (i = 0; i < g->nnodes; i++) {
		const struct graph_node *n = &g->nodes[i];
		double s = g->is_diff ? fabs(n->self_diff) : n->self[0];
		double t = g->is_diff ? fabs(n->total_diff) : n->total[0];

		if (n->kind == GNODE_LEGEND)
			continue;
		if (s > max_self)
			max_self = s;
		if (t > max_total)
			max_total = t;
		if (n->significant && fabs(n->evidence) > max_node_ev)
			max_node_ev = fabs(n->evidence);
	}
	for (i = 0; i < g->nedges; i++) {
		const struct graph_edge *e = &g->edges[i];
		double c = (double)e->calls[0];
		double t = e->time[0];

		if (e->kind != GEDGE_CALL)
			continue;
		if (c > max_calls)
			max_calls = c;
		if (e->measured && t > max_time)
			max_time = t;
		if (e->significant && fabs(e->evidence) > max_edge_ev)
			max_edge_ev = fabs(e->evidence);
	}

	for (i = 0; i < g->nnodes; i++) {
		struct graph_node *n = &g->nodes[i];
		double lw, lh, fs, ft;

		label_box(n->label, &lw, &lh);
		fs = frac(g->is_diff ? n->self_diff : n->self[0], max_self);
		ft = frac(g->is_diff ? n->total_diff : n->total[0], max_total);
		n->w = lw;
		n->h = lh;
		if (!opts->no_node_size && n->kind != GNODE_LEGEND) {
			/* The paper's sizing: width by exclusive, height by
			 * inclusive time, never below what the label needs. */
			n->w = fmax(lw, MIN_W + SPAN_W * fs);
			n->h = fmax(lh, MIN_H + SPAN_H * ft);
		}
		n->outline = 0x000000;
		n->outline_width = 1;
		n->outline_style = GLINE_SOLID;
		n->shape = "rectangle";
		if (n->kind == GNODE_LEGEND) {
			n->fill = 0xffffff;
			n->shape = "rectangle";
			n->outline = 0x666666;
		} else if (g->is_diff) {
			/* the diff's verdict: grey unless significant, then
			 * its evidence's direction and size */
			n->fill = n->significant ? diverging(n->evidence, max_node_ev) : GREY;
		} else {
			n->fill = lerp_rgb(0xfff5eb, 0xfd8d3c, ft);
		}
		if (n->kind == GNODE_CYCLE) {
			n->shape = "octagon";
			if (!g->is_diff)
				n->fill = 0xe6e6fa;
		}
		if (n->presence != GPRES_BOTH) {
			n->outline_width = 3;
			n->outline_style = n->presence == GPRES_BASE_ONLY ? GLINE_DASHED
									  : GLINE_DOTTED;
		}
	}
	for (i = 0; i < g->nedges; i++) {
		struct graph_edge *e = &g->edges[i];

		if (e->kind == GEDGE_MEMBER) {
			e->color = 0x8080c0;
			e->width = 1;
			e->style = GLINE_DOTTED;
			continue;
		}
		if (g->is_diff) {
			/* the same rule and palette as the nodes: blue is less
			 * time in the second run on both */
			e->color = e->significant
				   ? lerp_rgb(GREY, e->evidence > 0 ? LESS : MORE,
					      0.3 + 0.7 * frac(e->evidence, max_edge_ev))
				   : EDGE_GREY;
			e->width = e->significant ? 1 + 5 * frac(e->evidence, max_edge_ev) : 1;
		} else if (e->measured) {
			e->color = 0x404040;
			e->width = 1 + 4 * frac(e->time[0], max_time);
		} else {
			e->color = 0x404040;
			e->width = 1 + 4 * frac((double)e->calls[0], max_calls);
		}
		e->style = e->presence == GPRES_BASE_ONLY ? GLINE_DASHED :
			   e->presence == GPRES_SECOND_ONLY ? GLINE_DOTTED : GLINE_SOLID;
	}
}

/* ------------------------------------------------------------------------ */
/* Layout: rows by call depth                                               */

enum { HGAP = 40, VGAP = 80 };

/* Roots first by inclusive weight, so the row starts with the heavy part. */
static int by_weight_desc(const void *a, const void *b, void *graph)
{
	const struct graph *g = graph;
	const struct graph_node *na = &g->nodes[*(const size_t *)a];
	const struct graph_node *nb = &g->nodes[*(const size_t *)b];
	double wa = fabs(na->total[0]) + fabs(na->total[1]);
	double wb = fabs(nb->total[0]) + fabs(nb->total[1]);

	if (wa != wb)
		return wa > wb ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 :
	       *(const size_t *)a > *(const size_t *)b;
}

static int layout(struct graph *g)
{
	size_t nn = g->nnodes, i, head = 0, tail = 0, nroots = 0;
	size_t *start = calloc(nn + 1, sizeof(size_t));
	size_t *adj = malloc((g->nedges ? g->nedges : 1) * sizeof(size_t));
	size_t *indeg = calloc(nn ? nn : 1, sizeof(size_t));
	size_t *queue = malloc((nn ? nn : 1) * sizeof(size_t));
	size_t *roots = malloc((nn ? nn : 1) * sizeof(size_t));
	double *row_w = NULL, *row_h = NULL, *row_x = NULL, *row_y = NULL;
	int maxdepth = 0, ret = -1;

	if (!start || !adj || !indeg || !queue || !roots)
		goto out;
	/* Call edges as adjacency lists (CSR), self-calls left out. */
	for (i = 0; i < g->nedges; i++) {
		const struct graph_edge *e = &g->edges[i];

		if (e->kind == GEDGE_CALL && e->from != e->to) {
			start[e->from + 1]++;
			indeg[e->to]++;
		}
	}
	for (i = 0; i < nn; i++)
		start[i + 1] += start[i];
	{
		size_t *fill = malloc((nn ? nn : 1) * sizeof(size_t));

		if (!fill)
			goto out;
		memcpy(fill, start, nn * sizeof(size_t));
		for (i = 0; i < g->nedges; i++) {
			const struct graph_edge *e = &g->edges[i];

			if (e->kind == GEDGE_CALL && e->from != e->to)
				adj[fill[e->from]++] = e->to;
		}
		free(fill);
	}
	for (i = 0; i < nn; i++) {
		g->nodes[i].depth = g->nodes[i].kind == GNODE_LEGEND ? -1 : -2;
		if (g->nodes[i].kind == GNODE_FUNCTION)
			roots[nroots++] = i;
	}
	qsort_r(roots, nroots, sizeof(*roots), by_weight_desc, g);
	/* Breadth first from the uncalled functions; then from the heaviest
	 * function not reached yet (a cycle nobody enters from outside). */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t r = 0; r < nroots; r++) {
			size_t s = roots[r];

			if (g->nodes[s].depth != -2 || (pass == 0 && indeg[s] != 0))
				continue;
			g->nodes[s].depth = 0;
			queue[tail++] = s;
			while (head < tail) {
				size_t u = queue[head++];

				for (size_t k = start[u]; k < start[u + 1]; k++) {
					size_t v = adj[k];

					if (g->nodes[v].depth == -2) {
						g->nodes[v].depth = g->nodes[u].depth + 1;
						queue[tail++] = v;
					}
				}
			}
		}
	}
	/* A cycle's node sits on the row of its shallowest member. */
	for (i = 0; i < g->nedges; i++) {
		const struct graph_edge *e = &g->edges[i];
		struct graph_node *c = &g->nodes[e->from];
		int d = g->nodes[e->to].depth;

		if (e->kind == GEDGE_MEMBER && d >= 0 && (c->depth == -2 || d < c->depth))
			c->depth = d;
	}
	for (i = 0; i < nn; i++) {
		if (g->nodes[i].depth == -2)
			g->nodes[i].depth = 0;
		if (g->nodes[i].depth > maxdepth)
			maxdepth = g->nodes[i].depth;
	}
	/* Row r holds depth r - 1 (row 0: the legend). */
	row_w = calloc((size_t)maxdepth + 2, sizeof(double));
	row_h = calloc((size_t)maxdepth + 2, sizeof(double));
	row_x = calloc((size_t)maxdepth + 2, sizeof(double));
	row_y = calloc((size_t)maxdepth + 2, sizeof(double));
	if (!row_w || !row_h || !row_x || !row_y)
		goto out;
	/* Within a row, nodes go in the order the search reached them. */
	for (i = 0; i < nn; i++)
		if (g->nodes[i].kind != GNODE_FUNCTION)
			queue[tail++] = i;
	for (i = 0; i < tail; i++) {
		const struct graph_node *n = &g->nodes[queue[i]];
		size_t r = (size_t)(n->depth + 1);

		row_w[r] += n->w + (row_w[r] > 0 ? HGAP : 0);
		if (n->h > row_h[r])
			row_h[r] = n->h;
	}
	for (size_t r = 0; r <= (size_t)maxdepth + 1; r++) {
		row_x[r] = -row_w[r] / 2;
		/* no gap above the first row when there is no legend row */
		row_y[r] = r == 0 ? 0 : row_y[r - 1] + row_h[r - 1] / 2 +
					(row_h[r - 1] > 0 ? VGAP : 0) + row_h[r] / 2;
	}
	for (i = 0; i < tail; i++) {
		struct graph_node *n = &g->nodes[queue[i]];
		size_t r = (size_t)(n->depth + 1);

		n->x = row_x[r] + n->w / 2;
		n->y = row_y[r];
		row_x[r] += n->w + HGAP;
	}
	ret = 0;
out:
	free(start);
	free(adj);
	free(indeg);
	free(queue);
	free(roots);
	free(row_w);
	free(row_h);
	free(row_x);
	free(row_y);
	return ret < 0 ? error("out of memory") : 0;
}

int graph_finish(struct graph *g, const struct graph_opts *opts)
{
	const char *base = g->is_diff ? diff_legend : single_legend;
	const char *extra = "";
	size_t i;

	if (graph_select(g, opts) < 0)
		return -1;
	if (g->measured)
		extra = g->is_diff ? measured_diff_legend : measured_legend;
	if ((g->metric ? metric_legend_text(g) : asprintf(&g->legend, "%s%s", base, extra)) < 0) {
		g->legend = NULL;
		return error("out of memory");
	}
	/* names come from symbol tables and file names: any bytes at all */
	if (printable_fix(&g->title) < 0)
		return error("out of memory");
	for (i = 0; i < g->nnodes; i++)
		if (printable_fix(&g->nodes[i].name) < 0)
			return error("out of memory");
	if (g->is_diff) {
		struct graph_node legend = { 0 };

		legend.name = strdup("legend");
		legend.label = strdup(g->legend);
		legend.kind = GNODE_LEGEND;
		if (!legend.name || !legend.label || graph_add_node(g, &legend) < 0) {
			free(legend.name);
			free(legend.label);
			return error("out of memory");
		}
	}
	if (label_nodes(g) < 0)
		return error("out of memory");
	for (i = 0; i < g->nedges; i++) {
		struct graph_edge *e = &g->edges[i];

		if (!e->label && !(e->label = edge_label(g, e)))
			return error("out of memory");
	}
	style(g, opts);
	return layout(g);
}

/* ------------------------------------------------------------------------ */
/* From one profile                                                         */

/* gprof's call graph leaves out unselected symbols and lines of zeros. */
static int in_graph(const struct profile_sym *s)
{
	return (s->flags & PSYM_IN_GRAPH) &&
	       (s->ncalls || s->self_calls || s->prop_self != 0 || s->prop_child != 0);
}

void graph_source(struct graph *g, const struct profile *p)
{
	g->measured = p->measure.source == PROFILE_FROM_SIDECARS;
	if (p->measure.metric[0]) {
		g->metric = p->measure.metric;
		g->unit = p->measure.unit[0] ? p->measure.unit : "events";
	}
}

/* For graph_build_end (graph.h).  0, or -1 when out of memory. */
static int add_cycle_members(struct graph *g, const long *node_of, size_t n,
			     int (*cycle_of)(const void *ctx, size_t i, int *whole),
			     const void *ctx)
{
	long *whole_node = NULL; /* per cycle number: its node, -1 when none */
	size_t nwhole = 0, i;
	int ret = -1;

	/* The node of each cycle as a whole: the first such entry in a node. */
	for (i = 0; i < n; i++) {
		int whole, cyc = cycle_of(ctx, i, &whole);

		if (!whole || cyc <= 0 || node_of[i] < 0)
			continue;
		if ((size_t)cyc >= nwhole) {
			size_t old = nwhole, j;

			if (array_grow(&whole_node, &nwhole, (size_t)cyc + 1,
				       sizeof(*whole_node)) < 0)
				goto out;
			for (j = old; j < nwhole; j++)
				whole_node[j] = -1;
		}
		if (whole_node[cyc] < 0)
			whole_node[cyc] = node_of[i];
	}
	for (i = 0; i < n; i++) {
		int whole, cyc = cycle_of(ctx, i, &whole);
		struct graph_edge e = { 0 };

		if (whole || cyc <= 0 || node_of[i] < 0 || (size_t)cyc >= nwhole ||
		    whole_node[cyc] < 0)
			continue;
		e.from = (size_t)whole_node[cyc];
		e.to = (size_t)node_of[i];
		e.kind = GEDGE_MEMBER;
		if (graph_add_edge(g, &e) < 0)
			goto out;
	}
	ret = 0;
out:
	free(whole_node);
	return ret;
}

int graph_add_arc(struct graph *g, const long *node_of, size_t n,
		  size_t parent, size_t child, struct graph_edge *e)
{
	if (parent >= n || child >= n || node_of[parent] < 0 || node_of[child] < 0)
		return 0;
	e->from = (size_t)node_of[parent];
	e->to = (size_t)node_of[child];
	return graph_add_edge(g, e) < 0 ? -1 : 0;
}

int graph_build_end(struct graph **out, struct graph *g, long *node_of, size_t n,
		    int (*cycle_of)(const void *ctx, size_t i, int *whole),
		    const void *ctx, const struct graph_opts *opts)
{
	int ret = add_cycle_members(g, node_of, n, cycle_of, ctx);

	free(node_of);
	if (ret < 0) {
		graph_free(g);
		return error("out of memory");
	}
	if (graph_finish(g, opts) < 0) {
		graph_free(g);
		return -1;
	}
	*out = g;
	return 0;
}

static int sym_cycle(const void *ctx, size_t i, int *whole)
{
	const struct profile_sym *s = &((const struct profile *)ctx)->syms[i];

	*whole = !!(s->flags & PSYM_CYCLE);
	return s->cycle;
}

int graph_from_profile(struct graph **out, const struct profile *p,
		       const struct graph_opts *opts)
{
	struct graph *g = graph_new(0);
	long *node_of = NULL;
	double total = p->print_ticks > 0 ? p->print_ticks : p->total_ticks;
	size_t i;

	*out = NULL;
	if (!g || !(node_of = malloc((p->nsyms ? p->nsyms : 1) * sizeof(long))))
		goto oom;
	graph_source(g, p);
	{
		char *name = graph_profile_name(p);

		if (!name || asprintf(&g->title, g->metric ? "call graph of %s: %s in %s"
					    : "call graph of %s", name,
				      g->metric, g->unit) < 0)
			g->title = NULL;
		free(name);
		if (!g->title)
			goto oom;
	}
	for (i = 0; i < p->nsyms; i++) {
		const struct profile_sym *s = &p->syms[i];
		struct graph_node n = { 0 };
		double incl = s->prop_self + s->prop_child;

		node_of[i] = -1;
		if (!in_graph(s))
			continue;
		n.name = strdup(s->print_name ? s->print_name : s->name);
		n.kind = (s->flags & PSYM_CYCLE) ? GNODE_CYCLE : GNODE_FUNCTION;
		/* A cycle's own histogram time is its members'; gprof shows
		 * the cycle's self as the propagated self of the whole. */
		n.self[0] = profile_seconds(p, (s->flags & PSYM_CYCLE) ? s->prop_self
									: s->self_ticks);
		n.total[0] = profile_seconds(p, incl);
		n.calls[0] = s->ncalls;
		n.calls_measured = profile_sym_calls_measured(p, s);
		n.sym_flags = s->flags & PSYM_KINDS;
		n.self_pct = total > 0 ? 100.0 * ((s->flags & PSYM_CYCLE) ? s->prop_self
								       : s->self_ticks) / total : 0;
		n.total_pct = total > 0 ? 100.0 * incl / total : 0;
		n.weight = n.total[0];
		if (!n.name || (node_of[i] = graph_add_node(g, &n)) < 0) {
			free(n.name);
			goto oom;
		}
	}
	/* gprof2dot's denominators: nodes and edges are shares of the time. */
	g->node_total = g->edge_total = profile_seconds(p, total);
	for (i = 0; i < p->narcs; i++) {
		const struct profile_arc *a = &p->arcs[i];
		const struct profile_sym *from = &p->syms[a->parent], *to = &p->syms[a->child];
		struct graph_edge e = { 0 };

		e.calls[0] = a->count;
		e.calls_measured = profile_sym_calls_measured(p, to);
		e.measured = g->measured;
		e.time[0] = e.time_diff = profile_seconds(p, a->time + a->child_time);
		e.weight = e.time[0];
		/* gprof propagates no time along a call inside a cycle */
		e.keep = from->cycle != 0 && from->cycle == to->cycle;
		if (graph_add_arc(g, node_of, p->nsyms, a->parent, a->child, &e) < 0)
			goto oom;
	}
	return graph_build_end(out, g, node_of, p->nsyms, sym_cycle, p, opts);
oom:
	free(node_of);
	graph_free(g);
	return error("out of memory");
}

/* ------------------------------------------------------------------------ */
/* Export                                                                   */

/* outfile_write's writer signature around the graph writers' */
struct graph_writer {
	const struct graph *g;
	int (*write_fp)(const struct graph *, FILE *);
};

static int write_graph(FILE *fp, const void *ctx)
{
	const struct graph_writer *w = ctx;

	return w->write_fp(w->g, fp);
}

int graph_write_file(const struct graph *g, struct outset *outs, const char *path,
		     int (*write_fp)(const struct graph *, FILE *))
{
	struct graph_writer w = { g, write_fp };

	return outfile_write(outs, path, write_graph, &w);
}

char *graph_profile_name(const struct profile *p)
{
	const char *bin = p && p->binary ? p->binary : "?";
	char *s = NULL, *files = NULL;
	size_t i, len = 0;
	int r;

	if (p && p->label)
		r = asprintf(&s, "%s (%s)", bin, p->label);
	else if (!p || p->ngmon == 0)
		r = asprintf(&s, "%s", bin);
	else if (p->ngmon == 1)
		r = asprintf(&s, "%s (%s)", bin, p->gmon_files[0]);
	else {
		/* Every input counts, as the text header counts them; a long
		 * list shows its ends. */
		for (i = 0; i < p->ngmon; i++)
			len += strlen(p->gmon_files[i]) + 2;
		if (!(files = malloc(len + 8)))
			return NULL;
		files[0] = 0;
		for (i = 0, len = 0; i < p->ngmon; i++) {
			if (p->ngmon > 4 && i > 0 && i < p->ngmon - 1) {
				if (i == 1)
					len += (size_t)snprintf(files + len, 8, " ...");
				continue;
			}
			len += (size_t)snprintf(files + len, strlen(p->gmon_files[i]) + 3,
						"%s%s", i ? (p->ngmon > 4 ? " " : ", ") : "",
						p->gmon_files[i]);
		}
		r = asprintf(&s, "%s (%zu gmon files: %s)", bin, p->ngmon, files);
		free(files);
	}
	return r < 0 ? NULL : s;
}

