#ifndef CALLPATH_CMD_CALLPATH_H
#define CALLPATH_CMD_CALLPATH_H
/*
 * cmd_callpath.h - the call-path outputs as the front end runs them, from
 * the analysis (model/analysis.h), which read every sidecar once: one call
 * each from gprof-ext/cmd_gprof.c and cmd_diff.c.  (`gprof -s` sums
 * sidecars in gprof-ext/cmd_sum.c.)  report.c, folded.c, pathdiff.c and
 * sum.c know nothing of the front end, so they are unit-tested alone.
 *
 * Each returns an exit status (0, or 1 after reporting the error).
 */

struct egprof_opts;
struct analysis;

/* A single profile: --callpath prints the call-path profile and
 * calling-context tree (or, with --format, its records), --folded FILE
 * writes folded stacks of time, --folded-calls FILE of calls.  Nothing
 * without those options; a run without sidecars is an error then (the
 * run was loaded with its sidecars required). */
int callpath_cmd_gprof(const struct egprof_opts *o, const struct analysis *a);

/* A diff: when both runs have sidecars, the path differences (with
 * --extended or --callpath) and, with --folded FILE, the two-column folded
 * file.  Without sidecars, nothing (a warning for the folded files). */
int callpath_cmd_diff(const struct egprof_opts *o, const struct analysis *a);

#endif
