/*
 * cmd_callpath.c - the call-path features wired to the front end: find the
 * sidecars beside the gmon operands, check they belong to the image, name
 * them through the profile and print or write what the options ask for.
 */
#include "callpath/cmd_callpath.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callpath/buildid.h"
#include "callpath/arcs.h"
#include "callpath/folded.h"
#include "callpath/graph_metric.h"
#include "callpath/metric_columns.h"
#include "callpath/metric_evidence.h"
#include "callpath/pathdiff.h"
#include "callpath/report.h"
#include "callpath/sidecar.h"
#include "callpath/stale.h"
#include "callpath/sum.h"
#include "diff/diff.h"
#include "diff/profile.h"
#include "gprof-ext/options.h"
#include "export/callpath_export.h"
#include "filter/filter.h"
#include "gprof-ext/upstream.h"
#include "utils/error.h"
#include "utils/banned.h"

/*
 * Does gprof demangle this profile's names (its default; not with
 * --no-demangle or -T)?  Its print names say: the first C++ symbol's is
 * demangled or not.  Without C++ symbols, as gprof's default.
 */
static int profile_demangles(const struct profile *p)
{
	for (size_t i = 0; i < p->nsyms; i++) {
		const struct profile_sym *s = &p->syms[i];

		if (s->name && s->print_name && !strncmp(s->name, "_Z", 2))
			return strcmp(s->name, s->print_name) != 0;
	}
	return 1;
}

/* How call paths name functions: as gprof names them in profile p, and
 * with -l as gprof's line options say (`lines`). */
static struct callpath_symopts symopts_of(const struct profile *p, int lines,
					  const char *metric)
{
	struct callpath_symopts so = { 0, 0, NULL, NULL, metric };

	if (lines) {
		upstream_line_options(&so.lines, &so.full_paths);
		so.addr_to_line = upstream_addr_to_line;
	}
	if (profile_demangles(p))
		so.demangle = upstream_demangle;
	return so;
}

/* m, or with --short-names a copy with short names (*owned set: free it). */
static int model_for_output(const struct egprof_opts *o, struct callpath_model *m,
			    struct callpath_model **out)
{
	if (!o->short_names) {
		*out = m;
		return 0;
	}
	return callpath_model_shorten(m, o->names, out);
}

/*
 * Name the sidecar through the profile, after checking that it belongs to
 * the image (build-id).  That it belongs to its gmon files was checked as
 * it was read (callpath/sum.h); a sidecar without identity (versions 1 to
 * 3) gets the counts' hint as a warning only (callpath/stale.h).
 */
static int model_of(const struct sidecar *sc, const char *source,
		    const struct profile *p, const struct callpath_symopts *so,
		    struct callpath_model **m)
{
	char why[1024];
	int stale = 0, k;

	/* a metric the sidecar lacks, named by the sidecar's path (the
	 * model's own check knows only the gmon file's name it recorded) */
	if (so && so->metric && callpath_metric_find(sc, so->metric, source, &k) < 0)
		return -1;
	if (sidecar_check_build_id(sc, source, p->binary) < 0 ||
	    callpath_model_build(sc, p, so, m) < 0)
		return -1;
	if ((*m)->saturated)
		warning("%s: %s", source, CALLPATH_SATURATED);
	if (!(sc->id.flags & SIDECAR_ID_HASHED))
		stale = callpath_stale_check(*m, sc, p, why, sizeof(why));
	if (stale < 0)
		return -1;
	if (stale)
		warning("%s: may be left from another run beside '%s' (%s); it is "
			"read, but a sidecar of this version cannot tell", source,
			p->ngmon ? p->gmon_files[0] : "gmon.out", why);
	return 0;
}

/*
 * Sidecars beside every gmon file, each checked against its gmon file, and
 * summed; an error when some lack one.  An explicit sidecar
 * (--callpath=FILE) is checked against the gmon file when there is one.
 */
