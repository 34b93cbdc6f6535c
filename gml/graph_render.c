/*
 * --svg/--png through libgvc (see graph_render.h).
 */
#define _GNU_SOURCE /* open_memstream */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <graphviz/gvc.h>
#include "gml/graph_render.h"
#include "gml/dot_write.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/banned.h"

/* The DOT text of g, malloc'd; NULL when out of memory. */
static char *dot_text(const struct graph *g)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int r;

	if (!fp)
		return NULL;
	r = dot_write_fp(g, fp);
	if (fclose(fp) != 0 || r < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* graphviz's messages through cgraph's error channel, named as ours.
 * (A few renderer messages bypass it and start "(null): ": graphviz names
 * them by a command name only its command-line parser sets.) */
static int graphviz_message(char *msg)
{
	fprintf(stderr, "%s: graphviz: %s", error_program(), msg);
	return 0;
}

/*
 * A call graph drawn top-down is as wide as its widest rank, and a C++
 * program's is wide: a JSON library's calls fan out from main to 14
 * callees with 40-column labels, and a few functions called from
 * everywhere (libc's allocator, the instrumentation) draw long edges down
 * through every rank, each taking its place (and its label's) in the
 * ranks it crosses: 87 inches, 8,400 pixels, where the narrowest labels
 * and a spread of the wide ranks still left 55 inches.  Drawn left to
 * right, the ranks are columns and the fan-out goes down the page.  So a
 * graph wider than GRAPH_WIDE_INCHES top-down is laid out again left to
 * right, kept when that is narrower: 27 inches.  Its nodes are then as
 * wide as their labels (a width by self time would widen every column),
 * their height still the inclusive time.
 */
#define GRAPH_WIDE_INCHES 30.0

/* The laid-out width of G in inches (its bounding box), 0 if unknown. */
static double laid_out_width(Agraph_t *G)
{
	double llx, lly, urx, ury;
	const char *bb = agget(G, "bb");

	/* "llx lly urx ury" after gvLayout (commas once written as DOT) */
	if (!bb || sscanf(bb, "%lf%*[ ,]%lf%*[ ,]%lf%*[ ,]%lf", &llx, &lly, &urx, &ury) != 4)
		return 0;
	return (urx - llx) / 72.0;
}

/* Lay *G out with dot, left to right when top-down is too wide (*G is
 * then read again from text to go back).  0 or -1. */
static int lay_out(GVC_t *gvc, Agraph_t **G, char *text)
{
	Agsym_t *w;
	double tb;

	if (gvLayout(gvc, *G, "dot") != 0)
		return -1;
	if ((tb = laid_out_width(*G)) <= GRAPH_WIDE_INCHES)
		return 0;
	gvFreeLayout(gvc, *G);
	agsafeset(*G, "rankdir", "LR", "TB");
	if ((w = agattr(*G, AGNODE, "width", NULL)) != NULL)
		for (Agnode_t *v = agfstnode(*G); v; v = agnxtnode(*G, v))
			agxset(v, w, "0");
	if (gvLayout(gvc, *G, "dot") != 0)
		return -1;
	if (laid_out_width(*G) < tb)
		return 0;
	gvFreeLayout(gvc, *G);
	agclose(*G);
	if (!(*G = agmemread(text)))
		return -1;
	return gvLayout(gvc, *G, "dot") != 0 ? -1 : 0;
}

/* Draw the laid-out G into one file. */
static int render_one(GVC_t *gvc, Agraph_t *G, struct outset *outs,
		      const struct graph_picture *pic)
{
	struct outfile one, *of = &one;

	if (!pic->path) {
		size_t len = 0;
		FILE *fp = open_memstream(pic->mem, &len);
		int bad;

		if (!fp)
			return error("out of memory drawing the graph");
		bad = gvRender(gvc, G, pic->format, fp) != 0;
		if (fclose(fp) != 0 || bad) {
			free(*pic->mem);
			*pic->mem = NULL;
			return error("graphviz cannot draw the graph as %s", pic->format);
		}
		return 0;
	}
	/* with the command's other outputs, or at once (utils/outfile.h) */
	if (outs ? outset_open(outs, &of, pic->path) < 0 : outfile_open(of, pic->path) < 0)
		return -1;
	if (gvRender(gvc, G, pic->format, of->fp) != 0 || fflush(of->fp) != 0 ||
	    ferror(of->fp)) {
		int e = errno;

		if (!outs)
			outfile_abort(of);
		return error("%s: cannot render %s: %s", pic->path, pic->format,
			     e ? strerror(e) : "graphviz has no renderer for it");
	}
	return outs ? 0 : outfile_commit(of);
}

int graph_render(const struct graph *g, struct outset *outs,
		 const struct graph_picture *pics, size_t n)
{
	agusererrf old_errf;
	GVC_t *gvc = NULL;
	Agraph_t *G = NULL;
	char *text = NULL;
	int laid_out = 0, ret = -1;
	size_t i;

	if (n == 0)
		return 0;
	if (g->nnodes > GRAPH_RENDER_MAX_NODES || g->nedges > GRAPH_RENDER_MAX_EDGES) {
		ret = 0;
		for (i = 0; i < n; i++)
			if (pics[i].path) {
				error("%s: not drawn: %zu functions and %zu calls are too many "
				      "to lay out quickly (at most %d and %d); raise "
				      "--node-thres/--edge-thres or use --focus, --root or --depth",
				      pics[i].path, g->nnodes, g->nedges, GRAPH_RENDER_MAX_NODES,
				      GRAPH_RENDER_MAX_EDGES);
				ret = -1;
			}
		return ret;
	}
	if (!(text = dot_text(g)))
		return error("%s: out of memory building the graph",
			     pics[0].path ? pics[0].path : "the report");
	old_errf = agseterrf(graphviz_message);
	if (!(gvc = gvContext()) || !(G = agmemread(text))) {
		error("%s: graphviz cannot read the graph", pics[0].path ? pics[0].path : "the report");
		goto out;
	}
	if (lay_out(gvc, &G, text) != 0) {
		error("%s: graphviz's dot layout failed", pics[0].path ? pics[0].path : "the report");
		goto out;
	}
	laid_out = 1;
	ret = 0;
	for (i = 0; i < n; i++)
		if (render_one(gvc, G, outs, &pics[i]) < 0)
			ret = -1;
out:
	if (laid_out)
		gvFreeLayout(gvc, G);
	if (G)
		agclose(G);
	if (gvc)
		gvFreeContext(gvc);
	agseterrf(old_errf);
	free(text);
	return ret;
}
