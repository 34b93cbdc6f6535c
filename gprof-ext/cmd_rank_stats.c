/*
 * gprof --rank-stats APP FILES...|DIR: one profile per rank file, read in
 * parallel by the adapter (the binary's symbols once, a worker per file)
 * and folded into bounded-memory statistics across ranks as it arrives
 * (ranks/rankstate.h; mpi/egprof-rankstats.c is the MPI driver of the same
 * engine).  Ranks come from the
 * call-path sidecars when the files have them (diff/ranks.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff/ranks.h"
#include "model/metric.h"
#include "ranks/heatmap.h"
#include "ranks/rankpaths.h"
#include "ranks/rankstate.h"
#include "ranks/rankstats.h"
#include "export/rankstats_export.h"
#include "export/html_views.h"
#include "gprof-ext/cmdline.h"
#include "gprof-ext/commands.h"
#include "gprof-ext/operands.h"
#include "gprof-ext/gmon_check.h"
#include "gprof-ext/input_check.h"
#include "gprof-ext/rank_stats.h"
#include "gprof-ext/upstream.h"
#include "model/run.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/progress.h"
#include "utils/banned.h"

#define NOT_PRINTED "it only changes gprof's own tables, which --rank-stats does not print"

/*
 * gprof options that change which functions are counted, what their calls
 * are or how they are named (why NULL); every other is refused.  Each file
 * is read by upstream with these options, so an option that writes a file
 * (-s: gmon.sum, -y: annotated sources) would write it once per file.
 */
static const struct cmdline_rule rules[] = {
	{ 'p', NULL, NULL }, { 'P', NULL, NULL }, { 'q', NULL, NULL },
	{ 'Q', NULL, NULL }, { 'e', NULL, NULL }, { 'E', NULL, NULL },
	{ 'f', NULL, NULL }, { 'F', NULL, NULL }, { 'n', NULL, NULL },
	{ 'N', NULL, NULL }, { 'k', NULL, NULL }, { 'z', NULL, NULL },
	{ 'a', NULL, NULL }, { 'D', NULL, NULL }, { 'S', NULL, NULL },
	{ 'O', NULL, NULL }, { 'b', NULL, NULL },
	{ 0, "demangle", NULL }, { 0, "no-demangle", NULL },
	{ 's', NULL, "statistics read each rank file on its own and write no "
		     "sum; sum with -s alone or with egprof-sum" },
	{ 'l', NULL, "statistics are per function, not per source line" },
	{ 'A', NULL, "annotated source is not part of the rank statistics" },
	{ 'J', NULL, "annotated source is not part of the rank statistics" },
	{ 'y', NULL, "annotated source is not part of the rank statistics" },
	{ 't', NULL, "annotated source is not part of the rank statistics" },
	{ 'I', NULL, "annotated source is not part of the rank statistics" },
	{ 'C', NULL, "basic-block counts are not part of the rank statistics" },
	{ 'Z', NULL, "basic-block counts are not part of the rank statistics" },
	{ 'x', NULL, "basic-block counts are not part of the rank statistics" },
	{ 'm', NULL, "basic-block counts are not part of the rank statistics" },
	{ 'r', NULL, "it prints a function ordering, not a profile" },
	{ 'R', NULL, "it prints a file ordering, not a profile" },
	{ 'i', NULL, "it prints gmon file information, not a profile" },
	{ 'c', NULL, "the static call graph adds no calls or time" },
	{ 'd', NULL, "debugging output is per profile" },
	{ 'T', NULL, NOT_PRINTED }, { 'w', NULL, NOT_PRINTED },
	{ 'L', NULL, NOT_PRINTED }, { 0, "inline-file-names", NOT_PRINTED },
};

