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
#include "callpath/cmd_callpath.h"
#include "export/table.h"
#include "export/pprof_export.h"
#include "export/html_views.h"
#include "filter/filter_models.h"
#include "callpath/report.h"
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
 * naming every export shares.  Not with -s (upstream would write
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

	if (!upstream_has_dropped_clones())
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

/*
 * --pprof and --html: the profile, with its call paths when it has
 * sidecars, as far as --focus/--root/--depth/--exclude keep it.
 */
static int write_views(const struct egprof_opts *o, const struct profile *p,
		       const char *graph_svg)
{
	struct filter_opts f = filter_opts_of(o);
	struct callpath_model *m = NULL;
	struct pprof *pp = NULL;
	char *in = malloc(p->nsyms + 1), *filters = filter_describe(&f);
	char source[4200] = "";
	int ret = -1;

	if (!in) {
		error("out of memory");
		goto out;
	}
	/* (the gmon files' owner was checked with the graphs', cmd_gprof) */
	if (filter_profile(&f, p, in) < 0 ||
	    callpath_profile_model(o, p, &m, source, sizeof(source)) != 0)
		goto out;
	if (o->pprof_path &&
	    ((m ? pprof_from_callpath(p, in, m, &pp) : pprof_from_profile(p, in, &pp)) < 0 ||
	     pprof_save(o->outs, o->pprof_path, pp) < 0))
		goto out;
	if (o->html_path &&
	    html_profile(o->outs, o->html_path, p, in, m, source, graph_svg, filters) < 0)
		goto out;
	ret = 0;
out:
	free(filters);
	pprof_free(pp);
	callpath_model_free(m);
	free(in);
	return ret;
}

int cmd_gprof(struct egprof_opts *o)
{
	struct profile *p = NULL;
	struct callpath_graph_times gt;
	char *graph_svg = NULL;
	int status;

	status = o->format != TABLE_TEXT ? upstream_main_quiet(o->argc, o->argv)
					 : upstream_main(o->argc, o->argv);
	if (status != 0)
		return status;
	fflush(stdout);
	if (upstream_current_profile(&p) < 0)
		return 1;
	if (exports_profile(o, &p) < 0 || add_gmon_names(p, o) < 0 ||
	    (o->names && profile_shorten_names(p, o->names) < 0)) {
		profile_free(p);
		return 1;
	}
	/* A graph (or pprof profile, or report) of another program's profile
	 * would be drawn under this one's names: refuse it (gmon_owner.h)
	 * before writing anything. */
	if ((o->gml_path || o->dot_path || o->graphml_path || o->svg_path || o->png_path ||
	     o->pprof_path || o->html_path) && !o->force &&
	    upstream_check_gmon(p->binary, p->gmon_files, p->ngmon) < 0) {
		profile_free(p);
		return 1;
	}
	/* Exports and call-path reports are added here by their modules; the
	 * graphs use the time measured per arc when there are sidecars. */
	if (callpath_graph_times_load(o, &(struct callpath_side){ p, NULL, 0, NULL, NULL, o->force,
								    o->metric },
				      1, &gt) != 0 ||
	    graph_export_profile_cli(o, p, &gt.gm, o->html_path ? &graph_svg : NULL) < 0)
		status = 1;
	callpath_graph_times_release(&gt);
	/* call paths: --callpath[=FILE], --folded FILE (callpath/cmd_callpath.h) */
	if (callpath_cmd_gprof(o, p) != 0)
		status = 1;
	if (status == 0 && (o->pprof_path || o->html_path) && write_views(o, p, graph_svg) < 0)
		status = 1;
	free(graph_svg);
	profile_free(p);
	return status;
}
