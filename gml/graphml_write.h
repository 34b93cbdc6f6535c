#ifndef EGPROF_GRAPHML_WRITE_H
#define EGPROF_GRAPHML_WRITE_H
/*
 * GraphML through libxml2's xmlTextWriter, with the yFiles extensions yEd
 * uses (y:ShapeNode with y:Geometry, y:Fill, y:BorderStyle, y:NodeLabel,
 * y:Shape; y:PolyLineEdge with y:LineStyle, y:Arrows, y:EdgeLabel) and
 * plain data keys for other readers (networkx, Gephi):
 *   nodes: name, kind, self_sec, total_sec, calls, self_pct, total_pct
 *          (single) or self_base, self_second, self_diff, total_base, ...
 *          and presence, noise, impact (diff);
 *   edges: kind, presence, calls (single) or calls_base, calls_second,
 *          calls_diff (diff).
 * Differences are baseline minus second run.  ("self" itself is not a key
 * name: networkx passes data as keyword arguments.)
 *
 * The file is written atomically (utils/outfile.h).  Returns 0 or -1
 * (reported, no file left behind).
 */
#include <stdio.h>
#include "gml/graph.h"

int graphml_write(const struct graph *g, const char *path);
int graphml_write_fp(const struct graph *g, FILE *fp);

/*
 * Text as XML 1.0 allows it (every name and label goes through it; the
 * fuzz harness fuzz_names checks it name by name): a byte that does not
 * start valid UTF-8, and a character XML forbids, become U+FFFD; libxml2
 * escapes the rest.  w is an xmlTextWriterPtr (libxml/xmlwriter.h).
 */
struct _xmlTextWriter;
int graphml_write_text(struct _xmlTextWriter *w, const char *s);

#endif
