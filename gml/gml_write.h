#ifndef EGPROF_GML_WRITE_H
#define EGPROF_GML_WRITE_H
/*
 * GML as yEd reads it (there is no GML library, so it is written by hand):
 *
 *   graph [ directed 1
 *     node [ id N label "..." graphics [ x y w h type fill outline ... ]
 *            LabelGraphics [ text "..." fontSize 12 ] ]
 *     edge [ source S target T label "..." graphics [ fill width style
 *            targetArrow "standard" ] LabelGraphics [ text "..." ] ] ]
 *
 * yEd lays nothing out on open and draws no arrow without targetArrow, so
 * nodes carry the graph's layout (gml/graph.h) and every edge an arrow.
 * The numbers are attributes too (self_sec, calls_diff, ...: the names of
 * the GraphML data keys), for networkx and igraph.
 * A node's label is its name (one line: what networkx and igraph show);
 * the lines yEd draws (name, self, total) are LabelGraphics' text.
 * The file is 7-bit: '&', '"', '<', '>', line breaks and every non-ASCII
 * character are written as entities (&amp; &#10; &#8364;), which networkx
 * decodes: networkx cannot read a string that spans lines, as yEd writes
 * a line break (see doc/graphs.md).  C++ names are full of entities.
 *
 * The file is written atomically (utils/outfile.h).  Returns 0 or -1
 * (reported, no file left behind).
 */
#include <stdio.h>
#include "gml/graph.h"

int gml_write(const struct graph *g, const char *path);
/* The same to an open stream (for tests); no atomic rename. */
int gml_write_fp(const struct graph *g, FILE *fp);
/* Write s as the inside of a GML string: 7-bit, entities for the rest. */
void gml_write_escaped(FILE *fp, const char *s);

#endif
