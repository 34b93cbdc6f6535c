/*
 * The calling-context tree as records (callpath_export.h).  A new field
 * is one row in frame_cols[].
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "export/callpath_export.h"
#include "model/elide.h"
#include "utils/error.h"
#include "utils/banned.h"

/* The path of the row being written, made when asked: every frame's path
 * kept at once would cost the tree's depth per frame (the paths of a
 * recursion 20,000 deep are 200 million names). */
struct path_text {
	struct path_elider pe;  /* deep paths' middle left out (elide.h) */
	uint32_t *parents;
	char *s;
	size_t len, cap;
};

struct ctx {
	struct table_array a;   /* first: table_get_field reads it */
	const struct callpath_model *m;
	struct path_text *pt;
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
	v->u = ((const struct ctx *)c)->pt->pe.depth[row];
	return 1;
}

static int put_text(struct path_text *pt, const char *s, size_t n)
{
	if (pt->len + n + 1 > pt->cap) {
		size_t cap = 2 * (pt->len + n + 1);
		char *ns = realloc(pt->s, cap);

		if (!ns)
			return -1;
		pt->s = ns;
		pt->cap = cap;
	}
	memcpy(pt->s + pt->len, s, n);
	pt->len += n;
	pt->s[pt->len] = '\0';
	return 0;
}

/* "main;f;g": the names root first, joined by ';' (as folded stacks), a
 * deep path's middle left out; NULL (an empty field) when out of memory. */
static int get_path(const void *c, size_t row, const struct table_column *col,
		    union table_value *v)
{
	const struct ctx *x = c;
	struct path_text *pt = x->pt;
	uint32_t frames[ELIDE_FRAMES], omitted, k;
	char marker[ELIDE_MARKER_MAX];
	int bad = 0;

	(void)col;
	k = path_elider_frames(&pt->pe, (uint32_t)row, frames, &omitted);
	pt->len = 0;
	for (uint32_t d = 0; d < k; d++) {
		const char *name = x->m->names[x->m->frames[frames[d]].func];

		if (d == ELIDE_HEAD && omitted)
			bad |= put_text(pt, ";", 1) |
			       put_text(pt, marker, elide_marker(marker, omitted));
		if (d)
			bad |= put_text(pt, ";", 1);
		bad |= put_text(pt, name, strlen(name));
	}
	v->s = bad ? NULL : pt->s;
	return !bad;
}

/* A count of calls, null where the paths were sampled (none was counted). */
static int get_calls(const void *c, size_t row, const struct table_column *col,
		     union table_value *v)
{
	const struct ctx *x = c;

	if (x->m->calls_unmeasured)
		return 0;
	return table_get_field(c, row, col, v);
}

static const struct table_column frame_cols[] = {
	{ "id", TCOL_U64, get_id, 0 },
	{ "parent", TCOL_U64, get_parent, 0 },
	{ "depth", TCOL_U64, get_depth, 0 },
	{ "function", TCOL_STR, get_name, 0 },
	{ "call_site", TCOL_STR, get_name, 1 },
	{ "calls", TCOL_U64, get_calls, FRAME(count) },
	{ "folded", TCOL_INT, table_get_field, FRAME(folded) },
	{ "recursive_calls", TCOL_U64, get_calls, FRAME(recursive) },
	{ "self_samples", TCOL_U64, table_get_field, FRAME(samples) },
	{ "path", TCOL_STR, get_path, 0 },
};

#define NCOLS(t) (sizeof(t) / sizeof((t)[0]))

int callpath_export(FILE *fp, enum table_format fmt, const struct callpath_model *m,
		    const char *source)
{
	struct table_doc doc;
	struct path_text pt = { { 0 }, NULL, NULL, 0, 0 };
	struct ctx x = { { m->frames, sizeof(*m->frames), NULL }, m, &pt };
	int ret = -1;

	pt.parents = malloc(((size_t)m->nr_frames + 1) * sizeof(*pt.parents));
	if (!pt.parents) {
		error("out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < m->nr_frames; i++)
		pt.parents[i] = m->frames[i].parent;
	if (path_elider_init(&pt.pe, m->nr_frames, pt.parents, CALLPATH_NONE) < 0) {
		error("out of memory");
		goto out;
	}
	table_begin(&doc, fp, fmt, "egprof-callpath", CALLPATH_EXPORT_VERSION);
	table_field_str(&doc, "source", source);
	if (m->calls_unmeasured)
		table_field_num(&doc, "total_calls", NAN);	/* null: not counted */
	else
		table_field_u64(&doc, "total_calls", m->total);
	table_field_bool(&doc, "calls_measured", !m->calls_unmeasured);
	if (table_csv_columns(&doc, frame_cols, NCOLS(frame_cols)) < 0) {
		table_end(&doc);
		goto out;
	}
	table_write(&doc, "frames", frame_cols, NCOLS(frame_cols), m->nr_frames, &x);
	ret = table_end(&doc);
out:
	path_elider_release(&pt.pe);
	free(pt.parents);
	free(pt.s);
	return ret;
}
