#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <graphviz/cdt.h>
#include <graphviz/cgraph.h>
#include "gml/dot_write.h"
#include "utils/error.h"
#include "utils/banned.h"

static const char *const dot_line_style[GLINE__COUNT] = {
	[GLINE_SOLID] = "solid",
	[GLINE_DASHED] = "dashed",
	[GLINE_DOTTED] = "dotted",
};

/*
 * Where cgraph's time goes for a 20,000-node, 100,000-edge graph
 * (bench/graph/, callgrind): not in our code but in cgraph's shared-string
 * dictionary, which every attribute of every object goes through when it is
 * created (agedge), set (agxset) and freed (agclose).  Hence:
 *  - attributes are declared once with their most common value (agattr) and
 *    set through their Agsym_t (agxset) only where an object differs, so
 *    agwrite leaves defaults out and nothing looks a name up per object;
 *  - as few edge attributes as the drawing needs: each one costs every edge
 *    a dictionary insert and, at agclose, a dictionary delete;
 *  - cgraph allocates from a heap of ours (struct dot_heap) that agclose
 *    releases in one step instead of deleting object by object, which was
 *    a quarter of the export;
 *  - agwrite writes through a buffer of ours, numbers and colours are
 *    formatted without printf.
 */

/* ------------------------------------------------------------------------ */
/* A heap for cgraph                                                        */

/*
 * cgraph's memory discipline (Agmemdisc_t) may have a close function: then
 * agclose() of the root graph frees nothing object by object and calls it
 * instead ("free entire heap").  Objects come from big zeroed chunks (cgraph
 * expects zeroed memory), free is a no-op, close frees the chunks.
 *
 * One catch: cdt's dtopen() mallocs each dictionary's header itself, so the
 * nine dictionaries of a graph (nodes and edges by id and by sequence,
 * subgraphs, shared strings, attribute declarations) would leak.  Before
 * the chunks go, close hands each to dtclose() with a copy of its
 * discipline that frees nothing but the header.
 */
struct dot_heap {
	Agdisc_t disc;        /* passed to agopen; first, see heap_open() */
	Agiodisc_t io;
	Agraph_t *g;          /* set once agopen returns */
	struct heap_chunk *chunks;
};

struct heap_chunk {
	struct heap_chunk *next;
	size_t used, size;
	_Alignas(16) char mem[];
};

enum { HEAP_CHUNK = 1 << 20 };

static void *heap_open(Agdisc_t *disc)
{
	return (struct dot_heap *)disc; /* disc is dot_heap's first member */
}

static void *heap_alloc(void *state, size_t n)
{
	struct dot_heap *h = state;
	struct heap_chunk *c = h->chunks;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->size - c->used < n) {
		size_t size = n > HEAP_CHUNK ? n : HEAP_CHUNK;

		if (!(c = calloc(1, sizeof(*c) + size)))
			return NULL;
		c->size = size;
		c->next = h->chunks;
		h->chunks = c;
	}
	c->used += n;
	return c->mem + c->used - n;
}

static void *heap_resize(void *state, void *p, size_t old, size_t n)
{
	void *q;

	if (n <= old)
		return p;
	q = heap_alloc(state, n);
	if (q && p)
		memcpy(q, p, old);
	return q;
}

static void heap_free(void *state, void *p)
{
	(void)state;
	(void)p;
}

static void *no_memory(Dt_t *d, void *p, size_t n, Dtdisc_t *disc)
{
	(void)d, (void)p, (void)n, (void)disc;
	return NULL;
}

static void close_dict(Dt_t *d)
{
	Dtdisc_t disc;

	if (!d)
		return;
	disc = *dtdisc(d, NULL, 0);
	disc.freef = NULL;        /* the objects are in the heap */
	disc.memoryf = no_memory; /* so is the dictionary's data */
	disc.eventf = NULL;
	dtdisc(d, &disc, DT_SAMECMP | DT_SAMEHASH);
	dtclose(d);               /* frees the malloc'd header only */
}

static void heap_close(void *state)
{
	struct dot_heap *h = state;
	/* cgraph's record of attribute declarations (attr.c, DataDictName) */
	Agdatadict_t *dd = h->g ? (Agdatadict_t *)aggetrec(h->g, "_AG_datadict", 0) : NULL;
	int i;

	if (h->g) {
		close_dict(h->g->n_seq);
		close_dict(h->g->n_id);
		close_dict(h->g->e_seq);
		close_dict(h->g->e_id);
		close_dict(h->g->g_dict);
		for (i = 0; i < 3; i++) {
			close_dict(h->g->clos->lookup_by_name[i]);
			close_dict(h->g->clos->lookup_by_id[i]);
		}
	}
	if (dd) {
		close_dict(dd->dict.n);
		close_dict(dd->dict.e);
		close_dict(dd->dict.g);
	}
	if (h->g)
		close_dict(h->g->clos->strdict);
	while (h->chunks) {
		struct heap_chunk *c = h->chunks;

		h->chunks = c->next;
		free(c);
	}
}

