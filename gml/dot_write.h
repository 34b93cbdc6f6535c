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

/*
 * The two steps of ours in the way a label reaches the file (the fuzz
 * harness fuzz_names checks them name by name; cgraph's agcanonStr quotes
 * in between):
 * dot_escstring: a plain-text label as a DOT escString: backslashes
 * doubled (so a name never becomes an escape like \N), line breaks as "\n"
 * (centred lines).  cgraph quotes the result and escapes its double quotes
 * itself.  Written into *buf (grown as needed, the caller frees it); NULL
 * when out of memory.
 * dot_fix_bare: what agwrite's chunk must be written as: the chunk, or
 * quoted (in `quoted`) when cgraph left a non-numeral bare.
 */
char *dot_escstring(const char *s, char **buf, size_t *cap);
const char *dot_fix_bare(const char *chunk, char quoted[8]);

#endif
