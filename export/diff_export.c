/*
 * The differential profile as records (diff_export.h).  A new field is
 * one row in fn_cols[] or arc_cols[].
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include "export/diff_export.h"
#include "diff/evidence.h"
#include "utils/error.h"
#include "utils/banned.h"

struct ctx {
	struct table_array a;   /* first: table_get_field reads it */
	const struct diff *d;
};

#define ENTRY(f) offsetof(struct diff_entry, f)

static const struct diff_entry *entry(const void *c, size_t row)
{
	const struct ctx *x = c;

	return &((const struct diff_entry *)x->a.base)[table_row(&x->a, row)];
}
#define ARC(f) offsetof(struct diff_arc, f)

static const char *const match_names[MATCH__COUNT] = {
	[MATCH_NONE] = "one side only",
	[MATCH_NAME] = "name",
	[MATCH_CLONE_BASE] = "clone base name",
	[MATCH_CYCLE] = "cycle members",
};

static int get_match(const void *c, size_t row, const struct table_column *col,
		     union table_value *v)
{
	(void)col;
	v->s = match_names[entry(c, row)->match];
	return 1;
}

static int get_kind(const void *c, size_t row, const struct table_column *col,
		    union table_value *v)
{
	(void)col;
	v->s = profile_sym_kind(entry(c, row)->flags);
	return 1;
}

/* Calls of side col->arg, or their change (DIFF_NSIDES): null where a
 * side counted none (a library row, a sampling-only run), never 0. */
static int get_calls(const void *c, size_t row, const struct table_column *col,
		     union table_value *v)
{
	const struct diff_entry *e = entry(c, row);

	if (col->arg < DIFF_NSIDES) {
		if (!e->side[col->arg].calls_measured)
			return 0;
		v->i = (int64_t)e->side[col->arg].calls;
		return 1;
	}
	if (!e->side[0].calls_measured && !e->side[1].calls_measured)
		return 0;
	v->i = e->calls_diff;
	return 1;
}

static int get_self_calls(const void *c, size_t row, const struct table_column *col,
			  union table_value *v)
{
	const struct diff_entry *e = entry(c, row);

	if (!e->side[col->arg].calls_measured)
		return 0;
	v->i = (int64_t)e->side[col->arg].self_calls;
	return 1;
}

/* The text's "~": within noise (not significant, not equal). */
static int get_noise(const void *c, size_t row, const struct table_column *col,
		     union table_value *v)
{
	(void)col;
	v->b = entry(c, row)->verdict == VERDICT_NOISE;
	return 1;
}

static int get_verdict(const void *c, size_t row, const struct table_column *col,
		       union table_value *v)
{
	(void)col;
	v->s = diff_verdict_names[entry(c, row)->verdict];
	return 1;
}

/*
 * A function's calls on one side (col->arg's side bit: 1 base, 2 second,
 * 3 both), null where that side's gmon.out counted no calls (no arcs: a
 * build without -pg, sampled), which is no count of 0.
 */
static int calls_counted(const void *c, unsigned sides)
{
	const struct diff *d = ((const struct ctx *)c)->d;

	return (!(sides & 1) || d->has_cg[0]) && (!(sides & 2) || d->has_cg[1]);
}

#define CALLS_GETTER(fn, sides)								\
static int fn(const void *c, size_t row, const struct table_column *col,		\
	      union table_value *v)							\
{											\
	return calls_counted(c, sides) ? table_get_field(c, row, col, v) : 0;		\
}
CALLS_GETTER(get_calls_base, 1)
CALLS_GETTER(get_calls_second, 2)
CALLS_GETTER(get_calls_both, 3)

static const char *const calls_names[CALLS__COUNT] = {
	[CALLS_SAME] = "same",
	[CALLS_WITHIN] = "within noise",
	[CALLS_CHANGED] = "changed",
};

static int get_calls_evidence(const void *c, size_t row, const struct table_column *col,
			      union table_value *v)
{
	(void)col;
	if (!calls_counted(c, 3))
		return 0;
	v->s = calls_names[entry(c, row)->calls_evidence];
	return 1;
}

