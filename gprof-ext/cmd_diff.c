/*
 * gprof --diff APP1 GMON1 APP2 GMON2 (or APP GMON1 GMON2): plan, load both
 * runs at once (model/run.h: gmon.out through upstream's loaders, every
 * sidecar read once), build the analysis once (model/analysis.h: the
 * functions from one source, the diff assessed once, the path differences,
 * the filters), then emit every view asked for from it.  See doc/diff.md.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "gprof-ext/commands.h"
#include "gprof-ext/upstream.h"
#include "gprof-ext/cmdline.h"
#include "gprof-ext/gate_cli.h"
#include "diff/diff.h"
#include "diff/print.h"
#include "diff/print_lines.h"
#include "gml/graph_cli.h"
#include "export/diff_export.h"
#include "export/lines_export.h"
#include "export/pprof_export.h"
#include "export/html_views.h"
#include "gprof-ext/cmd_callpath.h"
#include "model/analysis.h"
#include "model/lines.h"
#include "model/run.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/banned.h"

/* gprof options that mean something for a diff (why NULL); every other is
 * refused, with a reason where a user may wonder. */
static const struct cmdline_rule rules[] = {
	{ 'p', NULL, NULL }, { 'P', NULL, NULL }, { 'q', NULL, NULL },
	{ 'Q', NULL, NULL }, { 'b', NULL, NULL }, { 'z', NULL, NULL },
	{ 'e', NULL, NULL }, { 'E', NULL, NULL }, { 'f', NULL, NULL },
	{ 'F', NULL, NULL }, { 'n', NULL, NULL }, { 'N', NULL, NULL },
	{ 'k', NULL, NULL }, { 'T', NULL, NULL }, { 'w', NULL, NULL },
	{ 'a', NULL, NULL }, { 'L', NULL, NULL },
	{ 0, "demangle", NULL }, { 0, "no-demangle", NULL },
	{ 0, "inline-file-names", NULL },
	{ 'l', NULL, NULL }, { 'A', NULL, NULL },
	{ 'J', NULL, "annotated source is not compared" },
	{ 'C', NULL, "basic-block counts are not compared" },
	{ 'Z', NULL, "basic-block counts are not compared" },
	{ 'x', NULL, "basic-block counts are not compared" },
	{ 's', NULL, "a diff does not write a sum; a directory operand is summed" },
	{ 'r', NULL, "function ordering is not compared" },
	{ 'R', NULL, "file ordering is not compared" },
	{ 'i', NULL, "it prints gmon file information, not a profile" },
	{ 'c', NULL, "the static call graph is not compared" },
	{ 'y', NULL, "annotated source is not compared" },
	{ 'm', NULL, "basic-block counts are not compared" },
	{ 't', NULL, "annotated source is not compared" },
	{ 'I', NULL, "annotated source is not compared" },
	{ 'D', NULL, "symbols are matched by name across binaries" },
	{ 'S', NULL, "symbols are matched by name across binaries" },
	{ 'O', NULL, "both sides are read in gprof's own format" },
	{ 'd', NULL, "debugging output is per profile" },
};

struct layout {
	int flat, graph;
	struct diff_print_opts po;
	int lines;                 /* -l: the lines' table for the flat one */
	int annotate;              /* -A: annotated source */
	const char *annotate_only; /* -A's function */
};