/* Our options that choose another report. */
static int check_ours(const struct egprof_opts *o)
{
	const char *opt = o->extended ? "--extended" : o->gml_path ? "--gml" :
			  o->dot_path ? "--dot" : o->graphml_path ? "--graphml" :
			  o->callpath ? "--callpath" : o->folded_path ? "--folded" :
			  o->folded_calls_path ? "--folded-calls" :
			  o->flamegraph_path ? "--flamegraph" : o->pprof_path ? "--pprof" : NULL;
	struct filter_opts f = filter_opts_of(o);

	if (opt)
		return error("option '%s' cannot be used with --rank-stats (it "
			     "writes another report, of one profile or a diff)", opt);
	if (filter_active(&f))
		return error("option '%s' cannot be used with --rank-stats (rank "
			     "statistics are per function, without a call graph)",
			     o->focus ? "--focus" : o->root ? "--root" :
			     o->depth >= 0 ? "--depth" : "--exclude");
	return 0;
}

int rank_stats_heatmaps(const struct rankstate *global, const struct rankpass *pass,
			struct outset *outs,
			const char *svg, const char *png, const char *title)
{
	struct heatmap hm;
	int ret = 0;

	if (!svg && !png)
		return 0;
	if (rankstate_heatmap(global, pass, &hm) < 0)
		return -1;
	if (svg && heatmap_write(&hm, outs, svg, HEATMAP_SVG, title) < 0)
		ret = -1;
	if (ret == 0 && png && heatmap_write(&hm, outs, png, HEATMAP_PNG, title) < 0)
		ret = -1;
	heatmap_release(&hm);
	return ret;
}

void rank_stats_title(char *buf, size_t len, const char *binary,
		      const struct rank_id *ids, size_t n)
{
	size_t known = ranks_known(ids, n);

	if (known == n)
		snprintf(buf, len, "'%s', %zu gmon files, ranks from call-path sidecars",
			 binary, n);
	else if (known == 0)
		snprintf(buf, len, "'%s', %zu gmon files, no sidecars: ranks are "
			 "#index in file-name order", binary, n);
	else
		snprintf(buf, len, "'%s', %zu gmon files, %zu with ranks from sidecars, "
			 "the others #index", binary, n, known);
}

void rank_stats_source_title(char *buf, size_t len, double hz)
{
	size_t n = strlen(buf);

	if (n < len)
		snprintf(buf + n, len - n, "; time: call-path samples of each thread, %g Hz "
			 "(libraries' time in rows of their own)", hz);
}

void rank_stats_metric_title(char *buf, size_t len, const char *metric)
{
	size_t n = strlen(buf);

	if (n < len)
		snprintf(buf + n, len - n, "; %s events per function from the sidecars "
			 "(--metric), not seconds", metric);
}

int rank_stats_split(int argc, char **argv, struct cmdline *cl)
{
	if (cmdline_split(cl, argc, argv) < 0)
		return -1;
	if (cmdline_check(cl, "--rank-stats", rules, sizeof(rules) / sizeof(rules[0]),
			  "it does not apply to rank statistics") < 0)
		goto fail;
	if (cl->noperands < 2) {
		error("--rank-stats needs the program and its rank files: APP FILES...|DIR");
		goto fail;
	}
	/* the program and -S, which every loader opens */
	if (input_check_cmdline(cl) < 0)
		goto fail;
	return 0;
fail:
	cmdline_release(cl);
	return -1;
}

/*
 * Pass 1 of ranks/rankstate.h over every file, streamed: the loader's
 * workers send one profile at a time, folded into the state and freed, so
 * memory is O(functions) (plus the spill on disk) for any number of ranks.
 */
int rank_stats_read(const struct cmdline *cl, const struct rank_stats_read_opts *o,
		    char *const *files, const uint64_t *rank_of, size_t nfiles,
		    struct rankstate *st, FILE *spill)
{
	struct upstream_job *job;
	struct upstream_load req;
	const struct profile *p;
	struct rankstate_memo memo;
	static const struct progress_opts asked = PROGRESS_OPTS_ASKED;
	struct progress pg;
	size_t index, done = 0;
	int r;

