/*
 * html_source.c - the source view's documents (html_source.h): the rows
 * of the analysis's lines, and the bounded text of their files.
 */
#define _GNU_SOURCE /* getline */
#include "export/html_source.h"

#include <stdlib.h>
#include <string.h>

#include "export/html.h"
#include "export/lines_export.h"
#include "export/table.h"
#include "model/analysis.h"
#include "model/lines.h"
#include "utils/error.h"
#include "utils/infile.h"
#include "utils/banned.h"

/* A range of lines of a file to embed, [lo, hi]. */
struct range {
	int lo, hi;
};

struct want {
	const char *file;
	uint64_t weight;	/* its functions' samples */
	struct range *r;
	size_t n, alloc;
};

static int cmp_mark(const void *l, const void *r)
{
	const struct source_mark *a = *(const struct source_mark *const *)l;
	const struct source_mark *b = *(const struct source_mark *const *)r;
	int c = strcmp(a->file, b->file);

	if (c)
		return c;
	if ((c = strcmp(a->func, b->func)))
		return c;
	return (a->line > b->line) - (a->line < b->line);
}

static int cmp_range(const void *l, const void *r)
{
	const struct range *a = l, *b = r;

	return (a->lo > b->lo) - (a->lo < b->lo);
}

static int cmp_want(const void *l, const void *r)
{
	const struct want *a = l, *b = r;

	if (a->weight != b->weight)
		return a->weight > b->weight ? -1 : 1;
	return strcmp(a->file, b->file);
}

static int add_range(struct want *w, int lo, int hi)
{
	if (w->n == w->alloc) {
		size_t alloc = w->alloc ? 2 * w->alloc : 8;
		struct range *r = realloc(w->r, alloc * sizeof(*r));

		if (!r)
			return -1;
		w->r = r;
		w->alloc = alloc;
	}
	w->r[w->n++] = (struct range){ lo < 1 ? 1 : lo, hi };
	return 0;
}

/* Sorted by first line, overlapping and adjacent ranges joined. */
static void merge_ranges(struct want *w)
{
	size_t k = 0;

	qsort(w->r, w->n, sizeof(*w->r), cmp_range);
	for (size_t i = 0; i < w->n; i++) {
		if (k && w->r[i].lo <= w->r[k - 1].hi + 1) {
			if (w->r[i].hi > w->r[k - 1].hi)
				w->r[k - 1].hi = w->r[i].hi;
		} else {
			w->r[k++] = w->r[i];
		}
	}
	w->n = k;
}

/*
 * The ranges of each file: per function, the span of its sampled lines
 * with the context around it, or when the span is long each sampled line
 * with its context.  sorted: the marks with a file, by file, function,
 * line.
 */
static int wanted(const struct source_mark *const *sorted, size_t n,
		  const struct source_limits *lim, struct want **out, size_t *nout)
{
	struct want *w = calloc(n + 1, sizeof(*w));
	size_t nw = 0;

	if (!w)
		return -1;
	for (size_t i = 0; i < n;) {
		const char *file = sorted[i]->file;
		struct want *cur = &w[nw++];

		cur->file = file;
		while (i < n && !strcmp(sorted[i]->file, file)) {
			size_t k = i;
			int lo = sorted[i]->line, hi = lo;

			for (; k < n && !strcmp(sorted[k]->file, file) &&
			       !strcmp(sorted[k]->func, sorted[i]->func); k++) {
				cur->weight += sorted[k]->samples;
				if (sorted[k]->line > hi)
					hi = sorted[k]->line;
			}
			if (hi - lo <= lim->span_all) {
				if (add_range(cur, lo - lim->context, hi + lim->context) < 0)
					goto oom;
			} else {
				for (size_t j = i; j < k; j++)
					if (add_range(cur, sorted[j]->line - lim->context,
						      sorted[j]->line + lim->context) < 0)
						goto oom;
			}
			i = k;
		}
		merge_ranges(cur);
	}
	qsort(w, nw, sizeof(*w), cmp_want);
	*out = w;
	*nout = nw;
	return 0;
oom:
	for (size_t k = 0; k < nw; k++)
		free(w[k].r);
	free(w);
	return -1;
}

