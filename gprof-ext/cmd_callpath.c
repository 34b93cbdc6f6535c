/*
 * cmd_callpath.c - the call-path outputs of a profile or a diff, from the
 * analysis (model/analysis.h): the runs read their sidecars once, the
 * analysis filtered and compared the paths; here they are printed and
 * written as the options ask.
 */
#include "gprof-ext/cmd_callpath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callpath/folded.h"
#include "model/metric.h"
#include "callpath/metric_columns.h"
#include "callpath/pathdiff.h"
#include "callpath/report.h"
#include "diff/print_lines.h"
#include "format/sidecar.h"
#include "export/callpath_export.h"
#include "export/flamegraph.h"
#include "filter/filter.h"
#include "gprof-ext/options.h"
#include "gprof-ext/upstream.h"
#include "model/analysis.h"
#include "model/run.h"
#include "utils/error.h"
#include "utils/banned.h"

/* The sidecar has samples of the metric shown: time ticks or an event's
 * overflows that landed in a calling context.  Otherwise the folded file
 * would be empty: an error that says why (folded.h's one rule). */
static int check_samples(const struct callpath_model *m, const char *source,
			 const char *output)
{
	char buf[512];
	const char *why = folded_no_samples_why(m, buf, sizeof(buf));

	if (!why)
		return 0;
	return error("%s: cannot write: '%s' %s; --folded-calls writes call counts",
		     output, source, why);
}

/* --folded-calls of sampled paths: no call was counted to write. */
static int check_calls(const struct callpath_model *m, const char *source,
		       const char *output)
{
	if (!m->calls_unmeasured)
		return 0;
	return error("%s: cannot write: the paths of '%s' were sampled from a build "
		     "without -pg, whose calls were not counted; --folded writes their time",
		     output, source);
}

/* --metric LIST: the columns of every metric, from the sidecars (read
 * again: the run's paths hold one metric). */
static int print_columns(const struct egprof_opts *o, const struct run *r)
{
	struct callpath_symopts so = run_symopts(r, 1, NULL);

	/* the run kept its sidecars summed as it read them (keep_sidecars) */
	if (!r->sidecar)
		return error("internal error: no sidecars kept for --metric's columns");
	if (metric_columns_check(r->sidecar, o->metric, r->paths_source) < 0 ||
	    metric_columns_print(stdout, r->sidecar, r->gmon, &so, o->metric,
				 r->paths_source) < 0)
		return -1;
	return 0;
}

/*
 * The subtitle of a flame graph: the source in words, and the filters.
 */
static void flamegraph_subtitle(char *buf, size_t n, const struct analysis *a)
{
	snprintf(buf, n, "%s%s%s", a->source, a->filters ? "; " : "",
		 a->filters ? a->filters : "");
}

/*
 * --flamegraph of a profile: drawn from the very stacks --folded writes
 * (its frames as wide as their folded counts add up to), named alike.
 */
static int flamegraph_profile(const struct egprof_opts *o, const struct analysis *a,
			      const struct callpath_model *m, const struct folded *f)
{
	struct flamegraph_opts fo = FLAMEGRAPH_OPTS_INIT;
	struct flamegraph_stack *st = calloc(f->nr ? f->nr : 1, sizeof(*st));
	char sub[1024];
	int ret;

	if (!st)
		return error("out of memory");
	for (size_t i = 0; i < f->nr; i++) {
		st[i].stack = f->stacks[i].stack;
		st[i].a = f->stacks[i].count;
	}
	flamegraph_subtitle(sub, sizeof(sub), a);
	fo.title = a->run[0]->binary;
	fo.subtitle = sub;
	/* FOLDED_WEIGHTED: time samples, or the event's own count */
	fo.hz[0] = m->metric.name[0] ? 0 : m->hz;
	fo.unit = m->metric.name[0] ? m->metric.name : "samples";
	fo.min_width_px = o->flamegraph_min_width;
	ret = flamegraph_save(o->outs, o->flamegraph_path, st, f->nr, &fo);
	free(st);
	return ret;
}

/*
 * --flamegraph of a diff: the path diff --folded writes (both columns),
 * each stack with the diff's verdict on its change of self time (none for
 * an event's counts, whose verdicts count overflows).
 */