static const char *const moved_names[MOVED__COUNT] = {
	[MOVED_NONE] = NULL,
	[MOVED_TIME] = "caller's time moved",
	[MOVED_SIZE] = "caller's code grew",
	[MOVED_ONLY] = "only caller",
	[MOVED_TAIL] = "tail call",
	[MOVED_PARTIAL] = "calls from one caller went",
};

/* The row the cost moved to or from (moved_peer), null when none. */
static int get_moved_peer(const void *c, size_t row, const struct table_column *col,
			  union table_value *v)
{
	const struct ctx *x = c;
	const struct diff_entry *e = entry(c, row);

	(void)col;
	if (e->moved_peer < 0)
		return 0;
	v->s = x->d->entries[e->moved_peer].print_name;
	return 1;
}

static int get_moved_why(const void *c, size_t row, const struct table_column *col,
			 union table_value *v)
{
	const struct diff_entry *e = entry(c, row);

	(void)col;
	if (e->moved_peer < 0 || e->moved_why <= MOVED_NONE || e->moved_why >= MOVED__COUNT)
		return 0;
	v->s = moved_names[e->moved_why];
	return 1;
}

/* A row's noise threshold in seconds: the rule's |z| cut times its sigma. */
static int get_noise_sec(const void *c, size_t row, const struct table_column *col,
			 union table_value *v)
{
	(void)col;
	v->f = entry(c, row)->flags & PSYM_CYCLE ? 0 : entry(c, row)->noise_sec;
	return 1;
}

/* second / baseline, undefined when the baseline is 0 (as pprof's and
 * perf diff's ratio). */
static int ratio(double base, double second, union table_value *v)
{
	if (base == 0)
		return 0;
	v->f = second / base;
	return 1;
}

static int get_self_ratio(const void *c, size_t row, const struct table_column *col,
			  union table_value *v)
{
	const struct diff_entry *e = entry(c, row);

	(void)col;
	return ratio(e->side[0].self_sec, e->side[1].self_sec, v);
}

static int get_calls_ratio(const void *c, size_t row, const struct table_column *col,
			   union table_value *v)
{
	const struct diff_entry *e = entry(c, row);

	(void)col;
	return ratio((double)e->side[0].calls, (double)e->side[1].calls, v);
}

/* Inclusive seconds (self + children) of side col->arg, or their change. */
static double total(const struct diff_entry *e, int s)
{
	return e->side[s].self_sec + e->side[s].child_sec;
}

static int get_total(const void *c, size_t row, const struct table_column *col,
		     union table_value *v)
{
	const struct diff_entry *e = entry(c, row);

	v->f = col->arg < DIFF_NSIDES ? total(e, (int)col->arg) : total(e, 0) - total(e, 1);
	return 1;
}

