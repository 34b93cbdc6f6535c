/*
 * One profile as records (profile_export.h).  A new field is one row in
 * fn_cols[] or arc_cols[].
 */
#include <stddef.h>
#include <stdlib.h>
#include "export/profile_export.h"
#include "utils/error.h"
#include "utils/banned.h"

struct ctx {
	struct table_array a;   /* first: table_get_field reads it */
	const struct profile *p;
	double pct_ticks;       /* the total of "% time" */
};

static const struct profile_sym *sym(const void *c, size_t row)
{
	const struct ctx *x = c;

	return &x->p->syms[table_row(&x->a, row)];
}

static int get_name(const void *c, size_t row, const struct table_column *col,
		    union table_value *v)
{
	const struct profile_sym *s = sym(c, row);

	(void)col;
	v->s = s->print_name ? s->print_name : s->name;
	return 1;
}

static int get_kind(const void *c, size_t row, const struct table_column *col,
		    union table_value *v)
{
	(void)col;
	v->s = profile_sym_kind(sym(c, row)->flags);
	return 1;
}

/* Calls (col->arg 0) or recursive calls (1): null where they were not
 * counted (a library row, a run that counted none), never 0. */
static int get_calls(const void *c, size_t row, const struct table_column *col,
		     union table_value *v)
{
	const struct ctx *x = c;
	const struct profile_sym *s = sym(c, row);

	if (!profile_sym_calls_measured(x->p, s))
		return 0;
	v->u = col->arg ? s->self_calls : s->ncalls;
	return 1;
}

/* Ticks at offset col->arg (0: self + children), in seconds. */
static int get_sec(const void *c, size_t row, const struct table_column *col,
		   union table_value *v)
{
	const struct ctx *x = c;
	const struct profile_sym *s = sym(c, row);
	double t = col->arg == 1 ? s->self_ticks : col->arg == 2 ? s->child_ticks
								  : s->self_ticks + s->child_ticks;

	v->f = profile_seconds(x->p, t);
	return 1;
}

static int get_pct(const void *c, size_t row, const struct table_column *col,
		   union table_value *v)
{
	const struct ctx *x = c;

	(void)col;
	if (x->pct_ticks <= 0)
		return 0;
	v->f = 100.0 * sym(c, row)->self_ticks / x->pct_ticks;
	return 1;
}

#define SYM(f) offsetof(struct profile_sym, f)

static const struct table_column fn_cols[] = {
	{ "name", TCOL_STR, get_name, 0 },
	{ "symbol", TCOL_STR, table_get_field, SYM(name) },
	{ "file", TCOL_STR, table_get_field, SYM(file) },
	{ "line", TCOL_INT, table_get_field, SYM(line) },
	{ "kind", TCOL_STR, get_kind, 0 },
	{ "cycle", TCOL_INT, table_get_field, SYM(cycle) },
	{ "self_sec", TCOL_F64, get_sec, 1 },
	{ "self_pct", TCOL_F64, get_pct, 0 },
	{ "children_sec", TCOL_F64, get_sec, 2 },
	{ "total_sec", TCOL_F64, get_sec, 0 },
	{ "calls", TCOL_U64, get_calls, 0 },
	{ "self_calls", TCOL_U64, get_calls, 1 },
	{ "samples", TCOL_F64, table_get_field, SYM(self_ticks) },
};

static int get_end(const void *c, size_t row, const struct table_column *col,
		   union table_value *v)
{
	const struct ctx *x = c;
	const struct profile_arc *a = &x->p->arcs[table_row(&x->a, row)];
	const struct profile_sym *s = &x->p->syms[col->arg ? a->child : a->parent];

	v->s = s->print_name ? s->print_name : s->name;
	return 1;
}

static int get_arc_time(const void *c, size_t row, const struct table_column *col,
			union table_value *v)
{
	const struct ctx *x = c;
	const struct profile_arc *a = &x->p->arcs[table_row(&x->a, row)];

	v->f = profile_seconds(x->p, col->arg == 1 ? a->time : col->arg == 2 ? a->child_time
							   : a->time + a->child_time);
	return 1;
}

