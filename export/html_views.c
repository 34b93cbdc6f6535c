/*
 * The HTML report of a profile, a diff and rank statistics
 * (html_views.h): each document written by its --format json exporter.
 */
#define _GNU_SOURCE /* asprintf */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/html_views.h"
#include "export/html.h"
#include "export/html_source.h"
#include "export/table.h"
#include "export/diff_export.h"
#include "export/profile_export.h"
#include "callpath/folded.h"
#include "callpath/pathdiff.h"
#include "model/callpath_model.h"
#include "format/sidecar.h"
#include "diff/diff.h"
#include "gml/graph.h"
#include "model/analysis.h"
#include "model/run.h"
#include "utils/error.h"
#include "utils/banned.h"

/* ------------------------------------------------------------------------ */
/* Each exporter into a string                                               */

struct profile_doc {
	const struct profile *p;
	const char *in;
	const char *source;
};

static int profile_doc_fp(FILE *fp, const void *ctx)
{
	const struct profile_doc *d = ctx;

	return profile_export(fp, TABLE_JSON, d->p, d->in, d->source);
}

struct callpath_doc {
	const struct callpath_model *m;
	const char *source;
};

static void u64_array(FILE *fp, const char *key, const struct callpath_model *m,
		      uint64_t (*get)(const struct callpath_frame *f, const uint32_t *map),
		      const uint32_t *map)
{
	fprintf(fp, ",\n\"%s\": [", key);
	for (uint32_t i = 0; i < m->nr_frames; i++)
		fprintf(fp, "%s%llu", i ? "," : "",
			(unsigned long long)get(&m->frames[i], map));
	fputc(']', fp);
}

static uint64_t get_func(const struct callpath_frame *f, const uint32_t *map)
{
	return map[f->func];
}

static uint64_t get_calls(const struct callpath_frame *f, const uint32_t *map)
{
	(void)map;
	return f->count;
}

static uint64_t get_samples(const struct callpath_frame *f, const uint32_t *map)
{
	(void)map;
	return f->samples;
}

static uint64_t get_folded(const struct callpath_frame *f, const uint32_t *map)
{
	(void)map;
	return (uint64_t)f->folded;
}

static uint64_t get_recursive(const struct callpath_frame *f, const uint32_t *map)
{
	(void)map;
	return f->recursive;
}

/* 0 for a frame of a call, else 1 + where the sampled code ran (a
 * library's, the instrumentation's: model/leaves.h); no calls counted */
static uint64_t get_leaf(const struct callpath_frame *f, const uint32_t *map)
{
	(void)map;
	return f->leaf;
}

/*
 * The threads the sidecar kept apart (model/callpath_model.h): "threads",
 * one record each (index, tid, name, kind: main, thread or other, threads
 * summed, and its samples and calls in all), and "thread_values", sparse
 * columns of (frame, thread, calls, samples) in frame order.  Left out
 * when the run has none.
 */
static void thread_columns(FILE *fp, const struct callpath_model *m)
{
	const char *col[4] = { "frame", "thread", "calls", "samples" };

	if (!m->nr_threads)
		return;
	fputs(",\n\"threads\": [", fp);
	for (uint32_t t = 0; t < m->nr_threads; t++) {
		const struct callpath_thread *th = &m->threads[t];
		uint64_t samples = 0, calls = 0;

		for (size_t k = 0; k < m->nr_thread_values; k++)
			if (m->thread_values[k].thread == t) {
				samples += m->thread_values[k].samples;
				calls += m->thread_values[k].calls;
			}
		fprintf(fp, "%s\n{\"index\": %u, \"tid\": %llu, \"name\": ", t ? "," : "", t,
			(unsigned long long)th->tid);
		table_json_string(fp, th->name);
		fprintf(fp, ", \"kind\": \"%s\", \"threads\": %u, \"samples\": %llu, \"calls\": ",
			th->flags & SIDECAR_THREAD_OTHER ? "other" :
			th->flags & SIDECAR_THREAD_MAIN ? "main" : "thread", th->threads,
			(unsigned long long)samples);
		if (m->calls_unmeasured)
			fputs("null}", fp);
		else
			fprintf(fp, "%llu}", (unsigned long long)calls);
	}
	fputs("],\n\"thread_values\": {", fp);
	for (int c = 0; c < 4; c++) {
		fprintf(fp, "%s\"%s\": ", c ? ", " : "", col[c]);
		if (c == 2 && m->calls_unmeasured) {
			fputs("null", fp);
			continue;
		}
		fputc('[', fp);
		for (size_t k = 0; k < m->nr_thread_values; k++) {
			const struct callpath_thread_value *v = &m->thread_values[k];
			unsigned long long x = c == 0 ? v->frame : c == 1 ? v->thread :
					       c == 2 ? v->calls : v->samples;

			fprintf(fp, k ? ",%llu" : "%llu", x);
		}
		fputc(']', fp);
	}
	fputc('}', fp);
}