static const struct table_column fn_cols[] = {
	{ "name", TCOL_STR, table_get_field, ENTRY(print_name) },
	{ "symbol", TCOL_STR, table_get_field, ENTRY(name) },
	{ "file", TCOL_STR, table_get_field, ENTRY(file) },
	{ "kind", TCOL_STR, get_kind, 0 },
	{ "cycle", TCOL_INT, table_get_field, ENTRY(cycle) },
	{ "matched_by", TCOL_STR, get_match, 0 },
	{ "in_base", TCOL_BOOL, table_get_field, ENTRY(side[0].present) },
	{ "in_second", TCOL_BOOL, table_get_field, ENTRY(side[1].present) },
	{ "self_base", TCOL_F64, table_get_field, ENTRY(side[0].self_sec) },
	{ "self_second", TCOL_F64, table_get_field, ENTRY(side[1].self_sec) },
	{ "self_diff", TCOL_F64, table_get_field, ENTRY(self_diff) },
	{ "self_ratio", TCOL_F64, get_self_ratio, 0 },
	{ "impact_pct", TCOL_F64, table_get_field, ENTRY(impact) },
	{ "children_base", TCOL_F64, table_get_field, ENTRY(side[0].child_sec) },
	{ "children_second", TCOL_F64, table_get_field, ENTRY(side[1].child_sec) },
	{ "children_diff", TCOL_F64, table_get_field, ENTRY(child_diff) },
	{ "total_base", TCOL_F64, get_total, 0 },
	{ "total_second", TCOL_F64, get_total, 1 },
	{ "total_diff", TCOL_F64, get_total, DIFF_NSIDES },
	{ "calls_base", TCOL_I64, get_calls, 0 },
	{ "calls_second", TCOL_I64, get_calls, 1 },
	{ "calls_diff", TCOL_I64, get_calls, DIFF_NSIDES },
	{ "calls_ratio", TCOL_F64, get_calls_ratio, 0 },
	{ "self_calls_base", TCOL_I64, get_self_calls, 0 },
	{ "self_calls_second", TCOL_I64, get_self_calls, 1 },
	{ "samples_base", TCOL_F64, table_get_field, ENTRY(side[0].ticks) },
	{ "samples_second", TCOL_F64, table_get_field, ENTRY(side[1].ticks) },
	{ "run_var_base", TCOL_F64, table_get_field, ENTRY(side[0].run_var) },
	{ "run_var_second", TCOL_F64, table_get_field, ENTRY(side[1].run_var) },
	{ "calls_var_base", TCOL_F64, get_calls_base, ENTRY(side[0].calls_var) },
	{ "calls_var_second", TCOL_F64, get_calls_second, ENTRY(side[1].calls_var) },
	{ "verdict", TCOL_STR, get_verdict, 0 },
	{ "significant", TCOL_BOOL, table_get_field, ENTRY(significant) },
	{ "within_noise", TCOL_BOOL, get_noise, 0 },
	{ "evidence_sec", TCOL_F64, table_get_field, ENTRY(evidence_sec) },
	{ "evidence_signed_sec", TCOL_F64, table_get_field, ENTRY(evidence_signed) },
	{ "excess_sec", TCOL_F64, table_get_field, ENTRY(excess_sec) },
	{ "sigma_sec", TCOL_F64, table_get_field, ENTRY(sigma_sec) },
	{ "noise_sec", TCOL_F64, get_noise_sec, 0 },
	{ "time_z", TCOL_F64, table_get_field, ENTRY(time_z) },
	{ "calls_evidence", TCOL_STR, get_calls_evidence, 0 },
	{ "calls_z", TCOL_F64, get_calls_both, ENTRY(calls_z) },
	{ "calls_factor", TCOL_F64, get_calls_both, ENTRY(calls_factor) },
	{ "ranks_changed", TCOL_SIZE, table_get_field, ENTRY(nranks_changed) },
	{ "ranks_alike", TCOL_BOOL, table_get_field, ENTRY(ranks_alike) },
	{ "slowest_rank_diff", TCOL_F64, table_get_field, ENTRY(slowest_diff) },
	{ "moved_peer", TCOL_STR, get_moved_peer, 0 },
	{ "moved_why", TCOL_STR, get_moved_why, 0 },
	{ "moved_total_diff", TCOL_F64, table_get_field, ENTRY(moved_total_diff) },
};

static int get_end(const void *c, size_t row, const struct table_column *col,
		   union table_value *v)
{
	const struct diff *d = ((const struct ctx *)c)->d;
	const struct diff_arc *a = &d->arcs[row];
	const struct diff_entry *e = &d->entries[col->arg ? a->child : a->parent];

	v->s = e->print_name ? e->print_name : e->name;
	return 1;
}

/* Seconds passed along the arc (self and children share), side col->arg
 * or the change. */
static double arc_time(const struct diff_arc *a, int s)
{
	return a->time_sec[s] + a->child_time_sec[s];
}

static int get_arc_time(const void *c, size_t row, const struct table_column *col,
			union table_value *v)
{
	const struct diff_arc *a = &((const struct ctx *)c)->d->arcs[row];

	v->f = col->arg < DIFF_NSIDES ? arc_time(a, (int)col->arg)
				      : arc_time(a, 0) - arc_time(a, 1);
	return 1;
}

