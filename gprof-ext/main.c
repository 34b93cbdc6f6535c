/*
 * egprof's main: our options are taken out of argv, everything else goes to
 * upstream gprof untouched.  Without our options this is GNU gprof, byte for
 * byte; see doc/HACKING.md for how upstream is wrapped.
 */
#include <stdio.h>
#include <stdlib.h>
#include "gprof-ext/commands.h"
#include "gprof-ext/options.h"
#include "gprof-ext/upstream.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/banned.h"

static void version_line(FILE *out)
{
	fprintf(out, "egprof %s: differential profiling extensions (--help lists them)\n",
		EGPROF_VERSION);
}

static int uses_extensions(const struct egprof_opts *o)
{
	return o->mode != MODE_GPROF || o->gml_path || o->dot_path ||
	       o->graphml_path || o->callpath || o->folded_path;
}

int main(int argc, char **argv)
{
	struct upstream_hooks hooks = { options_help, version_line };
	struct egprof_opts o;
	struct sum_plan sum = { 0 };
	struct outset outs = OUTSET_INIT;
	int status = 1, ours;

	/* Upstream names itself by argv[0]; so do our messages. */
	error_set_program(argv[0]);
	upstream_set_hooks(&hooks);
	options_init(&o);
	if (options_parse(&o, argc, argv) < 0) {
		options_release(&o);
		return 1;
	}
	ours = uses_extensions(&o);
	/* Everything is read and checked before anything is written: the
	 * outputs against the inputs, and -s's sidecars (cmd_sum.c). */
	if (ours && plan_outputs(&o, &outs) < 0)
		goto out;
	/* -s is upstream's sum only where upstream runs as gprof (--diff refuses it) */
	if (o.mode == MODE_GPROF && sum_plan_init(&sum, &o) < 0)
		goto out;
	if (!ours) {
		/* GNU gprof as it is, writing its own files itself; -s: the
		 * sidecars' sum goes beside its gmon.sum */
		status = upstream_main(o.argc, o.argv);
		if (status == 0 && sum_plan_finish(&sum, NULL) < 0)
			status = 1;
		goto out;
	}
	/* our outputs, and upstream's gmon.sum, are committed together only
	 * when the command succeeded */
	o.outs = &outs;
	upstream_stage_sum(&outs);
	if (o.mode == MODE_DIFF)
		status = cmd_diff(&o);
	else if (o.mode == MODE_RANK_STATS)
		status = cmd_rank_stats(&o);
	else
		status = cmd_gprof(&o);
	upstream_stage_sum(NULL);
	/* a report lost on a full disk is a failure: nothing committed */
	if (status == 0 && outfile_close_stdout() < 0)
		status = 1;
	/* -s: the sidecars' sum goes with upstream's staged gmon.sum */
	if (status == 0 && sum_plan_finish(&sum, &outs) < 0)
		status = 1;
	if (status == 0 && outset_commit(&outs) < 0)
		status = 1;
out:
	outset_release(&outs);
	sum_plan_release(&sum);
	options_release(&o);
	return status;
}