/*
 * The calling-context tree as columns ("egprof-callpath-columns",
 * doc/html.md): the records of --callpath --format json's "frames"
 * (frame i is record id i), without their path texts, which grow with the
 * square of the depth (59 MB for Lua's test suite, 4 MB as columns).
 * parent is -1 at the top; function indexes names.
 */
static int callpath_doc_fp(FILE *fp, const void *ctx)
{
	const struct callpath_doc *d = ctx;
	const struct callpath_model *m = d->m;
	uint32_t *map = malloc(((size_t)m->nr_names + 1) * sizeof(*map)), n = 0, i;

	if (!map)
		return error("out of memory");
	for (i = 0; i < m->nr_names; i++)
		map[i] = UINT32_MAX;
	fputs("{\"schema\": \"egprof-callpath-columns\", \"version\": 1,\n\"source\": ", fp);
	if (d->source)
		table_json_string(fp, d->source);
	else
		fputs("null", fp);
	/* the samples' own rate: the page converts them with it, never with
	 * another document's */
	fprintf(fp, ",\n\"hz\": %.17g", m->hz);
	/* sampled paths counted no call: null, not zeros */
	if (m->calls_unmeasured)
		fputs(",\n\"calls_measured\": false,\n\"total_calls\": null,\n\"names\": [", fp);
	else
		fprintf(fp, ",\n\"calls_measured\": true,\n\"total_calls\": %llu,\n\"names\": [",
			(unsigned long long)m->total);
	for (i = 0; i < m->nr_frames; i++) {
		uint32_t f = m->frames[i].func;

		if (map[f] != UINT32_MAX)
			continue;
		map[f] = n;
		if (n++)
			fputc(',', fp);
		table_json_string(fp, m->names[f]);
	}
	fputs("],\n\"parent\": [", fp);
	for (i = 0; i < m->nr_frames; i++)
		fprintf(fp, i ? ",%lld" : "%lld", m->frames[i].parent == CALLPATH_NONE ? -1LL
					: (long long)m->frames[i].parent);
	fputc(']', fp);
	u64_array(fp, "function", m, get_func, map);
	if (m->calls_unmeasured)
		fputs(",\n\"calls\": null", fp);
	else
		u64_array(fp, "calls", m, get_calls, map);
	u64_array(fp, "self_samples", m, get_samples, map);
	u64_array(fp, "folded", m, get_folded, map);
	if (m->calls_unmeasured)
		fputs(",\n\"recursive_calls\": null", fp);
	else
		u64_array(fp, "recursive_calls", m, get_recursive, map);
	u64_array(fp, "leaf", m, get_leaf, map);
	thread_columns(fp, m);
	fputs("\n}\n", fp);
	free(map);
	return ferror(fp) ? -1 : 0;
}

struct diff_doc {
	const struct diff *d;
	const char *const *label;
	double noise_sigmas;
	const char *source;
};

static int diff_doc_fp(FILE *fp, const void *ctx)
{
	const struct diff_doc *d = ctx;

	return diff_export(fp, TABLE_JSON, d->d, d->label, d->noise_sigmas, d->source);
}

static int add(struct html_page *pg, const char *key,
	       int (*write_fp)(FILE *fp, const void *ctx), const void *ctx)
{
	char *json = html_capture(write_fp, ctx);

	return json ? html_add_doc(pg, key, json) : -1;
}

/* ------------------------------------------------------------------------ */
/* The verdict of each path whose self time changed                          */

struct pathdiff_doc {
	const struct pathdiff *d;
	struct pathdiff_time_opts t;
	const struct pathdiff_row **rows;
	const unsigned char **noise;	/* the time table's '~' of each row */
	size_t n;
};

static int get_stack(const void *c, size_t row, const struct table_column *col,
		     union table_value *v)
{
	(void)col;
	v->s = ((const struct pathdiff_doc *)c)->rows[row]->stack;
	return 1;
}

static int get_side(const void *c, size_t row, const struct table_column *col,
		    union table_value *v)
{
	const struct pathdiff_row *r = ((const struct pathdiff_doc *)c)->rows[row];

	v->u = col->arg ? r->b : r->a;
	return 1;
}

static int get_noise(const void *c, size_t row, const struct table_column *col,
		     union table_value *v)
{
	const struct pathdiff_doc *d = c;

	(void)col;
	v->b = *d->noise[row];
	return 1;
}

static const struct table_column path_cols[] = {
	{ "stack", TCOL_STR, get_stack, 0 },
	{ "samples_base", TCOL_U64, get_side, 0 },
	{ "samples_second", TCOL_U64, get_side, 1 },
	{ "within_noise", TCOL_BOOL, get_noise, 0 },
};