static int flamegraph_diff(const struct egprof_opts *o, const struct analysis *a,
			   const struct pathdiff *d, int events, const char *la,
			   const char *lb)
{
	struct flamegraph_opts fo = FLAMEGRAPH_OPTS_INIT;
	struct flamegraph_stack *st = calloc(d->nr ? d->nr : 1, sizeof(*st));
	char sub[1024];
	int ret;

	if (!st)
		return error("out of memory");
	for (size_t i = 0; i < d->nr; i++) {
		st[i].stack = d->rows[i].stack;
		st[i].a = d->rows[i].a;
		st[i].b = d->rows[i].b;
		st[i].within_noise = !events && a->paths_time_noise && a->paths_time_noise[i];
	}
	flamegraph_subtitle(sub, sizeof(sub), a);
	fo.diff = 1;
	fo.title = a->run[0]->binary;
	fo.subtitle = sub;
	fo.label[0] = la;
	fo.label[1] = lb;
	fo.hz[0] = events ? 0 : a->paths[0]->hz;
	fo.hz[1] = events ? 0 : a->paths[1]->hz;
	fo.unit = events ? o->metric : "samples";
	fo.min_width_px = o->flamegraph_min_width;
	ret = flamegraph_save(o->outs, o->flamegraph_path, st, d->nr, &fo);
	free(st);
	return ret;
}

/*
 * The call-path outputs of a profile name each frame by its own symbol, as
 * the report does (an OpenMP region as main._omp_fn.0; the tables and
 * pictures name it by its function): the run's paths, as far as the
 * filters keep them (not the text report: gprof's, all of it), with
 * --short-names' names.
 */
int callpath_cmd_gprof(const struct egprof_opts *o, const struct analysis *a)
{
	const struct run *r = a->run[0];
	int columns = metric_columns_wanted(o->metric);
	struct filter_opts f = filter_opts_of(o);
	struct callpath_model *fm = NULL, *shown = NULL, *all = NULL;
	const struct callpath_model *out_model;
	struct folded *ft = NULL, *fc = NULL;
	int ret = 1;

	if (!o->callpath && !o->folded_path && !o->folded_calls_path && !o->flamegraph_path)
		return 0;
	if (columns && (o->folded_path || o->flamegraph_path || !o->callpath ||
			o->format != TABLE_TEXT))
		return metric_columns_refuse(o->metric), 1;
	if (!r->paths)
		return error("internal error: no call paths for --callpath"), 1;
	if (o->folded_path && check_samples(r->paths, r->paths_source, o->folded_path) < 0)
		goto out;
	if (o->flamegraph_path &&
	    check_samples(r->paths, r->paths_source, o->flamegraph_path) < 0)
		goto out;
	if (o->folded_calls_path && check_calls(r->paths, r->paths_source, o->folded_calls_path) < 0)
		goto out;
	if ((o->folded_path || o->folded_calls_path || o->flamegraph_path ||
	     (o->callpath && o->format != TABLE_TEXT)) &&
	    filter_active(&f) && filter_callpath(&f, r->paths, &fm) < 0)
		goto out;
	if (o->short_names && callpath_model_shorten(fm ? fm : r->paths, o->names, &shown) < 0)
		goto out;
	out_model = shown ? shown : fm ? fm : r->paths;
	if (o->callpath && o->format != TABLE_TEXT) {
		if (callpath_export(stdout, (enum table_format)o->format, out_model,
				    r->paths_source) < 0)
			goto out;
	} else if (o->callpath) {
		if (o->short_names && callpath_model_shorten(r->paths, o->names, &all) < 0)
			goto out;
		fflush(stdout);
		if (callpath_report_write(stdout, all ? all : r->paths, r->paths_source,
					  o->all_paths) < 0)
			goto out;
		if (columns && print_columns(o, r) < 0)
			goto out;
		/* -l: each function's self time by line (model/lines.h), the
		 * files named as -L says (the lines are also built for --html
		 * and --pprof, which do not ask for this section) */
		if (a->lines[0]) {
			int lines, full_paths;

			upstream_line_options(&lines, &full_paths);
			if (lines && print_lines_profile(stdout, a->lines[0], full_paths,
							 o->all_paths ? 0 : 20) < 0)
				goto out;
		}
		fflush(stdout);
	}
	/* both built before either is written: all outputs or none */
	if (((o->folded_path || o->flamegraph_path) &&
	     folded_build(out_model, FOLDED_WEIGHTED, &ft) < 0) ||
	    (o->folded_calls_path && folded_build(out_model, FOLDED_CALLS, &fc) < 0))
		goto out;
	if ((o->folded_path && folded_save(o->outs, o->folded_path, ft) < 0) ||
	    (fc && folded_save(o->outs, o->folded_calls_path, fc) < 0) ||
	    (o->flamegraph_path && flamegraph_profile(o, a, out_model, ft) < 0))
		goto out;
	ret = 0;
out:
	folded_free(ft);
	folded_free(fc);
	callpath_model_free(all);
	callpath_model_free(shown);
	callpath_model_free(fm);
	return ret;
}

/* --metric EV: the paths' events (the folded file's numbers; the verdicts
 * count overflows, the samples of the noise rule). */
static int events_diff(const struct analysis *a, struct pathdiff **out)
{
	struct folded *f[2] = { NULL, NULL };
	int ret = -1;

	*out = NULL;
	if (folded_build(a->paths[0], FOLDED_WEIGHTED, &f[0]) == 0 &&
	    folded_build(a->paths[1], FOLDED_WEIGHTED, &f[1]) == 0 &&
	    pathdiff_compute(f[0], f[1], out) == 0)
		ret = 0;
	folded_free(f[0]);
	folded_free(f[1]);
	return ret;
}

