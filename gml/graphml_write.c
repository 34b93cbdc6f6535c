#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/xmlwriter.h>
#include "gml/graphml_write.h"
#include "utils/banned.h"

#define NS_GRAPHML "http://graphml.graphdrawing.org/xmlns"
#define NS_Y "http://www.yworks.com/xml/graphml"
#define NS_XSI "http://www.w3.org/2001/XMLSchema-instance"

static const char *const y_line_style[GLINE__COUNT] = {
	[GLINE_SOLID] = "line",
	[GLINE_DASHED] = "dashed",
	[GLINE_DOTTED] = "dotted",
};

/* The plain data keys: one enum value, one table row. */
enum key_id {
	K_NODEGRAPHICS, K_EDGEGRAPHICS, K_GRAPH_TITLE, K_GRAPH_LEGEND,
	K_GRAPH_METRIC, K_GRAPH_UNIT,
	K_NAME, K_KIND, K_PRESENCE,
	K_SELF, K_TOTAL, K_CALLS, K_SELF_PCT, K_TOTAL_PCT,
	K_SELF_BASE, K_SELF_SECOND, K_SELF_DIFF,
	K_TOTAL_BASE, K_TOTAL_SECOND, K_TOTAL_DIFF,
	K_CALLS_BASE, K_CALLS_SECOND, K_CALLS_DIFF, K_IMPACT, K_NOISE, K_SIGNIFICANT, K_EVIDENCE,
	K_EKIND, K_EPRESENCE, K_ECALLS, K_ECALLS_BASE, K_ECALLS_SECOND, K_ECALLS_DIFF,
	K_ETIME, K_ETIME_BASE, K_ETIME_SECOND, K_ETIME_DIFF, K_ESIGNIFICANT, K_EEVIDENCE,
	K__COUNT
};

/* USE_METRIC: only with --metric EV (graph.h: g->metric) */
enum key_use { USE_ALL, USE_SINGLE, USE_DIFF, USE_METRIC };