static int pathdiff_doc_fp(FILE *fp, const void *ctx)
{
	const struct pathdiff_doc *d = ctx;
	struct table_doc doc;

	table_begin(&doc, fp, TABLE_JSON, "egprof-pathdiff", 1);
	table_field_str(&doc, "convention", "self samples per path, base and second");
	table_field_num(&doc, "hz_base", d->t.hz_a);
	table_field_num(&doc, "hz_second", d->t.hz_b);
	table_field_num(&doc, "noise_sigmas", d->t.noise_sigmas);
	table_write(&doc, "paths", path_cols, sizeof(path_cols) / sizeof(path_cols[0]), d->n, d);
	return table_end(&doc);
}

/* Both sides' self samples per path, compared by the analysis. */
static int add_pathdiff(struct html_page *pg, const struct analysis *a, double noise_sigmas)
{
	const struct pathdiff *pd = a->paths_time;
	struct pathdiff_doc doc = { pd, { a->paths[0]->hz, a->paths[1]->hz, noise_sigmas, 0,
				  a->paths[0]->metric.name[0] ? a->paths[0]->metric.name : NULL },
				  NULL, NULL, 0 };
	int ret = -1;

	if (!(doc.rows = malloc((pd->nr + 1) * sizeof(*doc.rows))) ||
	    !(doc.noise = malloc((pd->nr + 1) * sizeof(*doc.noise)))) {
		error("out of memory");
		goto out;
	}
	for (size_t i = 0; i < pd->nr; i++)
		if (pd->rows[i].a != pd->rows[i].b) {
			doc.noise[doc.n] = &a->paths_time_noise[i];
			doc.rows[doc.n++] = &pd->rows[i];
		}
	ret = add(pg, "pathdiff", pathdiff_doc_fp, &doc);
out:
	free(doc.noise);
	free(doc.rows);
	return ret;
}

/* ------------------------------------------------------------------------ */

static const char *not_drawn = "The call graph is not drawn: it has too many functions "
	"to lay out quickly; raise --node-thres/--edge-thres or use --focus, --root or --depth.";

int html_profile(struct outset *set, const char *path, const struct analysis *a,
		 const char *graph_svg)
{
	const struct profile *p = a->funcs[0];
	const struct run *r = a->run[0];
	struct html_page pg = HTML_PAGE_INIT;
	char *title = graph_profile_name(p);
	int ret = -1;

	pg.kind = "profile";
	pg.title = title ? title : p->binary;
	pg.graph_svg = graph_svg;
	pg.graph_note = graph_svg ? NULL : not_drawn;
	pg.filters = a->filters;
	pg.source = a->source;
	if (add(&pg, "profile", profile_doc_fp, &(struct profile_doc){ p, a->in, a->source }) < 0 ||
	    (a->paths[0] && a->paths[0]->nr_frames &&
	     add(&pg, "callpath", callpath_doc_fp,
		 &(struct callpath_doc){ a->paths[0], r->paths_source }) < 0) ||
	    html_add_lines(&pg, a, (const char *const[2]){ NULL, NULL }) < 0)
		goto out;
	ret = html_save(set, path, &pg);
out:
	html_page_release(&pg);
	free(title);
	return ret;
}

int html_diff(struct outset *set, const char *path, const struct analysis *a,
	      const char *const label[2], double noise_sigmas, const char *graph_svg)
{
	struct html_page pg = HTML_PAGE_INIT;
	char *title = NULL;
	int ret = -1;

	if (asprintf(&title, "%s minus %s", label[0], label[1]) < 0)
		title = NULL;
	pg.kind = "diff";
	pg.title = title ? title : "diff";
	pg.graph_svg = graph_svg;
	pg.graph_note = graph_svg ? NULL : not_drawn;
	pg.filters = a->filters;
	pg.source = a->source;
	if (add(&pg, "diff", diff_doc_fp,
		&(struct diff_doc){ &a->view, label, noise_sigmas, a->source }) < 0)
		goto out;
	if (a->paths[0] && a->paths[1] &&
	    (add(&pg, "callpath_base", callpath_doc_fp,
		 &(struct callpath_doc){ a->paths[0], label[0] }) < 0 ||
	     add(&pg, "callpath_second", callpath_doc_fp,
		 &(struct callpath_doc){ a->paths[1], label[1] }) < 0 ||
	     (a->paths_time && add_pathdiff(&pg, a, noise_sigmas) < 0)))
		goto out;
	if (html_add_lines(&pg, a, label) < 0)
		goto out;
	ret = html_save(set, path, &pg);
out:
	html_page_release(&pg);
	free(title);
	return ret;
}