int callpath_cmd_diff(const struct egprof_opts *o, const struct analysis *a)
{
	const char *la = a->run[0]->label ? a->run[0]->label : "A";
	const char *lb = a->run[1]->label ? a->run[1]->label : "B";
	const struct pathdiff *d = a->paths_calls, *dt = a->paths_time;
	struct pathdiff *events = NULL;
	const char *noun = "time sample";	/* of the metric shown */
	char noun_buf[CALLPATH_METRIC_NAME_MAX + 32];
	/* "'SIDECAR' holds no ...": why a side has no sample of the metric
	 * (folded_no_samples_why), "" when it has some */
	char why[2][4800] = { "", "" };
	int ret = 1;

	if (!o->callpath && !o->folded_path && !o->folded_calls_path && !o->flamegraph_path &&
	    !o->extended)
		return 0;
	if (o->flamegraph_path && (!a->paths[0] || !a->paths[1] || !dt)) {
		/* the plan checked the sidecars exist: these hold no time */
		error("%s: cannot write: both profiles' call-path sidecars need time "
		      "samples", o->flamegraph_path);
		goto out;
	}
	if (!a->paths[0] || !a->paths[1] || !d) {
		if (o->folded_path)
			warning("not writing '%s': both profiles need call-path "
				"sidecars", o->folded_path);
		if (o->folded_calls_path)
			warning("not writing '%s': both profiles need call-path "
				"sidecars", o->folded_calls_path);
		return 0;
	}
	if (o->folded_path && !dt) {
		error("%s: cannot write: both profiles' call-path sidecars need time "
		      "samples; --folded-calls writes call counts", o->folded_path);
		goto out;
	}
	/* sidecars without a sample of the metric (runs shorter than a tick,
	 * events that never overflowed): say so (folded.h's one rule) rather
	 * than write a file of nothing, or a column of zeros without a word */
	if (!callpath_metric_is_time(o->metric)) {
		snprintf(noun_buf, sizeof(noun_buf), "overflow of %s", o->metric);
		noun = noun_buf;
	}
	for (int s = 0; s < 2; s++) {
		char buf[512];
		const char *w = folded_no_samples_why(a->paths[s], buf, sizeof(buf));

		if (w)
			snprintf(why[s], sizeof(why[s]), "'%s' %s",
				 a->run[s]->paths_source ? a->run[s]->paths_source
							 : "gmon.out" SIDECAR_SUFFIX, w);
	}
	if (o->flamegraph_path && !dt->total_a && !dt->total_b) {
		error("%s: cannot write: neither profile's call-path sidecars hold "
		      "%s %s (%s; %s)", o->flamegraph_path, noun[0] == 'o' ? "an" : "a", noun,
		      why[0][0] ? why[0] : la, why[1][0] ? why[1] : lb);
		goto out;
	}
	if (o->folded_path && !dt->total_a && !dt->total_b) {
		error("%s: cannot write: neither profile's call-path sidecars hold "
		      "%s %s (%s; %s); --folded-calls writes call counts", o->folded_path,
		      noun[0] == 'o' ? "an" : "a", noun,
		      why[0][0] ? why[0] : la, why[1][0] ? why[1] : lb);
		goto out;
	}
	if (o->folded_path && (!dt->total_a || !dt->total_b))
		warning("%s: %s's call-path sidecars hold no %s (%s): its column is all "
			"zeros", o->folded_path, !dt->total_a ? la : lb, noun,
			!dt->total_a ? why[0] : why[1]);
	if (o->callpath || o->extended) {
		struct pathdiff_time_opts to = { a->paths[0]->hz, a->paths[1]->hz,
						 o->noise_sigmas, 0,
						 callpath_metric_is_time(o->metric) ? NULL
										: o->metric };

		fflush(stdout);
		if (dt && pathdiff_print_time(stdout, dt, la, lb, &to) < 0)
			goto out;
		if (pathdiff_print(stdout, d, la, lb, o->noise_sigmas) < 0)
			goto out;
		fflush(stdout);
	}
	/* --metric EV: the file holds events, not overflows */
	if ((o->folded_path || o->flamegraph_path) && a->paths[0]->metric.name[0] &&
	    events_diff(a, &events) < 0)
		goto out;
	if ((o->folded_path && folded_save_diff(o->outs, o->folded_path, events ? events : dt) < 0) ||
	    (o->folded_calls_path && folded_save_diff(o->outs, o->folded_calls_path, d) < 0) ||
	    (o->flamegraph_path &&
	     flamegraph_diff(o, a, events ? events : dt, events != NULL, la, lb) < 0))
		goto out;
	ret = 0;
out:
	pathdiff_free(events);
	return ret;
}
