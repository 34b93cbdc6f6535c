/*
 * Name -> file round trips of the graph writers (gml/gml_write.c, dot_write.c, graphml_write.c) and the
 * folded-stack writer (callpath/folded.c).  The input, split at its first
 * NUL, gives two function names; a graph "main -> NAME1 -> NAME2" is written
 * as GraphML, DOT and GML, and the path as folded stacks, all in memory, and
 * each is parsed back:
 *  - GraphML: libxml2 must find it well-formed, with three nodes;
 *  - DOT: the strict DOT reader (dot_reader.h) must read three nodes and
 *    two edges, every label and tooltip a valid escString, the tooltips the
 *    three names (made printable) exactly; and graphviz's cgraph must parse
 *    it, with three nodes and two edges;
 *  - GML: every string closed, brackets balanced (GML has no parser in the
 *    distribution; this is what a reader needs first);
 *  - folded: one line per frame, each "FRAMES COUNT" with a decimal count
 *    and as many ';'-separated frames as the path is deep.
 *
 * Whole files cost about 1.5 ms of CPU an input (libxml2's writer and
 * reader, cgraph), too slow for a long campaign: fuzz_names.c fuzzes the
 * same escaping name by name, and this harness is the smoke run's
 * whole-file check (doc/dev/reliability.md).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <graphviz/cgraph.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include "gml/graph.h"
#include "gml/gml_write.h"
#include "gml/dot_write.h"
#include "gml/graphml_write.h"
#include "callpath/folded.h"
#include "model/callpath_model.h"
#include "utils/printable.h"
#include "testsuite/fuzz/dot_reader.h"
#include "testsuite/fuzz/fuzz_graphs.h"

FUZZ_GRAPHS_INITIALIZE

static char *to_mem(const struct graph *g, int (*w)(const struct graph *, FILE *),
		    size_t *len)
{
	char *buf = NULL;
	FILE *mem = open_memstream(&buf, len);

	fuzz_assert(mem != NULL);
	fuzz_assert(w(g, mem) == 0);
	fuzz_assert(fclose(mem) == 0);
	return buf;
}

static void check_graphml(const char *buf, size_t len)
{
	xmlDocPtr doc = xmlReadMemory(buf, (int)len, "fuzz.graphml", NULL, XML_PARSE_NONET);

	fuzz_assert(doc != NULL);
	{
		xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
		xmlXPathObjectPtr nodes;

		fuzz_assert(ctx != NULL);
		xmlXPathRegisterNs(ctx, BAD_CAST "g",
				   BAD_CAST "http://graphml.graphdrawing.org/xmlns");
		nodes = xmlXPathEvalExpression(BAD_CAST "//g:graph/g:node", ctx);
		fuzz_assert(nodes && nodes->nodesetval && nodes->nodesetval->nodeNr == 3);
		xmlXPathFreeObject(nodes);
		xmlXPathFreeContext(ctx);
	}
	xmlFreeDoc(doc);
}

static void check_dot(char *buf, size_t len, const char *names[3])
{
	struct dot_reader r;
	size_t i, j;

	dot_read_file(&r, buf, len);
	fuzz_assert(r.nodes == 3 && r.edges == 2 && r.ntooltips == 3);
	for (i = 0; i < 3; i++) {
		/* graph_finish made the names printable (utils/printable.h) */
		char *name = strdup(names[i]);

		fuzz_assert(name && printable_fix(&name) == 0);
		for (j = 0; j < 3 && strcmp(r.tooltips[j], name); j++)
			;
		fuzz_assert(j < 3); /* each name is a tooltip */
		free(name);
	}
	for (i = 0; i < r.ntooltips; i++)
		free(r.tooltips[i]);
	free(r.val);
	{
		Agraph_t *g = agmemread(buf);

		fuzz_assert(g != NULL);
		fuzz_assert(agnnodes(g) == 3 && agnedges(g) == 2);
		agclose(g);
	}
}

