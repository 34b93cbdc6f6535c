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
#include "export/table.h"
#include "utils/error.h"
#include "utils/banned.h"

static void version_line(FILE *out)
{
	fprintf(out, "egprof %s: differential profiling extensions (--help lists them)\n",
		EGPROF_VERSION);
}

static int uses_extensions(const struct egprof_opts *o)
{
	return o->mode != MODE_GPROF || o->gml_path || o->dot_path ||
	       o->graphml_path || o->svg_path || o->png_path || o->callpath ||
	       o->folded_path;
}

/* --format json|csv replaces a report on stdout: there must be one that
 * has a machine-readable form, and nothing else on stdout. */
static int check_format(const struct egprof_opts *o)
{
	const char *f = o->format == TABLE_JSON ? "json" : "csv";

	if (o->mode == MODE_GPROF && !o->callpath)
		return error("--format %s needs --diff, --rank-stats or --callpath: gprof's "
			     "own profile is text only", f);
	if (o->extended)
		return error("--format %s and --extended cannot be combined: --extended "
			     "chooses a text layout", f);
	if (o->mode == MODE_DIFF && o->callpath)
		return error("--format %s and --diff --callpath cannot be combined: path "
			     "differences are text only", f);
	return 0;
}

int main(int argc, char **argv)
{
	struct upstream_hooks hooks = { options_help, version_line };
	struct egprof_opts o;
	struct sum_plan sum = { 0 };
	int status;

	/* Upstream names itself by argv[0]; so do our messages. */
	error_set_program(argv[0]);
	upstream_set_hooks(&hooks);
	options_init(&o);
	if (options_parse(&o, argc, argv) < 0) {
		options_release(&o);
		return 1;
	}
	if (o.format != TABLE_TEXT && check_format(&o) < 0) {
		options_release(&o);
		return 1;
	}
	/* -s is upstream's sum only where upstream runs as gprof (--diff refuses it) */
	if (o.mode == MODE_GPROF)
		sum_plan_init(&sum, &o);
	if (!uses_extensions(&o))
		status = upstream_main(o.argc, o.argv);
	else if (o.mode == MODE_DIFF)
		status = cmd_diff(&o);
	else if (o.mode == MODE_RANK_STATS)
		status = cmd_rank_stats(&o);
	else
		status = cmd_gprof(&o);
	/* -s: upstream wrote gmon.sum; the sidecars' sum goes beside it */
	if (status == 0 && sum_plan_finish(&sum) < 0)
		status = 1;
	sum_plan_release(&sum);
	options_release(&o);
	return status;
}
