/*
 * Names through the views' writers (issue 25): the input, split at its
 * first NUL, gives two function names.
 *  - The heat map's SVG (ranks/heatmap.c, written as text): libxml2 must
 *    find it well-formed, each row's data-function the name made printable
 *    (utils/printable.h), each row's <text> and every cell's <title> start
 *    with it.
 *  - pprof (export/pprof.c): the function's name comes back, byte for byte,
 *    from the string table of the encoded message (a small reader here).
 *  - The HTML report's JSON (export/html.c): a document holding the names
 *    as table.h writes strings, put into the page's <script> element, has
 *    no "</" and no "<!--" (either would end or change the element).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include "export/html.h"
#include "export/pprof.h"
#include "export/table.h"
#include "ranks/heatmap.h"
#include "utils/printable.h"
#include "testsuite/fuzz/fuzz.h"

static void xml_quiet(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	xmlSetGenericErrorFunc(NULL, xml_quiet);
	return 0;
}

static char *capture(int (*w)(FILE *, const void *), const void *ctx, size_t *len)
{
	char *buf = NULL;
	FILE *mem = open_memstream(&buf, len);

	fuzz_assert(mem != NULL);
	fuzz_assert(w(mem, ctx) == 0);
	fuzz_assert(fclose(mem) == 0);
	return buf;
}

struct svg_ctx {
	const struct heatmap *hm;
};

static int svg_fp(FILE *fp, const void *ctx)
{
	return heatmap_svg_fp(((const struct svg_ctx *)ctx)->hm, fp, "fuzz");
}

static int starts_with(const xmlChar *s, const char *prefix)
{
	return s && !strncmp((const char *)s, prefix, strlen(prefix));
}

static void check_svg(char *const names[2])
{
	double mean[2] = { 1, 2 }, cell[4] = { 0.5, 1.5, 1, 3 };
	uint64_t max_rank[2] = { 1, 1 };
	struct heatmap hm = { 2, 2, 2, (char **)names, mean, cell, max_rank };
	char *printable[2];
	size_t len;
	char *svg = capture(svg_fp, &(struct svg_ctx){ &hm }, &len);
	xmlDocPtr doc = xmlReadMemory(svg, (int)len, "fuzz.svg", NULL, XML_PARSE_NONET);
	xmlNodePtr g;
	int row = 0;

	fuzz_assert(doc != NULL);
	for (int i = 0; i < 2; i++) {
		printable[i] = strdup(names[i]);
		fuzz_assert(printable[i] && printable_fix(&printable[i]) == 0);
	}
	for (g = xmlDocGetRootElement(doc)->children; g; g = g->next) {
		xmlChar *fn;
		int titles = 0, texts = 0;

		if (g->type != XML_ELEMENT_NODE || xmlStrcmp(g->name, BAD_CAST "g"))
			continue;
		fuzz_assert(row < 2);
		fn = xmlGetProp(g, BAD_CAST "data-function");
		fuzz_assert(fn && !strcmp((const char *)fn, printable[row]));
		xmlFree(fn);
		for (xmlNodePtr c = g->children; c; c = c->next) {
			xmlChar *t;

			if (c->type != XML_ELEMENT_NODE)
				continue;
			if (!xmlStrcmp(c->name, BAD_CAST "text") && !texts++) {
				/* the label: the name, cut at 40 characters */
				char cut[64 * 4];
				size_t k = 0, chars = 0;
				const unsigned char *p = (const unsigned char *)printable[row];

				while (*p && chars < 40 && k + 4 < sizeof(cut)) {
					size_t n = printable_char(p);

					memcpy(cut + k, p, n);
					k += n;
					p += n;
					chars++;
				}
				cut[k] = 0;
				t = xmlNodeGetContent(c);
				fuzz_assert(starts_with(t, cut));
				xmlFree(t);
			}
			if (!xmlStrcmp(c->name, BAD_CAST "rect") && c->children) {
				t = xmlNodeGetContent(c);
				fuzz_assert(starts_with(t, printable[row]));
				xmlFree(t);
				titles++;
			}
		}
		fuzz_assert(titles == 2 && texts >= 1);
		row++;
	}
	fuzz_assert(row == 2);
	xmlFreeDoc(doc);
	free(printable[0]);
	free(printable[1]);
	free(svg);
}

/* The strings of a profile.proto message (field 6), in order. */
static int has_string(const unsigned char *p, size_t n, const char *want)
{
	const unsigned char *end = p + n;

	while (p < end) {
		uint64_t key = 0, v = 0;
		int shift = 0;

		do {
			fuzz_assert(p < end);
			key |= (uint64_t)(*p & 0x7f) << shift;
			shift += 7;
		} while (*p++ & 0x80);
		shift = 0;
		do {
			fuzz_assert(p < end);
			v |= (uint64_t)(*p & 0x7f) << shift;
			shift += 7;
		} while (*p++ & 0x80);
		if ((key & 7) == 0)
			continue;
		fuzz_assert((key & 7) == 2 && v <= (uint64_t)(end - p));
		if ((key >> 3) == 6 && v == strlen(want) && !memcmp(p, want, v))
			return 1;
		p += v;
	}
	return 0;
}

static void check_pprof(char *const names[2])
{
	struct pprof *pp = pprof_new();
	unsigned char *buf;
	size_t len;
	uint64_t loc[2];

	fuzz_assert(pp != NULL);
	pprof_sample_type(pp, "cpu", "nanoseconds");
	for (int i = 0; i < 2; i++)
		loc[i] = pprof_location(pp, 0, 0, pprof_function(pp, names[i], names[i], NULL, 0), 0);
	pprof_sample(pp, loc, 2, (int64_t[]){ 1 }, NULL, NULL);
	fuzz_assert(pprof_encode(pp, &buf, &len) == 0);
	fuzz_assert(has_string(buf, len, names[0]) && has_string(buf, len, names[1]));
	free(buf);
	pprof_free(pp);
}

static int json_fp(FILE *fp, const void *ctx)
{
	char *const *names = ctx;

	fputc('[', fp);
	table_json_string(fp, names[0]);
	fputc(',', fp);
	table_json_string(fp, names[1]);
	fputc(']', fp);
	return 0;
}

static int page_fp(FILE *fp, const void *ctx)
{
	return html_write(fp, ctx);
}

static void check_html(char *const names[2])
{
	struct html_page pg = HTML_PAGE_INIT;
	size_t len;
	char *json = html_capture(json_fp, names), *page, *data, *end;

	fuzz_assert(json != NULL);
	pg.kind = "profile";
	pg.title = names[0];
	fuzz_assert(html_add_doc(&pg, "names", json) == 0);
	page = capture(page_fp, &pg, &len);
	data = strstr(page, "id=\"egprof-data\">");
	fuzz_assert(data != NULL);
	end = strstr(data, "</script>");
	fuzz_assert(end != NULL);
	*end = 0;
	fuzz_assert(!strstr(data + 17, "<"));
	html_page_release(&pg);
	free(page);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 2), *names[2];
	size_t n1;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = buf[size + 1] = 0;
	n1 = strlen(buf);
	names[0] = buf;
	names[1] = buf + (n1 < size ? n1 + 1 : size + 1);
	check_svg(names);
	check_pprof(names);
	check_html(names);
	free(buf);
	return 0;
}
