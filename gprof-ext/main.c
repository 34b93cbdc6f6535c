/*
 * egprof's main: our options are taken out of argv, everything else goes to
 * upstream gprof untouched.  Without our options this is GNU gprof, byte for
 * byte; see doc/dev/HACKING.md for how upstream is wrapped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gprof-ext/cmdline.h"
#include "gprof-ext/commands.h"
#include "gprof-ext/input_check.h"
#include "gprof-ext/operands.h"
#include "gprof-ext/options.h"
#include "gprof-ext/upstream.h"
#include "diff/gate.h"
#include "export/table.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/names.h"
#include "utils/banned.h"

static void version_line(FILE *out)
{
	fprintf(out, "egprof %s: differential profiling extensions (--help lists them)\n",
		EGPROF_VERSION);
}

/*
 * Sidecars named among the gmon operands (a glob such as run1/gmon.*) are
 * taken out of the argv every mode gets, upstream included: each is found
 * beside its gmon file anyway.  Without a sidecar among the operands argv is
 * untouched, so plain gprof stays GNU gprof byte for byte.  A command line
 * upstream would refuse is left for upstream to report.
 */
static int drop_sidecar_operands(struct egprof_opts *o)
{
	struct cmdline cl;
	char **ops;
	size_t n, i, k;
	int argc = 0, dropped;

	if (cmdline_split_quiet(&cl, o->argc, o->argv) < 0)
		return 0;
	if (cl.noperands < 2) {
		cmdline_release(&cl);
		return 0;
	}
	n = cl.noperands - 1;
	ops = malloc(n * sizeof(*ops));
	if (!ops) {
		cmdline_release(&cl);
		return error("out of memory");
	}
	memcpy(ops, cl.operands + 1, n * sizeof(*ops));
	dropped = gmon_operands_drop_sidecars(ops, &n);
	if (dropped > 0) {
		/* keep every argv element but the dropped operands (by identity) */
		for (i = 0; i < (size_t)o->argc; i++) {
			int keep = 1;
			size_t j;

			for (j = 1; j < cl.noperands && keep; j++)
				if (o->argv[i] == cl.operands[j]) {
					keep = 0;
					for (k = 0; k < n; k++)
						keep |= ops[k] == o->argv[i];
				}
			if (keep)
				o->argv[argc++] = o->argv[i];
		}
		o->argv[argc] = NULL;
		o->argc = argc;
	}
	free(ops);
	cmdline_release(&cl);
	return dropped < 0 ? -1 : 0;
}

static int uses_extensions(const struct egprof_opts *o)
{
	return o->mode != MODE_GPROF || o->gml_path || o->dot_path ||
	       o->graphml_path || o->svg_path || o->png_path || o->callpath || o->folded_path ||
	       o->folded_calls_path || o->flamegraph_path || o->pprof_path || o->html_path;
}

/* `gprof --diff --help` asks for help as `gprof --help` does: upstream
 * prints its help and ours follows. */
static int asks_for_help(const struct egprof_opts *o)
{
	int i;

	for (i = 1; i < o->argc; i++)
		if (!strcmp(o->argv[i], "--help") || !strcmp(o->argv[i], "-h"))
			return 1;
	return 0;
}

/* --format json|csv replaces a report on stdout: there must be one that
 * has a machine-readable form, and nothing else on stdout. */
