#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <graphviz/cgraph.h>
#include "gml/dot_write.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/banned.h"

static const char *const dot_line_style[GLINE__COUNT] = {
	[GLINE_SOLID] = "solid",
	[GLINE_DASHED] = "dashed",
	[GLINE_DOTTED] = "dotted",
};

/*
 * A plain-text label as a DOT escString: backslashes doubled (so a name
 * never becomes an escape like \N), line breaks as "\n" (centred lines).
 * cgraph quotes the result and escapes its double quotes itself.
 */
static char *dot_label(const char *s)
{
	size_t n = 1;
	const char *c;
	char *out, *o;

	for (c = s; *c; c++)
		n += (*c == '\\' || *c == '\n') ? 2 : 1;
	out = malloc(n);
	if (!out)
		return NULL;
	for (o = out, c = s; *c; c++) {
		if (*c == '\\') {
			*o++ = '\\';
			*o++ = '\\';
		} else if (*c == '\n') {
			*o++ = '\\';
			*o++ = 'n';
		} else {
			*o++ = *c;
		}
	}
	*o = 0;
	return out;
}

static int set(void *obj, char *name, const char *value)
{
	/* agsafeset takes char * for historic reasons and copies the value. */
	return agsafeset(obj, name, (char *)value, "");
}

/*
 * The per-object attributes are declared once with their most common value
 * as default (agattr) and set through their Agsym_t (agxset) only where an
 * object differs: agwrite then leaves defaults out, and 100,000 edges cost
 * no attribute-name lookups.  See bench/graph/.
 */
enum dot_attr {
	N_LABEL, N_SHAPE, N_FILLCOLOR, N_COLOR, N_STYLE, N_PENWIDTH, N_WIDTH,
	N_HEIGHT, N_FONTSIZE, N_TOOLTIP,
	E_LABEL, E_COLOR, E_FONTCOLOR, E_PENWIDTH, E_STYLE, E_ARROWHEAD,
	DOT_ATTR__COUNT
};

static const struct {
	int kind;
	const char *name, *def;
} dot_attrs[DOT_ATTR__COUNT] = {
	[N_LABEL] = { AGNODE, "label", "\\N" },
	[N_SHAPE] = { AGNODE, "shape", "box" },
	[N_FILLCOLOR] = { AGNODE, "fillcolor", "#d9d9d9" },
	[N_COLOR] = { AGNODE, "color", "#000000" },
	[N_STYLE] = { AGNODE, "style", "filled,solid" },
	[N_PENWIDTH] = { AGNODE, "penwidth", "1" },
	[N_WIDTH] = { AGNODE, "width", "0.75" },
	[N_HEIGHT] = { AGNODE, "height", "0.5" },
	[N_FONTSIZE] = { AGNODE, "fontsize", "10" },
	[N_TOOLTIP] = { AGNODE, "tooltip", "" },
	[E_LABEL] = { AGEDGE, "label", "" },
	[E_COLOR] = { AGEDGE, "color", "#404040" },
	[E_FONTCOLOR] = { AGEDGE, "fontcolor", "#000000" },
	[E_PENWIDTH] = { AGEDGE, "penwidth", "1" },
	[E_STYLE] = { AGEDGE, "style", "solid" },
	[E_ARROWHEAD] = { AGEDGE, "arrowhead", "normal" },
};

struct dot_syms {
	Agsym_t *sym[DOT_ATTR__COUNT];
};

static int xset(void *obj, const struct dot_syms *s, enum dot_attr a, const char *value)
{
	if (!strcmp(value, dot_attrs[a].def))
		return 0;
	return agxset(obj, s->sym[a], (char *)value);
}

static int xset_num(void *obj, const struct dot_syms *s, enum dot_attr a, double v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.3g", v);
	return xset(obj, s, a, buf);
}

static int xset_label(void *obj, const struct dot_syms *s, enum dot_attr a, const char *text)
{
	char *l = dot_label(text);
	int r;

	if (!l)
		return -1;
	r = agxset(obj, s->sym[a], l);
	free(l);
	return r;
}