static int check_options(const struct cmdline *cl, struct layout *lay)
{
	int style_flat = 0, style_graph = 0, user_flat = 0, user_graph = 0;
	size_t i;

	if (cmdline_check(cl, "--diff", rules, sizeof(rules) / sizeof(rules[0]),
			  "it does not apply to a diff") < 0)
		return -1;
	for (i = 0; i < cl->nopts; i++) {
		const struct cmdline_opt *co = &cl->opts[i];

		/* Upstream's output-style rules (gprof.c), for our two tables. */
		switch (co->val) {
		case 'p':
			style_flat = 1;
			user_flat = 1;
			break;
		case 'P':
			if (!co->arg)
				style_flat = 0;
			user_flat = 1;
			break;
		case 'q':
			style_graph = 1;
			user_graph = 1;
			break;
		case 'Q':
			if (!co->arg)
				style_graph = 0;
			user_graph = 1;
			break;
		case 'b':
			lay->po.brief = 1;
			break;
		case 'z':
			lay->po.zeros = 1;
			break;
		case 'T':
			lay->po.bsd = 1;
			break;
		case 'w':
			/* gprof's rule: a width below 1 is 1 */
			lay->po.width = co->arg && atoi(co->arg) > 1 ? atoi(co->arg) : 1;
			break;
		case 'L':
			lay->po.print_path = 1;
			break;
		case 'l':
			lay->lines = 1;
			break;
		case 'A':
			lay->annotate = 1;
			lay->annotate_only = co->arg;
			break;
		}
	}
	if (!style_flat && !style_graph) {
		style_flat = !user_flat;
		style_graph = !user_graph;
	}
	lay->flat = style_flat;
	lay->graph = style_graph;
	return 0;
}

/*
 * -l and -A are ours in a diff (the analysis's lines, model/lines.h):
 * upstream's loaders get the other options only, so that their profiles
 * stay the functions' (gprof -l would make its symbols lines).  Without
 * them the loaders get the user's arguments as they are; with them, the
 * other options are written again one by one from the parse ("-bl" and
 * "--line" as well as "-l"): "-c" or "-cARG", "--name" or "--name=ARG",
 * which getopt reads as the user's.  *owned: the strings are ours to free.
 */
static int loader_args(const struct cmdline *cl, char ***out, size_t *nout, int *owned)
{
	char **args = calloc(cl->nargs + cl->nopts + 1, sizeof(*args));
	size_t n = 0, k;

	*owned = 0;
	if (!args)
		return error("out of memory");
	for (k = 0; k < cl->nopts && cl->opts[k].val != 'l' && cl->opts[k].val != 'A'; k++)
		;
	if (k == cl->nopts) {
		memcpy(args, cl->args, cl->nargs * sizeof(*args));
		*out = args;
		*nout = cl->nargs;
		return 0;
	}
	*owned = 1;
	for (k = 0; k < cl->nopts; k++) {
		const struct cmdline_opt *co = &cl->opts[k];
		const char *arg = co->arg ? co->arg : "";
		size_t len;

		if (co->val == 'l' || co->val == 'A')
			continue;
		len = (co->name ? strlen(co->name) : 1) + strlen(arg) + 4;
		if (!(args[n] = malloc(len)))
			goto oom;
		if (co->name)
			snprintf(args[n], len, "--%s%s%s", co->name, co->arg ? "=" : "", arg);
		else
			snprintf(args[n], len, "-%c%s", co->val, arg);
		n++;
	}
	*out = args;
	*nout = n;
	return 0;
oom:
	for (k = 0; k < n; k++)
		free(args[k]);
	free(args);
	return error("out of memory");
}

/* --diff -l and -A: the lines' table and the annotated source. */
static int print_lines_text(const struct analysis *a, const struct layout *lay, int table)
{
	struct print_lines_opts po;

	memset(&po, 0, sizeof(po));
	po.label[0] = a->run[0]->label;
	po.label[1] = a->run[1]->label;
	po.source = a->lines[0]->source;
	po.skipped[0] = a->lines[0]->skipped;
	po.skipped[1] = a->lines[1]->skipped;
	for (int s = 0; s < 2; s++) {
		po.unplaced[s] = a->lines[s]->unplaced;
		po.hz[s] = a->lines[s]->hz;
	}
	po.full_paths = lay->po.print_path;
	po.only = lay->annotate_only;
	if (table && print_lines_diff(stdout, a->line_diff, &po) < 0)
		return -1;
	if (table && lay->annotate)
		printf("\f\n");
	if (lay->annotate && print_lines_annotated(stdout, a->line_diff, &po) < 0)
		return -1;
	return 0;
}

