/* Unit tests for the graph writers (gml/gml_write.c, dot_write.c,
 * graphml_write.c): each output is read back by its own library where
 * there is one (cgraph, libxml2). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <graphviz/cgraph.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include "gml/graph.h"
#include "gml/gml_write.h"
#include "gml/dot_write.h"
#include "gml/graphml_write.h"
#include "utils/banned.h"

/*
 *   main --3--> std::vector<int, A&>::push_back("x")  --1--> caf\xc3\xa9
 *   (a C++ name full of <>&" and a UTF-8 one)
 */
#define TEMPLATE "std::vector<int, A&>::push_back(\"x\")"
static struct profile *make_profile_named(const char *const names[3])
{
	struct profile *p = profile_new();
	size_t i;

	assert_non_null(p);
	p->hz = 100;
	p->print_ticks = p->total_ticks = 100;
	p->input = PROFILE_HAS_CG;	/* its arcs were counted */
	for (i = 0; i < 3; i++) {
		struct profile_sym s = { 0 };

		s.name = strdup(names[i]);
		s.print_name = strdup(names[i]);
		s.flags = PSYM_IN_GRAPH | PSYM_FUNC;
		s.ncalls = i;
		s.self_ticks = s.prop_self = 20.0 * (double)(i + 1);
		s.prop_child = i == 0 ? 80 : i == 1 ? 30 : 0;
		assert_int_equal(profile_add_sym(p, &s), (long)i);
	}
	{
		struct profile_arc a1 = { 0, 1, 3, 0, 0 }, a2 = { 1, 2, 1, 0, 0 };
		assert_true(profile_add_arc(p, &a1) >= 0);
		assert_true(profile_add_arc(p, &a2) >= 0);
	}
	return p;
}

static struct profile *make_profile(void)
{
	static const char *const names[] = { "main", TEMPLATE, "caf\xc3\xa9" };

	return make_profile_named(names);
}

static struct graph *make_graph_named(const char *const names[3])
{
	struct profile *p = make_profile_named(names);
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g;

	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	profile_free(p);
	return g;
}

static struct graph *make_graph(void)
{
	struct profile *p = make_profile();
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g;

	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	profile_free(p);
	return g;
}

static char *to_string(int (*writer)(const struct graph *, FILE *), const struct graph *g)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	assert_non_null(mem);
	assert_int_equal(writer(g, mem), 0);
	fclose(mem);
	return buf;
}

static void test_gml__output_is_seven_bit_with_entities(void **state)
{
	struct graph *g = make_graph();
	char *s = to_string(gml_write_fp, g);
	const unsigned char *c;

	(void)state;
	for (c = (const unsigned char *)s; *c; c++)
		assert_true(*c < 0x80);
	assert_non_null(strstr(s, "std::vector&lt;int, A&amp;&gt;::push_back(&quot;x&quot;)"));
	assert_non_null(strstr(s, "caf&#233;"));
	assert_non_null(strstr(s, "&#10;self 0.40 s (40.0%)"));
	assert_null(strstr(s, "A&>"));
	free(s);
	graph_free(g);
}

static void test_gml__nodes_carry_layout_and_edges_arrows(void **state)
{
	struct graph *g = make_graph();
	char *s = to_string(gml_write_fp, g);
	const char *c;
	int nodes = 0, edges = 0, arrows = 0;

	(void)state;
	assert_non_null(strstr(s, "directed 1"));
	for (c = s; (c = strstr(c, "\n  node [")); c++)
		nodes++;
	for (c = s; (c = strstr(c, "\n  edge [")); c++)
		edges++;
	for (c = s; (c = strstr(c, "targetArrow \"standard\"")); c++)
		arrows++;
	assert_int_equal(nodes, 3);
	assert_int_equal(edges, 2);
	assert_int_equal(arrows, 2);
	assert_non_null(strstr(s, "graphics [ x "));
	assert_non_null(strstr(s, "LabelGraphics [ text \"main&#10;"));
	/* the label is one line: the name */
	assert_non_null(strstr(s, "label \"main\"\n    name \"main\"\n"));
	free(s);
	graph_free(g);
}

/* main: self 0.2 s, total 1.0 s of 1.0 s; main -> TEMPLATE 3 calls. */
static void test_gml__numbers_are_attributes_not_only_labels(void **state)
{
	struct graph *g = make_graph();
	char *s = to_string(gml_write_fp, g);

	(void)state;
	assert_non_null(strstr(s, "name \"main\"\n    kind \"function\"\n"
				  "    self_sec 0.200000\n    total_sec 1.000000\n"
				  "    calls 0\n    self_pct 20.0000\n    total_pct 100.0000\n"));
	assert_non_null(strstr(s, "kind \"call\"\n    calls 3\n    time_sec "));
	free(s);
	graph_free(g);
}