static Agraph_t *build(const struct graph *g)
{
	Agraph_t *G = agopen("callgraph", Agdirected, NULL);
	Agnode_t **nodes = NULL;
	struct dot_syms s;
	char color[8], id[32];
	char *title;
	size_t i;

	if (!G)
		return NULL;
	nodes = calloc(g->nnodes ? g->nnodes : 1, sizeof(*nodes));
	if (!nodes)
		goto fail;
	set(G, "rankdir", "TB");
	set(G, "fontname", "Helvetica");
	set(G, "labelloc", "t");
	title = dot_label(g->title ? g->title : "");
	if (!title)
		goto fail;
	set(G, "label", title);
	free(title);
	agattr(G, AGNODE, "fontname", "Helvetica");
	agattr(G, AGEDGE, "fontname", "Helvetica");
	agattr(G, AGEDGE, "fontsize", "9");
	for (i = 0; i < DOT_ATTR__COUNT; i++)
		if (!(s.sym[i] = agattr(G, dot_attrs[i].kind, (char *)dot_attrs[i].name,
					(char *)dot_attrs[i].def)))
			goto fail;
	for (i = 0; i < g->nnodes; i++) {
		const struct graph_node *n = &g->nodes[i];
		Agnode_t *v;
		char style[32];

		snprintf(id, sizeof(id), "n%zu", i);
		v = nodes[i] = agnode(G, id, 1);
		if (!v || xset_label(v, &s, N_LABEL, n->label) < 0)
			goto fail;
		xset(v, &s, N_SHAPE, n->kind == GNODE_LEGEND ? "note" :
				     n->kind == GNODE_CYCLE ? "octagon" : "box");
		xset(v, &s, N_FILLCOLOR, graph_color_str(n->fill, color));
		xset(v, &s, N_COLOR, graph_color_str(n->outline, color));
		snprintf(style, sizeof(style), "filled,%s", dot_line_style[n->outline_style]);
		xset(v, &s, N_STYLE, style);
		xset_num(v, &s, N_PENWIDTH, n->outline_width);
		xset_num(v, &s, N_WIDTH, n->w / 72.0);
		xset_num(v, &s, N_HEIGHT, n->h / 72.0);
		if (n->kind == GNODE_LEGEND)
			xset(v, &s, N_FONTSIZE, "9");
		xset(v, &s, N_TOOLTIP, n->name);
	}
	for (i = 0; i < g->nedges; i++) {
		const struct graph_edge *e = &g->edges[i];
		Agedge_t *a = agedge(G, nodes[e->from], nodes[e->to], NULL, 1);

		if (!a || xset_label(a, &s, E_LABEL, e->label) < 0)
			goto fail;
		xset(a, &s, E_COLOR, graph_color_str(e->color, color));
		if (e->kind == GEDGE_MEMBER) {
			xset(a, &s, E_FONTCOLOR, color);
			xset(a, &s, E_ARROWHEAD, "none");
		}
		xset_num(a, &s, E_PENWIDTH, e->width);
		xset(a, &s, E_STYLE, dot_line_style[e->style]);
	}
	free(nodes);
	return G;
fail:
	free(nodes);
	agclose(G);
	return NULL;
}

int dot_write_fp(const struct graph *g, FILE *fp)
{
	Agraph_t *G = build(g);
	int r;

	if (!G)
		return error("out of memory building the DOT graph");
	r = agwrite(G, fp);
	agclose(G);
	return r != 0 || ferror(fp) ? -1 : 0;
}

int dot_write(const struct graph *g, const char *path)
{
	struct outfile of;

	if (outfile_open(&of, path) < 0)
		return -1;
	if (dot_write_fp(g, of.fp) < 0) {
		int e = errno;

		outfile_abort(&of);
		return error("cannot write '%s': %s", path, strerror(e ? e : EIO));
	}
	return outfile_commit(&of);
}