static const struct key {
	const char *id, *for_, *name, *type; /* name NULL: yFiles graphics key */
	const char *yfiles_type;
	enum key_use use;
} keys[K__COUNT] = {
	[K_NODEGRAPHICS] = { "d0", "node", NULL, NULL, "nodegraphics", USE_ALL },
	[K_EDGEGRAPHICS] = { "d1", "edge", NULL, NULL, "edgegraphics", USE_ALL },
	[K_GRAPH_TITLE] = { "title", "graph", "title", "string", NULL, USE_ALL },
	[K_GRAPH_LEGEND] = { "legend", "graph", "legend", "string", NULL, USE_ALL },
	/* what the numbers are: the metric and its unit */
	[K_GRAPH_METRIC] = { "metric", "graph", "metric", "string", NULL, USE_METRIC },
	[K_GRAPH_UNIT] = { "unit", "graph", "unit", "string", NULL, USE_METRIC },
	[K_NAME] = { "name", "node", "name", "string", NULL, USE_ALL },
	[K_KIND] = { "kind", "node", "kind", "string", NULL, USE_ALL },
	[K_PRESENCE] = { "presence", "node", "presence", "string", NULL, USE_DIFF },
	[K_SELF] = { "self_sec", "node", "self_sec", "double", NULL, USE_SINGLE },
	[K_TOTAL] = { "total_sec", "node", "total_sec", "double", NULL, USE_SINGLE },
	[K_CALLS] = { "calls", "node", "calls", "long", NULL, USE_SINGLE },
	[K_SELF_PCT] = { "self_pct", "node", "self_pct", "double", NULL, USE_SINGLE },
	[K_TOTAL_PCT] = { "total_pct", "node", "total_pct", "double", NULL, USE_SINGLE },
	[K_SELF_BASE] = { "self_base", "node", "self_base", "double", NULL, USE_DIFF },
	[K_SELF_SECOND] = { "self_second", "node", "self_second", "double", NULL, USE_DIFF },
	[K_SELF_DIFF] = { "self_diff", "node", "self_diff", "double", NULL, USE_DIFF },
	[K_TOTAL_BASE] = { "total_base", "node", "total_base", "double", NULL, USE_DIFF },
	[K_TOTAL_SECOND] = { "total_second", "node", "total_second", "double", NULL, USE_DIFF },
	[K_TOTAL_DIFF] = { "total_diff", "node", "total_diff", "double", NULL, USE_DIFF },
	[K_CALLS_BASE] = { "calls_base", "node", "calls_base", "long", NULL, USE_DIFF },
	[K_CALLS_SECOND] = { "calls_second", "node", "calls_second", "long", NULL, USE_DIFF },
	[K_CALLS_DIFF] = { "calls_diff", "node", "calls_diff", "long", NULL, USE_DIFF },
	[K_IMPACT] = { "impact", "node", "impact", "double", NULL, USE_DIFF },
	[K_NOISE] = { "noise", "node", "noise", "boolean", NULL, USE_DIFF },
	/* the diff's verdict and its evidence, seconds signed as the
	 * differences (diff/evidence.h): what the colour shows */
	[K_SIGNIFICANT] = { "significant", "node", "significant", "boolean", NULL, USE_DIFF },
	[K_EVIDENCE] = { "evidence", "node", "evidence", "double", NULL, USE_DIFF },
	[K_EKIND] = { "ekind", "edge", "kind", "string", NULL, USE_ALL },
	[K_EPRESENCE] = { "epresence", "edge", "presence", "string", NULL, USE_DIFF },
	[K_ECALLS] = { "ecalls", "edge", "calls", "long", NULL, USE_SINGLE },
	[K_ECALLS_BASE] = { "ecalls_base", "edge", "calls_base", "long", NULL, USE_DIFF },
	[K_ECALLS_SECOND] = { "ecalls_second", "edge", "calls_second", "long", NULL, USE_DIFF },
	[K_ECALLS_DIFF] = { "ecalls_diff", "edge", "calls_diff", "long", NULL, USE_DIFF },
	/* seconds gprof passes along the call (graph.h), as GML's time_* */
	[K_ETIME] = { "etime", "edge", "time_sec", "double", NULL, USE_SINGLE },
	[K_ETIME_BASE] = { "etime_base", "edge", "time_base", "double", NULL, USE_DIFF },
	[K_ETIME_SECOND] = { "etime_second", "edge", "time_second", "double", NULL, USE_DIFF },
	[K_ETIME_DIFF] = { "etime_diff", "edge", "time_diff", "double", NULL, USE_DIFF },
	[K_ESIGNIFICANT] = { "esignificant", "edge", "significant", "boolean", NULL, USE_DIFF },
	[K_EEVIDENCE] = { "eevidence", "edge", "evidence", "double", NULL, USE_DIFF },
};

/* With --metric EV the keys in seconds are in the metric's unit, and
 * named so: formats of the unit for the id and the name ("self_%s":
 * self_events). */
static const struct { const char *id, *name; } metric_keys[K__COUNT] = {
	[K_SELF] = { "self_%s", "self_%s" },
	[K_TOTAL] = { "total_%s", "total_%s" },
	[K_ETIME] = { "e%s", "%s" },
	[K_ETIME_BASE] = { "e%s_base", "%s_base" },
	[K_ETIME_SECOND] = { "e%s_second", "%s_second" },
	[K_ETIME_DIFF] = { "e%s_diff", "%s_diff" },
};

#define X(s) BAD_CAST(s)

static int used(const struct graph *g, enum key_id k)
{
	if (keys[k].use == USE_METRIC)
		return g->metric != NULL;
	return keys[k].use == USE_ALL || (keys[k].use == USE_DIFF) == !!g->is_diff;
}

/* Key k's id (name 0) or attr.name (name 1), as the graph names it. */
static const char *key_str(const struct graph *g, enum key_id k, int name, char *buf,
			   size_t len)
{
	const char *f = name ? metric_keys[k].name : metric_keys[k].id;

	if (!g->metric || !f)
		return name ? keys[k].name : keys[k].id;
	snprintf(buf, len, f, g->unit);
	return buf;
}

/* Each helper returns < 0 on a writer error; callers chain them with |. */
static int start_data(xmlTextWriterPtr w, const struct graph *g, enum key_id k)
{
	char buf[64];

	return (xmlTextWriterStartElement(w, X("data")) < 0) |
	       (xmlTextWriterWriteAttribute(w, X("key"),
					    X(key_str(g, k, 0, buf, sizeof(buf)))) < 0) ? -1 : 0;
}

/*
 * Text as XML 1.0 allows it: names come from binaries and may hold any
 * byte.  A byte that does not start a valid UTF-8 sequence, and a character
 * XML forbids (controls other than tab, newline and return, U+FFFE and
 * U+FFFF), becomes U+FFFD, so the file stays well-formed (found by
 * testsuite/fuzz/fuzz_writers).
 */