static int get_arc_ratio(const void *c, size_t row, const struct table_column *col,
			 union table_value *v)
{
	const struct diff_arc *a = &((const struct ctx *)c)->d->arcs[row];

	(void)col;
	return ratio((double)a->count[0], (double)a->count[1], v);
}

static const struct diff_arc *arc_at(const void *c, size_t row)
{
	return &((const struct ctx *)c)->d->arcs[row];
}

static int get_arc_verdict(const void *c, size_t row, const struct table_column *col,
			   union table_value *v)
{
	(void)col;
	v->s = diff_verdict_names[arc_at(c, row)->verdict];
	return 1;
}

static int get_arc_noise(const void *c, size_t row, const struct table_column *col,
			 union table_value *v)
{
	(void)col;
	v->b = arc_at(c, row)->verdict == VERDICT_NOISE;
	return 1;
}

static int get_arc_noise_sec(const void *c, size_t row, const struct table_column *col,
			     union table_value *v)
{
	(void)col;
	v->f = ((const struct ctx *)c)->d->arc_z_cut * arc_at(c, row)->sigma_sec;
	return 1;
}

static const struct table_column arc_cols[] = {
	{ "caller", TCOL_STR, get_end, 0 },
	{ "callee", TCOL_STR, get_end, 1 },
	{ "in_base", TCOL_BOOL, table_get_field, ARC(present[0]) },
	{ "in_second", TCOL_BOOL, table_get_field, ARC(present[1]) },
	{ "calls_base", TCOL_U64, table_get_field, ARC(count[0]) },
	{ "calls_second", TCOL_U64, table_get_field, ARC(count[1]) },
	{ "calls_diff", TCOL_I64, table_get_field, ARC(count_diff) },
	{ "calls_ratio", TCOL_F64, get_arc_ratio, 0 },
	{ "time_base", TCOL_F64, get_arc_time, 0 },
	{ "time_second", TCOL_F64, get_arc_time, 1 },
	{ "time_diff", TCOL_F64, get_arc_time, DIFF_NSIDES },
	{ "verdict", TCOL_STR, get_arc_verdict, 0 },
	{ "significant", TCOL_BOOL, table_get_field, ARC(significant) },
	{ "within_noise", TCOL_BOOL, get_arc_noise, 0 },
	{ "evidence_sec", TCOL_F64, table_get_field, ARC(evidence_sec) },
	{ "evidence_signed_sec", TCOL_F64, table_get_field, ARC(evidence_signed) },
	{ "excess_sec", TCOL_F64, table_get_field, ARC(excess_sec) },
	{ "sigma_sec", TCOL_F64, table_get_field, ARC(sigma_sec) },
	{ "noise_sec", TCOL_F64, get_arc_noise_sec, 0 },
	{ "time_z", TCOL_F64, table_get_field, ARC(time_z) },
	{ "calls_z", TCOL_F64, table_get_field, ARC(calls_z) },
	{ "calls_factor", TCOL_F64, table_get_field, ARC(calls_factor) },
};

#define NCOLS(t) (sizeof(t) / sizeof((t)[0]))

static void side(struct table_doc *doc, const char *key, const struct diff *d, int s,
		 const char *label)
{
	const struct profile *p = d->prof[s];

	table_object_begin(doc, key);
	table_field_str(doc, "label", label);
	table_field_str(doc, "binary", p ? p->binary : NULL);
	table_field_strs(doc, "gmon_files", p ? p->gmon_files : NULL, p ? p->ngmon : 0);
	table_field_u64(doc, "runs", d->nruns[s] ? d->nruns[s] : 1);
	table_field_num(doc, "total_sec", d->total_sec[s]);
	table_field_num(doc, "hz", p ? p->hz : 0);
	table_field_bool(doc, "has_histogram", d->has_hist[s]);
	table_field_bool(doc, "has_call_graph", d->has_cg[s]);
	table_field_str(doc, "source", p && p->measure.source == PROFILE_FROM_SIDECARS
					? "sidecars" : "gmon");
	table_field_num(doc, "sample_weight", p ? profile_weight(p) : 1);
	table_field_bool(doc, "calls_measured", p && !p->measure.calls_unmeasured);
	table_object_end(doc);
}