static Agmemdisc_t heap_disc = { heap_open, heap_alloc, heap_resize, heap_free, heap_close };

/* ------------------------------------------------------------------------ */
/* Output: agwrite's many small strings through one buffer                  */

struct dot_out {
	FILE *fp;
	size_t len;
	char buf[1 << 16];
};

static int out_flush(void *chan)
{
	struct dot_out *o = chan;

	if (o->len && fwrite(o->buf, 1, o->len, o->fp) != o->len)
		return EOF;
	o->len = 0;
	return 0;
}

/*
 * cgraph 2.42's agwrite writes "-", "." and "-." bare: its check for a
 * numeral accepts them, but they have no digit, so dot and agread reject
 * the file ("syntax error near '-'").  agwrite hands each attribute value
 * to putstr whole, and no other chunk it writes is only '-' and '.', so
 * out_put quotes such a chunk.  (A function may well be named "-" or ".";
 * fuzz_writers found it.)
 */
const char *dot_fix_bare(const char *chunk, char quoted[8])
{
	size_t i = chunk[0] == '-';

	i += chunk[i] == '.';
	if (i == 0 || chunk[i] != '\0')
		return chunk;
	snprintf(quoted, 8, "\"%s\"", chunk);
	return quoted;
}

static int out_put(void *chan, const char *s)
{
	struct dot_out *o = chan;
	char quoted[8];
	size_t n;

	s = dot_fix_bare(s, quoted);
	n = strlen(s);
	if (n > sizeof(o->buf) - o->len) {
		if (out_flush(o) < 0)
			return EOF;
		if (n > sizeof(o->buf))
			return fwrite(s, 1, n, o->fp) == n ? 0 : EOF;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Attributes                                                               */

char *dot_escstring(const char *s, char **buf, size_t *cap)
{
	size_t n = 1;
	const char *c;
	char *o;

	for (c = s; *c; c++)
		n += (*c == '\\' || *c == '\n') ? 2 : 1;
	if (n > *cap) {
		size_t want = n > 2 * *cap ? n : 2 * *cap;

		if (!(o = realloc(*buf, want)))
			return NULL;
		*buf = o;
		*cap = want;
	}
	for (o = *buf, c = s; *c; c++) {
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
	return *buf;
}

/* v with at most two decimals, trailing zeros dropped ("1", "2.5", "0.56"). */
static const char *num_str(double v, char *buf, size_t size)
{
	long long c;
	char *o = buf;

	if (!(v > -1e15 && v < 1e15)) {
		snprintf(buf, size, "%g", v);
		return buf;
	}
	c = llround(v * 100);
	if (c < 0) {
		*o++ = '-';
		c = -c;
	}
	{
		char digits[24];
		int n = 0;
		long long ip = c / 100;

		do
			digits[n++] = (char)('0' + ip % 10);
		while ((ip /= 10) > 0);
		while (n > 0)
			*o++ = digits[--n];
	}
	if (c % 100) {
		*o++ = '.';
		*o++ = (char)('0' + c % 100 / 10);
		if (c % 10)
			*o++ = (char)('0' + c % 10);
	}
	*o = 0;
	return buf;
}

static int set(void *obj, char *name, const char *value)
{
	/* agsafeset takes char * for historic reasons and copies the value. */
	return agsafeset(obj, name, (char *)value, "");
}

enum dot_attr {
	N_LABEL, N_SHAPE, N_FILLCOLOR, N_COLOR, N_STYLE, N_PENWIDTH, N_WIDTH,
	N_HEIGHT, N_FONTSIZE, N_TOOLTIP,
	E_LABEL, E_COLOR, E_PENWIDTH, E_STYLE, E_ARROWHEAD,
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
	[E_PENWIDTH] = { AGEDGE, "penwidth", "1" },
	[E_STYLE] = { AGEDGE, "style", "solid" },
	[E_ARROWHEAD] = { AGEDGE, "arrowhead", "normal" },
};

static const char *const node_style[GLINE__COUNT] = {
	[GLINE_SOLID] = "filled,solid",
	[GLINE_DASHED] = "filled,dashed",
	[GLINE_DOTTED] = "filled,dotted",
};

struct dot_syms {
	Agsym_t *sym[DOT_ATTR__COUNT];
	char *label;  /* dot_label's buffer */
	size_t label_cap;
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

	return xset(obj, s, a, num_str(v, buf, sizeof(buf)));
}

static int xset_label(void *obj, struct dot_syms *s, enum dot_attr a, const char *text)
{
	const char *l = dot_escstring(text, &s->label, &s->label_cap);

	return l ? agxset(obj, s->sym[a], (char *)l) : -1;
}

static int build(Agraph_t *G, const struct graph *g)
{
	Agnode_t **nodes = NULL;
	struct dot_syms s = { { NULL }, NULL, 0 };
	char color[8], id[32];
	const char *title;
	size_t i;
	int ret = -1;

	nodes = calloc(g->nnodes ? g->nnodes : 1, sizeof(*nodes));
	if (!nodes)
		goto out;
	set(G, "rankdir", "TB");
	set(G, "fontname", "Helvetica");
	set(G, "labelloc", "t");
	/* neato, fdp and sfdp overlap nodes unless told not to */
	set(G, "overlap", "false");
	if (!(title = dot_escstring(g->title ? g->title : "", &s.label, &s.label_cap)))
		goto out;
	set(G, "label", title);
	agattr(G, AGNODE, "fontname", "Helvetica");
	agattr(G, AGEDGE, "fontname", "Helvetica");
	agattr(G, AGEDGE, "fontsize", "9");
	for (i = 0; i < DOT_ATTR__COUNT; i++)
		if (!(s.sym[i] = agattr(G, dot_attrs[i].kind, (char *)dot_attrs[i].name,
					(char *)dot_attrs[i].def)))
			goto out;
	for (i = 0; i < g->nnodes; i++) {
		const struct graph_node *n = &g->nodes[i];
		Agnode_t *v;

		/* short names; the function name is in the label and tooltip */
		id[0] = 'n';
		num_str((double)i, id + 1, sizeof(id) - 1);
		v = nodes[i] = agnode(G, id, 1);
		if (!v || xset_label(v, &s, N_LABEL, n->label) < 0)
			goto out;
		xset(v, &s, N_SHAPE, n->kind == GNODE_LEGEND ? "note" :
				     n->kind == GNODE_CYCLE ? "octagon" : "box");
		xset(v, &s, N_FILLCOLOR, graph_color_str(n->fill, color));
		xset(v, &s, N_COLOR, graph_color_str(n->outline, color));
		xset(v, &s, N_STYLE, node_style[n->outline_style]);
		xset_num(v, &s, N_PENWIDTH, n->outline_width);
		xset_num(v, &s, N_WIDTH, n->w / 72.0);
		xset_num(v, &s, N_HEIGHT, n->h / 72.0);
		if (n->kind == GNODE_LEGEND)
			xset(v, &s, N_FONTSIZE, "9");
		/* an escString like the label: a name ending in a backslash
		 * would otherwise escape cgraph's closing quote */
		if (xset_label(v, &s, N_TOOLTIP, n->name) < 0)
			goto out;
	}
	for (i = 0; i < g->nedges; i++) {
		const struct graph_edge *e = &g->edges[i];
		Agedge_t *a = agedge(G, nodes[e->from], nodes[e->to], NULL, 1);

		if (!a || xset_label(a, &s, E_LABEL, e->label) < 0)
			goto out;
		xset(a, &s, E_COLOR, graph_color_str(e->color, color));
		if (e->kind == GEDGE_MEMBER)
			xset(a, &s, E_ARROWHEAD, "none");
		xset_num(a, &s, E_PENWIDTH, e->width);
		xset(a, &s, E_STYLE, dot_line_style[e->style]);
	}
	ret = 0;
out:
	free(nodes);
	free(s.label);
	return ret;
}

int dot_write_fp(const struct graph *g, FILE *fp)
{
	struct dot_heap heap = { { &heap_disc, &AgIdDisc, NULL }, AgIoDisc, NULL, NULL };
	struct dot_out *out = malloc(sizeof(*out));
	int r = -1;

	heap.disc.io = &heap.io;
	heap.io.putstr = out_put;
	heap.io.flush = out_flush;
	if (!out || !(heap.g = agopen("callgraph", Agdirected, &heap.disc))) {
		free(out);
		return error("out of memory building the DOT graph");
	}
	out->fp = fp;
	out->len = 0;
	if (build(heap.g, g) < 0)
		error("out of memory building the DOT graph");
	else
		r = agwrite(heap.g, out) != 0 || out_flush(out) < 0 || ferror(fp) ? -1 : 0;
	agclose(heap.g); /* heap_close() frees it all */
	free(out);
	return r;
}

int dot_write(const struct graph *g, const char *path)
{
	return graph_write_file(g, NULL, path, dot_write_fp);
}