	memset(&req, 0, sizeof(req));
	req.argv0 = o->argv0;
	req.gprof_args = cl->args;
	req.nargs = cl->nargs;
	req.binary = cl->operands[0];
	req.gmon_files = files;
	req.ngmon = nfiles;
	req.each = 1;
	req.jobs = o->jobs;
	req.force = o->force;
	req.counts = 1; /* rankstate_add reads no arc, no propagated time */
	/* run_file_functions checks each sidecar's build-id as it reads it */
	req.sidecars_checked = o->measured || o->metric;
	memset(&memo, 0, sizeof(memo));
	if (upstream_load_start(&req, &job) < 0)
		return -1;
	progress_start(&pg, o->progress ? &asked : NULL, "rank files read", nfiles);
	while ((r = upstream_load_counts(job, &index, &p)) > 0) {
		uint64_t rank = rank_of ? rank_of[index] : index;

		if (o->measured || o->metric) {
			/* the rank's functions as its sidecar measured them
			 * (model/measured.h), each sidecar read once */
			struct run_file rf;

			r = run_file_functions(p, cl->operands[0], files[index], o->metric,
					       o->force, NULL, &rf);
			if (r == 0 && rf.unreadable[0] && o->measured && !o->metric) {
				/* one source for every rank: gmon.out's */
				warning("%s; every rank's functions from its gmon file",
					rf.unreadable);
				r = 1;
				break;
			}
			if (r == 0 && rf.unreadable[0])
				r = error("%s", rf.unreadable);
			else if (r == 0 && !rf.functions)
				r = error("--metric %s: %s has no call-path sidecar (--rank-stats "
					  "--metric reads each rank's)", o->metric, files[index]);
			if (r == 0)
				r = rankstate_add(st, rf.functions, rank, spill);
			if (o->where)
				o->where[rank] = rf.where;
			profile_free(rf.functions);
		} else {
			r = rankstate_add_memo(st, p, rank, spill, &memo);
			/* the functions are gmon.out's: the sidecar, where the
			 * file has one, read for its where-numbers alone */
			if (o->where)
				o->where[rank] = run_file_where(files[index]);
		}
		/* one rank's symbols name the nodes of every rank's sidecar */
		if (r == 0 && o->syms && !o->syms->names)
			r = rankpaths_syms_init(o->syms, p);
		if (r < 0)
			break;
		progress_update(&pg, ++done);
	}
	progress_end(&pg);
	rankstate_memo_release(&memo);
	upstream_load_free(job);
	return r < 0 ? -1 : r;
}