/* --pprof and --html of the diff, from the analysis. */
static int write_views(const struct egprof_opts *o, const struct analysis *a,
		       const char *const label[2], const char *graph_svg)
{
	struct pprof *pp = NULL;
	int ret = -1;

	if (o->pprof_path &&
	    (pprof_from_diff(&a->diff, a->in,
			     (const struct callpath_model *const[2]){ a->paths[0], a->paths[1] },
			     (const struct line_profile *const[2]){ a->lines[0], a->lines[1] },
			     &pp) < 0 ||
	     pprof_save(o->outs, o->pprof_path, pp) < 0))
		goto out;
	if (o->html_path &&
	    html_diff(o->outs, o->html_path, a, label, o->noise_sigmas, graph_svg) < 0)
		goto out;
	ret = 0;
out:
	pprof_free(pp);
	return ret;
}

/* The text: the header, the flat table and its evidence, the call graph. */
static int print_text(const struct analysis *a, struct layout *lay, int extended,
		      double noise_sigmas, int ratio)
{
	const struct diff *d = &a->diff;
	size_t *flat_order = NULL;
	int ret = -1;

	lay->po.extended = extended;
	lay->po.noise_marker = noise_sigmas > 0;
	lay->po.ratio = ratio;
	/* gmon.out's histogram is what gprof's flat profile always said
	 * ("Each sample counts as..."); the sidecars are said once */
	lay->po.source = a->from_sidecars ? a->source : NULL;
	lay->po.coverage_low = a->coverage_low;
	print_opts_units(&lay->po, d);
	for (int s = 0; s < DIFF_NSIDES; s++)
		lay->po.label[s] = a->run[s]->label;
	/* the flat table's rows, sorted once for it and its evidence */
	if (lay->annotate && !lay->lines) {
		/* gprof -A: the annotated source alone */
		if (print_lines_text(a, lay, 0) < 0)
			goto out;
		ret = outfile_close_stdout();
		goto out;
	}
	if (lay->flat && print_flat_order(d, &lay->po, &flat_order, &lay->po.nflat) < 0)
		goto out;
	lay->po.flat_order = flat_order;
	if (lay->lines) {
		/* gprof -l: the flat profile is the lines' */
		if (lay->flat && print_lines_text(a, lay, 1) < 0)
			goto out;
		if (lay->flat && lay->graph)
			printf("\f\n");
		if (lay->graph && print_cg(stdout, d, &lay->po) < 0)
			goto out;
		ret = outfile_close_stdout();
		goto out;
	}
	print_convention(stdout, d, &lay->po);
	if (lay->flat && (extended ? print_extended_flat(stdout, d, &lay->po)
				   : print_classic_flat(stdout, d, &lay->po)) < 0)
		goto out;
	if (lay->flat && print_evidence(stdout, d, &lay->po) < 0)
		goto out;
	if (lay->flat && lay->graph)
		printf("\f\n");
	if (lay->graph && print_cg(stdout, d, &lay->po) < 0)
		goto out;
	ret = outfile_close_stdout();
out:
	free(flat_order);
	return ret;
}

