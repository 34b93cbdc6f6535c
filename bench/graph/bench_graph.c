/*
 * How long the graph exports take for a big call graph, beyond reading the
 * profile: a synthetic profile of NODES functions and EDGES arcs (a random
 * call graph, seeded, with a spine so every function is reachable from
 * main) is built in memory, then each step is timed.
 *
 *   bench/graph/bench_graph [NODES [EDGES [OUTDIR]]]   (default 20000 100000 .)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gml/graph.h"
#include "gml/gml_write.h"
#include "gml/dot_write.h"
#include "gml/graphml_write.h"
#include "utils/banned.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static struct profile *synthetic(size_t nodes, size_t edges)
{
	struct profile *p = profile_new();
	size_t i;

	p->hz = 100;
	for (i = 0; i < nodes; i++) {
		struct profile_sym s = { 0 };
		char name[96];

		/* C++-looking names, so escaping is part of the cost */
		snprintf(name, sizeof(name), "ns::Widget<int, %zu>::op&(std::vector<T>&) #%zu",
			 i % 97, i);
		s.name = strdup(name);
		s.print_name = strdup(name);
		s.flags = PSYM_FUNC | PSYM_IN_GRAPH;
		s.self_ticks = s.prop_self = (double)(next() % 1000);
		s.prop_child = (double)(next() % 100000);
		s.ncalls = 1 + next() % 1000;
		p->total_ticks += s.self_ticks;
		if (profile_add_sym(p, &s) < 0)
			exit(1);
	}
	p->print_ticks = p->total_ticks;
	for (i = 0; i < edges; i++) {
		struct profile_arc a = { 0 };

		if (i + 1 < nodes) { /* the spine: i -> i + 1 */
			a.parent = (uint32_t)(i / 4);
			a.child = (uint32_t)(i + 1);
		} else {
			a.parent = (uint32_t)(next() % nodes);
			a.child = (uint32_t)(next() % nodes);
		}
		a.count = 1 + next() % 100000;
		if (profile_add_arc(p, &a) < 0)
			exit(1);
	}
	return p;
}

int main(int argc, char **argv)
{
	size_t nodes = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000;
	size_t edges = argc > 2 ? strtoul(argv[2], NULL, 10) : 100000;
	const char *dir = argc > 3 ? argv[3] : ".";
	struct graph_opts o = GRAPH_OPTS_INIT;
	struct profile *p = synthetic(nodes, edges);
	struct graph *g;
	char path[4096];
	double t0, c0, t_build, t_gml, t_dot, t_graphml, c_build, c_gml, c_dot, c_graphml;

	t0 = now(), c0 = cpu();
	if (graph_from_profile(&g, p, &o) < 0)
		return 1;
	t_build = now() - t0, c_build = cpu() - c0;
	snprintf(path, sizeof(path), "%s/bench.gml", dir);
	t0 = now(), c0 = cpu();
	if (gml_write(g, path) < 0)
		return 1;
	t_gml = now() - t0, c_gml = cpu() - c0;
	snprintf(path, sizeof(path), "%s/bench.dot", dir);
	t0 = now(), c0 = cpu();
	if (dot_write(g, path) < 0)
		return 1;
	t_dot = now() - t0, c_dot = cpu() - c0;
	snprintf(path, sizeof(path), "%s/bench.graphml", dir);
	t0 = now(), c0 = cpu();
	if (graphml_write(g, path) < 0)
		return 1;
	t_graphml = now() - t0, c_graphml = cpu() - c0;
	printf("graph of %zu nodes, %zu edges\n", g->nnodes, g->nedges);
	printf("%-40s %8s %8s\n", "step", "wall s", "cpu s");
	printf("%-40s %8.3f %8.3f\n", "build (labels, sizes, colours, layout)", t_build, c_build);
	printf("%-40s %8.3f %8.3f\n", "GML (incl. fsync)", t_gml, c_gml);
	printf("%-40s %8.3f %8.3f\n", "DOT through cgraph (incl. fsync)", t_dot, c_dot);
	printf("%-40s %8.3f %8.3f\n", "GraphML through libxml2 (incl. fsync)", t_graphml, c_graphml);
	graph_free(g);
	profile_free(p);
	return 0;
}