static void check_gml(const char *buf, size_t len)
{
	int depth = 0, in_str = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		char c = buf[i];

		if (in_str) {
			if (c == '"')
				in_str = 0;
			continue;
		}
		if (c == '"')
			in_str = 1;
		else if (c == '[')
			depth++;
		else if (c == ']')
			fuzz_assert(--depth >= 0);
	}
	fuzz_assert(!in_str && depth == 0);
}

static void check_folded(const char *buf, size_t len)
{
	size_t i, start = 0, lines = 0;

	for (i = 0; i < len; i++) {
		size_t j, frames = 1;

		if (buf[i] != '\n')
			continue;
		j = i;
		fuzz_assert(j > start);
		while (j > start && buf[j - 1] >= '0' && buf[j - 1] <= '9')
			j--;
		fuzz_assert(j < i && j > start + 1 && buf[j - 1] == ' ');
		for (j = start; j < i; j++)
			frames += buf[j] == ';';
		lines++;
		fuzz_assert(frames == lines); /* main; main;a; main;a;b */
		start = i + 1;
	}
	fuzz_assert(start == len && lines == 3);
}

static void folded_round_trip(const char *names[3])
{
	struct callpath_model *m = callpath_model_new();
	struct folded *f = NULL;
	uint32_t parent = CALLPATH_NONE, idx, site;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *mem;

	fuzz_assert(m != NULL);
	site = callpath_model_intern(m, "site");
	for (i = 0; i < 3; i++) {
		uint32_t func = callpath_model_intern(m, names[i]);

		fuzz_assert(func != CALLPATH_NONE);
		fuzz_assert(callpath_model_add(m, parent, func, site, 1 + i, &idx) == 0);
		parent = idx;
	}
	fuzz_assert(folded_build(m, FOLDED_CALLS, &f) == 0);
	mem = open_memstream(&buf, &len);
	fuzz_assert(mem && folded_write(mem, f) == 0 && fclose(mem) == 0);
	check_folded(buf, len);
	free(buf);
	folded_free(f);
	callpath_model_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = malloc(size + 2);
	const char *names[3];
	struct graph *g = graph_new(0);
	struct graph_opts opts = GRAPH_OPTS_INIT; /* keeps every node */
	size_t i, len;
	char *buf;

	fuzz_assert(in && g);
	memcpy(in, data, size);
	in[size] = in[size + 1] = '\0';
	names[0] = "main";
	names[1] = in;
	names[2] = in + strlen(in) + 1;
	if (!names[1][0] || !names[2][0] || !strcmp(names[1], names[2]) ||
	    !strcmp(names[1], "main") || !strcmp(names[2], "main")) {
		free(in);
		graph_free(g);
		return 0; /* three different, non-empty names */
	}
	for (i = 0; i < 3; i++) {
		struct graph_node n;

		memset(&n, 0, sizeof(n));
		n.name = strdup(names[i]);
		n.kind = GNODE_FUNCTION;
		n.self[0] = 1.0 + (double)i;
		n.total[0] = 6.0 - (double)i;
		n.calls[0] = i;
		n.weight = n.total[0];
		fuzz_assert(graph_add_node(g, &n) == (long)i);
	}
	for (i = 0; i < 2; i++) {
		struct graph_edge e;

		memset(&e, 0, sizeof(e));
		e.from = i;
		e.to = i + 1;
		e.kind = GEDGE_CALL;
		e.calls[0] = 1 + i;
		e.weight = 1.0;
		fuzz_assert(graph_add_edge(g, &e) == (long)i);
	}
	g->node_total = 6.0;
	g->edge_total = 3.0;
	fuzz_assert(graph_finish(g, &opts) == 0);

	buf = to_mem(g, graphml_write_fp, &len);
	check_graphml(buf, len);
	free(buf);
	buf = to_mem(g, dot_write_fp, &len);
	check_dot(buf, len, names);
	free(buf);
	buf = to_mem(g, gml_write_fp, &len);
	check_gml(buf, len);
	free(buf);
	folded_round_trip(names);
	graph_free(g);
	free(in);
	return 0;
}