static void test_dot__asks_other_layouts_not_to_overlap_nodes(void **state)
{
	struct graph *g = make_graph();
	char *s = to_string(dot_write_fp, g);

	(void)state;
	assert_non_null(strstr(s, "overlap=false"));
	free(s);
	graph_free(g);
}

static void test_gml__escape_keeps_invalid_utf8_bytes_as_latin1(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	(void)state;
	gml_write_escaped(mem, "a\xff<\xe2\x82\xac");
	fclose(mem);
	assert_string_equal(buf, "a&#255;&lt;&#8364;");
	free(buf);
}

static void test_dot__reads_back_through_cgraph_with_same_labels(void **state)
{
	struct graph *g = make_graph();
	char *s = to_string(dot_write_fp, g);
	Agraph_t *G = agmemread(s);
	Agnode_t *n;
	int found = 0;

	(void)state;
	assert_non_null(G);
	assert_int_equal(agnnodes(G), 3);
	assert_int_equal(agnedges(G), 2);
	/* the label names the function shortly (utils/names.h), the
	 * tooltip in full */
	for (n = agfstnode(G); n; n = agnxtnode(G, n)) {
		const char *label = agget(n, "label"), *tip = agget(n, "tooltip");

		if (strstr(label, "std::vector<\xe2\x80\xa6>::push_back(\"x\")\\nself 0.40 s") &&
		    tip && !strcmp(tip, TEMPLATE))
			found = 1;
	}
	assert_true(found);
	agclose(G);
	free(s);
	graph_free(g);
}

/* cgraph 2.42 writes these bare, and then cannot read its own file
 * (found by testsuite/fuzz/fuzz_names). */
static void test_dot__names_minus_and_dot_are_quoted_and_read_back(void **state)
{
	static const char *const names[] = { "-", ".", "-." };
	struct graph *g = make_graph_named(names);
	char *s = to_string(dot_write_fp, g);
	Agraph_t *G = agmemread(s);
	Agnode_t *n;
	int found = 0;

	(void)state;
	assert_non_null(G);
	assert_int_equal(agnnodes(G), 3);
	for (n = agfstnode(G); n; n = agnxtnode(G, n)) {
		const char *tip = agget(n, "tooltip");
		size_t i;

		for (i = 0; i < 3; i++)
			found += !strcmp(tip, names[i]);
	}
	assert_int_equal(found, 3);
	agclose(G);
	free(s);
	graph_free(g);
}

static char *xpath_str(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	xmlXPathObjectPtr r;
	char *out;

	xmlXPathRegisterNs(ctx, BAD_CAST "g", BAD_CAST "http://graphml.graphdrawing.org/xmlns");
	xmlXPathRegisterNs(ctx, BAD_CAST "y", BAD_CAST "http://www.yworks.com/xml/graphml");
	r = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	assert_non_null(r);
	out = (char *)xmlXPathCastToString(r);
	xmlXPathFreeObject(r);
	xmlXPathFreeContext(ctx);
	return out;
}

static void test_graphml__reads_back_with_yfiles_shapes_and_data_keys(void **state)
{
	struct graph *g = make_graph();
	char *s = to_string(graphml_write_fp, g);
	xmlDocPtr doc = xmlReadMemory(s, (int)strlen(s), "t.graphml", NULL, XML_PARSE_NONET);
	char *v;

	(void)state;
	assert_non_null(doc);
	v = xpath_str(doc, "count(//g:node)");
	assert_string_equal(v, "3");
	xmlFree(v);
	v = xpath_str(doc, "count(//g:edge/g:data/y:PolyLineEdge/y:Arrows[@target='standard'])");
	assert_string_equal(v, "2");
	xmlFree(v);
	v = xpath_str(doc, "string(//g:node[g:data[@key='name']='" "caf\xc3\xa9"
			   "']/g:data[@key='total_sec'])");
	assert_string_equal(v, "0.6");
	xmlFree(v);
	v = xpath_str(doc, "count(//g:node/g:data/y:ShapeNode[y:Geometry and y:Fill and y:NodeLabel])");
	assert_string_equal(v, "3");
	xmlFree(v);
	v = xpath_str(doc, "string(//g:edge[g:data[@key='ecalls']='3']/g:data/y:PolyLineEdge/y:EdgeLabel)");
	assert_string_equal(v, "3");
	xmlFree(v);
	xmlFreeDoc(doc);
	free(s);
	graph_free(g);
}