static size_t utf8_char_len(const unsigned char *p)
{
	uint32_t c;
	size_t n, i;

	if (p[0] < 0x80)
		return (p[0] >= 0x20 || p[0] == '\t' || p[0] == '\n' || p[0] == '\r') ? 1 : 0;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, c = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, c = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, c = p[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff) || c == 0xfffe || c == 0xffff)
		return 0;
	return n;
}

int graphml_write_text(xmlTextWriterPtr w, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t len = strlen((const char *)p), i = 0, o = 0;
	unsigned char *out = malloc(3 * len + 1);
	int r;

	if (!out)
		return -1;
	while (i < len) {
		size_t n = utf8_char_len(p + i);

		if (n == 0) {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
			continue;
		}
		memcpy(out + o, p + i, n);
		o += n;
		i += n;
	}
	out[o] = '\0';
	r = xmlTextWriterWriteString(w, out) < 0 ? -1 : 0;
	free(out);
	return r;
}

static int data_str(xmlTextWriterPtr w, const struct graph *g, enum key_id k, const char *v)
{
	if (!used(g, k))
		return 0;
	return start_data(w, g, k) |
	       (graphml_write_text(w, v) < 0) |
	       (xmlTextWriterEndElement(w) < 0) ? -1 : 0;
}

static int data_fmt(xmlTextWriterPtr w, const struct graph *g, enum key_id k,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int data_fmt(xmlTextWriterPtr w, const struct graph *g, enum key_id k,
		    const char *fmt, ...)
{
	char buf[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return data_str(w, g, k, buf);
}

static int attr_fmt(xmlTextWriterPtr w, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int attr_fmt(xmlTextWriterPtr w, const char *name, const char *fmt, ...)
{
	char buf[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return xmlTextWriterWriteAttribute(w, X(name), X(buf)) < 0 ? -1 : 0;
}

static int start_y(xmlTextWriterPtr w, const char *name)
{
	return xmlTextWriterStartElementNS(w, X("y"), X(name), NULL) < 0 ? -1 : 0;
}

static int end(xmlTextWriterPtr w)
{
	return xmlTextWriterEndElement(w) < 0 ? -1 : 0;
}

/* <data key="k"><y:shape>: a yFiles graphics block, closed by end_graphics(). */
static int start_graphics(xmlTextWriterPtr w, const struct graph *g, enum key_id k,
			  const char *shape)
{
	return start_data(w, g, k) | start_y(w, shape);
}

static int end_graphics(xmlTextWriterPtr w)
{
	return end(w) | end(w);
}

static int write_keys(xmlTextWriterPtr w, const struct graph *g)
{
	char buf[64];
	int r = 0;
	size_t k;

	for (k = 0; k < K__COUNT; k++) {
		if (!used(g, (enum key_id)k))
			continue;
		r |= xmlTextWriterStartElement(w, X("key")) < 0;
		r |= xmlTextWriterWriteAttribute(w, X("id"),
						 X(key_str(g, (enum key_id)k, 0, buf, sizeof(buf)))) < 0;
		r |= xmlTextWriterWriteAttribute(w, X("for"), X(keys[k].for_)) < 0;
		if (keys[k].yfiles_type) {
			r |= xmlTextWriterWriteAttribute(w, X("yfiles.type"),
							 X(keys[k].yfiles_type)) < 0;
		} else {
			r |= xmlTextWriterWriteAttribute(w, X("attr.name"),
				X(key_str(g, (enum key_id)k, 1, buf, sizeof(buf)))) < 0;
			r |= xmlTextWriterWriteAttribute(w, X("attr.type"), X(keys[k].type)) < 0;
		}
		r |= end(w) < 0;
	}
	return r ? -1 : 0;
}

static int write_node(xmlTextWriterPtr w, const struct graph *g, size_t i)
{
	const struct graph_node *n = &g->nodes[i];
	char c[8];
	int r = 0;

	r |= xmlTextWriterStartElement(w, X("node")) < 0;
	r |= attr_fmt(w, "id", "n%zu", i);
	r |= start_graphics(w, g, K_NODEGRAPHICS, "ShapeNode");
	/* yFiles geometry is the top-left corner. */
	r |= start_y(w, "Geometry");
	r |= attr_fmt(w, "x", "%.1f", n->x - n->w / 2);
	r |= attr_fmt(w, "y", "%.1f", n->y - n->h / 2);
	r |= attr_fmt(w, "width", "%.1f", n->w);
	r |= attr_fmt(w, "height", "%.1f", n->h);
	r |= end(w);
	r |= start_y(w, "Fill");
	r |= attr_fmt(w, "color", "%s", graph_color_str(n->fill, c));
	r |= attr_fmt(w, "transparent", "false");
	r |= end(w);
	r |= start_y(w, "BorderStyle");
	r |= attr_fmt(w, "color", "%s", graph_color_str(n->outline, c));
	r |= attr_fmt(w, "type", "%s", y_line_style[n->outline_style]);
	r |= attr_fmt(w, "width", "%.1f", n->outline_width);
	r |= end(w);
	r |= start_y(w, "NodeLabel");
	r |= attr_fmt(w, "alignment", "center");
	r |= attr_fmt(w, "fontSize", "%d", n->kind == GNODE_LEGEND ? 11 : 12);
	r |= attr_fmt(w, "modelName", "internal");
	r |= attr_fmt(w, "modelPosition", "c");
	r |= graphml_write_text(w, n->label) < 0;
	r |= end(w);
	r |= start_y(w, "Shape");
	r |= attr_fmt(w, "type", "%s", n->shape);
	r |= end(w);
	r |= end_graphics(w);
	r |= data_str(w, g, K_NAME, n->name);
	r |= data_str(w, g, K_KIND, graph_node_kind(n));
	if (n->kind != GNODE_LEGEND) {
		r |= data_str(w, g, K_PRESENCE, graph_presence_names[n->presence]);
		r |= data_fmt(w, g, K_SELF, "%.6g", n->self[0]);
		r |= data_fmt(w, g, K_TOTAL, "%.6g", n->total[0]);
		if (n->calls_measured)
			r |= data_fmt(w, g, K_CALLS, "%llu", (unsigned long long)n->calls[0]);
		r |= data_fmt(w, g, K_SELF_PCT, "%.4g", n->self_pct);
		r |= data_fmt(w, g, K_TOTAL_PCT, "%.4g", n->total_pct);
		r |= data_fmt(w, g, K_SELF_BASE, "%.6g", n->self[0]);
		r |= data_fmt(w, g, K_SELF_SECOND, "%.6g", n->self[1]);
		r |= data_fmt(w, g, K_SELF_DIFF, "%.6g", n->self_diff);
		r |= data_fmt(w, g, K_TOTAL_BASE, "%.6g", n->total[0]);
		r |= data_fmt(w, g, K_TOTAL_SECOND, "%.6g", n->total[1]);
		r |= data_fmt(w, g, K_TOTAL_DIFF, "%.6g", n->total_diff);
		if (n->calls_measured) {
			r |= data_fmt(w, g, K_CALLS_BASE, "%llu", (unsigned long long)n->calls[0]);
			r |= data_fmt(w, g, K_CALLS_SECOND, "%llu", (unsigned long long)n->calls[1]);
			r |= data_fmt(w, g, K_CALLS_DIFF, "%lld", (long long)n->calls_diff);
		}
		r |= data_fmt(w, g, K_IMPACT, "%.4g", n->self_pct);
		r |= data_str(w, g, K_NOISE, n->noise ? "true" : "false");
		r |= data_str(w, g, K_SIGNIFICANT, n->significant ? "true" : "false");
		r |= data_fmt(w, g, K_EVIDENCE, "%.6g", n->evidence);
	}
	r |= end(w);
	return r ? -1 : 0;
}

static int write_edge(xmlTextWriterPtr w, const struct graph *g, size_t i)
{
	const struct graph_edge *e = &g->edges[i];
	char c[8];
	int r = 0;

	r |= xmlTextWriterStartElement(w, X("edge")) < 0;
	r |= attr_fmt(w, "id", "e%zu", i);
	r |= attr_fmt(w, "source", "n%zu", e->from);
	r |= attr_fmt(w, "target", "n%zu", e->to);
	r |= start_graphics(w, g, K_EDGEGRAPHICS, "PolyLineEdge");
	r |= start_y(w, "LineStyle");
	r |= attr_fmt(w, "color", "%s", graph_color_str(e->color, c));
	r |= attr_fmt(w, "type", "%s", y_line_style[e->style]);
	r |= attr_fmt(w, "width", "%.1f", e->width);
	r |= end(w);
	r |= start_y(w, "Arrows");
	r |= attr_fmt(w, "source", "none");
	r |= attr_fmt(w, "target", "%s", e->kind == GEDGE_MEMBER ? "none" : "standard");
	r |= end(w);
	r |= start_y(w, "EdgeLabel");
	r |= attr_fmt(w, "fontSize", "10");
	r |= graphml_write_text(w, e->label) < 0;
	r |= end(w);
	r |= end_graphics(w);
	r |= data_str(w, g, K_EKIND, graph_edge_kind_names[e->kind]);
	r |= data_str(w, g, K_EPRESENCE, graph_presence_names[e->presence]);
	if (e->kind == GEDGE_CALL) {
		if (e->calls_measured) {
			r |= data_fmt(w, g, K_ECALLS, "%llu", (unsigned long long)e->calls[0]);
			r |= data_fmt(w, g, K_ECALLS_BASE, "%llu",
				      (unsigned long long)e->calls[0]);
			r |= data_fmt(w, g, K_ECALLS_SECOND, "%llu",
				      (unsigned long long)e->calls[1]);
			r |= data_fmt(w, g, K_ECALLS_DIFF, "%lld", (long long)e->calls_diff);
		}
		r |= data_fmt(w, g, K_ETIME, "%.6f", e->time[0]);
		r |= data_fmt(w, g, K_ETIME_BASE, "%.6f", e->time[0]);
		r |= data_fmt(w, g, K_ETIME_SECOND, "%.6f", e->time[1]);
		r |= data_fmt(w, g, K_ETIME_DIFF, "%.6f", e->time_diff);
		r |= data_str(w, g, K_ESIGNIFICANT, e->significant ? "true" : "false");
		r |= data_fmt(w, g, K_EEVIDENCE, "%.6g", e->evidence);
	}
	r |= end(w);
	return r ? -1 : 0;
}

int graphml_write_fp(const struct graph *g, FILE *fp)
{
	xmlOutputBufferPtr buf = xmlOutputBufferCreateFile(fp, NULL);
	xmlTextWriterPtr w;
	int r = 0;
	size_t i;

	if (!buf)
		return -1;
	w = xmlNewTextWriter(buf); /* owns buf from here; leaves fp open */
	if (!w) {
		xmlOutputBufferClose(buf);
		return -1;
	}
	r |= xmlTextWriterSetIndent(w, 1) < 0;
	r |= xmlTextWriterStartDocument(w, "1.0", "UTF-8", "no") < 0;
	r |= xmlTextWriterStartElementNS(w, NULL, X("graphml"), X(NS_GRAPHML)) < 0;
	r |= xmlTextWriterWriteAttribute(w, X("xmlns:xsi"), X(NS_XSI)) < 0;
	r |= xmlTextWriterWriteAttribute(w, X("xmlns:y"), X(NS_Y)) < 0;
	r |= xmlTextWriterWriteAttribute(w, X("xsi:schemaLocation"),
		X(NS_GRAPHML " http://www.yworks.com/xml/schema/graphml/1.1/ygraphml.xsd")) < 0;
	r |= write_keys(w, g);
	r |= xmlTextWriterStartElement(w, X("graph")) < 0;
	r |= xmlTextWriterWriteAttribute(w, X("id"), X("callgraph")) < 0;
	r |= xmlTextWriterWriteAttribute(w, X("edgedefault"), X("directed")) < 0;
	r |= data_str(w, g, K_GRAPH_TITLE, g->title ? g->title : "");
	r |= data_str(w, g, K_GRAPH_LEGEND, g->legend ? g->legend : "");
	r |= data_str(w, g, K_GRAPH_METRIC, g->metric);
	r |= data_str(w, g, K_GRAPH_UNIT, g->unit);
	for (i = 0; i < g->nnodes && !r; i++)
		r |= write_node(w, g, i);
	for (i = 0; i < g->nedges && !r; i++)
		r |= write_edge(w, g, i);
	r |= xmlTextWriterEndDocument(w) < 0;
	xmlFreeTextWriter(w);
	return r || ferror(fp) ? -1 : 0;
}

int graphml_write(const struct graph *g, const char *path)
{
	return graph_write_file(g, NULL, path, graphml_write_fp);
}
