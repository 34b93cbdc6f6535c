/*
 * analysis.c - what every extension view shows, built once
 * (model/analysis.h).
 */
#include "model/analysis.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callpath/folded.h"
#include "model/metric.h"
#include "callpath/pathdiff.h"
#include "model/callpath_model.h"
#include "format/sidecar.h"
#include "diff/noise.h"
#include "diff/profile.h"
#include "filter/filter_models.h"
#include "model/lines.h"
#include "model/measured.h"
#include "model/paths.h"
#include "model/run.h"
#include "utils/error.h"
#include "utils/banned.h"

/* The first file of a run without its sidecar, for the message. */
static int needs_sidecars(const struct run *r, const char *metric)
{
	char name[4096];

	snprintf(name, sizeof(name), "gmon.out%s", SIDECAR_SUFFIX);
	for (size_t i = 0; i < r->nfiles; i++)
		if (sidecar_name_for(r->files[i], name, sizeof(name)) == 0 &&
		    access(name, F_OK) != 0)
			break;
	return error("%s: %s (--metric %s: the views take the metric from call-path "
		     "sidecars; run the program with libcallpath and CALLPATH_EVENTS)",
		     name, strerror(ENOENT), metric);
}

/*
 * What share of each run's process CPU time (getrusage, recorded by the
 * runtime) its time samples cover, said with the source: a thread too
 * short for its timer is time no view shows.  Only where the sidecars'
 * time is the source and every run recorded it.
 */
static void describe_coverage(struct analysis *a)
{
	size_t s, len;
	int known = a->from_sidecars && !a->funcs[0]->measure.metric[0];

	for (s = 0; s < 2; s++)
		a->coverage[s] = -1;
	for (s = 0; s < a->nsides && known; s++)
		if (!a->run[s]->paths ||
		    (a->coverage[s] = callpath_model_coverage(a->run[s]->paths)) < 0)
			known = 0;
	if (!known) {
		a->coverage[0] = a->coverage[1] = -1;
		return;
	}
	len = strlen(a->source);
	if (a->nsides == 1)
		snprintf(a->source + len, sizeof(a->source) - len, "; the samples cover %.0f%% "
			 "of the process's CPU time (getrusage)", 100.0 * a->coverage[0]);
	else
		snprintf(a->source + len, sizeof(a->source) - len, "; the samples cover %.0f%% "
			 "(baseline) and %.0f%% (second) of the processes' CPU time (getrusage)",
			 100.0 * a->coverage[0], 100.0 * a->coverage[1]);
	for (s = 0; s < a->nsides; s++)
		if (a->coverage[s] < SIDECAR_CPU_COVERAGE_WARN)
			a->coverage_low = 1;
}

/* Where the sidecars' calls come from: "the call-path sidecars'", or
 * that a sampled run (no -pg) counted none. */
static const char *sidecar_calls(const struct analysis *a)
{
	int none0 = a->funcs[0]->measure.calls_unmeasured;
	int none1 = a->nsides > 1 ? a->funcs[1]->measure.calls_unmeasured : none0;

	if (none0 && none1)
		return "not counted (sampled without -pg)";
	if (none0 || none1)
		return none0 ? "the second run's sidecars' (the baseline, sampled without -pg, "
			       "counted none)"
			     : "the baseline's sidecars' (the second run, sampled without -pg, "
			       "counted none)";
	return "the call-path sidecars'";
}

/* "call-path samples of each thread, 1000 Hz" and the like. */
static void describe_source(struct analysis *a)
{
	const struct profile *p = a->funcs[0];
	double hz0 = p->hz, hz1 = a->nsides > 1 ? a->funcs[1]->hz : hz0;
	char rate[160];

	if (hz0 == hz1)
		snprintf(rate, sizeof(rate), "%g", hz0);
	else
		snprintf(rate, sizeof(rate), "%g (baseline) and %g (second)", hz0, hz1);
	if (!a->from_sidecars)
		snprintf(a->source, sizeof(a->source), "time: gmon.out's histogram, %s Hz "
			 "(the program's own code); calls: gmon.out's", rate);
	else if (p->measure.metric[0])
		snprintf(a->source, sizeof(a->source), "%s: call-path samples of each thread, "
			 "one per %g %s (period); calls: %s",
			 p->measure.metric, hz0 > 0 ? 1 / hz0 : 0.0, p->measure.unit,
			 sidecar_calls(a));
	else
		snprintf(a->source, sizeof(a->source), "time: call-path samples of each thread, "
			 "%s Hz (libraries, the instrumentation and unknown code in rows of "
			 "their own); calls: %s", rate, sidecar_calls(a));
	describe_coverage(a);
}

