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
/*
 * cmd_sum.c: with upstream's -s, also sum the inputs' call-path sidecars
 * into gmon.sum.callpath.  Not a mode: it follows whichever command ran.
 *
 *   struct sum_plan plan;
 *   sum_plan_init(&plan, o);          before the command: is -s there?
 *   status = cmd_...(o);
 *   if (status == 0 && sum_plan_finish(&plan) < 0) status = 1;
 *   sum_plan_release(&plan);
 *
 * sum_plan_finish returns 0 (also when -s is absent or no input has a
 * sidecar) or -1 after reporting the error.
 */
struct sum_plan {
	int wanted;        /* the command line has -s */
	char *const *gmons; /* its gmon files; points into cl or a static */
	size_t ngmon;
	struct cmdline cl; /* owned */
};
void sum_plan_init(struct sum_plan *plan, const struct egprof_opts *o);
int sum_plan_finish(const struct sum_plan *plan);
void sum_plan_release(struct sum_plan *plan);

#endif
