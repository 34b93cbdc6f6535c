#ifndef EGPROF_HTML_H
#define EGPROF_HTML_H
/*
 * `--html FILE`: one self-contained HTML file (scripts, styles, data and
 * pictures inline; nothing fetched, so it opens from a file on an
 * air-gapped cluster) for a profile, a diff or rank statistics.
 *
 * The page's data is one JSON document (schema "egprof-html", version 1,
 * doc/html.md) in a <script type="application/json" id="egprof-data">
 * element, made of the documents `--format json` writes, unchanged: the
 * diff's "egprof-diff", the rank statistics' "egprof-rank-stats", the call
 * paths' "egprof-callpath" (export/..._export.h), and for a single profile
 * "egprof-profile" (export/profile_export.h).  The page's script
 * (export/html/report.js, embedded at build time) draws from it: the
 * sortable table with the diff's evidence and noise verdicts, the icicle
 * graph of the call paths (zoom on click; in a diff coloured by each
 * path's verdict, pathdiff_time_verdicts()), the call graph graphviz
 * drew (gml/graph_render.h) and the rank heat map (ranks/heatmap.h),
 * inline SVG both, and a search by function name ('/').
 *
 *   struct html_page pg = HTML_PAGE_INIT;
 *   pg.kind = "diff"; pg.title = "...";
 *   html_add_doc(&pg, "diff", diff_export_json_text);      taken over
 *   pg.graph_svg = svg;                                     borrowed
 *   html_save(outs, "report.html", &pg);
 *   html_page_release(&pg);
 *
 * The views of each command (html_views.c) fill a page from the models.
 */
#include <stddef.h>
#include <stdio.h>

#define HTML_MAX_DOCS 8

struct html_page {
	const char *kind;       /* "profile", "diff", "rank-stats" */
	const char *title;      /* what was read, as the text header says */
	struct {
		const char *key;
		char *json;     /* a JSON value, owned */
	} docs[HTML_MAX_DOCS];
	size_t ndocs;
	const char *graph_svg;  /* the call graph drawn, or NULL */
	const char *graph_note; /* why there is none (shown instead), or NULL */
	const char *heatmap_svg;/* the rank heat map, or NULL */
	const char *source;     /* what every number on the page is, once
				   ("time: call-path samples of each thread,
				   1000 Hz ..."), or NULL */
	const char *filters;    /* the --focus/--root/--depth/--exclude in force,
				   as text, or NULL */
};
#define HTML_PAGE_INIT { NULL, NULL, { { NULL, NULL } }, 0, NULL, NULL, NULL, NULL, NULL }

/* Take over `json` (a JSON value) as the data's member `key`.  0, or -1
 * (reported) when the page is full; json is freed then. */
int html_add_doc(struct html_page *pg, const char *key, char *json);
void html_page_release(struct html_page *pg);

/* What write_fp(fp, ctx) writes, as a malloc'd string; NULL (reported)
 * when it fails or memory runs out. */
char *html_capture(int (*write_fp)(FILE *fp, const void *ctx), const void *ctx);

int html_write(FILE *fp, const struct html_page *pg);
/* Written as one of the command's outputs (utils/outfile.h). */
struct outset;
int html_save(struct outset *set, const char *path, const struct html_page *pg);

#endif
