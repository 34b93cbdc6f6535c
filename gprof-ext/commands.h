#ifndef EGPROF_COMMANDS_H
#define EGPROF_COMMANDS_H
/*
 * What main() runs, one function per mode.  Each returns the process exit
 * status (0 on success); they report their own errors.  o->argc/o->argv is
 * the command line without our options.
 */
#include "gprof-ext/options.h"

int cmd_gprof(struct egprof_opts *o);       /* cmd_gprof.c: gprof + exports */
int cmd_diff(struct egprof_opts *o);        /* cmd_diff.c: --diff */
int cmd_rank_stats(struct egprof_opts *o);  /* cmd_rank_stats.c: --rank-stats */
/* cmd_sum.c: upstream gprof; with -s and call-path sidecars beside the
 * inputs, also writes gmon.sum.callpath (upstream's output unchanged). */
int cmd_sum(struct egprof_opts *o);

#endif
