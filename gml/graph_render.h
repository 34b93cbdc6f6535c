#ifndef EGPROF_GRAPH_RENDER_H
#define EGPROF_GRAPH_RENDER_H
/*
 * A picture of the graph, without a second tool (--svg, --png): the DOT
 * that dot_write_fp() writes, read back by cgraph (agmemread), laid out by
 * graphviz's own dot layout and rendered by its renderers (libgvc:
 * gvLayout, gvRender), so the picture is what `dot -Tsvg` draws of the
 * --dot file; a graph wider than 30 inches top-down is drawn left to
 * right when that is narrower (graph_render.c, lay_out).
 *
 * dot's layout time grows much faster than the graph: a graph over
 * GRAPH_RENDER_MAX_NODES nodes or GRAPH_RENDER_MAX_EDGES edges is not laid
 * out (it would take minutes); the error says how to make it smaller.
 *
 * The graph is laid out once and drawn into every file asked for, with one
 * graphviz context per call: call it once per process.  (graphviz 2.42's
 * pango renderer caches a font name that gvFreeContext() frees, so a second
 * context that draws text reads freed memory; ASan finds it.)
 *
 * Each file is written atomically (utils/outfile.h).  format is a graphviz
 * output format ("svg", "png").  Returns 0 or -1 (reported; a file that
 * could not be written is as it was, the others are written).
 */
#include <stddef.h>
#include "gml/graph.h"

#define GRAPH_RENDER_MAX_NODES 1000
#define GRAPH_RENDER_MAX_EDGES 3000

struct graph_picture {
	const char *path;   /* NULL: into *mem */
	const char *format;
	char **mem;         /* with path NULL: the picture, malloc'd (the HTML
			       report's); a graph too big to lay out leaves
			       it NULL without an error */
};

struct outset;
/* outs: the command's outputs (committed with them), or NULL: at once. */
int graph_render(const struct graph *g, struct outset *outs,
		 const struct graph_picture *pics, size_t n);

#endif