/* One line's text as a JSON string, at most line_max bytes of it (cut at
 * a character's start, then "..."); the bytes written counted in *used. */
static void line_text(FILE *fp, char *text, size_t len, const struct source_limits *lim,
		      size_t *used)
{
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		text[--len] = 0;
	if (len > lim->line_max) {
		len = lim->line_max;
		/* not inside a UTF-8 sequence */
		while (len && ((unsigned char)text[len] & 0xc0) == 0x80)
			len--;
		memcpy(text + len, "...", 4);
		len += 3;
	}
	table_json_string(fp, text);
	*used += len;
}

/* The file's wanted ranges as {"first": N, "text": [...]}; stops at the
 * cap (*full set). */
static void file_text(FILE *fp, FILE *src, const struct want *w,
		      const struct source_limits *lim, size_t *used, int *full)
{
	char *text = NULL;
	size_t cap = 0, r = 0;
	ssize_t len;
	int l = 0, open = 0;

	while (r < w->n && !*full && (len = getline(&text, &cap, src)) >= 0) {
		l++;
		if (l < w->r[r].lo)
			continue;
		if (*used + ((size_t)len > lim->line_max ? lim->line_max + 3 : (size_t)len) >
		    lim->cap_bytes) {
			*full = 1;
			break;
		}
		if (!open)
			fprintf(fp, "%s{\"first\": %d, \"text\": [", r ? ", " : "", l);
		else
			fputs(", ", fp);
		open = 1;
		line_text(fp, text, (size_t)len, lim, used);
		if (l == w->r[r].hi) {
			fputs("]}", fp);
			open = 0;
			r++;
		}
	}
	if (open)
		fputs("]}", fp);
	free(text);
}

