/* A strict reader of the DOT that dot_write.c writes (dot_reader.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "testsuite/fuzz/dot_reader.h"
#include "testsuite/fuzz/fuzz.h"

static int id_char(int c, int first)
{
	return isalpha(c) || c == '_' || c >= 0x80 || (!first && isdigit(c));
}

static void val_put(struct dot_reader *r, char c)
{
	if (r->vlen + 1 >= r->vcap) {
		r->vcap = r->vcap ? 2 * r->vcap : 64;
		r->val = realloc(r->val, r->vcap);
		fuzz_assert(r->val != NULL);
	}
	r->val[r->vlen++] = c;
	r->val[r->vlen] = '\0';
}

int dot_token(struct dot_reader *r)
{
	const char *p = r->p;
	int c;

	while (p < r->end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	r->vlen = 0;
	val_put(r, 0);
	r->vlen = 0;
	if (p == r->end) {
		r->p = p;
		return T_END;
	}
	c = (unsigned char)*p;
	if (strchr("{}[]=;,", c)) {
		r->p = p + 1;
		return c;
	}
	if (c == '-' && p + 1 < r->end && p[1] == '>') {
		r->p = p + 2;
		return T_ARROW;
	}
	if (c == '"') {
		for (p++; p < r->end && *p != '"'; p++) {
			if (*p == '\\' && p + 1 < r->end) {
				if (p[1] == '"' || p[1] == '\n') {
					if (p[1] == '"')
						val_put(r, '"');
					p++;
					continue;
				}
				if (p[1] == '\\') /* kept, and not an escaped quote */
					val_put(r, *p++);
			}
			val_put(r, *p);
		}
		if (p == r->end)
			return T_ERR; /* unterminated */
		r->p = p + 1;
		return T_STR;
	}
	if (c == '-' || c == '.' || isdigit(c)) {
		const char *q = p + (c == '-');
		size_t digits = 0;

		while (q < r->end && isdigit((unsigned char)*q))
			q++, digits++;
		if (q < r->end && *q == '.')
			for (q++; q < r->end && isdigit((unsigned char)*q); q++)
				digits++;
		if (!digits || (q < r->end && id_char((unsigned char)*q, 0)))
			return T_ERR;
		while (p < q)
			val_put(r, *p++);
		r->p = q;
		return T_ID;
	}
	if (!id_char(c, 1))
		return T_ERR;
	while (p < r->end && id_char((unsigned char)*p, 0))
		val_put(r, *p++);
	r->p = p;
	return T_ID;
}

int dot_is_keyword(const char *s)
{
	static const char *const kw[] = { "node", "edge", "graph", "digraph",
					  "subgraph", "strict" };
	size_t i;

	for (i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (!strcasecmp(s, kw[i]))
			return 1;
	return 0;
}

/* An ID that is not a bare keyword: a name, a numeral or a string. */
static int dot_id(struct dot_reader *r)
{
	int t = dot_token(r);

	return t == T_STR || (t == T_ID && !dot_is_keyword(r->val));
}

/*
 * An escString as dot_write's labels are: "\\" is a backslash, "\n" a line
 * break, and no other escape (\N, \G, \l... would be graphviz's): the
 * decoded text, which the caller frees.
 */
char *dot_esc_decode(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	fuzz_assert(out != NULL);
	for (; *s; s++) {
		if (*s == '\\') {
			s++;
			fuzz_assert(*s == '\\' || *s == 'n');
			*o++ = *s == 'n' ? '\n' : '\\';
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
	return out;
}

/*
 * "[a=b, c=d]" after its '['.  The labels and tooltips of nodes and edges
 * (obj 1 and 2; 0 for the defaults of "node [...]", where cgraph declares
 * label="\N") are our escStrings; a node's tooltip is kept.
 */
enum { DOT_DEFAULTS, DOT_NODE, DOT_EDGE };

static void dot_attrs(struct dot_reader *r, int obj)
{
	for (;;) {
		int t = dot_token(r), tooltip, label;
		const char *save;

		if (t == ']')
			return;
		fuzz_assert(t == T_STR || (t == T_ID && !dot_is_keyword(r->val)));
		tooltip = !strcmp(r->val, "tooltip");
		label = tooltip || !strcmp(r->val, "label");
		fuzz_assert(dot_token(r) == '=');
		fuzz_assert(dot_id(r));
		if (label && obj != DOT_DEFAULTS) {
			char *text = dot_esc_decode(r->val);

			if (obj == DOT_NODE && tooltip) {
				fuzz_assert(r->ntooltips < 3);
				r->tooltips[r->ntooltips++] = text;
			} else {
				free(text);
			}
		}
		save = r->p;
		t = dot_token(r);
		if (t != ',' && t != ';')
			r->p = save;
	}
}

/* A statement, its first token t read; returns 0 at the closing '}'. */
static int dot_stmt(struct dot_reader *r, int t)
{
	const char *save;

	if (t == '}')
		return 0;
	if (t == T_ID && (!strcasecmp(r->val, "graph") || !strcasecmp(r->val, "node") ||
			  !strcasecmp(r->val, "edge"))) {
		fuzz_assert(dot_token(r) == '[');
		dot_attrs(r, DOT_DEFAULTS);
	} else {
		fuzz_assert(t == T_STR || (t == T_ID && !dot_is_keyword(r->val)));
		save = r->p;
		t = dot_token(r);
		if (t == '=') {
			fuzz_assert(dot_id(r));
		} else {
			int edge = t == T_ARROW;

			if (edge) {
				fuzz_assert(dot_id(r));
				r->edges++;
				save = r->p;
				t = dot_token(r);
			} else {
				r->nodes++;
			}
			if (t == '[')
				dot_attrs(r, edge ? DOT_EDGE : DOT_NODE);
			else
				r->p = save;
		}
	}
	save = r->p;
	if (dot_token(r) != ';')
		r->p = save;
	return 1;
}


void dot_read_file(struct dot_reader *r, const char *buf, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->p = buf;
	r->end = buf + len;
	fuzz_assert(dot_token(r) == T_ID && !strcmp(r->val, "digraph"));
	fuzz_assert(dot_id(r));
	fuzz_assert(dot_token(r) == '{');
	while (dot_stmt(r, dot_token(r)))
		;
	fuzz_assert(dot_token(r) == T_END);
}