/* An arc's calls: null when its callee's are not counted. */
static int get_arc_calls(const void *c, size_t row, const struct table_column *col,
			 union table_value *v)
{
	const struct ctx *x = c;
	const struct profile_arc *a = &x->p->arcs[table_row(&x->a, row)];

	(void)col;
	if (!profile_sym_calls_measured(x->p, &x->p->syms[a->child]))
		return 0;
	v->u = a->count;
	return 1;
}

#define ARC(f) offsetof(struct profile_arc, f)

static const struct table_column arc_cols[] = {
	{ "caller", TCOL_STR, get_end, 0 },
	{ "callee", TCOL_STR, get_end, 1 },
	{ "calls", TCOL_U64, get_arc_calls, 0 },
	{ "time_sec", TCOL_F64, get_arc_time, 0 },
	/* the two columns of gprof's caller and callee lines (the HTML
	 * report's callers and callees of a function print them) */
	{ "self_sec", TCOL_F64, get_arc_time, 1 },
	{ "children_sec", TCOL_F64, get_arc_time, 2 },
};

#define NCOLS(t) (sizeof(t) / sizeof((t)[0]))

/* The functions gprof's tables print: selected, with samples or calls (a
 * line of zeros says nothing). */
static int shown(const struct profile_sym *s)
{
	if (!(s->flags & (PSYM_IN_FLAT | PSYM_IN_GRAPH | PSYM_CYCLE | PSYM_KINDS)))
		return 0;
	return s->self_ticks != 0 || s->ncalls || s->self_calls || s->child_ticks != 0;
}

int profile_export(FILE *fp, enum table_format fmt, const struct profile *p, const char *in,
		   const char *source)
{
	struct table_doc doc;
	size_t *fidx = malloc((p->nsyms + 1) * sizeof(size_t));
	size_t *aidx = malloc((p->narcs + 1) * sizeof(size_t)), nf = 0, na = 0, i;
	struct ctx fc = { { p->syms, sizeof(*p->syms), fidx }, p, 0 };
	struct ctx ac = { { p->arcs, sizeof(*p->arcs), aidx }, p, 0 };
	int ret = -1;

	if (!fidx || !aidx) {
		error("out of memory");
		goto out;
	}
	/* gprof's flat profile's "% time": of the histogram's samples */
	fc.pct_ticks = p->total_ticks;
	for (i = 0; i < p->nsyms; i++)
		if (shown(&p->syms[i]) && (!in || in[i]))
			fidx[nf++] = i;
	for (i = 0; i < p->narcs; i++)
		if (!in || (in[p->arcs[i].parent] && in[p->arcs[i].child]))
			aidx[na++] = i;
	table_begin(&doc, fp, fmt, "egprof-profile", PROFILE_EXPORT_VERSION);
	table_field_str(&doc, "binary", p->binary);
	table_field_strs(&doc, "gmon_files", p->gmon_files, p->ngmon);
	table_field_num(&doc, "total_sec", profile_seconds(p, p->total_ticks));
	table_field_num(&doc, "hz", p->hz);
	/* what every number is, said once (model/analysis.h) */
	table_field_str(&doc, "source", source);
	table_field_str(&doc, "metric", p->measure.metric[0] ? p->measure.metric : "time");
	table_field_str(&doc, "unit", !p->measure.metric[0] ? "seconds"
				      : p->measure.unit[0] ? p->measure.unit : "events");
	table_field_num(&doc, "sample_weight", profile_weight(p));
	table_field_bool(&doc, "calls_measured", !p->measure.calls_unmeasured);
	table_field_bool(&doc, "has_histogram", (p->input & PROFILE_HAS_HIST) != 0);
	table_field_bool(&doc, "has_call_graph", (p->input & PROFILE_HAS_CG) != 0);
	if (table_csv_columns(&doc, fn_cols, NCOLS(fn_cols)) < 0 ||
	    table_csv_columns(&doc, arc_cols, NCOLS(arc_cols)) < 0) {
		table_end(&doc);
		goto out;
	}
	table_write(&doc, "functions", fn_cols, NCOLS(fn_cols), nf, &fc);
	table_write(&doc, "arcs", arc_cols, NCOLS(arc_cols), na, &ac);
	ret = table_end(&doc);
out:
	free(fidx);
	free(aidx);
	return ret;
}