int source_doc_write(FILE *fp, const struct source_mark *m, size_t n,
		     const struct source_limits *lim)
{
	const struct source_mark **sorted = malloc((n + 1) * sizeof(*sorted));
	struct want *w = NULL;
	size_t ns = 0, nw = 0, used = 0, nread = 0;
	int full = 0;

	if (!sorted)
		return error("out of memory");
	for (size_t i = 0; i < n; i++)
		if (m[i].file && m[i].line > 0 && m[i].func)
			sorted[ns++] = &m[i];
	qsort(sorted, ns, sizeof(*sorted), cmp_mark);
	if (wanted(sorted, ns, lim, &w, &nw) < 0) {
		free(sorted);
		return error("out of memory");
	}
	fprintf(fp, "{\"schema\": \"egprof-html-sources\", \"version\": 1,\n\"context\": %d, "
		"\"span_all\": %d, \"cap_bytes\": %zu,\n\"files\": [", lim->context, lim->span_all,
		lim->cap_bytes);
	for (size_t i = 0; i < nw; i++) {
		char why[4200];
		FILE *src;

		fprintf(fp, "%s\n{\"file\": ", i ? "," : "");
		table_json_string(fp, w[i].file);
		/* regular files only (utils/infile.h), as -A reads them */
		if (full) {
			fputs(", \"readable\": null, \"why\": null, \"ranges\": [], \"cut\": true}", fp);
			continue;
		}
		src = infile_fopen(w[i].file, why, sizeof(why));
		if (!src) {
			fputs(", \"readable\": false, \"why\": ", fp);
			table_json_string(fp, why);
			fputs(", \"ranges\": [], \"cut\": false}", fp);
			continue;
		}
		fputs(", \"readable\": true, \"why\": null, \"ranges\": [", fp);
		file_text(fp, src, &w[i], lim, &used, &full);
		fclose(src);
		fprintf(fp, "], \"cut\": %s}", full ? "true" : "false");
		nread++;
	}
	/* "cut": the cap stopped this file's text (those after it are
	 * "readable": null, not opened) */
	fprintf(fp, "],\n\"bytes\": %zu, \"truncated\": %s, \"files_read\": %zu}\n", used,
		full ? "true" : "false", nread);
	for (size_t i = 0; i < nw; i++)
		free(w[i].r);
	free(w);
	free(sorted);
	return ferror(fp) ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* The page's documents                                                */

struct lines_doc {
	const struct analysis *a;
	const char *const *label;
};

static int lines_doc_fp(FILE *fp, const void *ctx)
{
	const struct lines_doc *d = ctx;

	if (d->a->nsides == 2)
		return lines_export(fp, TABLE_JSON, d->a->line_diff, d->label,
				    d->a->lines[0]->source);
	return lines_profile_export(fp, TABLE_JSON, d->a->lines[0]);
}

struct sources_doc {
	const struct source_mark *m;
	size_t n;
};

static int sources_doc_fp(FILE *fp, const void *ctx)
{
	const struct sources_doc *d = ctx;
	const struct source_limits lim = SOURCE_LIMITS_INIT;

	return source_doc_write(fp, d->m, d->n, &lim);
}

/* The notes -l and -A print about the lines, once: what was left out,
 * the libraries without line information, the builds that differ. */
static int notes_doc_fp(FILE *fp, const void *ctx)
{
	const struct analysis *a = ctx;
	int first = 1;

	fputc('[', fp);
	for (size_t s = 0; s < a->nsides; s++) {
		const struct line_profile *lp = a->lines[s];
		const char *side = a->nsides == 2 ? (s ? "B: " : "A: ") : "";
		char buf[1200];

		if (lp->unplaced) {
			snprintf(buf, sizeof(buf), "%s%seft out: %.2f seconds of samples in the "
				 "instrumentation, in no known object or without a program counter.",
				 side, side[0] ? "l" : "L", lp->hz > 0 ? (double)lp->unplaced / lp->hz : 0);
			fputs(first ? "" : ",", fp);
			table_json_string(fp, buf);
			first = 0;
		}
		if (lp->skipped[0]) {
			snprintf(buf, sizeof(buf), "%s%sibraries sampled without line information "
				 "(their time is on no line): %s.", side, side[0] ? "l" : "L", lp->skipped);
			fputs(first ? "" : ",", fp);
			table_json_string(fp, buf);
			first = 0;
		}
	}
	if (a->nsides == 2 && a->line_diff->warning[0]) {
		char buf[600];

		snprintf(buf, sizeof(buf), "Warning: %s.", a->line_diff->warning);
		fputs(first ? "" : ",", fp);
		table_json_string(fp, buf);
	}
	fputs("]", fp);
	return ferror(fp) ? -1 : 0;
}

static int add(struct html_page *pg, const char *key,
	       int (*write_fp)(FILE *fp, const void *ctx), const void *ctx)
{
	char *json = html_capture(write_fp, ctx);

	return json ? html_add_doc(pg, key, json) : -1;
}

int html_add_lines(struct html_page *pg, const struct analysis *a, const char *const label[2])
{
	struct source_mark *m;
	size_t n = 0;
	int ret;

	if (!a->lines[0] || (a->nsides == 2 && !a->line_diff))
		return 0;
	if (a->nsides == 2) {
		const struct line_diff *d = a->line_diff;

		if (!(m = malloc((d->n + 1) * sizeof(*m))))
			return error("out of memory");
		for (size_t i = 0; i < d->n; i++)
			m[n++] = (struct source_mark){ d->rows[i].func, d->rows[i].file,
						      d->rows[i].line, d->rows[i].a + d->rows[i].b };
	} else {
		const struct line_profile *lp = a->lines[0];

		if (!(m = malloc((lp->n + 1) * sizeof(*m))))
			return error("out of memory");
		for (size_t i = 0; i < lp->n; i++)
			if (lp->rows[i].samples)
				m[n++] = (struct source_mark){ lp->rows[i].func, lp->rows[i].file,
							      lp->rows[i].line, lp->rows[i].samples };
	}
	ret = add(pg, "lines", lines_doc_fp, &(struct lines_doc){ a, label }) < 0 ||
	      add(pg, "lines_notes", notes_doc_fp, a) < 0 ||
	      add(pg, "sources", sources_doc_fp, &(struct sources_doc){ m, n }) < 0 ? -1 : 0;
	free(m);
	return ret;
}