int cmd_diff(struct egprof_opts *o)
{
	struct run runs[DIFF_NSIDES];
	struct analysis a;
	struct layout lay;
	struct cmdline cl;
	struct run_load_opts lo;
	struct analysis_opts ao;
	const char *label[2];
	char *graph_svg = NULL;    /* the call graph drawn for --html */
	char **largs = NULL;
	size_t nlargs = 0;
	int status = 1, have_analysis = 0, largs_owned = 0;

	memset(&lay, 0, sizeof(lay));
	memset(&lo, 0, sizeof(lo));
	memset(&ao, 0, sizeof(ao));
	run_init(&runs[0], NULL, NULL);
	run_init(&runs[1], NULL, NULL);
	if (cmdline_split(&cl, o->argc, o->argv) < 0)
		return 1;
	if (check_options(&cl, &lay) < 0)
		goto out;
	if (cl.noperands == 4) {
		run_init(&runs[0], cl.operands[0], cl.operands[1]);
		run_init(&runs[1], cl.operands[2], cl.operands[3]);
	} else if (cl.noperands == 3) {
		run_init(&runs[0], cl.operands[0], cl.operands[1]);
		run_init(&runs[1], cl.operands[0], cl.operands[2]);
	} else {
		error("--diff takes APP1 GMON1 APP2 GMON2, or APP GMON1 GMON2 (got %zu operands)",
		      cl.noperands);
		goto out;
	}
	/* load: both runs at once; a directory also file by file when the
	 * noise rule needs the spread across its runs */
	lo.argv0 = o->argv[0];
	if (loader_args(&cl, &largs, &nlargs, &largs_owned) < 0)
		goto out;
	lo.gprof_args = largs;
	lo.nargs = nlargs;
	/* lines: -l, -A, and --pprof's locations and --html's source view
	 * (of time only) */
	lo.line_pcs = lay.lines || lay.annotate || ((o->pprof_path || o->html_path) && !o->metric);
	lo.force = o->force;
	lo.jobs = o->jobs;
	lo.each = o->noise_sigmas > 0;
	lo.metric = o->metric;
	lo.paths_required = o->callpath;
	lo.clones = UPSTREAM_CLONES_FOLD;
	/* --short-names: both runs through one map (utils/names.h), the rows
	 * matched by their symbols' names as before */
	if (run_load(runs, DIFF_NSIDES, &lo) < 0 ||
	    (o->names && (run_shorten_names(&runs[0], o->names) < 0 ||
			  run_shorten_names(&runs[1], o->names) < 0)))
		goto out;
	/* build: once, for every view */
	ao.diff = (struct diff_opts)DIFF_OPTS_INIT;
	ao.diff.noise_sigmas = o->noise_sigmas;
	ao.diff.sort = (enum diff_sort_key)o->diff_sort;
	ao.filter = filter_opts_of(o);
	ao.metric = o->metric;
	ao.short_names = o->short_names;
	ao.names = o->names;
	ao.lines = lo.line_pcs;
	ao.lines_optional = !lay.lines && !lay.annotate && !o->pprof_path;
	ao.path_diffs = o->callpath || o->extended || o->folded_path || o->folded_calls_path ||
			o->flamegraph_path || o->html_path;
	if (analysis_build(&a, (const struct run *const[2]){ &runs[0], &runs[1] }, 2, &ao) < 0)
		goto out;
	have_analysis = 1;
	label[0] = runs[0].label;
	label[1] = runs[1].label;

	/* emit (--format markdown: the summary follows the other outputs,
	 * gate_cli.h) */
	if (o->format == TABLE_MARKDOWN) {
		/* nothing here */
	} else if (o->format != TABLE_TEXT) {
		/* the results instead of the text, on stdout (doc/formats.md),
		 * as far as --focus/--root/--depth/--exclude keep them */
		if (lay.lines ? lines_export(stdout, (enum table_format)o->format, a.line_diff,
					     label, a.lines[0]->source) < 0
			      : diff_export(stdout, (enum table_format)o->format, &a.view, label,
					    o->noise_sigmas, a.source) < 0)
			goto out;
	} else if (print_text(&a, &lay, o->extended, o->noise_sigmas, o->ratio_column) < 0) {
		goto out;
	}
	if (graph_export_diff_cli(o, &a.diff, label, o->html_path ? &graph_svg : NULL) < 0)
		goto out;
	/* call paths of both runs, when they have sidecars */
	if (callpath_cmd_diff(o, &a) != 0)
		goto out;
	if ((o->pprof_path || o->html_path) && write_views(o, &a, label, graph_svg) < 0)
		goto out;
	/* --fail-on and --format markdown, on the assessed diff */
	if (gate_cli_diff(o, &a.diff, label) < 0)
		goto out;
	status = 0;
out:
	free(graph_svg);
	for (size_t i = 0; largs_owned && i < nlargs; i++)
		free(largs[i]);
	free(largs);
	if (have_analysis)
		analysis_release(&a);
	run_release(&runs[0]);
	run_release(&runs[1]);
	cmdline_release(&cl);
	return status;
}
