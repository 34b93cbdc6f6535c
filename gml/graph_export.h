#ifndef EGPROF_GRAPH_EXPORT_H
#define EGPROF_GRAPH_EXPORT_H
/*
 * The graph files a command asks for (struct graph_opts: --gml, --dot,
 * --graphml, --svg, --png): build the graph once, hand it to each writer.
 * The one module that knows every writer; the model (graph.h) and the
 * writers know only the model.
 *
 *   if (graph_export_profile(&opts, p) < 0) status = 1;
 */
#include "gml/graph.h"

struct diff;

/* Write every file opts asks for; say on stderr what pruning left out.
 * Return 0, or -1 after reporting (files that could not be written are
 * not left behind; the others are written). */
int graph_export(const struct graph *g, const struct graph_opts *opts);
/* Build and export in one call: what cmd_gprof.c and cmd_diff.c call.
 * Nothing is done (and 0 returned) when opts names no file. */
int graph_export_profile(const struct graph_opts *opts, const struct profile *p);
int graph_export_diff(const struct graph_opts *opts, const struct diff *d);

#endif
