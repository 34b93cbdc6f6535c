/*
 * The calling-context tree as records (callpath_export.h).  A new field
 * is one row in frame_cols[].
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "export/callpath_export.h"
#include "utils/error.h"
#include "utils/banned.h"

struct ctx {
	struct table_array a;   /* first: table_get_field reads it */
	const struct callpath_model *m;
	char **paths;           /* per frame: "main;f;g" */
	uint32_t *depth;
};

#define FRAME(f) offsetof(struct callpath_frame, f)

static int get_parent(const void *c, size_t row, const struct table_column *col,
		      union table_value *v)
{
	const struct callpath_frame *f = &((const struct ctx *)c)->m->frames[row];

	(void)col;
	if (f->parent == CALLPATH_NONE)
		return 0;
	v->u = f->parent;
	return 1;
}

static int get_name(const void *c, size_t row, const struct table_column *col,
		    union table_value *v)
{
	const struct ctx *x = c;
	const struct callpath_frame *f = &x->m->frames[row];

	v->s = x->m->names[col->arg ? f->site : f->func];
	return 1;
}

static int get_id(const void *c, size_t row, const struct table_column *col,
		  union table_value *v)
{
	(void)c, (void)col;
	v->u = row;
	return 1;
}

static int get_depth(const void *c, size_t row, const struct table_column *col,
		     union table_value *v)
{
	(void)col;
	v->u = ((const struct ctx *)c)->depth[row];
	return 1;
}

static int get_path(const void *c, size_t row, const struct table_column *col,
		    union table_value *v)
{
	(void)col;
	v->s = ((const struct ctx *)c)->paths[row];
	return 1;
}

static const struct table_column frame_cols[] = {
	{ "id", TCOL_U64, get_id, 0 },
	{ "parent", TCOL_U64, get_parent, 0 },
	{ "depth", TCOL_U64, get_depth, 0 },
	{ "function", TCOL_STR, get_name, 0 },
	{ "call_site", TCOL_STR, get_name, 1 },
	{ "calls", TCOL_U64, table_get_field, FRAME(count) },
	{ "folded", TCOL_INT, table_get_field, FRAME(folded) },
	{ "recursive_calls", TCOL_U64, table_get_field, FRAME(recursive) },
	{ "self_samples", TCOL_U64, table_get_field, FRAME(samples) },
	{ "path", TCOL_STR, get_path, 0 },
};

#define NCOLS(t) (sizeof(t) / sizeof((t)[0]))

/* Each frame's path, root first, names joined by ';' (as folded stacks).
 * Parents come first (report.h), so a path is its parent's plus one. */
static int build_paths(struct ctx *x)
{
	const struct callpath_model *m = x->m;
	uint32_t i;

	x->paths = calloc(m->nr_frames ? m->nr_frames : 1, sizeof(char *));
	x->depth = calloc(m->nr_frames ? m->nr_frames : 1, sizeof(uint32_t));
	if (!x->paths || !x->depth)
		return -1;
	for (i = 0; i < m->nr_frames; i++) {
		const struct callpath_frame *f = &m->frames[i];
		const char *up = f->parent == CALLPATH_NONE ? NULL : x->paths[f->parent];
		const char *name = m->names[f->func];
		size_t n = (up ? strlen(up) + 1 : 0) + strlen(name) + 1;

		if (!(x->paths[i] = malloc(n)))
			return -1;
		snprintf(x->paths[i], n, "%s%s%s", up ? up : "", up ? ";" : "", name);
		x->depth[i] = f->parent == CALLPATH_NONE ? 1 : x->depth[f->parent] + 1;
	}
	return 0;
}

int callpath_export(FILE *fp, enum table_format fmt, const struct callpath_model *m,
		    const char *source)
{
	struct table_doc doc;
	struct ctx x = { { m->frames, sizeof(*m->frames), NULL }, m, NULL, NULL };
	int ret = -1;
	uint32_t i;

	if (build_paths(&x) < 0) {
		error("out of memory");
		goto out;
	}
	table_begin(&doc, fp, fmt, "egprof-callpath", CALLPATH_EXPORT_VERSION);
	table_field_str(&doc, "source", source);
	table_field_u64(&doc, "total_calls", m->total);
	if (table_csv_columns(&doc, frame_cols, NCOLS(frame_cols)) < 0) {
		table_end(&doc);
		goto out;
	}
	table_write(&doc, "frames", frame_cols, NCOLS(frame_cols), m->nr_frames, &x);
	ret = table_end(&doc);
out:
	for (i = 0; x.paths && i < m->nr_frames; i++)
		free(x.paths[i]);
	free(x.paths);
	free(x.depth);
	return ret;
}
