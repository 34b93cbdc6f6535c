#ifndef CALLPATH_CMD_CALLPATH_H
#define CALLPATH_CMD_CALLPATH_H
/*
 * cmd_callpath.h - the call-path features as the front end runs them: one
 * call each from gprof-ext/cmd_gprof.c and cmd_diff.c.  (`gprof -s` sums
 * sidecars in gprof-ext/cmd_sum.c.)  This is the
 * only call-path file that knows the front end (options, upstream
 * adapter); report.c, folded.c, pathdiff.c and sum.c do not, so
 * they are unit-tested alone.
 *
 * Each returns an exit status (0, or 1 after reporting the error).
 */
#include <stddef.h>

#include "gml/graph.h"

struct egprof_opts;
struct profile;

/* After upstream printed a single profile `p`: --callpath prints the
 * call-path profile and calling-context tree, --folded FILE writes folded
 * stacks.  The sidecar is --callpath=FILE, else the sum of GMON.callpath
 * over p->gmon_files (the gmon operands); p->binary is the image. */
int callpath_cmd_gprof(const struct egprof_opts *o, const struct profile *p);

/* One side of --diff; gmon_files NULL means p->gmon_files. */
struct callpath_side {
	const struct profile *p;
	char *const *gmon_files;
	size_t ngmon;
	const char *label;
	/* Where the side's model is kept once built, so that the diff's exact
	 * call counts, graph times and path tables read a million-node sidecar
	 * once, not three times (NULL: built and freed at each use; else the
	 * caller frees *model with callpath_model_free()). */
	struct callpath_model **model;
	/* --force: a sidecar that does not belong to its gmon file is read
	 * anyway, with a warning (callpath/sum.h, callpath_pair_check) */
	int force;
	/* --metric NAME: what the side's model's samples are (NULL: time) */
	const char *metric;
};

/* After the diff tables: when both sides have sidecars, the path
 * differences (with --extended or --callpath) and, with --folded FILE, the
 * two-column folded file.  Without sidecars, nothing (an error if
 * --callpath asked for them). */
int callpath_cmd_diff(const struct egprof_opts *o, const struct callpath_side *a,
		      const struct callpath_side *b);

/*
 * Exact call counts for the diff's call-count evidence: when both sides
 * have call-path sidecars beside every gmon file, each function's calls as
 * the sidecars count them (count + recursive over every context of it:
 * gprof's calls+recursive), given to diff_set_exact_calls() for both
 * sides.  Without sidecars on either side, nothing.  Then diff_assess().
 * 0, or 1 after reporting an error (a sidecar that cannot be read, or one
 * left from another run or binary).
 */
struct diff;
int callpath_exact_calls_load(const struct callpath_side *a,
			      const struct callpath_side *b, struct diff *d);

/*
 * Measured time per arc for the graph exports (gml/graph.h's struct
 * graph_measured): for each side with call-path sidecars (every gmon file
 * has one, or --callpath=FILE for a single profile) with samples, the arcs'
 * measured time.  Loaded only when a graph is asked for; a side without
 * sidecars leaves the graph on gprof's numbers.  With --metric EV, the
 * event per function and per arc instead, and every side must have
 * sidecars recording it.  0, or 1 after reporting an error (a sidecar
 * that cannot be read, is missing or lacks the metric).
 */
struct callpath_arcs;
struct graph_metric;
struct callpath_graph_times {
	struct callpath_arcs *arcs[2];
	struct graph_measured gm;	/* gm.ctx points to this struct */
	/*
	 * --metric EV (callpath/graph_metric.h): the graphs are drawn in the
	 * event, from the sidecars, which every side must have (an error
	 * naming the missing sidecar, or the metric a sidecar lacks,
	 * otherwise); gm.metric names it.  The models are kept for the
	 * cycles' values (owned[i]: freed at release).
	 */
	struct graph_metric *metric;
	struct callpath_model *model[2];
	int owned[2];
	char metric_name[128], unit[32];
};
int callpath_graph_times_load(const struct egprof_opts *o,
			      const struct callpath_side *sides, int nsides,
			      struct callpath_graph_times *t);
void callpath_graph_times_release(struct callpath_graph_times *t);

/*
 * The call paths the other outputs (--pprof, --html) draw, filtered by
 * --focus/--root/--depth/--exclude (filter/filter.h): for a single
 * profile, --callpath=FILE or the sidecars beside every gmon file; for a
 * diff, both sides' (out[0] and out[1] both NULL unless both sides have
 * sidecars).  A profile without sidecars gives NULL (gmon.out alone).
 * The caller frees each model with callpath_model_free().  0, or 1 after
 * reporting an error (a sidecar that cannot be read or belongs to another
 * run or binary, a --focus function with no path).
 */
struct callpath_model;
/* source: where the sidecar(s) came from, as --callpath names them */
int callpath_profile_model(const struct egprof_opts *o, const struct profile *p,
			   struct callpath_model **out, char *source, size_t source_len);
int callpath_diff_models(const struct egprof_opts *o, const struct callpath_side *a,
			 const struct callpath_side *b, struct callpath_model *out[2]);

#endif
