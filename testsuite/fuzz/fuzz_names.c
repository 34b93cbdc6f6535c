/*
 * Names through every writer's escaping, one name an input (the bytes up to
 * the first NUL), each result checked strictly in process:
 *  - printable (utils/printable.h, which graph_finish applies to every name
 *    before the graph writers see it): the result is printable throughout,
 *    and a printable name is left as it is;
 *  - GraphML (graphml_write_text, then libxml2's escaping): a one-element
 *    document libxml2 reads back as well-formed, its text the name exactly;
 *  - DOT (dot_escstring, cgraph's agcanonStr, dot_fix_bare: what agwrite
 *    writes for a tooltip): one ID of the DOT grammar (dot_reader.h) whose
 *    escString decodes to the name exactly;
 *  - GML (gml_write_escaped): printable ASCII without '"', every '&' a
 *    known entity, decoding to the name exactly;
 *  - folded (folded_write): "main 1\nmain;FRAME 1\n", FRAME the name
 *    made printable, ';' as ':'.
 * The whole files are checked by fuzz_writers (slower: 1.5 ms an input).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <graphviz/cgraph.h>
#include <libxml/parser.h>
#include <libxml/xmlwriter.h>
#include "gml/dot_write.h"
#include "gml/gml_write.h"
#include "gml/graphml_write.h"
#include "callpath/folded.h"
#include "model/callpath_model.h"
#include "utils/printable.h"
#include "testsuite/fuzz/dot_reader.h"
#include "testsuite/fuzz/fuzz_graphs.h"

FUZZ_GRAPHS_INITIALIZE

static void check_printable(const char *name, const char *p)
{
	size_t i, k;
	int was_printable = 1;

	for (i = 0; p[i]; i += k)
		fuzz_assert((k = printable_char((const unsigned char *)p + i)) > 0);
	for (i = 0; name[i]; i += k ? k : 1)
		was_printable &= (k = printable_char((const unsigned char *)name + i)) > 0;
	fuzz_assert(!was_printable || !strcmp(name, p));
}

static void check_graphml(const char *p)
{
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w;
	xmlDocPtr doc;
	xmlChar *text;

	fuzz_assert(buf && (w = xmlNewTextWriterMemory(buf, 0)));
	fuzz_assert(xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL) >= 0);
	fuzz_assert(xmlTextWriterStartElement(w, BAD_CAST "n") >= 0);
	fuzz_assert(graphml_write_text(w, p) == 0);
	fuzz_assert(xmlTextWriterEndDocument(w) >= 0);
	xmlFreeTextWriter(w);
	doc = xmlReadMemory((const char *)xmlBufferContent(buf), xmlBufferLength(buf),
			    "name.xml", NULL, XML_PARSE_NONET);
	fuzz_assert(doc != NULL);
	text = xmlNodeGetContent(xmlDocGetRootElement(doc));
	fuzz_assert(text && !strcmp((const char *)text, p));
	xmlFree(text);
	xmlFreeDoc(doc);
	xmlBufferFree(buf);
}

static void check_dot(const char *p)
{
	struct dot_reader r;
	char *esc = NULL, *text, quoted[8];
	size_t cap = 0;
	const char *v;
	int t;

	fuzz_assert(dot_escstring(p, &esc, &cap) != NULL);
	v = dot_fix_bare(agcanonStr(esc), quoted);
	memset(&r, 0, sizeof(r));
	r.p = v;
	r.end = v + strlen(v);
	t = dot_token(&r);
	fuzz_assert(t == T_STR || (t == T_ID && !dot_is_keyword(r.val)));
	text = dot_esc_decode(r.val);
	fuzz_assert(!strcmp(text, p));
	fuzz_assert(dot_token(&r) == T_END);
	free(text);
	free(r.val);
	free(esc);
}

/* The UTF-8 of code point c at o; its length. */
static size_t utf8_put(char *o, unsigned long c)
{
	if (c < 0x80)
		return (size_t)(o[0] = (char)c, 1);
	if (c < 0x800) {
		o[0] = (char)(0xc0 | c >> 6);
		o[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		o[0] = (char)(0xe0 | c >> 12);
		o[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		o[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	fuzz_assert(c <= 0x10ffff);
	o[0] = (char)(0xf0 | c >> 18);
	o[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	o[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

static void check_gml(const char *p)
{
	static const struct { const char *ent; char c; } ents[] = {
		{ "&amp;", '&' }, { "&quot;", '"' }, { "&lt;", '<' }, { "&gt;", '>' },
	};
	char *buf = NULL, *dec, *o;
	size_t len = 0, i, k;
	FILE *mem = open_memstream(&buf, &len);

	fuzz_assert(mem != NULL);
	gml_write_escaped(mem, p);
	fuzz_assert(fclose(mem) == 0);
	o = dec = malloc(len + 1);
	fuzz_assert(dec != NULL);
	for (i = 0; i < len;) {
		unsigned char c = (unsigned char)buf[i];

		fuzz_assert(c >= 0x20 && c < 0x7f && c != '"');
		if (c != '&') {
			*o++ = (char)c;
			i++;
			continue;
		}
		for (k = 0; k < sizeof(ents) / sizeof(ents[0]); k++)
			if (!strncmp(buf + i, ents[k].ent, strlen(ents[k].ent)))
				break;
		if (k < sizeof(ents) / sizeof(ents[0])) {
			*o++ = ents[k].c;
			i += strlen(ents[k].ent);
		} else {
			char *end;
			unsigned long cp;

			fuzz_assert(buf[i + 1] == '#' && buf[i + 2] >= '0' && buf[i + 2] <= '9');
			cp = strtoul(buf + i + 2, &end, 10);
			fuzz_assert(*end == ';');
			o += utf8_put(o, cp);
			i = (size_t)(end + 1 - buf);
		}
	}
	*o = '\0';
	fuzz_assert(!strcmp(dec, p));
	free(dec);
	free(buf);
}

static void check_folded(const char *name, const char *p)
{
	struct callpath_model *m = callpath_model_new();
	struct folded *f = NULL;
	uint32_t idx, site;
	char *buf = NULL, *want;
	size_t len = 0, i;
	FILE *mem;

	fuzz_assert(m != NULL);
	site = callpath_model_intern(m, "site");
	fuzz_assert(callpath_model_add(m, CALLPATH_NONE, callpath_model_intern(m, "main"),
				       site, 1, &idx) == 0);
	fuzz_assert(callpath_model_add(m, idx, callpath_model_intern(m, name),
				       site, 1, &idx) == 0);
	fuzz_assert(folded_build(m, FOLDED_CALLS, &f) == 0);
	mem = open_memstream(&buf, &len);
	fuzz_assert(mem && folded_write(mem, f) == 0 && fclose(mem) == 0);
	want = malloc(2 * strlen(p) + 32);
	fuzz_assert(want != NULL);
	/* folded.c makes the raw name printable itself, ';' as ':' */
	len = (size_t)snprintf(want, 2 * strlen(p) + 32, "main 1\nmain;%s 1\n", p);
	for (i = strlen("main 1\nmain;"); i < len; i++)
		if (want[i] == ';')
			want[i] = ':';
	fuzz_assert(!strcmp(buf, want));
	free(want);
	free(buf);
	folded_free(f);
	callpath_model_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *name = strndup((const char *)data, size), *p;

	fuzz_assert(name != NULL);
	p = strdup(name);
	fuzz_assert(p && printable_fix(&p) == 0);
	check_printable(name, p);
	check_graphml(p);
	check_dot(p);
	check_gml(p);
	check_folded(name, p);
	free(p);
	free(name);
	return 0;
}
