#ifndef EGPROF_COMMANDS_H
#define EGPROF_COMMANDS_H
/*
 * What main() runs, one function per mode.  Each returns the process exit
 * status (0 on success); they report their own errors.  o->argc/o->argv is
 * the command line without our options.
 */
#include "gprof-ext/cmdline.h"
#include "gprof-ext/options.h"

int cmd_gprof(struct egprof_opts *o);       /* cmd_gprof.c: gprof + exports */
int cmd_diff(struct egprof_opts *o);        /* cmd_diff.c: --diff */
int cmd_rank_stats(struct egprof_opts *o);  /* cmd_rank_stats.c: --rank-stats */
int cmd_interval(struct egprof_opts *o);    /* cmd_interval.c: --interval */
int cmd_follow(struct egprof_opts *o);      /* cmd_interval.c: --follow */
/*
 * cmd_sum.c: with upstream's -s, also sum the inputs' call-path sidecars
 * into gmon.sum.callpath.  Not a mode: it follows whichever command ran.
 * The sidecars are read and summed before the command runs, so a bad one
 * fails the command before upstream rewrites gmon.sum.
 *
 *   struct sum_plan plan;
 *   if (sum_plan_init(&plan, o) < 0) fail: nothing was written
 *   status = cmd_...(o);
 *   if (status == 0 && sum_plan_finish(&plan, set) < 0) status = 1;
 *   sum_plan_release(&plan);
 *
 * sum_plan_init and sum_plan_finish return 0 (also when -s is absent or no
 * input has a sidecar) or -1 after reporting the error.
 */
struct sidecar;
struct outset;
struct sum_plan {
	int wanted;        /* the command line has -s */
	char *const *gmons; /* its gmon files; points into cl or a static */
	size_t ngmon;
	struct cmdline cl; /* owned */
	struct sidecar *sc; /* the sidecars' sum, owned; NULL when none */
	size_t missing;    /* first gmon file without a sidecar, or ngmon */
};
int sum_plan_init(struct sum_plan *plan, const struct egprof_opts *o);
/* gmon.sum.callpath is written (or an old one removed) as one of `set`'s
 * outputs, with upstream's staged gmon.sum, whose size and hash it records
 * (model/sum.h, callpath_sum_identify); at once when set is NULL. */
int sum_plan_finish(struct sum_plan *plan, struct outset *set);
void sum_plan_release(struct sum_plan *plan);

/*
 * plan.c: every file a command reads and writes, known before anything is
 * written (utils/outfile.h, struct outset): refuses an output that names
 * an input or another output.  Inputs are the image and the gmon files
 * (directories expanded) and their sidecars; outputs are the graph and
 * folded files, and with -s upstream's gmon.sum and gmon.sum.callpath,
 * which -s may also read (summing into an existing gmon.sum is how
 * gprof -s is used).  0, or -1 after reporting.
 */
int plan_outputs(const struct egprof_opts *o, struct outset *set);
/*
 * Plain gprof's plan, checked and dropped: upstream writes its files
 * itself, but `-s` must not replace an input either (gmon.sum a symlink or
 * a hard link to one of the gmon files it sums).  0, or -1 after reporting.
 */
int plan_check_plain(const struct egprof_opts *o);

#endif
