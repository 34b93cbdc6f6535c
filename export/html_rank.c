/*
 * The HTML report of rank statistics (html_views.h): apart from the other
 * views so that egprof-rankstats links only what it draws.
 */
#include <stdio.h>
#include <stdlib.h>
#include "export/html_views.h"
#include "export/html.h"
#include "export/rankstats_export.h"
#include "ranks/heatmap.h"
#include "utils/banned.h"

struct rank_doc {
	const struct rankstats *rs;
	const char *title;
	char *const *files;
};

static int rank_doc_fp(FILE *fp, const void *ctx)
{
	const struct rank_doc *d = ctx;

	return rankstats_export(fp, TABLE_JSON, d->rs, d->title, d->files);
}

struct heatmap_doc {
	const struct heatmap *hm;
	const char *title;
};

static int heatmap_doc_fp(FILE *fp, const void *ctx)
{
	const struct heatmap_doc *d = ctx;

	return heatmap_svg_fp(d->hm, fp, d->title);
}

int html_rankstats(struct outset *set, const char *path, const struct rankstats *rs,
		   const char *title, char *const *files, const struct heatmap *hm)
{
	struct html_page pg = HTML_PAGE_INIT;
	char *svg = NULL, *json;
	int ret = -1;

	pg.kind = "rank-stats";
	pg.title = title;
	if (hm && !(svg = html_capture(heatmap_doc_fp, &(struct heatmap_doc){ hm, title })))
		goto out;
	pg.heatmap_svg = svg;
	json = html_capture(rank_doc_fp, &(struct rank_doc){ rs, title, files });
	if (!json || html_add_doc(&pg, "rankstats", json) < 0)
		goto out;
	ret = html_save(set, path, &pg);
out:
	html_page_release(&pg);
	free(svg);
	return ret;
}
