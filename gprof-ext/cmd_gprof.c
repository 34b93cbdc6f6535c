/*
 * gprof with extensions on a single profile: upstream prints exactly what
 * it always prints, then, with its state still in this process, we write
 * the graph files and the call-path profile the options ask for.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gprof-ext/commands.h"
#include "gprof-ext/upstream.h"
#include "gprof-ext/cmdline.h"
#include "diff/profile.h"
#include "gml/graph_cli.h"
#include "gprof-ext/cmd_callpath.h"
#include "callpath/folded.h"
#include "model/callpath_model.h"
#include "format/sidecar.h"
#include "export/table.h"
#include "export/pprof_export.h"
#include "export/html_views.h"
#include "callpath/metric_columns.h"
#include "model/analysis.h"
#include "model/run.h"
#include "utils/error.h"
#include "utils/banned.h"

/*
 * Upstream reads the gmon files without keeping their names; they are the
 * operands after the image (gmon.out without any), as its getopt sees them.
 * Graph titles and call-path reports name them.
 */
static int add_gmon_names(struct profile *p, const struct egprof_opts *o)
{
	struct cmdline cl;
	size_t i;
	int ret = 0;

	if (p->ngmon)
		return 0;
	if (cmdline_split(&cl, o->argc, o->argv) < 0)
		return -1; /* reported */
	for (i = 1; i < cl.noperands && ret == 0; i++)
		ret = profile_add_gmon_file(p, cl.operands[i]);
	if (ret == 0 && cl.noperands < 2)
		ret = profile_add_gmon_file(p, "gmon.out");
	cmdline_release(&cl);
	return ret < 0 ? error("out of memory") : 0;
}

/*
 * The profile of the exports.  Upstream drops GCC clones from its table
 * (foo.isra.0, foo.cold: names with a '.' it does not know) and gives
 * their samples and calls to the function before them in memory, so an
 * export of its table would show a C++ program's norm2<float> clone as
 * frame_dummy, or fold it into norm2<double>.  gprof's own text, printed
 * first, stays GNU gprof's; when the image has such clones the exports
 * read the profile again with the clones as functions of their own
 * ("float norm2<float>(Point<float> const&) [clone .isra.0]"), the one
 * naming every export shares.  So they do when upstream gave samples to
 * the padding after a function (frame_dummy's share of the first
 * function's entry: upstream.c, padding_credit), which the loader gives
 * to the code.  Not with -s (upstream would write
 * gmon.sum a second time): then upstream's view is kept.
 */
static int exports_profile(const struct egprof_opts *o, struct profile **p)
{
	struct upstream_load req;
	struct upstream_job *job;
	struct profile **got = NULL;
	struct cmdline cl;
	size_t n = 0, i;
	char *none[] = { (char *)"gmon.out" };
	int ret = -1;

	if (!(upstream_has_dropped_clones() || upstream_has_padding_samples()) ||
	    !upstream_load_preforked())
		return 0;
	if (cmdline_split(&cl, o->argc, o->argv) < 0)
		return -1; /* reported */
	for (i = 0; i < cl.nopts; i++)
		if (cl.opts[i].val == 's')
			break;
	if (i < cl.nopts || cl.noperands < 1) {
		ret = 0;
		goto out;
	}
	memset(&req, 0, sizeof(req));
	req.argv0 = o->argv[0];
	req.gprof_args = cl.args;
	req.nargs = cl.nargs;
	req.binary = cl.operands[0];
	req.gmon_files = cl.noperands > 1 ? cl.operands + 1 : none;
	req.ngmon = cl.noperands > 1 ? cl.noperands - 1 : 1;
	req.force = 1; /* checked with upstream's own read */
	req.clones = UPSTREAM_CLONES_OWN;
	if (upstream_load_start(&req, &job) < 0 || upstream_load_finish(job, &got, &n) < 0)
		goto out;
	if (n == 1) {
		profile_free(*p);
		*p = got[0];
		ret = 0;
	} else {
		for (i = 0; i < n; i++)
			profile_free(got[i]);
		ret = error("internal error: %zu profiles read for one", n);
	}
	free(got);
out:
	cmdline_release(&cl);
	return ret;
}

/*
 * With --format json|csv the call-path results are the whole of stdout, so
 * a program can parse it: upstream's text goes to /dev/null (its errors
 * still reach stderr).
 */
static int upstream_main_quiet(int argc, char **argv)
{
	int saved, null, status;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	null = open("/dev/null", O_WRONLY);
	if (saved < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0) {
		if (saved >= 0)
			close(saved);
		if (null >= 0)
			close(null);
		error("cannot set standard output aside: %s", strerror(errno));
		return 1;
	}
	close(null);
	status = upstream_main(argc, argv);
	fflush(stdout);
	if (dup2(saved, STDOUT_FILENO) < 0) {
		error("cannot restore standard output: %s", strerror(errno));
		status = 1;
	}
	close(saved);
	return status;
}