/* Side s's functions in the lead metric, from the chosen source. */
static int side_funcs(struct analysis *a, size_t s)
{
	const struct run *r = a->run[s];

	if (!a->from_sidecars) {
		a->funcs[s] = r->gmon;
		a->funcs_each[s] = r->gmon_each;
		a->neach[s] = r->neach;
		return 0;
	}
	a->owned[s] = 1;
	if (measured_profile(r->paths, r->gmon, NULL, &a->funcs[s]) < 0)
		return -1;
	if (!r->paths_each)
		return 0;
	if (!(a->funcs_each[s] = calloc(r->nfiles + 1, sizeof(*a->funcs_each[s]))))
		return error("out of memory");
	a->neach[s] = r->nfiles;
	for (size_t i = 0; i < r->nfiles; i++)
		if (measured_profile(r->paths_each[i], r->gmon, a->funcs[s],
				     &a->funcs_each[s][i]) < 0)
			return -1;
	return 0;
}

static int build_diff(struct analysis *a, const struct analysis_opts *o)
{
	if (diff_compute(&a->diff, a->funcs[0], a->funcs[1], &o->diff) < 0)
		return -1;
	a->have_diff = 1;
	if (a->neach[0] > 1 || a->neach[1] > 1) {
		struct noise_runs runs[DIFF_NSIDES];

		for (int s = 0; s < DIFF_NSIDES; s++)
			runs[s] = (struct noise_runs){ a->funcs_each[s], a->run[s]->rank,
						       a->neach[s] > 1 ? a->neach[s] : 0 };
		if (noise_set_runs(&a->diff, runs) < 0)
			return -1;
		diff_assess(&a->diff);
	}
	if (filter_active(&o->filter)) {
		if (filter_diff_view(&o->filter, &a->diff, &a->view) < 0)
			return -1;
		a->have_view = 1;
	} else {
		a->view = a->diff;	/* the same entries: nothing left out */
	}
	if (!(a->in = malloc(a->diff.nentries + 1)))
		return error("out of memory");
	return filter_diff_entries(&o->filter, &a->diff, a->in);
}

/* The paths the filters keep, and for a diff their differences. */
static int build_paths(struct analysis *a, const struct analysis_opts *o)
{
	const struct callpath_model *m[2] = { a->run[0]->paths,
					      a->nsides > 1 ? a->run[1]->paths : NULL };
	struct folded *f[2][2] = { { NULL, NULL }, { NULL, NULL } };
	struct callpath_model *named[2] = { NULL, NULL };
	int ret = -1, copied[2] = { 0, 0 };

	for (size_t s = 0; s < a->nsides; s++)
		if (!m[s])
			return 0;
	/* named as the tables name the functions (a region by its
	 * function): every view of the analysis says one name */
	for (size_t s = 0; s < a->nsides; s++)
		if (paths_as_functions(m[s], a->run[s]->gmon, &named[s], &copied[s]) < 0)
			goto out;
	if (filter_active(&o->filter)) {
		if (a->nsides == 1
		    ? filter_callpath(&o->filter, named[0], &a->paths[0]) < 0
		    : filter_callpath_pair(&o->filter,
					   (const struct callpath_model *const[2]){ named[0], named[1] },
					   a->paths) < 0)
			goto out;
		a->owned_paths[0] = a->owned_paths[1] = 1;
	} else {
		for (size_t s = 0; s < a->nsides; s++) {
			a->paths[s] = named[s];
			a->owned_paths[s] = copied[s];
			copied[s] = 0;
		}
	}
	for (size_t s = 0; o->short_names && s < a->nsides; s++) {
		struct callpath_model *sh;

		if (callpath_model_shorten(a->paths[s], o->names, &sh) < 0)
			goto out;
		if (a->owned_paths[s])
			callpath_model_free(a->paths[s]);
		a->paths[s] = sh;
		a->owned_paths[s] = 1;
	}
	if (a->nsides < 2 || !o->path_diffs) {
		ret = 0;
		goto out;
	}
	for (int s = 0; s < 2; s++)
		if (folded_build(a->paths[s], FOLDED_CALLS_GPROF, &f[s][0]) < 0 ||
		    ((a->paths[s]->sampling & SIDECAR_SAMPLING_SELF) &&
		     folded_build(a->paths[s], FOLDED_SAMPLES, &f[s][1]) < 0))
			goto out;
	if (pathdiff_compute(f[0][0], f[1][0], &a->paths_calls) < 0)
		goto out;
	if (f[0][1] && f[1][1]) {
		struct pathdiff_time_opts t = { a->paths[0]->hz, a->paths[1]->hz,
						o->diff.noise_sigmas, 0,
						a->paths[0]->metric.name[0]
						? a->paths[0]->metric.name : NULL };

		if (pathdiff_compute(f[0][1], f[1][1], &a->paths_time) < 0)
			goto out;
		if (!(a->paths_time_noise = malloc(a->paths_time->nr + 1))) {
			error("out of memory");
			goto out;
		}
		if (pathdiff_time_verdicts(a->paths_time, &t, a->paths_time_noise) < 0)
			goto out;
	}
	ret = 0;
out:
	for (int s = 0; s < 2; s++) {
		folded_free(f[s][0]);
		folded_free(f[s][1]);
		if (copied[s])
			callpath_model_free(named[s]);
	}
	return ret;
}