static int load_sidecar(const char *explicit_file, char *const *gmons, size_t n,
			int force, struct sidecar **out, char *source, size_t source_len)
{
	char err[4096];
	size_t missing;

	if (explicit_file) {
		snprintf(source, source_len, "%s", explicit_file);
		if (sidecar_read(explicit_file, out, err, sizeof(err)) < 0)
			return error("%s", err);
		if (n == 1 && callpath_pair_check(*out, explicit_file, gmons[0], force) < 0) {
			sidecar_free(*out);
			*out = NULL;
			return -1;
		}
		return 0;
	}
	if (callpath_sum_read(gmons, n, force, out, &missing) < 0)
		return -1;
	if (missing != n) {
		char name[4096];

		if (sidecar_name_for(gmons[missing], name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "%s", SIDECAR_SUFFIX);
		if (!*out)
			return error("%s: %s (run the program with "
				     "libcallpath to record call paths)",
				     name, strerror(ENOENT));
		sidecar_free(*out);
		*out = NULL;
		return error("%s: %s (the other gmon files have "
			     "call-path sidecars)", name, strerror(ENOENT));
	}
	if (n == 1)
		snprintf(source, source_len, "%s%s", gmons[0], SIDECAR_SUFFIX);
	else
		snprintf(source, source_len, "%s%s and %zu more", gmons[0],
			 SIDECAR_SUFFIX, n - 1);
	return 0;
}

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

int callpath_cmd_gprof(const struct egprof_opts *o, const struct profile *p)
{
	/* --metric LIST (or IPC...): the report shows time, then the columns */
	int columns = metric_columns_wanted(o->metric);
	struct callpath_symopts so = symopts_of(p, 1, columns ? NULL : o->metric);
	struct sidecar *sc = NULL;
	struct callpath_model *m = NULL, *fm = NULL, *shown = NULL, *all = NULL;
	struct folded *ft = NULL, *fc = NULL;
	char source[4200];
	int ret = 1;

	if (!o->callpath && !o->folded_path && !o->folded_calls_path)
		return 0;
	if (columns && (o->folded_path || !o->callpath || o->format != TABLE_TEXT))
		return metric_columns_refuse(o->metric), 1;
	/* p->binary is the image upstream read (a.out without operands),
	 * p->gmon_files the gmon files (gmon.out without any): cmd_gprof.c. */
	if (load_sidecar(o->callpath_file, p->gmon_files, p->ngmon, o->force, &sc, source,
			 sizeof(source)) < 0 ||
	    model_of(sc, source, p, &so, &m) < 0 ||
	    (columns && metric_columns_check(sc, o->metric, source) < 0))
		goto out;
	if (o->folded_path && check_samples(m, source, o->folded_path) < 0)
		goto out;
	/* folded stacks and JSON show what --focus/--root/--depth/--exclude
	 * keep (filter/filter.h); the text report is gprof's, all of it */
	{
		struct filter_opts f = filter_opts_of(o);

		if (filter_active(&f) && (o->folded_path || o->folded_calls_path ||
					  (o->callpath && o->format != TABLE_TEXT)) &&
		    filter_callpath(&f, m, &fm) < 0)
			goto out;
	}
	/* all: the text report's model; shown: the filtered outputs' (each
	 * with --short-names' names when asked) */
	if (model_for_output(o, m, &all) < 0 ||
	    (fm && model_for_output(o, fm, &shown) < 0))
		goto out;
	if (!fm)
		shown = all;
	if (o->callpath && o->format != TABLE_TEXT) {
		if (callpath_export(stdout, (enum table_format)o->format, shown, source) < 0)
			goto out;
	} else if (o->callpath) {
		fflush(stdout);
		if (callpath_report_write(stdout, all, source, o->all_paths) < 0)
			goto out;
		if (columns && metric_columns_print(stdout, sc, p, &so, o->metric, source) < 0)
			goto out;
		fflush(stdout);
	}
	/* both built before either is written: all outputs or none */
	if ((o->folded_path && folded_build(shown, FOLDED_WEIGHTED, &ft) < 0) ||
	    (o->folded_calls_path && folded_build(shown, FOLDED_CALLS, &fc) < 0))
		goto out;
	if ((ft && folded_save(o->outs, o->folded_path, ft) < 0) ||
	    (fc && folded_save(o->outs, o->folded_calls_path, fc) < 0))
		goto out;
	ret = 0;
out:
	folded_free(ft);
	folded_free(fc);
	if (shown && shown != all && shown != fm)
		callpath_model_free(shown);
	if (all && all != m)
		callpath_model_free(all);
	callpath_model_free(fm);
	callpath_model_free(m);
	sidecar_free(sc);
	return ret;
}

/* One side of a diff: its paths by calls, and by time when it has samples. */
struct side_paths {
	struct folded *calls;
	struct folded *time;	/* NULL without samples */
	double hz;
	/* --metric EV: the paths' events (the file's numbers; `time` keeps
	 * overflows, the samples the noise rule counts); NULL for time */
	struct folded *events;
	/* "'SIDECAR' holds no ...": why it has no sample of the metric
	 * (folded_no_samples_why), "" when it has some */
	char why[4800];
};

static void side_paths_release(struct side_paths *sp)
{
	folded_free(sp->calls);
	folded_free(sp->time);
	folded_free(sp->events);
}

/* --metric EV: sp->events, the paths in the metric's unit (events). */
static int side_events(const struct callpath_model *m, struct side_paths *sp)
{
	if (!m->metric.name[0] || !(m->sampling & SIDECAR_SAMPLING_SELF))
		return 0;
	return folded_build(m, FOLDED_WEIGHTED, &sp->events);
}

/* One side's folded stacks; sp->calls NULL when it has no sidecars. */
static int side_folded(const struct egprof_opts *o, const struct callpath_side *s,
		       int required, int force, struct side_paths *sp)
{
	char *const *gmons = s->gmon_files ? s->gmon_files : s->p->gmon_files;
	size_t n = s->gmon_files ? s->ngmon : s->p->ngmon, missing;
	struct callpath_symopts so = symopts_of(s->p, 0, o->metric);	/* names only */
	struct callpath_model *m = NULL, *shown = NULL;
	struct sidecar *sc = NULL;
	char source[4200];
	int ret = -1;

	if (s->model && *s->model) {
		m = *s->model;
		goto build;
	}
	if (!required) {
		/* only look: a side without sidecars turns the feature off */
		if (callpath_sum_read(gmons, n, force, &sc, &missing) < 0)
			return -1;
		if (!sc || missing != n) {
			sidecar_free(sc);
			return 0;
		}
		snprintf(source, sizeof(source), "%s%s", n ? gmons[0] : "?",
			 SIDECAR_SUFFIX);
	} else if (load_sidecar(NULL, gmons, n, force, &sc, source, sizeof(source)) < 0) {
		return -1;
	}
	if (model_of(sc, source, s->p, &so, &m) < 0)
		goto out;
	if (s->model)
		*s->model = m;
build:
	if (model_for_output(o, m, &shown) < 0 ||
	    folded_build(shown, FOLDED_CALLS_GPROF, &sp->calls) < 0)
		goto out;
	sp->hz = m->hz;
	if ((m->sampling & SIDECAR_SAMPLING_SELF) &&
	    folded_build(shown, FOLDED_SAMPLES, &sp->time) < 0)
		goto out;
	if (side_events(shown, sp) < 0)
		goto out;
	{
		char buf[512];
		const char *why = folded_no_samples_why(m, buf, sizeof(buf));

		if (why)
			snprintf(sp->why, sizeof(sp->why), "'%s%s' %s", n ? gmons[0] : "gmon.out",
				 SIDECAR_SUFFIX, why);
	}
	ret = 0;
out:
	if (shown && shown != m)
		callpath_model_free(shown);
	if (!s->model || *s->model != m)
		callpath_model_free(m);
	sidecar_free(sc);
	return ret;
}

/* A model's paths by calls (as gprof counts recursion) and by time. */
static int side_paths_of(const struct callpath_model *m, struct side_paths *sp)
{
	sp->hz = m->hz;
	if (folded_build(m, FOLDED_CALLS_GPROF, &sp->calls) < 0)
		return -1;
	if ((m->sampling & SIDECAR_SAMPLING_SELF) &&
	    folded_build(m, FOLDED_SAMPLES, &sp->time) < 0)
		return -1;
	return side_events(m, sp);
}

int callpath_cmd_diff(const struct egprof_opts *o, const struct callpath_side *a,
		      const struct callpath_side *b)
{
	struct side_paths sa = { NULL, NULL, 0, NULL, "" }, sb = { NULL, NULL, 0, NULL, "" };
	struct side_paths fa = { NULL, NULL, 0, NULL, "" }, fb = { NULL, NULL, 0, NULL, "" };
	const char *noun = "time sample";	/* of the metric shown */
	char noun_buf[CALLPATH_METRIC_NAME_MAX + 32];
	struct pathdiff *d = NULL, *dt = NULL, *fd = NULL, *fdt = NULL;
	struct filter_opts f = filter_opts_of(o);
	const char *la = a->label ? a->label : "A", *lb = b->label ? b->label : "B";
	int ret = 1;

	if (!o->callpath && !o->folded_path && !o->folded_calls_path && !o->extended)
		return 0;
	if (side_folded(o, a, o->callpath, o->force || a->force, &sa) < 0 ||
	    side_folded(o, b, o->callpath, o->force || b->force, &sb) < 0)
		goto out;
	if (!sa.calls || !sb.calls) {
		if (o->folded_path)
			warning("not writing '%s': both profiles need call-path "
				"sidecars", o->folded_path);
		if (o->folded_calls_path)
			warning("not writing '%s': both profiles need call-path "
				"sidecars", o->folded_calls_path);
		ret = 0;
		goto out;
	}
	if (pathdiff_compute(sa.calls, sb.calls, &d) < 0 ||
	    (sa.time && sb.time && pathdiff_compute(sa.time, sb.time, &dt) < 0))
		goto out;
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
	if (o->folded_path && !sa.time->nr && !sb.time->nr) {
		error("%s: cannot write: neither profile's call-path sidecars hold "
		      "%s %s (%s; %s); --folded-calls writes call counts", o->folded_path,
		      noun[0] == 'o' ? "an" : "a", noun,
		      sa.why[0] ? sa.why : la, sb.why[0] ? sb.why : lb);
		goto out;
	}
	if (o->folded_path && (!sa.time->nr || !sb.time->nr))
		warning("%s: %s's call-path sidecars hold no %s (%s): its column is all "
			"zeros", o->folded_path, !sa.time->nr ? la : lb, noun,
			!sa.time->nr ? sa.why : sb.why);
	if (o->callpath || o->extended) {
		struct pathdiff_time_opts to = { sa.hz, sb.hz, o->noise_sigmas, 0,
						 callpath_metric_is_time(o->metric) ? NULL
										: o->metric };

		fflush(stdout);
		if (dt && pathdiff_print_time(stdout, dt, la, lb, &to) < 0)
			goto out;
		if (pathdiff_print(stdout, d, la, lb, o->noise_sigmas) < 0)
			goto out;
		fflush(stdout);
	}
	/* the files show what --focus/--root/--depth/--exclude keep */
	if ((o->folded_path || o->folded_calls_path) && filter_active(&f)) {
		struct callpath_model *m[2] = { NULL, NULL };

		if (callpath_diff_models(o, a, b, m) != 0)
			goto out;
		ret = side_paths_of(m[0], &fa) < 0 || side_paths_of(m[1], &fb) < 0 ||
		      pathdiff_compute(fa.calls, fb.calls, &fd) < 0 ||
		      (fa.time && fb.time && pathdiff_compute(fa.time, fb.time, &fdt) < 0);
		callpath_model_free(m[0]);
		callpath_model_free(m[1]);
		if (ret)
			goto out;
		ret = 1;
	}
	/* --metric EV: the file holds events, not overflows */
	if (o->folded_path && (fa.events || sa.events)) {
		struct side_paths *ea = fa.events ? &fa : &sa, *eb = fa.events ? &fb : &sb;

		pathdiff_free(fdt);
		fdt = NULL;
		if (!ea->events || !eb->events ||
		    pathdiff_compute(ea->events, eb->events, &fdt) < 0)
			goto out;
	}
	if ((o->folded_path && folded_save_diff(o->outs, o->folded_path, fdt ? fdt : dt) < 0) ||
	    (o->folded_calls_path &&
	     folded_save_diff(o->outs, o->folded_calls_path, fd ? fd : d) < 0))
		goto out;
	ret = 0;
out:
	pathdiff_free(fd);
	pathdiff_free(fdt);
	side_paths_release(&fa);
	side_paths_release(&fb);
	pathdiff_free(d);
	pathdiff_free(dt);
	side_paths_release(&sa);
	side_paths_release(&sb);
	return ret;
}

/* One side's calls per function name (names borrowed from m). */
static int model_calls(const struct callpath_model *m, uint64_t **counts)
{
	*counts = calloc(m->nr_names ? m->nr_names : 1, sizeof(**counts));
	if (!*counts)
		return error("out of memory");
	for (uint32_t i = 0; i < m->nr_frames; i++)
		(*counts)[m->frames[i].attributed] += m->frames[i].count +
						      m->frames[i].recursive;
	return 0;
}

/* One side's sidecars named through its profile; *m NULL without them. */
static int side_model(const struct callpath_side *s, int force, struct callpath_model **m)
{
	char *const *gmons = s->gmon_files ? s->gmon_files : s->p->gmon_files;
	size_t n = s->gmon_files ? s->ngmon : s->p->ngmon, missing = n;
	struct callpath_symopts so = symopts_of(s->p, 0, s->metric);	/* names only */
	struct sidecar *sc = NULL;
	char source[4200];
	int ret;

	*m = NULL;
	if (s->model && *s->model) {
		*m = *s->model;
		return 0;
	}
	if (callpath_sum_read(gmons, n, force || s->force, &sc, &missing) < 0)
		return -1;
	if (!sc || missing != n) {
		sidecar_free(sc);
		return 0;
	}
	snprintf(source, sizeof(source), "%s%s", n ? gmons[0] : "gmon.out", SIDECAR_SUFFIX);
	ret = model_of(sc, source, s->p, &so, m);
	sidecar_free(sc);
	if (ret < 0) {
		callpath_model_free(*m);
		*m = NULL;
	} else if (s->model) {
		*s->model = *m;
	}
	return ret;
}

/* A model from side_model(), given back: freed unless the side keeps it. */
static void side_model_release(const struct callpath_side *s, struct callpath_model *m)
{
	if (!s->model)
		callpath_model_free(m);
}

/* How many callers' paths a library row's evidence names. */
#define LEAF_CALLERS_SHOWN 3

/*
 * The flat diff's time from the sidecars (diff_set_sidecar_time): each
 * function's self samples as --metric sums them (metric_evidence.h, time
 * being the default metric) and the callers of the leaves outside the
 * program.  Only when both sides sampled time.  0 or -1 (reported).
 */
static int sidecar_time_load(const struct callpath_model *const m[2], struct diff *d)
{
	struct folded *f[2] = { NULL, NULL };
	struct metric_leaf_callers *lc = NULL;
	char **names = NULL, **callers = NULL;
	uint64_t *self = NULL;
	int ret = -1;

	for (int s = 0; s < 2; s++)
		if (!m[s]->sampling || !m[s]->total_samples || !(m[s]->hz > 0) ||
		    m[s]->metric.name[0])
			return 0;	/* no time samples: gmon.out's histogram */
	if (metric_function_overflows(m[0], 0, &f[0]) < 0 ||
	    metric_function_overflows(m[1], 0, &f[1]) < 0 ||
	    metric_leaf_callers_build(m[0], m[1], LEAF_CALLERS_SHOWN, &lc) < 0)
		goto out;
	for (int s = 0; s < 2; s++) {
		size_t n = f[s]->nr;

		free(names);
		free(callers);
		free(self);
		names = calloc(n + 1, sizeof(*names));
		callers = calloc(n + 1, sizeof(*callers));
		self = calloc(n + 1, sizeof(*self));
		if (!names || !callers || !self) {
			error("out of memory");
			goto out;
		}
		for (size_t i = 0; i < n; i++) {
			names[i] = f[s]->stacks[i].stack;
			self[i] = f[s]->stacks[i].count;
			callers[i] = (char *)metric_leaf_callers_of(lc, names[i]);
		}
		/* a timer signal may stand for several periods (sidecar.h) */
		double weight = m[s]->time_taken
			? (double)(m[s]->total_samples + m[s]->unplaced_samples) /
			  (double)m[s]->time_taken : 1.0;

		if (diff_set_sidecar_time(d, s, names, self, callers, n, m[s]->hz, weight) < 0)
			goto out;
		d->cp_coverage[s] = callpath_model_coverage(m[s]);
	}
	ret = 0;
out:
	free(names);
	free(callers);
	free(self);
	folded_free(f[0]);
	folded_free(f[1]);
	metric_leaf_callers_free(lc);
	return ret;
}

int callpath_exact_calls_load(const struct callpath_side *a,
			      const struct callpath_side *b, struct diff *d)
{
	struct callpath_model *m[2] = { NULL, NULL };
	uint64_t *counts[2] = { NULL, NULL };
	int ret = 1;

	if (side_model(a, 0, &m[0]) < 0 || (m[0] && side_model(b, 0, &m[1]) < 0))
		goto out;
	if (!m[0] || !m[1]) {
		ret = 0;	/* gmon's counts, with their tolerance */
		goto out;
	}
	for (int s = 0; s < 2; s++)
		if (model_calls(m[s], &counts[s]) < 0)
			goto out;
	for (int s = 0; s < 2; s++)
		diff_set_exact_calls(d, s, m[s]->names, counts[s], m[s]->nr_names);
	/* and the time tests from the sidecars' samples (issue 22) */
	if ((!a->metric || callpath_metric_is_time(a->metric)) &&
	    sidecar_time_load((const struct callpath_model *const[2]){ m[0], m[1] }, d) < 0)
		goto out;
	ret = 0;
out:
	for (int s = 0; s < 2; s++)
		free(counts[s]);
	side_model_release(a, m[0]);
	side_model_release(b, m[1]);
	return ret;
}

static double graph_arc_seconds(const void *ctx, int side, const char *caller,
				const char *callee)
{
	const struct callpath_graph_times *t = ctx;
	const struct callpath_arc *a;

	if (!t->arcs[side])
		return 0.0;
	a = callpath_arcs_find(t->arcs[side], caller, callee);
	return a ? callpath_arc_seconds(t->arcs[side], a) : 0.0;
}

static void graph_func_value(const void *ctx, int side, const char *const *names, size_t n,
			     double *self, double *total)
{
	graph_metric_value(((const struct callpath_graph_times *)ctx)->metric, side, names, n,
			   self, total);
}

static int graph_func_changed(const void *ctx, const char *name, int inclusive)
{
	return graph_metric_changed(((const struct callpath_graph_times *)ctx)->metric, name,
				    inclusive);
}

static int graph_arc_changed(const void *ctx, const char *caller, const char *callee)
{
	return graph_metric_arc_changed(((const struct callpath_graph_times *)ctx)->metric,
					caller, callee);
}

/* --metric EV and a side without sidecars: name the first one missing. */
static int metric_needs_sidecars(const char *metric, const struct callpath_side *s)
{
	char *const *gmons = s->gmon_files ? s->gmon_files : s->p->gmon_files;
	size_t n = s->gmon_files ? s->ngmon : s->p->ngmon;
	char name[4096];

	snprintf(name, sizeof(name), "gmon.out%s", SIDECAR_SUFFIX);
	for (size_t i = 0; i < n; i++)
		if (sidecar_name_for(gmons[i], name, sizeof(name)) == 0 && access(name, F_OK) != 0)
			break;
	return error("%s: %s (--metric %s: the graphs take the metric from call-path "
		     "sidecars; run the program with libcallpath and CALLPATH_EVENTS)",
		     name, strerror(ENOENT), metric);
}

/* One side's model for the graphs: its time's, or with --metric EV the
 * event's (then missing sidecars are an error).  *owned: free it. */
static int graph_side_model(const struct egprof_opts *o, const struct callpath_side *side,
			    int nsides, int metric, struct callpath_model **m, int *owned)
{
	struct callpath_side s = *side;

	*m = NULL;
	*owned = 0;
	/* time: the graphs' measured edges are time whatever --metric
	 * chose for the call-path tables */
	if (!metric) {
		s.metric = NULL;
		s.model = NULL;
	} else {
		s.metric = o->metric;
	}
	if (nsides == 1 && o->callpath_file) {
		struct callpath_symopts so = symopts_of(s.p, 0, s.metric);
		struct sidecar *sc = NULL;
		char err[4200];
		int bad;

		if (load_sidecar(o->callpath_file, s.p->gmon_files, s.p->ngmon, o->force, &sc, err,
				 sizeof(err)) < 0)
			return -1;
		bad = model_of(sc, o->callpath_file, s.p, &so, m) < 0;
		sidecar_free(sc);
		if (bad) {
			callpath_model_free(*m);
			*m = NULL;
			return -1;
		}
		*owned = 1;
		return 0;
	}
	if (side_model(&s, o->force, m) < 0)
		return -1;
	*owned = *m && !s.model;
	if (!*m && metric)
		return metric_needs_sidecars(o->metric, &s);
	return 0;
}

int callpath_graph_times_load(const struct egprof_opts *o,
			      const struct callpath_side *sides, int nsides,
			      struct callpath_graph_times *t)
{
	int metric = !callpath_metric_is_time(o->metric);

	memset(t, 0, sizeof(*t));
	t->gm.arc_seconds = graph_arc_seconds;
	t->gm.ctx = t;
	if (!o->gml_path && !o->dot_path && !o->graphml_path && !o->svg_path && !o->png_path &&
	    !o->html_path)
		return 0;
	/* a ratio or several metrics are not one value to sum along a
	 * graph's calls: --callpath shows them */
	if (metric && metric_columns_wanted(o->metric))
		return error("--metric %s: the graphs draw one event recorded in the "
			     "sidecars (a derived metric or a list is shown by --callpath)",
			     o->metric), 1;
	for (int i = 0; i < nsides && i < 2; i++) {
		struct callpath_model *m = NULL;
		int owned = 0, bad;

		if (graph_side_model(o, &sides[i], nsides, metric, &m, &owned) < 0)
			return 1;
		if (!m)		/* no sidecars: gprof's numbers */
			continue;
		bad = callpath_arcs_build(m, &t->arcs[i]) < 0;
		if (metric) {
			t->model[i] = m;
			t->owned[i] = owned;
		} else if (owned) {
			callpath_model_free(m);
		}
		if (bad)
			return 1;
		t->gm.timed[i] = t->arcs[i]->timed;
	}
	if (metric) {
		int n = nsides < 2 ? nsides : 2;

		if (graph_metric_build((const struct callpath_model *const *)t->model,
				       (const struct callpath_arcs *const *)t->arcs, n,
				       o->noise_sigmas, &t->metric) < 0)
			return 1;
		snprintf(t->metric_name, sizeof(t->metric_name), "%s", t->model[0]->metric.name);
		snprintf(t->unit, sizeof(t->unit), "%s",
			 t->model[0]->metric.unit[0] ? t->model[0]->metric.unit : "events");
		t->gm.metric = t->metric_name;
		t->gm.unit = t->unit;
		t->gm.func_value = graph_func_value;
		t->gm.func_changed = graph_func_changed;
		t->gm.arc_changed = graph_arc_changed;
		for (int i = 0; i < n; i++)
			t->gm.total[i] = graph_metric_total(t->metric, i);
	}
	return 0;
}

void callpath_graph_times_release(struct callpath_graph_times *t)
{
	callpath_arcs_free(t->arcs[0]);
	callpath_arcs_free(t->arcs[1]);
	t->arcs[0] = t->arcs[1] = NULL;
	graph_metric_free(t->metric);
	t->metric = NULL;
	for (int i = 0; i < 2; i++) {
		if (t->owned[i])
			callpath_model_free(t->model[i]);
		t->model[i] = NULL;
		t->owned[i] = 0;
	}
}

/* ------------------------------------------------------------------------ */
/* Models for the other outputs (pprof, HTML)                                */

int callpath_profile_model(const struct egprof_opts *o, const struct profile *p,
			   struct callpath_model **out, char *source, size_t source_len)
{
	struct callpath_symopts so = symopts_of(p, 0, o->metric);	/* names only */
	struct filter_opts f = filter_opts_of(o);
	struct callpath_model *m = NULL;
	struct sidecar *sc = NULL;
	size_t missing;
	int ret = 1;

	*out = NULL;
	/* no sidecar beside every gmon file: gmon.out alone */
	for (missing = 0; !o->callpath_file && missing < p->ngmon; missing++) {
		char name[4096];

		if (sidecar_name_for(p->gmon_files[missing], name, sizeof(name)) < 0 ||
		    access(name, F_OK) != 0)
			return 0;
	}
	/* read as --callpath reads it, named as it names it */
	if (load_sidecar(o->callpath_file, p->gmon_files, p->ngmon, o->force, &sc, source,
			 source_len) < 0)
		return 1;
	if (model_of(sc, source, p, &so, &m) == 0 && filter_callpath(&f, m, out) == 0) {
		char buf[512];
		const char *why = folded_no_samples_why(m, buf, sizeof(buf));

		/* folded.h's one rule: the views also show the calls */
		if (why && (m->sampling & SIDECAR_SAMPLING_SELF))
			warning("'%s' %s; the views show its calls, and %s of 0",
				source, why, m->metric.name[0] ? m->metric.name : "time");
		ret = 0;
	}
	callpath_model_free(m);
	sidecar_free(sc);
	/* --short-names: the views name frames as every output does */
	if (ret == 0 && *out && o->short_names) {
		if (model_for_output(o, *out, &m) < 0) {
			callpath_model_free(*out);
			*out = NULL;
			return 1;
		}
		callpath_model_free(*out);
		*out = m;
	}
	return ret;
}

int callpath_diff_models(const struct egprof_opts *o, const struct callpath_side *a,
			 const struct callpath_side *b, struct callpath_model *out[2])
{
	struct filter_opts f = filter_opts_of(o);
	struct callpath_model *m[2] = { NULL, NULL };
	int ret = 1;

	out[0] = out[1] = NULL;
	if (side_model(a, o->force, &m[0]) < 0 || (m[0] && side_model(b, o->force, &m[1]) < 0))
		goto done;
	ret = 0;
	if (m[0] && m[1] &&
	    filter_callpath_pair(&f, (const struct callpath_model *const[2]){ m[0], m[1] },
				 out) < 0)
		ret = 1;
	/* --short-names: the views name frames as every output does */
	for (int s = 0; ret == 0 && o->short_names && s < 2 && out[s]; s++) {
		struct callpath_model *sm;

		if (model_for_output(o, out[s], &sm) < 0) {
			ret = 1;
			break;
		}
		callpath_model_free(out[s]);
		out[s] = sm;
	}
	if (ret) {
		callpath_model_free(out[0]);
		callpath_model_free(out[1]);
		out[0] = out[1] = NULL;
	}
done:
	side_model_release(a, m[0]);
	side_model_release(b, m[1]);
	return ret;
}
