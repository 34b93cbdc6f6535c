#ifndef EGPROF_GRAPH_CLI_H
#define EGPROF_GRAPH_CLI_H
/*
 * Glue between the front end's options (gprof-ext/options.h) and the graph
 * exports, so a command exports graphs in one line:
 *
 *   if (graph_export_diff_cli(o, &d, NULL, NULL) < 0) status = 1;
 *
 * The gml/ modules themselves take only struct graph_opts.
 */
#include "gml/graph_export.h"
#include "gprof-ext/options.h"

static inline void graph_opts_from_cli(struct graph_opts *g, const struct egprof_opts *o)
{
	g->gml_path = o->gml_path;
	g->dot_path = o->dot_path;
	g->graphml_path = o->graphml_path;
	g->node_thres = o->node_thres;
	g->edge_thres = o->edge_thres;
	g->no_node_size = o->no_node_size;
	g->outs = o->outs;
	g->svg_path = o->svg_path;
	g->png_path = o->png_path;
	g->focus = o->focus;
	g->root = o->root;
	g->depth = o->depth;
	g->exclude = o->exclude;
	g->nexclude = o->nexclude;
}

/* svg_text: where the HTML report's drawing of the graph goes, or NULL. */
static inline int graph_export_profile_cli(const struct egprof_opts *o,
					   const struct profile *p, char **svg_text)
{
	struct graph_opts g = GRAPH_OPTS_INIT;

	graph_opts_from_cli(&g, o);
	g.svg_text = svg_text;
	return graph_export_profile(&g, p);
}

/* side_label: each side as the text header names it (may be NULL). */
static inline int graph_export_diff_cli(const struct egprof_opts *o, const struct diff *d,
					const char *const side_label[2], char **svg_text)
{
	struct graph_opts g = GRAPH_OPTS_INIT;

	graph_opts_from_cli(&g, o);
	g.svg_text = svg_text;
	g.side_label[0] = side_label ? side_label[0] : NULL;
	g.side_label[1] = side_label ? side_label[1] : NULL;
	return graph_export_diff(&g, d);
}

#endif