/* Each run's source lines from one source, and their comparison. */
static int build_lines(struct analysis *a, const struct analysis_opts *o)
{
	int pcs = 1;

	for (size_t s = 0; s < a->nsides; s++)
		if (!line_pcs_size(a->run[s]->pcs) || !a->run[s]->paths)
			pcs = 0;
	for (size_t s = 0; s < a->nsides; s++) {
		const struct run *r = a->run[s];
		struct lines_input in = { r->binary, r->gmon, r->files, r->nfiles,
					  pcs ? r->pcs : NULL, pcs ? r->paths->hz : 0 };

		if (lines_build(&in, &a->lines[s]) < 0)
			return -1;
		/* --short-names: the lines read as every other output */
		if (o->short_names && o->names &&
		    lines_shorten_names(a->lines[s], o->names) < 0)
			return -1;
	}
	if (a->nsides == 2) {
		struct line_diff_opts lo = { o->diff.noise_sigmas, o->diff.jitter_prior,
					     { a->run[0]->binary, a->run[1]->binary } };

		if (lines_diff(a->lines[0], a->lines[1], &lo, &a->line_diff) < 0)
			return -1;
	}
	return 0;
}

int analysis_build(struct analysis *a, const struct run *const *runs, size_t n,
		   const struct analysis_opts *o)
{
	const char *metric = callpath_metric_is_time(o->metric) ? NULL : o->metric;
	size_t s;

	memset(a, 0, sizeof(*a));
	a->nsides = n;
	for (s = 0; s < n; s++)
		a->run[s] = runs[s];
	a->from_sidecars = 1;
	for (s = 0; s < n; s++) {
		if (metric && !runs[s]->paths)
			return needs_sidecars(runs[s], metric);
		if (!run_paths_timed(runs[s]))
			a->from_sidecars = 0;
	}
	for (s = 0; s < n; s++)
		if (side_funcs(a, s) < 0)
			return -1;
	describe_source(a);
	a->filters = filter_describe(&o->filter);
	if (n == 2) {
		if (build_diff(a, o) < 0)
			return -1;
	} else {
		if (!(a->in = malloc(a->funcs[0]->nsyms + 1)))
			return error("out of memory");
		if (filter_profile(&o->filter, a->funcs[0], a->in) < 0)
			return -1;
	}
	if (build_paths(a, o) < 0)
		return -1;
	if (!o->lines)
		return 0;
	if (build_lines(a, o) < 0) {
		if (!o->lines_optional)
			return -1;
		/* the page is written without its source view, as before
		 * there was one (a gmon file of a format upstream reads and
		 * the lines' reader does not: the error said which) */
		warning("the HTML report has no source view");
		for (s = 0; s < n; s++) {
			lines_free(a->lines[s]);
			a->lines[s] = NULL;
		}
		lines_diff_free(a->line_diff);
		a->line_diff = NULL;
	}
	return 0;
}

void analysis_release(struct analysis *a)
{
	if (a->have_view)
		filter_diff_view_release(&a->view);
	if (a->have_diff)
		diff_release(&a->diff);
	for (int s = 0; s < 2; s++) {
		if (a->owned_paths[s])
			callpath_model_free(a->paths[s]);
		if (!a->owned[s])
			continue;
		profile_free(a->funcs[s]);
		for (size_t i = 0; i < a->neach[s]; i++)
			profile_free(a->funcs_each[s][i]);
		free(a->funcs_each[s]);
	}
	pathdiff_free(a->paths_calls);
	pathdiff_free(a->paths_time);
	lines_diff_free(a->line_diff);
	lines_free(a->lines[0]);
	lines_free(a->lines[1]);
	free(a->paths_time_noise);
	free(a->in);
	free(a->filters);
	memset(a, 0, sizeof(*a));
}
