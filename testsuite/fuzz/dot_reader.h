#ifndef EGPROF_FUZZ_DOT_READER_H
#define EGPROF_FUZZ_DOT_READER_H
/*
 * A strict reader of the DOT language as cgraph's agwrite writes it
 * (graphviz.org/doc/info/lang.html): "digraph ID { stmt... }", statements
 * "graph|node|edge [attrs]", "ID [attrs]", "ID -> ID [attrs]" and "ID = ID",
 * each optionally ended by ';'.  An ID is a name ([A-Za-z_\200-\377]
 * then also digits), a numeral, or a quoted string in which '"' only appears
 * as \" and backslash-newline continues a line; keywords are refused as
 * names, HTML strings and comments (which we never write) too.
 * Shared by fuzz_writers.c and fuzz_names.c; every failure is a
 * fuzz_assert.
 */
#include <stddef.h>

enum { T_END, T_ID, T_STR, T_ARROW, T_ERR }; /* or the punctuation character */

struct dot_reader {
	const char *p, *end;
	char *val; /* the last ID's text, unquoted */
	size_t vlen, vcap;
	size_t nodes, edges;
	char *tooltips[3];
	size_t ntooltips;
};

/* The next token; an ID's text, unquoted, in r->val. */
int dot_token(struct dot_reader *r);
/* A keyword of DOT, refused as a bare ID. */
int dot_is_keyword(const char *s);
/* s as an escString of dot_escstring's: "\\" a backslash, "\n" a line
 * break, no other escape; malloc'd. */
char *dot_esc_decode(const char *s);
/* A whole file: nodes, edges and node tooltips in r. */
void dot_read_file(struct dot_reader *r, const char *buf, size_t len);

#endif
