#ifndef EGPROF_MODEL_ANALYSIS_H
#define EGPROF_MODEL_ANALYSIS_H
/*
 * analysis.h - what every extension view shows, built once from the runs
 * (model/run.h): each run's functions and arcs in one metric from one
 * source, the diff of two runs assessed once by the one significance rule
 * (diff/evidence.h, diff/signif.h), the differences of their call paths
 * with their verdicts, and the one selection of --focus, --root, --depth
 * and --exclude (filter/filter.h).  The views (text, JSON, CSV, graphs,
 * HTML, pprof, folded stacks) take a `const struct analysis *` and read
 * only it: so a number that two views show is the same number.
 *
 * The source, chosen once for both runs of a diff:
 *  - the call-path sidecars when every run has them and they measured the
 *    metric (time samples, or the event of --metric NAME): time of every
 *    thread, libraries, the instrumentation and unknown code included, as
 *    rows of their own kind (diff/profile.h's PSYM_LIBRARY...); calls are
 *    the sidecars' exact counts;
 *  - otherwise gmon.out's histogram and call counts, as gprof computes
 *    them, for both runs (one run's sidecars are not compared with the
 *    other's histogram).  --metric NAME needs the sidecars.
 * `source` says it in words, once per view: "call-path samples of each
 * thread, 1000 Hz".
 *
 *   struct analysis a;
 *   analysis_build(&a, runs, 2, &opts);      (1: a single profile)
 *   ... views read a.funcs[s], a.diff, a.view, a.paths[s], a.paths_time ...
 *   analysis_release(&a);
 *
 * Ownership: the analysis owns what it builds (functions it measured,
 * the diff, the filtered paths, the path differences); it borrows the runs,
 * which must outlive it.
 */
#include <stddef.h>

#include "diff/diff.h"
#include "filter/filter.h"

struct run;
struct callpath_model;
struct pathdiff;

struct analysis_opts {
	struct diff_opts diff;      /* noise, sort */
	struct filter_opts filter;  /* --focus, --root, --depth, --exclude */
	const char *metric;         /* --metric NAME: an event; NULL: time */
	int short_names;            /* --short-names: the paths' names short */
	struct name_map *names;     /* ... through the command's one map
				       (utils/names.h) */
	int path_diffs;             /* a diff: compare the paths (the views
				       asked for need it) */
	int lines;                  /* source lines (model/lines.h): the
				       runs kept their program counters
				       (run_load_opts.line_pcs) */
	int lines_optional;         /* only a view that can do without them
				       asked (--html's source view): lines
				       that cannot be built are a warning,
				       and a->lines stay NULL */
};

struct analysis {
	size_t nsides;              /* 1: a profile; 2: a diff */
	const struct run *run[2];
	/* Each run's functions and arcs, in the lead metric, from the one
	 * source (see above); funcs_each[s]: each file's, for the noise model
	 * of a side of several files.  Borrowed from the run (gmon's) or
	 * owned (measured). */
	struct profile *funcs[2];
	struct profile **funcs_each[2];
	size_t neach[2];
	int from_sidecars;          /* the source is the sidecars */
	char source[768];           /* the source in words, for every view,
				       with the share of each run's CPU time
				       the samples cover when the sidecars
				       recorded it */
	double coverage[2];         /* that share (callpath_model_coverage),
				       -1 unknown or not the source */
	int coverage_low;           /* a run's share is below
				       SIDECAR_CPU_COVERAGE_WARN: its times
				       are short by the rest */

	/* a diff: assessed once; `view` is what --focus/--root/--depth/
	 * --exclude keep of it (shares diff's strings), `in` the same as
	 * flags per entry */
	struct diff diff;
	struct diff view;
	char *in;                   /* a profile: per symbol of funcs[0] */

	/* The runs' calling contexts as the filters keep them, when every
	 * run has them (else NULL); and for a diff their differences per
	 * path: calls (gprof's way of counting recursion) and self samples,
	 * each path's verdict by the one rule (paths_time_noise[i]: within
	 * noise) */
	struct callpath_model *paths[2];
	struct pathdiff *paths_calls, *paths_time;
	unsigned char *paths_time_noise;
	char *filters;              /* the filters in words, NULL: none */

	/* Source lines (opts.lines, model/lines.h): each run's, from one
	 * source for both (the sidecars' program counters when every run
	 * kept some, else gmon.out's histograms), and for a diff their
	 * comparison line by line with its verdicts; NULL otherwise */
	struct line_profile *lines[2];
	struct line_diff *line_diff;

	/* private */
	int owned[2], have_diff, have_view, owned_paths[2];
};

/* 0, or -1 after reporting (out of memory, a metric the runs lack, a
 * --focus function that is none of theirs). */
int analysis_build(struct analysis *a, const struct run *const *runs, size_t n,
		   const struct analysis_opts *opts);
void analysis_release(struct analysis *a);

#endif
