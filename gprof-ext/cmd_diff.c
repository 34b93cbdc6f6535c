/*
 * gprof --diff APP1 GMON1 APP2 GMON2 (or APP GMON1 GMON2): load each side
 * with upstream gprof's own code, in two loader processes running at once
 * (gprof-ext/upstream.h), match and subtract them (diff/diff.h), and print
 * (diff/print.h).  See doc/diff.md.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "gprof-ext/commands.h"
#include "gprof-ext/cmdline.h"
#include "gprof-ext/operands.h"
#include "gprof-ext/gate_cli.h"
#include "gprof-ext/gmon_check.h"
#include "gprof-ext/input_check.h"
#include "gprof-ext/upstream.h"
#include "diff/diff.h"
#include "diff/noise.h"
#include "diff/print.h"
#include "diff/ranks.h"
#include "gml/graph_cli.h"
#include "export/diff_export.h"
#include "export/pprof_export.h"
#include "export/html_views.h"
#include "filter/filter_models.h"
#include "callpath/cmd_callpath.h"
#include "callpath/metric.h"
#include "callpath/metric_evidence.h"
#include "callpath/report.h"
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
	{ 'l', NULL, "line-level profiles are not compared" },
	{ 'A', NULL, "annotated source is not compared" },
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

struct side {
	const char *binary;
	const char *operand;
	char **files;
	size_t nfiles;
	int is_dir;
	/* shared: sum_job is one loader for both sides (see shares_loader) */
	int shared;
	struct upstream_job *sum_job, *each_job;
	struct profile **sum;
	size_t nsum;
	struct profile **each;
	size_t neach;
	int *rank;          /* each file's MPI rank (its sidecar), -1 unknown */
	char *label;
};

