#ifndef EGPROF_DOT_WRITE_H
#define EGPROF_DOT_WRITE_H
/*
 * Graphviz DOT through cgraph (agopen, agnode, agedge, agattr/agxset,
 * agwrite), never by printing DOT ourselves, so quoting is graphviz's own
 * and the file renders with `dot -Tsvg`.  Node width/height are the
 * graph's sizes in inches (72 px each) as minimums; dot lays the graph out
 * itself.
 *
 * The file is written atomically (utils/outfile.h).  Returns 0 or -1
 * (reported, no file left behind).
 */
#include <stdio.h>
#include "gml/graph.h"

int dot_write(const struct graph *g, const char *path);
int dot_write_fp(const struct graph *g, FILE *fp);

#endif