/* The functions gprof's tables print: selected on either side, with
 * samples or calls on either side (a line of zeros says nothing). */
static int shown(const struct diff_entry *e)
{
	int s;

	if (!e->in_flat && !e->in_graph)
		return 0;
	for (s = 0; s < DIFF_NSIDES; s++)
		if (e->side[s].ticks != 0 || e->side[s].calls || e->side[s].self_calls ||
		    e->side[s].child_sec != 0 || e->side[s].self_sec != 0)
			return 1;
	return 0;
}

int diff_export(FILE *fp, enum table_format fmt, const struct diff *d,
		const char *const label[DIFF_NSIDES], double noise_sigmas, const char *source)
{
	struct table_doc doc;
	size_t *idx = malloc((d->nentries + 1) * sizeof(*idx)), n = 0, i;
	struct ctx fc = { { d->entries, sizeof(*d->entries), idx }, d };
	struct ctx ac = { { d->arcs, sizeof(*d->arcs), NULL }, d };
	const struct profile_measure *m = &d->prof[0]->measure;
	int ret;

	if (!idx)
		return error("out of memory");
	for (i = 0; i < d->nentries; i++)
		if (shown(&d->entries[i]))
			idx[n++] = i;

	table_begin(&doc, fp, fmt, "egprof-diff", DIFF_EXPORT_VERSION);
	table_field_str(&doc, "convention", "diff = base - second");
	/* what every number is: said once for the document */
	table_field_str(&doc, "source", source);
	table_field_str(&doc, "metric", m->metric[0] ? m->metric : "time");
	table_field_str(&doc, "unit", m->metric[0] ? (m->unit[0] ? m->unit : "events")
						    : "seconds");
	side(&doc, "base", d, 0, label ? label[0] : NULL);
	side(&doc, "second", d, 1, label ? label[1] : NULL);
	table_field_num(&doc, "abs_diff_sum_sec", d->abs_sum);
	table_field_num(&doc, "noise_sigmas", noise_sigmas);
	/* the significance rule's figures (diff/noise.h, diff/evidence.h) */
	table_object_begin(&doc, "significance");
	table_field_u64(&doc, "tests", d->ntests);
	table_field_num(&doc, "z_cut", d->z_cut);
	table_field_u64(&doc, "arc_tests", d->arc_ntests);
	table_field_num(&doc, "arc_z_cut", d->arc_z_cut);
	table_field_num(&doc, "speed", d->speed);
	table_field_num(&doc, "speed_var", d->speed_var);
	table_field_num(&doc, "jitter", d->jitter);
	table_field_num(&doc, "jitter_weight", d->jitter_weight);
	table_field_num(&doc, "outside_speed", d->outside_speed ? d->outside_speed : 1);
	table_field_num(&doc, "outside_jitter", d->outside_jitter);
	table_field_str(&doc, "jitter_from", d->jitter_from_repeats ? "repeats" :
			d->nranks ? "ranks" : "pair");
	table_field_num(&doc, "jitter_prior", d->opts.jitter_prior);
	table_field_num(&doc, "calls_factor", d->opts.calls_factor);
	table_field_num(&doc, "min_evidence_sec", d->min_evidence_sec);
	table_field_str(&doc, "time_from", diff_from_sidecars(d) ? "sidecars" : "histogram");
	table_object_end(&doc);
	if (table_csv_columns(&doc, fn_cols, NCOLS(fn_cols)) < 0 ||
	    table_csv_columns(&doc, arc_cols, NCOLS(arc_cols)) < 0) {
		table_end(&doc);
		free(idx);
		return -1;
	}
	table_write(&doc, "functions", fn_cols, NCOLS(fn_cols), n, &fc);
	table_write(&doc, "arcs", arc_cols, NCOLS(arc_cols), d->narcs, &ac);
	ret = table_end(&doc);
	free(idx);
	return ret;
}