static void test_writers__bad_path_fails_and_leaves_no_file(void **state)
{
	struct graph *g = make_graph();
	char dir[] = "/tmp/test_gml.XXXXXX";
	char path[256];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/missing/out.gml", dir);
	assert_int_equal(gml_write(g, path), -1);
	snprintf(path, sizeof(path), "%s/missing/out.dot", dir);
	assert_int_equal(dot_write(g, path), -1);
	snprintf(path, sizeof(path), "%s/missing/out.graphml", dir);
	assert_int_equal(graphml_write(g, path), -1);
	snprintf(path, sizeof(path), "%s/ok.gml", dir);
	assert_int_equal(gml_write(g, path), 0);
	assert_int_equal(access(path, R_OK), 0);
	unlink(path);
	assert_int_equal(rmdir(dir), 0); /* nothing else (no temp file) left */
	graph_free(g);
}

/* --metric EV: the attributes in seconds are named by the unit, and the
 * graph says the metric, in GML and GraphML alike */
static void test_writers__metric_names_attributes_by_its_unit(void **state)
{
	struct profile *p = make_profile();
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct graph *g;
	char *s, *v;
	xmlDocPtr doc;

	(void)state;
	/* the run's functions in an event, from its sidecars (one event a
	 * sample): main 10 self, 30 in all; 20 along its call */
	p->hz = 1;
	p->measure.source = PROFILE_FROM_SIDECARS;
	snprintf(p->measure.metric, sizeof(p->measure.metric), "perf::PAGE-FAULTS");
	snprintf(p->measure.unit, sizeof(p->measure.unit), "events");
	p->syms[0].self_ticks = p->syms[0].prop_self = 10;
	p->syms[0].prop_child = 20;
	p->arcs[0].time = 20;
	assert_int_equal(graph_from_profile(&g, p, &o), 0);
	s = to_string(gml_write_fp, g);
	assert_non_null(strstr(s, "  metric \"perf::PAGE-FAULTS\"\n  unit \"events\"\n"));
	assert_non_null(strstr(s, "name \"main\"\n    kind \"function\"\n"
				  "    self_events 10.000000\n    total_events 30.000000\n"));
	assert_non_null(strstr(s, "kind \"call\"\n    calls 3\n    events 20.000000\n"));
	assert_null(strstr(s, "_sec "));
	free(s);
	s = to_string(graphml_write_fp, g);
	doc = xmlReadMemory(s, (int)strlen(s), "t.graphml", NULL, XML_PARSE_NONET);
	assert_non_null(doc);
	v = xpath_str(doc, "string(//g:key[@attr.name='total_events']/@id)");
	assert_string_equal(v, "total_events");
	xmlFree(v);
	v = xpath_str(doc, "string(//g:node[g:data[@key='name']='main']/g:data[@key='total_events'])");
	assert_string_equal(v, "30");
	xmlFree(v);
	v = xpath_str(doc, "string(//g:edge[g:data[@key='ecalls']='3']/g:data[@key='eevents'])");
	assert_string_equal(v, "20.000000");
	xmlFree(v);
	v = xpath_str(doc, "string(//g:graph/g:data[@key='metric'])");
	assert_string_equal(v, "perf::PAGE-FAULTS");
	xmlFree(v);
	v = xpath_str(doc, "count(//g:key[contains(@attr.name, '_sec')])");
	assert_string_equal(v, "0");
	xmlFree(v);
	xmlFreeDoc(doc);
	free(s);
	graph_free(g);
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gml__output_is_seven_bit_with_entities),
		cmocka_unit_test(test_gml__nodes_carry_layout_and_edges_arrows),
		cmocka_unit_test(test_gml__numbers_are_attributes_not_only_labels),
		cmocka_unit_test(test_dot__asks_other_layouts_not_to_overlap_nodes),
		cmocka_unit_test(test_gml__escape_keeps_invalid_utf8_bytes_as_latin1),
		cmocka_unit_test(test_dot__reads_back_through_cgraph_with_same_labels),
		cmocka_unit_test(test_dot__names_minus_and_dot_are_quoted_and_read_back),
		cmocka_unit_test(test_graphml__reads_back_with_yfiles_shapes_and_data_keys),
		cmocka_unit_test(test_writers__bad_path_fails_and_leaves_no_file),
		cmocka_unit_test(test_writers__metric_names_attributes_by_its_unit),
	};
	int r = cmocka_run_group_tests(tests, NULL, NULL);

	xmlCleanupParser();
	return r;
}