/* --pprof and --html, from the analysis. */
static int write_views(const struct egprof_opts *o, const struct analysis *a,
		       const char *graph_svg)
{
	struct pprof *pp = NULL;
	int ret = -1;

	if (o->pprof_path &&
	    ((a->paths[0] ? pprof_from_callpath(a->funcs[0], a->in, a->paths[0], a->lines[0], &pp)
			  : pprof_from_profile(a->funcs[0], a->in, &pp)) < 0 ||
	     pprof_save(o->outs, o->pprof_path, pp) < 0))
		goto out;
	if (o->html_path && html_profile(o->outs, o->html_path, a, graph_svg) < 0)
		goto out;
	ret = 0;
out:
	pprof_free(pp);
	return ret;
}

/* Whether an option asks for more than gprof's own output. */
static int extended(const struct egprof_opts *o)
{
	return o->gml_path || o->dot_path || o->graphml_path || o->svg_path || o->png_path ||
	       o->pprof_path || o->html_path || o->callpath || o->folded_path ||
	       o->folded_calls_path || o->flamegraph_path;
}

int cmd_gprof(struct egprof_opts *o)
{
	struct profile *p = NULL;
	struct run r;
	struct analysis a;
	struct run_load_opts lo;
	struct analysis_opts ao;
	char *graph_svg = NULL;
	int status, have_analysis = 0, up_lines = 0, up_full_paths = 0;

	status = o->format != TABLE_TEXT ? upstream_main_quiet(o->argc, o->argv)
					 : upstream_main(o->argc, o->argv);
	if (status != 0 || !extended(o))
		return status;
	fflush(stdout);
	if (upstream_current_profile(&p) < 0)
		return 1;
	if (exports_profile(o, &p) < 0 || add_gmon_names(p, o) < 0) {
		profile_free(p);
		return 1;
	}
	/* A graph (or pprof profile, or report) of another program's profile
	 * would be drawn under this one's names: refuse it (gmon_owner.h)
	 * before writing anything. */
	if ((o->gml_path || o->dot_path || o->graphml_path || o->svg_path || o->png_path ||
	     o->pprof_path || o->html_path) && !o->force &&
	    upstream_check_gmon(p->binary, p->gmon_files, p->ngmon, !o->callpath_file) < 0) {
		profile_free(p);
		return 1;
	}
	/* load: the run upstream computed here, and its sidecars, read once
	 * (their build-id checked there: upstream_check_gmon left them) */
	memset(&lo, 0, sizeof(lo));
	lo.force = o->force;
	/* --metric LIST: the report shows time, then the columns */
	lo.metric = metric_columns_wanted(o->metric) ? NULL : o->metric;
	/* and the columns come from the sidecars as read, kept for them */
	lo.keep_sidecars = o->callpath && metric_columns_wanted(o->metric);
	lo.lines = o->callpath && o->format == TABLE_TEXT;
	lo.sidecar = o->callpath_file;
	lo.paths_required = o->callpath || o->folded_path || o->folded_calls_path ||
			    o->flamegraph_path || o->callpath_file;
	/* lines (model/lines.h), of time only: --pprof's locations carry
	 * them, --html's source view shows them, and --callpath -l (upstream
	 * parsed -l) shows each function's self time by line */
	upstream_line_options(&up_lines, &up_full_paths);
	lo.line_pcs = !lo.metric && (o->pprof_path || o->html_path ||
				     (o->callpath && up_lines && o->format == TABLE_TEXT));
	run_init(&r, p->binary, NULL);
	status = 1;
	if (run_adopt(&r, p, &lo) < 0 || (o->names && run_shorten_names(&r, o->names) < 0))
		goto out;
	/* build, once for every view */
	memset(&ao, 0, sizeof(ao));
	ao.diff = (struct diff_opts)DIFF_OPTS_INIT;
	ao.filter = filter_opts_of(o);
	ao.metric = lo.metric;
	ao.short_names = o->short_names;
	ao.names = o->names;
	ao.lines = lo.line_pcs;
	ao.lines_optional = !o->pprof_path && !(o->callpath && up_lines);
	if (analysis_build(&a, (const struct run *const[1]){ &r }, 1, &ao) < 0)
		goto out;
	have_analysis = 1;
	/* emit */
	if (graph_export_profile_cli(o, a.funcs[0], o->html_path ? &graph_svg : NULL) < 0)
		goto out;
	/* call paths: --callpath[=FILE], --folded FILE (gprof-ext/cmd_callpath.h) */
	if (callpath_cmd_gprof(o, &a) != 0)
		goto out;
	if ((o->pprof_path || o->html_path) && r.paths) {
		char buf[512];
		const char *why = folded_no_samples_why(r.paths, buf, sizeof(buf));

		/* folded.h's one rule: these views also show the calls */
		if (why && (r.paths->sampling & SIDECAR_SAMPLING_SELF))
			warning("'%s' %s; the views show its calls, and %s of 0",
				r.paths_source ? r.paths_source : "gmon.out" SIDECAR_SUFFIX, why,
				r.paths->metric.name[0] ? r.paths->metric.name : "time");
	}
	if ((o->pprof_path || o->html_path) && write_views(o, &a, graph_svg) < 0)
		goto out;
	status = 0;
out:
	free(graph_svg);
	if (have_analysis)
		analysis_release(&a);
	run_release(&r);
	return status;
}
