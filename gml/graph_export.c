/*
 * Which writers run: the dispatch between the graph model (graph.h) and
 * its writers, so that neither knows the other's list (see graph_export.h).
 */
#include <stdio.h>
#include "gml/graph_export.h"
#include "gml/gml_write.h"
#include "gml/dot_write.h"
#include "gml/graphml_write.h"
#include "gml/graph_render.h"
#include "utils/error.h"
#include "utils/banned.h"

int graph_export(const struct graph *g, const struct graph_opts *opts)
{
	int ret = 0;

	if (g->pruned_nodes || g->pruned_edges)
		fprintf(stderr, "%s: graph: pruned %zu functions (--node-thres %g%%) and "
			"%zu calls (--edge-thres %g%%)%s; %zu and %zu left\n",
			error_program(), g->pruned_nodes, opts->node_thres,
			g->pruned_edges, opts->edge_thres,
			opts->focus || opts->root || opts->depth >= 0 ? " or outside "
			"--focus/--root/--depth" : opts->nexclude ? " or below --exclude" : "", g->nnodes, g->nedges);
	/* the first failure stops: the command fails and writes nothing
	 * (its outputs are committed together, utils/outfile.h) */
	if (opts->gml_path &&
	    graph_write_file(g, opts->outs, opts->gml_path, gml_write_fp) < 0)
		return -1;
	if (opts->dot_path &&
	    graph_write_file(g, opts->outs, opts->dot_path, dot_write_fp) < 0)
		return -1;
	if (opts->graphml_path &&
	    graph_write_file(g, opts->outs, opts->graphml_path, graphml_write_fp) < 0)
		return -1;
	{
		struct graph_picture pics[3];
		size_t n = 0;

		if (opts->svg_path)
			pics[n++] = (struct graph_picture){ opts->svg_path, "svg", NULL };
		if (opts->png_path)
			pics[n++] = (struct graph_picture){ opts->png_path, "png", NULL };
		/* one layout and one graphviz context for all (graph_render.h) */
		if (opts->svg_text)
			pics[n++] = (struct graph_picture){ NULL, "svg", opts->svg_text };
		if (graph_render(g, opts->outs, pics, n) < 0)
			ret = -1;
	}
	return ret;
}

static int wanted(const struct graph_opts *opts)
{
	return opts->gml_path || opts->dot_path || opts->graphml_path ||
	       opts->svg_path || opts->png_path || opts->svg_text;
}

int graph_export_profile(const struct graph_opts *opts, const struct profile *p)
{
	struct graph *g;
	int ret;

	if (!wanted(opts))
		return 0;
	if (graph_from_profile(&g, p, opts) < 0)
		return -1;
	ret = graph_export(g, opts);
	graph_free(g);
	return ret;
}

int graph_export_diff(const struct graph_opts *opts, const struct diff *d)
{
	struct graph *g;
	int ret;

	if (!wanted(opts))
		return 0;
	if (graph_from_diff(&g, d, opts) < 0)
		return -1;
	ret = graph_export(g, opts);
	graph_free(g);
	return ret;
}