int cmd_rank_stats(struct egprof_opts *o)
{
	struct cmdline cl;
	char **files = NULL, **sorted = NULL, **tags = NULL;
	size_t nfiles = 0, i, *order = NULL;
	struct rank_id *ids = NULL;
	struct rankstate *st = NULL;
	struct rankpass pass;
	struct rankstats *rs = NULL;
	struct rankstats_opts ropts = RANKSTATS_OPTS_INIT;
	FILE *spill = NULL;
	struct rankpaths_syms syms;
	char title[1024];
	struct rank_stats_read_opts ro;
	struct time_where *where = NULL;
	int status = 1, r;

	/* --metric EV: statistics of the sidecars' events, not time */
	const char *metric = callpath_metric_is_time(o->metric) ? NULL : o->metric;

	memset(&pass, 0, sizeof(pass));
	memset(&syms, 0, sizeof(syms));
	memset(&ro, 0, sizeof(ro));
	if (check_ours(o) < 0 || rank_stats_split(o->argc, o->argv, &cl) < 0)
		return 1;
	if (gmon_operand_expand_all(cl.operands + 1, cl.noperands - 1, &files, &nfiles) < 0)
		goto out;
	for (i = 0; i < nfiles; i++)
		if (gmon_check(files[i], GMON_CHECK_STRICT) < 0)
			goto out;
	if (ranks_identify(files, nfiles, &ids) < 0)
		goto out;
	order = malloc(nfiles * sizeof(*order));
	sorted = calloc(nfiles, sizeof(*sorted));
	tags = calloc(nfiles, sizeof(*tags));
	where = malloc(nfiles * sizeof(*where));
	st = rankstate_new(nfiles);
	if (!order || !sorted || !tags || !where || !st) {
		error("out of memory");
		goto out;
	}
	ranks_sort(ids, nfiles, order);
	for (i = 0; i < nfiles; i++) {
		where[i] = TIME_WHERE_UNKNOWN;
		sorted[i] = ids[order[i]].gmon;   /* borrowed from ids */
		tags[i] = ids[order[i]].tag;
	}
	if (!(spill = tmpfile())) {
		error("cannot create a temporary file: %s", strerror(errno));
		goto out;
	}
	/* one source for every rank: the sidecars' samples where every file
	 * has its own (libraries' time, the MPI library's wait, measured per
	 * rank), gmon.out's histogram otherwise */
	ro.argv0 = o->argv[0];
	ro.jobs = o->jobs;
	ro.force = o->force;
	ro.progress = o->progress;
	ro.measured = ranks_paired(ids, nfiles);
	ro.metric = metric;
	ro.syms = &syms;
	ro.where = where;
	r = rank_stats_read(&cl, &ro, sorted, NULL, nfiles, st, spill);
	if (r > 0) {
		/* a rank's sidecar cannot be read (said): the pass again, every
		 * rank from its gmon file */
		rankstate_free(st);
		fclose(spill);
		spill = NULL;
		ro.measured = 0;
		if (!(st = rankstate_new(nfiles)) || !(spill = tmpfile())) {
			error("cannot create a temporary file: %s", strerror(errno));
			goto out;
		}
		r = rank_stats_read(&cl, &ro, sorted, NULL, nfiles, st, spill);
	}
	if (r < 0 || rankstate_finish(st) < 0 || rankpass_init(&pass, st) < 0 ||
	    rankstate_pass2(st, st, spill, &pass) < 0 ||
	    rankstate_report(st, &pass, tags, &rs) < 0)
		goto out;
	for (i = 0; i < nfiles; i++) {
		rs->ranks[i].lib_s = where[i].libraries;
		rs->ranks[i].instr_s = where[i].instrumentation;
		rs->ranks[i].sampled_s = where[i].total;
	}
	rank_stats_title(title, sizeof(title), cl.operands[0], ids, nfiles);
	if (metric)
		rank_stats_metric_title(title, sizeof(title), metric);
	else if (ro.measured)
		rank_stats_source_title(title, sizeof(title), st->hz);
	ropts.unit = metric;
	if (rankpaths_fill(rs, sorted, &syms, ropts.summary_items) < 0 ||
	    rank_stats_heatmaps(st, &pass, o->outs, o->svg_path, o->png_path, title) < 0)
		goto out;
	ropts.files = sorted;
	if (o->html_path) {
		struct heatmap hm;
		int bad;

		if (rankstate_heatmap(st, &pass, &hm) < 0)
			goto out;
		bad = html_rankstats(o->outs, o->html_path, rs, title, sorted, &hm) < 0;
		heatmap_release(&hm);
		if (bad)
			goto out;
	}
	if (o->format != TABLE_TEXT) {
		status = rankstats_export(stdout, (enum table_format)o->format, rs, title,
					  sorted) < 0 ? 1 : 0;
		goto out;
	}
	rankstats_print(stdout, rs, &ropts, title);
	status = outfile_close_stdout() < 0 ? 1 : 0;
out:
	rankstats_free(rs);
	rankpaths_syms_release(&syms);
	rankpass_release(&pass);
	rankstate_free(st);
	if (spill)
		fclose(spill);
	free(order);
	free(sorted);
	free(tags);
	free(where);
	ranks_free(ids, nfiles);
	operands_free(files, nfiles);
	cmdline_release(&cl);
	return status;
}
