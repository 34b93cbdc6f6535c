/*
 * The HTML report's page (html.h): data, pictures, script and style in one
 * file.
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdlib.h>
#include <string.h>
#include "export/html.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/xmltext.h"
#include "utils/banned.h"

/* export/html/report.js and report.css, and the source view's
 * source.js and source.css, embedded by scripts/embed */
extern const char html_report_js[];
extern const char html_report_css[];
extern const char html_source_js[];
extern const char html_source_css[];

int html_add_doc(struct html_page *pg, const char *key, char *json)
{
	if (pg->ndocs == HTML_MAX_DOCS) {
		free(json);
		return error("internal error: too many documents in the HTML report");
	}
	pg->docs[pg->ndocs].key = key;
	pg->docs[pg->ndocs].json = json;
	pg->ndocs++;
	return 0;
}

void html_page_release(struct html_page *pg)
{
	for (size_t i = 0; i < pg->ndocs; i++)
		free(pg->docs[i].json);
	pg->ndocs = 0;
}

char *html_capture(int (*write_fp)(FILE *fp, const void *ctx), const void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int bad;

	if (!fp) {
		error("out of memory building the HTML report");
		return NULL;
	}
	bad = write_fp(fp, ctx) < 0;
	if (fclose(fp) != 0 || bad) {
		free(buf);
		error("out of memory building the HTML report");
		return NULL;
	}
	return buf;
}

/*
 * JSON inside <script>: "</script>" or "<!--" in a name would end or
 * change the element.  '<' appears in JSON only inside strings, where
 * \u003c means the same character.
 */
static void json_in_script(FILE *fp, const char *s)
{
	const char *lt;

	while ((lt = strchr(s, '<'))) {
		fwrite(s, 1, (size_t)(lt - s), fp);
		fputs("\\u003c", fp);
		s = lt + 1;
	}
	fputs(s, fp);
}

/* An SVG document inline: from its <svg element on (graphviz writes an XML
 * declaration, a DOCTYPE and comments before it). */
static void svg_inline(FILE *fp, const char *svg)
{
	const char *start = strstr(svg, "<svg");

	fputs(start ? start : "", fp);
}

/* What a page may load: nothing but itself (the check the tests make is
 * that the browser fetched nothing; this makes it hold). */
#define CSP "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; " \
	    "img-src data:; base-uri 'none'; form-action 'none'"

int html_write(FILE *fp, const struct html_page *pg)
{
	size_t i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"" CSP "\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"egprof " EGPROF_VERSION "\">\n<title>egprof: ", fp);
	xml_text(fp, pg->title, 0);
	fputs("</title>\n<style>\n", fp);
	fputs(html_report_css, fp);
	fputs(html_source_css, fp);
	fputs("</style>\n</head>\n<body class=\"kind-", fp);
	xml_text(fp, pg->kind, 0);
	fputs("\">\n<noscript><p>This report draws its tables and graphs with "
	      "JavaScript; the data is in the egprof-data element of this file "
	      "(JSON).</p></noscript>\n", fp);
	fputs("<script type=\"application/json\" id=\"egprof-data\">\n{\"schema\": "
	      "\"egprof-html\", \"version\": 1, \"generator\": \"egprof " EGPROF_VERSION
	      "\", \"kind\": ", fp);
	/* kind and title are plain strings: written through the same escape */
	fputc('"', fp);
	json_in_script(fp, pg->kind);
	fputs("\"", fp);
	for (i = 0; i < pg->ndocs; i++) {
		fprintf(fp, ",\n\"%s\": ", pg->docs[i].key);
		json_in_script(fp, pg->docs[i].json);
	}
	fputs("\n}\n</script>\n", fp);
	/* the title, the filters and the graph's note as text, not JSON:
	 * the script shows them from these elements */
	fputs("<template id=\"egprof-title\">", fp);
	xml_text(fp, pg->title, 0);
	fputs("</template>\n<template id=\"egprof-filters\">", fp);
	xml_text(fp, pg->filters, 0);
	fputs("</template>\n<template id=\"egprof-source\">", fp);
	xml_text(fp, pg->source, 0);
	fputs("</template>\n<template id=\"egprof-graph-note\">", fp);
	xml_text(fp, pg->graph_note, 0);
	fputs("</template>\n", fp);
	if (pg->graph_svg) {
		fputs("<template id=\"egprof-graph\">", fp);
		svg_inline(fp, pg->graph_svg);
		fputs("</template>\n", fp);
	}
	if (pg->heatmap_svg) {
		fputs("<template id=\"egprof-heatmap\">", fp);
		svg_inline(fp, pg->heatmap_svg);
		fputs("</template>\n", fp);
	}
	/* the source view first: report.js calls it when the page has lines */
	fputs("<script>\n", fp);
	fputs(html_source_js, fp);
	fputs("</script>\n<script>\n", fp);
	fputs(html_report_js, fp);
	fputs("</script>\n</body>\n</html>\n", fp);
	return ferror(fp) ? -1 : 0;
}

static int write_fp(FILE *fp, const void *ctx)
{
	return html_write(fp, ctx);
}

int html_save(struct outset *set, const char *path, const struct html_page *pg)
{
	return outfile_write(set, path, write_fp, pg);
}