static int check_format(const struct egprof_opts *o)
{
	const char *f = o->format == TABLE_JSON ? "json" : "csv";

	if (o->format == TABLE_MARKDOWN) {
		if (o->mode != MODE_DIFF)
			return error("--format markdown summarises a --diff (gprof --diff "
				     "--format markdown APP1 GMON1 APP2 GMON2)");
		if (o->extended || o->callpath)
			return error("--format markdown and --%s cannot be combined: the "
				     "summary has one layout", o->extended ? "extended" : "callpath");
		return 0;
	}

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

/*
 * Plain gprof's command line is checked (sidecars among the operands, input
 * files upstream would hang, crash or exhaust memory on) in a child process:
 * upstream's output with -R depends on where malloc puts its data, and the
 * checks' allocations, freed before upstream runs, would move it.  0: run
 * upstream on argv as it is; 1: sidecars are among the operands (the
 * caller drops them and checks in this process: stock gprof fails on such
 * a command line, so there is no output to keep identical); -1: a check
 * failed (reported by the child).
 */
static int precheck_plain(struct egprof_opts *o)
{
	pid_t pid;
	int st, argc = o->argc;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return 1; /* no child: check here */
	if (pid == 0) {
		if (drop_sidecar_operands(o) < 0)
			_exit(3);
		if (o->argc != argc)
			_exit(2);
		if (input_check_gprof_args(o->argc, o->argv) < 0 || plan_check_plain(o) < 0)
			_exit(3);
		input_warn_plain(o->argc, o->argv);
		_exit(0);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 3)
		return -1;
	return 1;
}

int main(int argc, char **argv)
{
	struct upstream_hooks hooks = { options_help, version_line };
	struct egprof_opts o;
	struct sum_plan sum = { 0 };
	struct outset outs = OUTSET_INIT;
	int status = 1, ours, check_here = 1;

	/* Upstream names itself by argv[0]; so do our messages. */
	error_set_program(argv[0]);
	upstream_set_hooks(&hooks);
	options_init(&o);
	if (options_parse(&o, argc, argv) < 0) {
		options_release(&o);
		return 1;
	}
	if (o.list_options) {
		status = options_list(stdout) < 0 || outfile_close_stdout() < 0;
		options_release(&o);
		return status;
	}
	/* --rank-stats: the loader is forked now, before the command plans and
	 * names its thousands of files, so that its workers' forks copy a
	 * small process (upstream.h) */
	if (o.mode == MODE_RANK_STATS)
		upstream_load_prefork();
	/* plain gprof's exports may read the profile again (GCC clones:
	 * cmd_gprof.c), from a loader forked before upstream runs here; not
	 * when a standard descriptor is closed (the loader's pipes would take
	 * its number: outfile.c reports the closed stdout itself) */
	if (o.mode == MODE_GPROF && fcntl(STDIN_FILENO, F_GETFD) >= 0 &&
	    fcntl(STDOUT_FILENO, F_GETFD) >= 0 && fcntl(STDERR_FILENO, F_GETFD) >= 0 &&
	    (o.gml_path || o.dot_path || o.graphml_path || o.svg_path || o.png_path ||
	     o.pprof_path || o.html_path || o.callpath || o.folded_path || o.folded_calls_path ||
	     o.flamegraph_path))
		upstream_load_prefork();
	if (o.mode == MODE_GPROF && !uses_extensions(&o))
		check_here = precheck_plain(&o);
	if (check_here < 0 || (check_here && drop_sidecar_operands(&o) < 0)) {
		upstream_load_prefork_cancel();
		options_release(&o);
		return 1;
	}
	if (o.format != TABLE_TEXT && check_format(&o) < 0)
		goto out;
	if (o.gate && o.mode != MODE_DIFF) {
		error("--fail-on gates the differences of a --diff (gprof --diff --fail-on "
		      "slowdown APP1 GMON1 APP2 GMON2)");
		goto out;
	}
	if (o.progress && o.mode != MODE_RANK_STATS) {
		error("--progress shows the reading of rank files: it needs --rank-stats");
		goto out;
	}
	if (o.short_names && !o.callpath && !o.folded_path && !o.folded_calls_path &&
	    !o.flamegraph_path && !o.gml_path && !o.dot_path && !o.graphml_path && !o.svg_path && !o.png_path &&
	    !o.pprof_path && !o.html_path && !(o.mode == MODE_DIFF)) {
		error("--short-names shortens the names of egprof's outputs: it needs "
		      "--callpath, --folded, --folded-calls, --flamegraph, a graph, --pprof, --html "
		      "or --diff");
		goto out;
	}
	if (o.flamegraph_min_width > 0 && !o.flamegraph_path) {
		error("--flamegraph-min-width sets what --flamegraph merges: it needs "
		      "--flamegraph FILE");
		goto out;
	}
	if (o.short_names && !(o.names = name_map_new())) {
		error("out of memory");
		goto out;
	}
	ours = uses_extensions(&o);
	/* Everything is read and checked before anything is written: the
	 * outputs against the inputs, and -s's sidecars (cmd_sum.c). */
	if (ours && plan_outputs(&o, &outs) < 0)
		goto out;
	/* -s is upstream's sum only where upstream runs as gprof (--diff refuses it) */
	if (o.mode == MODE_GPROF && sum_plan_init(&sum, &o) < 0)
		goto out;
	/* Before upstream reads an input it would hang, crash or run out of
	 * memory on (gprof-ext/input_check.h). */
	if (check_here && o.mode == MODE_GPROF &&
	    (input_check_gprof_args(o.argc, o.argv) < 0 ||
	     (!ours && plan_check_plain(&o) < 0))) {
		status = 1;
		goto out;
	}
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
	if (asks_for_help(&o))
		status = upstream_main(2, (char *[]){ o.argv[0], (char *)"--help", NULL });
	else if (o.mode == MODE_DIFF)
		status = cmd_diff(&o);
	else if (o.mode == MODE_RANK_STATS)
		status = cmd_rank_stats(&o);
	else if (o.mode == MODE_INTERVAL)
		status = cmd_interval(&o);
	else if (o.mode == MODE_FOLLOW)
		status = cmd_follow(&o);
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
	/* --fail-on: every output written, the gate's verdict is the status */
	if (status == 0 && o.gate_failed)
		status = GATE_EXIT_STATUS;
out:
	upstream_load_prefork_cancel();
	name_map_free(o.names);
	outset_release(&outs);
	sum_plan_release(&sum);
	options_release(&o);
	return status;
}