struct layout {
	int flat, graph;
	struct diff_print_opts po;
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

static int check_readable(const char *path)
{
	if (access(path, R_OK) != 0)
		return error("%s: %s", path, strerror(errno));
	return input_check(path, INPUT_IMAGE);
}

static char *side_label(const struct side *s)
{
	size_t n = strlen(s->binary) + strlen(s->operand) + 64;
	char *out = malloc(n);

	if (!out)
		return NULL;
	if (s->is_dir)
		snprintf(out, n, "%s %s (%zu gmon files)", s->binary, s->operand, s->nfiles);
	else
		snprintf(out, n, "%s %s", s->binary, s->operand);
	return out;
}

static int start(struct side *s, const struct cmdline *cl, const char *argv0,
		 int each, int jobs, int force)
{
	struct upstream_load req;

	memset(&req, 0, sizeof(req));
	req.argv0 = argv0;
	req.gprof_args = cl->args;
	req.nargs = cl->nargs;
	req.binary = s->binary;
	req.gmon_files = s->files;
	req.ngmon = s->nfiles;
	req.each = each;
	req.jobs = jobs;
	req.force = force;
	req.clones = UPSTREAM_CLONES_FOLD;
	return upstream_load_start(&req, each ? &s->each_job : &s->sum_job);
}

/* Which rank wrote each file, from the sidecars: the noise model tells the
 * repeats of one rank (noise) from the ranks of one job (signal). */
static int side_ranks(struct side *s)
{
	struct rank_id *ids;
	size_t i;

	if (ranks_identify(s->files, s->nfiles, &ids) < 0)
		return -1;
	s->rank = malloc((s->nfiles + 1) * sizeof(int));
	for (i = 0; s->rank && i < s->nfiles; i++)
		s->rank[i] = ids[i].rank;
	ranks_free(ids, s->nfiles);
	return s->rank ? 0 : error("out of memory");
}

/* Whether a and b name one file (a path given twice, or two names of it). */
static int same_file(const char *a, const char *b)
{
	struct stat x, y;

	if (strcmp(a, b) == 0)
		return 1;
	return stat(a, &x) == 0 && stat(b, &y) == 0 &&
	       x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/*
 * Both sides one gmon file of the same binary: one loader can serve both,
 * reading and indexing the binary's symbols once and forking a worker per
 * gmon file (the adapter's `each` mode), instead of two loaders doing the
 * same work twice.  Side 0 may share when it is a single file and names the
 * same binary as side 1 (checked before side 1's files are known).
 */
static int may_share(const struct side *a, const struct side *b)
{
	return !a->is_dir && a->nfiles == 1 && same_file(a->binary, b->binary);
}

static int shares_loader(const struct side *a, const struct side *b)
{
	return may_share(a, b) && !b->is_dir && b->nfiles == 1;
}

static int start_shared(struct side *a, const struct side *b,
			const struct cmdline *cl, const char *argv0, int force)
{
	struct upstream_load req;
	char *files[2];

	files[0] = a->files[0];
	files[1] = b->files[0];
	memset(&req, 0, sizeof(req));
	req.argv0 = argv0;
	req.gprof_args = cl->args;
	req.nargs = cl->nargs;
	req.binary = a->binary;
	req.gmon_files = files;
	req.ngmon = 2;
	req.each = 1;
	req.jobs = 2;
	req.force = force;
	req.clones = UPSTREAM_CLONES_FOLD;
	a->shared = 1;
	return upstream_load_start(&req, &a->sum_job);
}

/* The shared loader's two profiles, one to each side. */
static int finish_shared(struct side *a, struct side *b)
{
	struct profile **p;
	size_t n, i;
	int ret;

	ret = upstream_load_finish(a->sum_job, &p, &n);
	a->sum_job = NULL;
	if (ret < 0)
		return -1;
	if (n != 2 || !(b->sum = malloc(sizeof(*b->sum)))) {
		for (i = 0; i < n; i++)
			profile_free(p[i]);
		free(p);
		return n != 2 ? -1 : error("out of memory");
	}
	b->sum[0] = p[1];
	b->nsum = 1;
	a->sum = p;
	a->nsum = 1;
	return 0;
}

/*
 * Upstream silently gives nothing for a gmon file of another program: its
 * samples and arcs fall outside every function.  Refuse that, naming the
 * files.
 */
static int check_belongs(const struct side *s, const struct profile *p)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	double assigned = 0;
	int any_calls = 0;
	size_t i;

	for (i = 0; i < p->nsyms; i++) {
		const struct profile_sym *y = &p->syms[i];

		if (y->flags & PSYM_CYCLE)
			continue;
		if (y->addr < lo)
			lo = y->addr;
		if (y->end_addr > hi)
			hi = y->end_addr;
		assigned += y->self_ticks;
		any_calls |= y->ncalls != 0;
	}
	if ((p->input & PROFILE_HAS_HIST) && p->hist_highpc > p->hist_lowpc &&
	    (p->hist_highpc <= lo || p->hist_lowpc >= hi))
		return error("%s: does not belong to '%s': its histogram covers "
			     "0x%llx-0x%llx, the binary's functions 0x%llx-0x%llx",
			     s->operand, s->binary, (unsigned long long)p->hist_lowpc,
			     (unsigned long long)p->hist_highpc, (unsigned long long)lo,
			     (unsigned long long)hi);
	if ((p->input & PROFILE_HAS_HIST) && p->total_ticks > 0 && assigned == 0)
		return error("%s: does not belong to '%s': none of its %.0f samples "
			     "falls in a function of the binary",
			     s->operand, s->binary, p->total_ticks);
	/* after -k the arcs left say nothing of the file's: its raw arcs
	 * were checked before upstream read it (gprof-ext/gmon_owner.h) */
	if ((p->input & PROFILE_HAS_CG) && !(p->input & PROFILE_ARCS_FILTERED) &&
	    p->narcs == 0 && !any_calls)
		return error("%s: does not belong to '%s': none of its calls "
			     "connects two functions of the binary", s->operand, s->binary);
	return 0;
}

static int finish(struct side *s)
{
	int ret = 0;

	if (s->sum_job) {
		/* The adapter names the file that failed. */
		if (upstream_load_finish(s->sum_job, &s->sum, &s->nsum) < 0 || s->nsum != 1)
			ret = -1;
		s->sum_job = NULL;
	}
	if (s->each_job) {
		if (upstream_load_finish(s->each_job, &s->each, &s->neach) < 0)
			ret = -1;
		s->each_job = NULL;
	}
	if (ret == 0 && check_belongs(s, s->sum[0]) < 0)
		ret = -1;
	return ret;
}

static void side_release(struct side *s)
{
	size_t i;

	for (i = 0; i < s->nsum; i++)
		profile_free(s->sum[i]);
	free(s->sum);
	for (i = 0; i < s->neach; i++)
		profile_free(s->each[i]);
	free(s->each);
	operands_free(s->files, s->nfiles);
	free(s->rank);
	free(s->label);
}

/*
 * --pprof and --html of the diff: its entries, and both sides' call paths
 * when both have sidecars, as far as --focus/--root/--depth/--exclude
 * keep them.
 */
/*
 * --diff --metric EV with sidecars on both sides: the functions' events,
 * self and inclusive, from the sidecars, and the evidence of their changes
 * (callpath/metric_evidence.h).  Nothing when a side has no sidecars.
 * 0, or -1 after reporting an error.
 */
static int metric_evidence_of(const struct egprof_opts *o, const struct callpath_side cs[2])
{
	struct callpath_model *m[2] = { NULL, NULL };
	int ret;

	if (callpath_diff_models(o, &cs[0], &cs[1], m) != 0)
		return -1;
	ret = m[0] && m[1]
		? metric_evidence_print(stdout, m[0], m[1], cs[0].label ? cs[0].label : "A",
					cs[1].label ? cs[1].label : "B", o->noise_sigmas)
		: 0;
	callpath_model_free(m[0]);
	callpath_model_free(m[1]);
	return ret;
}

static int write_views(const struct egprof_opts *o, const struct diff *d,
		       const struct callpath_side cs[2], const char *const label[2],
		       const char *graph_svg)
{
	struct filter_opts f = filter_opts_of(o);
	struct callpath_model *m[2] = { NULL, NULL };
	struct pprof *pp = NULL;
	char *in = malloc(d->nentries + 1), *filters = filter_describe(&f);
	struct diff view;
	int ret = -1, have_view = 0;

	if (!in) {
		error("out of memory");
		goto out;
	}
	if (filter_diff_entries(&f, d, in) < 0 || callpath_diff_models(o, &cs[0], &cs[1], m) != 0)
		goto out;
	if (o->pprof_path &&
	    (pprof_from_diff(d, in, (const struct callpath_model *const[2]){ m[0], m[1] }, &pp) < 0 ||
	     pprof_save(o->outs, o->pprof_path, pp) < 0))
		goto out;
	if (o->html_path) {
		/* the table is the view --format json prints */
		if (filter_diff_view(&f, d, &view) < 0)
			goto out;
		have_view = 1;
		if (html_diff(o->outs, o->html_path, &view, label, o->noise_sigmas,
			      (const struct callpath_model *const[2]){ m[0], m[1] }, graph_svg,
			      filters) < 0)
			goto out;
	}
	ret = 0;
out:
	if (have_view)
		filter_diff_view_release(&view);
	free(filters);
	pprof_free(pp);
	callpath_model_free(m[0]);
	callpath_model_free(m[1]);
	free(in);
	return ret;
}

int cmd_diff(struct egprof_opts *o)
{
	struct side sides[DIFF_NSIDES];
	struct layout lay;
	struct cmdline cl;
	struct diff d;
	struct diff_opts dopts = DIFF_OPTS_INIT;
	int status = 1, have_diff = 0, s;
	struct callpath_model *models[DIFF_NSIDES] = { NULL, NULL }; /* sidecars, read once */
	size_t *flat_order = NULL; /* the flat table's rows, sorted once for it
				      and its evidence */
	char *graph_svg = NULL;    /* the call graph drawn for --html */
	const char *argv0 = o->argv[0];

	memset(sides, 0, sizeof(sides));
	memset(&lay, 0, sizeof(lay));
	memset(&d, 0, sizeof(d));
	if (cmdline_split(&cl, o->argc, o->argv) < 0)
		return 1;
	if (check_options(&cl, &lay) < 0)
		goto out;
	if (cl.noperands == 4) {
		sides[0].binary = cl.operands[0];
		sides[0].operand = cl.operands[1];
		sides[1].binary = cl.operands[2];
		sides[1].operand = cl.operands[3];
	} else if (cl.noperands == 3) {
		sides[0].binary = sides[1].binary = cl.operands[0];
		sides[0].operand = cl.operands[1];
		sides[1].operand = cl.operands[2];
	} else {
		error("--diff takes APP1 GMON1 APP2 GMON2, or APP GMON1 GMON2 (got %zu operands)",
		      cl.noperands);
		goto out;
	}
	/* Both sides load at once (the baseline's loader starts before the
	 * second side's files are checked); a directory side is also read
	 * file by file when the noise rule needs the spread across its runs. */
	dopts.noise_sigmas = o->noise_sigmas;
	dopts.sort = (enum diff_sort_key)o->diff_sort;
	for (s = 0; s < DIFF_NSIDES; s++) {
		struct side *x = &sides[s];

		if (check_readable(x->binary) < 0 ||
		    gmon_operand_expand(x->operand, &x->files, &x->nfiles) < 0)
			goto out;
		x->is_dir = gmon_operand_is_dir(x->operand);
		for (size_t f = 0; f < x->nfiles; f++)
			if (gmon_check(x->files[f], GMON_CHECK_STRICT) < 0)
				goto out;
		if (!(x->label = side_label(x))) {
			error("out of memory");
			goto out;
		}
		if (s == 0 && may_share(x, &sides[1]))
			continue; /* started with side 1 */
		if (s == 1 && may_share(&sides[0], x)) {
			if (shares_loader(&sides[0], x)) {
				if (start_shared(&sides[0], x, &cl, argv0, o->force) < 0)
					goto out;
				continue;
			}
			if (start(&sides[0], &cl, argv0, 0, 1, o->force) < 0)
				goto out;
		}
		if (start(x, &cl, argv0, 0, 1, o->force) < 0)
			goto out;
	}
	for (s = 0; s < DIFF_NSIDES; s++)
		if (o->noise_sigmas > 0 && sides[s].nfiles > 1 &&
		    (side_ranks(&sides[s]) < 0 ||
		     start(&sides[s], &cl, argv0, 1, o->jobs, o->force) < 0))
			goto out;
	status = 0;
	if (sides[0].shared && finish_shared(&sides[0], &sides[1]) < 0)
		status = 1;
	else
		for (s = 0; s < DIFF_NSIDES; s++)
			if (finish(&sides[s]) < 0)
				status = 1;
	if (status)
		goto out;
	status = 1;
	/* --short-names: both sides through one map (utils/names.h), the rows
	 * matched by their symbols' names as before */
	for (s = 0; o->names && s < DIFF_NSIDES; s++)
		if (profile_shorten_names(sides[s].sum[0], o->names) < 0)
			goto out;

	if (diff_compute(&d, sides[0].sum[0], sides[1].sum[0], &dopts) < 0)
		goto out;
	have_diff = 1;
	if (sides[0].neach > 1 || sides[1].neach > 1) {
		struct noise_runs runs[DIFF_NSIDES];

		for (s = 0; s < DIFF_NSIDES; s++)
			runs[s] = (struct noise_runs){ sides[s].each, sides[s].rank,
						       sides[s].neach > 1 ? sides[s].neach : 0 };
		if (noise_set_runs(&d, runs) < 0)
			goto out;
		diff_assess(&d);
	}
	/* exact call counts from the sidecars, when both sides have them:
	 * threaded gmon counts lose arcs (doc/diff.md) */
	if (callpath_exact_calls_load(&(struct callpath_side){ sides[0].sum[0], sides[0].files,
				      sides[0].nfiles, sides[0].label, &models[0], o->force, o->metric },
				      &(struct callpath_side){ sides[1].sum[0], sides[1].files,
				      sides[1].nfiles, sides[1].label, &models[1], o->force, o->metric }, &d) != 0)
		goto out;
	diff_assess(&d);

	if (o->format == TABLE_MARKDOWN)
		goto exports; /* the summary follows the other outputs (gate_cli.h) */
	if (o->format != TABLE_TEXT) {
		/* the results instead of the text, on stdout (doc/formats.md),
		 * as far as --focus/--root/--depth/--exclude keep them */
		struct filter_opts f = filter_opts_of(o);
		struct diff view;
		int bad;

		if (filter_diff_view(&f, &d, &view) < 0)
			goto out;
		bad = diff_export(stdout, (enum table_format)o->format, &view,
				  (const char *const[2]){ sides[0].label, sides[1].label },
				  o->noise_sigmas) < 0;
		filter_diff_view_release(&view);
		if (bad)
			goto out;
		goto exports;
	}
	lay.po.extended = o->extended;
	lay.po.noise_marker = o->noise_sigmas > 0;
	lay.po.ratio = o->ratio_column;
	for (s = 0; s < DIFF_NSIDES; s++)
		lay.po.label[s] = sides[s].label;
	if (lay.flat && print_flat_order(&d, &lay.po, &flat_order, &lay.po.nflat) < 0)
		goto out;
	lay.po.flat_order = flat_order;
	print_convention(stdout, &d, &lay.po);
	if (lay.flat && (o->extended ? print_extended_flat(stdout, &d, &lay.po)
				     : print_classic_flat(stdout, &d, &lay.po)) < 0)
		goto out;
	if (lay.flat && print_evidence(stdout, &d, &lay.po) < 0)
		goto out;
	if (lay.flat && lay.graph)
		printf("\f\n");
	if (lay.graph && print_cg(stdout, &d, &lay.po) < 0)
		goto out;
	if (outfile_close_stdout() < 0)
		goto out;
exports:
	{
		/* the differential graph splits a callee's change between its
		 * callers by the measured paths when both sides have sidecars */
		struct callpath_side cs[2] = {
			{ sides[0].sum[0], sides[0].files, sides[0].nfiles, sides[0].label, &models[0],
			  o->force, o->metric },
			{ sides[1].sum[0], sides[1].files, sides[1].nfiles, sides[1].label, &models[1],
			  o->force, o->metric },
		};
		struct callpath_graph_times gt;
		int bad = callpath_graph_times_load(o, cs, 2, &gt) != 0 ||
			  graph_export_diff_cli(o, &d, (const char *const[2]){ sides[0].label,
									 sides[1].label },
						&gt.gm, o->html_path ? &graph_svg : NULL) < 0;

		callpath_graph_times_release(&gt);
		if (bad)
			goto out;
	}
	/* call paths of both sides, when they have sidecars (callpath/cmd_callpath.h) */
	if (callpath_cmd_diff(o, &(struct callpath_side){ sides[0].sum[0], sides[0].files,
			      sides[0].nfiles, sides[0].label, &models[0], o->force, o->metric },
			      &(struct callpath_side){ sides[1].sum[0], sides[1].files,
			      sides[1].nfiles, sides[1].label, &models[1], o->force, o->metric }) != 0)
		goto out;
	/* --metric EV: the functions' events and their evidence */
	if (o->format == TABLE_TEXT && !callpath_metric_is_time(o->metric) &&
	    metric_evidence_of(o, (const struct callpath_side[2]){
			{ sides[0].sum[0], sides[0].files, sides[0].nfiles, sides[0].label, &models[0],
			  o->force, o->metric },
			{ sides[1].sum[0], sides[1].files, sides[1].nfiles, sides[1].label, &models[1],
			  o->force, o->metric } }) < 0)
		goto out;
	if ((o->pprof_path || o->html_path) &&
	    write_views(o, &d, (const struct callpath_side[2]){
			{ sides[0].sum[0], sides[0].files, sides[0].nfiles, sides[0].label, &models[0],
			  o->force, o->metric },
			{ sides[1].sum[0], sides[1].files, sides[1].nfiles, sides[1].label, &models[1],
			  o->force, o->metric } },
			(const char *const[2]){ sides[0].label, sides[1].label }, graph_svg) < 0)
		goto out;
	/* --fail-on and --format markdown, on the assessed diff */
	if (gate_cli_diff(o, &d, (const char *const[2]){ sides[0].label, sides[1].label }) < 0)
		goto out;
	status = 0;
out:
	/* A failed start leaves jobs running: collect them. */
	for (s = 0; s < DIFF_NSIDES; s++) {
		struct profile **p;
		size_t n, i;

		if (sides[s].sum_job && upstream_load_finish(sides[s].sum_job, &p, &n) == 0) {
			for (i = 0; i < n; i++)
				profile_free(p[i]);
			free(p);
		}
		if (sides[s].each_job && upstream_load_finish(sides[s].each_job, &p, &n) == 0) {
			for (i = 0; i < n; i++)
				profile_free(p[i]);
			free(p);
		}
		sides[s].sum_job = sides[s].each_job = NULL;
	}
	free(flat_order);
	free(graph_svg);
	if (have_diff)
		diff_release(&d);
	for (s = 0; s < DIFF_NSIDES; s++) {
		callpath_model_free(models[s]);
		side_release(&sides[s]);
	}
	cmdline_release(&cl);
	return status;
}
