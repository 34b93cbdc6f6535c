/*
 * egprof-rankstats: `gprof --rank-stats` for runs too large for one
 * machine, as a tree reduction over MPI (doc/mpi.md).
 *
 *   mpirun -np P egprof-rankstats [--jobs N] [--svg FILE] [--png FILE]
 *                                 [gprof options] APP FILES...|DIR
 *
 * prints the same report as `gprof --rank-stats APP FILES...|DIR`, byte for
 * byte.  Both are drivers of one engine (ranks/rankstate.h):
 *  1. process 0 lists the files and their ranks (sidecars) and sends the
 *     list to all;
 *  2. process p reads files p, p+P, ... (each through upstream gprof, the
 *     binary's symbols once per process) into its O(functions) state, and
 *     spills each rank's sparse vector to a local temporary file;
 *  3. the states meet in a binomial tree (log2 P rounds); process 0 sends
 *     the merged state back to all (MPI_Bcast); where each rank's time
 *     went (model/where.h), from the sidecars as step 2 read them, meets
 *     at process 0 (MPI_Reduce);
 *  4. each process places its ranks against the merged state (pass 2, from
 *     its spill) and the per-rank results meet in a second tree;
 *  5. process 0 prints.
 * Memory per process is O(functions) plus O(ranks) for the per-rank table;
 * nothing is functions x ranks.  Every process reports its own errors, and
 * they agree on failure before each tree, so none waits for a dead one.
 */
#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff/ranks.h"
#include "gprof-ext/cmdline.h"
#include "gprof-ext/input_check.h"
#include "gprof-ext/operands.h"
#include "gprof-ext/rank_stats.h"
#include "ranks/heatmap.h"
#include "ranks/rankpaths.h"
#include "export/html_views.h"
#include "ranks/rankstate.h"
#include "ranks/rankstats.h"
#include "gprof-ext/upstream.h"
#include "utils/error.h"
#include "utils/banned.h"

struct mpi_ctx {
	int rank, nprocs;
};

/* Whether any process failed: every process calls it at the same point. */
static int any_failed(int failed)
{
	int any = 0;

	MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
	return any;
}

static int send_buf(const unsigned char *b, size_t len, int to)
{
	uint64_t l = b ? len : UINT64_MAX;

	if (b && len > INT32_MAX)
		l = UINT64_MAX;
	MPI_Send(&l, 1, MPI_UINT64_T, to, 0, MPI_COMM_WORLD);
	if (l == UINT64_MAX)
		return error("a partial result is too large for one message, or missing");
	MPI_Send(b, (int)len, MPI_BYTE, to, 1, MPI_COMM_WORLD);
	return 0;
}

/* A malloc'd buffer from `from`; NULL when the sender failed. */
static unsigned char *recv_buf(int from, size_t *len)
{
	uint64_t l;
	unsigned char *b;

	MPI_Recv(&l, 1, MPI_UINT64_T, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	if (l == UINT64_MAX)
		return NULL;
	b = malloc(l ? l : 1);
	if (!b) {
		error("out of memory");
		MPI_Abort(MPI_COMM_WORLD, 2); /* the sender would block forever */
	}
	MPI_Recv(b, (int)l, MPI_BYTE, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	*len = l;
	return b;
}

/*
 * Binomial tree: in round k, processes with bit k set send their packed
 * partial result to p - 2^k and stop; the others merge what they receive.
 * A process that fails sends "missing", and its receiver fails too, so the
 * failure reaches process 0 without anyone waiting forever.
 */
struct tree_ops {
	int (*pack)(const void *obj, unsigned char **buf, size_t *len);
	int (*merge_packed)(void *obj, const unsigned char *buf, size_t len);
};

static int tree_reduce(const struct mpi_ctx *m, void *obj, const struct tree_ops *ops,
		       int failed)
{
	int step;

	for (step = 1; step < m->nprocs; step <<= 1) {
		if (m->rank & step) {
			unsigned char *b = NULL;
			size_t len = 0;

			if (!failed && ops->pack(obj, &b, &len) < 0)
				failed = 1;
			if (send_buf(failed ? NULL : b, len, m->rank - step) < 0)
				failed = 1;
			free(b);
			return failed ? -1 : 0;
		}
		if (m->rank + step < m->nprocs) {
			size_t len = 0;
			unsigned char *b = recv_buf(m->rank + step, &len);

			if (!b || (!failed && ops->merge_packed(obj, b, len) < 0))
				failed = 1;
			free(b);
		}
	}
	return failed ? -1 : 0;
}

static int state_pack(const void *obj, unsigned char **buf, size_t *len)
{
	return rankstate_pack(obj, buf, len);
}

static int state_merge_packed(void *obj, const unsigned char *buf, size_t len)
{
	struct rankstate *from;
	int r;

	if (rankstate_unpack(buf, len, "a partial state", &from) < 0)
		return -1;
	r = rankstate_merge(obj, from);
	rankstate_free(from);
	return r;
}

static int pass_pack(const void *obj, unsigned char **buf, size_t *len)
{
	return rankpass_pack(obj, buf, len);
}

static int pass_merge_packed(void *obj, const unsigned char *buf, size_t len)
{
	struct rankpass from;
	int r;

	if (rankpass_unpack(buf, len, "a partial pass", &from) < 0)
		return -1;
	r = rankpass_merge(obj, &from);
	rankpass_release(&from);
	return r;
}

/* Process 0's buffer to everyone; NULL everywhere when process 0 failed. */
static unsigned char *broadcast(const struct mpi_ctx *m, unsigned char *b, size_t *len)
{
	uint64_t l = b && *len <= INT32_MAX ? *len : UINT64_MAX;

	MPI_Bcast(&l, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	if (l == UINT64_MAX) {
		if (m->rank == 0)
			free(b);
		return NULL;
	}
	if (m->rank != 0 && !(b = malloc(l ? l : 1))) {
		error("out of memory");
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Bcast(b, (int)l, MPI_BYTE, 0, MPI_COMM_WORLD);
	*len = l;
	return b;
}

/*
 * The list process 0 makes: the title line, then per rank (in rank order)
 * its gmon file and its tag, as NUL-terminated strings.
 */
struct job_list {
	char *title;
	char **files, **tags;   /* point into blob */
	size_t n;
	int measured;           /* every file has its own sidecar */
	char *blob;
};

static void job_list_release(struct job_list *jl)
{
	free(jl->files);
	free(jl->tags);
	free(jl->blob);
	memset(jl, 0, sizeof(*jl));
}

static unsigned char *make_list(const struct cmdline *cl, size_t *len)
{
	char **files = NULL, title[1024];
	size_t n = 0, i, *order = NULL, at = 0, total;
	struct rank_id *ids = NULL;
	unsigned char *blob = NULL;

	if (gmon_operand_expand_all(cl->operands + 1, cl->noperands - 1, &files, &n) < 0)
		goto out;
	/* a device among them (/dev/zero) would make a loader allocate
	 * gigabytes: a stat each, where gmon_check would read each file */
	for (i = 0; i < n; i++)
		if (input_check(files[i], INPUT_GMON) < 0)
			goto out;
	if (ranks_identify(files, n, &ids) < 0)
		goto out;
	if (!(order = malloc((n ? n : 1) * sizeof(*order)))) {
		error("out of memory");
		goto out;
	}
	ranks_sort(ids, n, order);
	rank_stats_title(title, sizeof(title), cl->operands[0], ids, n);
	/* the list starts with whether every file has its own sidecar (the
	 * one source of every process's ranks), '1' or '0' */
	total = strlen(title) + 3;
	for (i = 0; i < n; i++)
		total += strlen(ids[i].gmon) + strlen(ids[i].tag) + 2;
	if (!(blob = malloc(total))) {
		error("out of memory");
		goto out;
	}
	blob[0] = ranks_paired(ids, n) ? '1' : '0';
	blob[1] = 0;
	memcpy(blob + 2, title, strlen(title) + 1);
	at = strlen(title) + 3;
	for (i = 0; i < n; i++) {
		const struct rank_id *id = &ids[order[i]];

		memcpy(blob + at, id->gmon, strlen(id->gmon) + 1);
		at += strlen(id->gmon) + 1;
		memcpy(blob + at, id->tag, strlen(id->tag) + 1);
		at += strlen(id->tag) + 1;
	}
	*len = at;
out:
	free(order);
	if (ids)
		ranks_free(ids, n);
	operands_free(files, n);
	return blob;
}

static int parse_list(char *blob, size_t len, struct job_list *jl)
{
	size_t at, n = 0, i;

	memset(jl, 0, sizeof(*jl));
	jl->blob = blob;
	for (at = 0; at < len; at++)
		n += blob[at] == 0;
	if (len < 2 || blob[len - 1] != 0 || (n - 2) % 2 != 0 || blob[1] != 0)
		return error("the list of rank files is corrupt");
	n = (n - 2) / 2;
	jl->files = calloc(n ? n : 1, sizeof(char *));
	jl->tags = calloc(n ? n : 1, sizeof(char *));
	if (!jl->files || !jl->tags)
		return error("out of memory");
	jl->measured = blob[0] == '1';
	jl->title = blob + 2;
	at = strlen(jl->title) + 3;
	for (i = 0; i < n; i++) {
		jl->files[i] = blob + at;
		at += strlen(blob + at) + 1;
		jl->tags[i] = blob + at;
		at += strlen(blob + at) + 1;
	}
	jl->n = n;
	return 0;
}

static const char usage_text[] =
	"usage: mpirun -np P egprof-rankstats [--jobs N] [--svg FILE] [--png FILE]\n"
	"           [--html FILE] [--metric EV] [gprof options] APP FILES...|DIR\n"
	"prints gprof --rank-stats's report, read by P processes; --svg/--png draw\n"
	"the heat map, --html writes the report as one HTML file.  See\n"
	"egprof-rankstats(1).\n";

static int usage(const struct mpi_ctx *m)
{
	if (m->rank == 0)
		fputs(usage_text, stderr);
	return 2;
}

/* where[] meets at process 0 as 3 doubles a rank (MPI_Reduce) */
_Static_assert(sizeof(struct time_where) == 3 * sizeof(double), "time_where is 3 doubles");

/* Pass 1 over this process's share: files rank, rank + P, ...; where[i]
 * (jl->n of them) set for those files, TIME_WHERE_UNKNOWN for the others */
static int read_share(const struct mpi_ctx *m, const struct cmdline *cl, const char *argv0,
		      int jobs, const char *metric, const struct job_list *jl,
		      struct rankstate *st, FILE *spill, struct rankpaths_syms *syms,
		      struct time_where *where)
{
	struct rank_stats_read_opts ro;
	size_t k = 0, i;
	char **files = malloc((jl->n / (size_t)m->nprocs + 1) * sizeof(char *));
	uint64_t *rank_of = malloc((jl->n / (size_t)m->nprocs + 1) * sizeof(uint64_t));
	int r = 0;

	if (!files || !rank_of) {
		r = error("out of memory");
		goto out;
	}
	for (i = (size_t)m->rank; i < jl->n; i += (size_t)m->nprocs) {
		files[k] = jl->files[i];
		rank_of[k++] = i;
	}
	memset(&ro, 0, sizeof(ro));
	ro.argv0 = argv0;
	ro.jobs = jobs;
	ro.measured = jl->measured;
	ro.metric = metric;
	ro.syms = m->rank == 0 ? syms : NULL;
	ro.where = where;
	if (k)
		r = rank_stats_read(cl, &ro, files, rank_of, k, st, spill);
out:
	free(files);
	free(rank_of);
	return r;
}

/* --html: the report as gprof --rank-stats --html writes it */
static int write_html(const struct rankstate *global, const struct rankpass *pass,
		      const struct rankstats *rs, const struct job_list *jl, const char *html)
{
	struct heatmap hm;
	int ret;

	if (!html)
		return 0;
	if (rankstate_heatmap(global, pass, &hm) < 0)
		return -1;
	ret = html_rankstats(NULL, html, rs, jl->title, jl->files, &hm);
	heatmap_release(&hm);
	return ret;
}

static int run(const struct mpi_ctx *m, int argc, char **argv, int jobs, const char *svg,
	       const char *png, const char *html, const char *metric)
{
	static const struct tree_ops state_ops = { state_pack, state_merge_packed };
	static const struct tree_ops pass_ops = { pass_pack, pass_merge_packed };
	struct cmdline cl;
	struct job_list jl;
	struct rankstate *st = NULL, *global = NULL;
	struct rankpass pass;
	struct rankstats *rs = NULL;
	unsigned char *b = NULL;
	size_t len = 0;
	FILE *spill = NULL;
	struct rankpaths_syms syms;
	struct time_where *where = NULL;
	int failed = 0, status = 1, r = 0;

	memset(&syms, 0, sizeof(syms));
	memset(&jl, 0, sizeof(jl));
	memset(&pass, 0, sizeof(pass));
	/* Process 0 checks the command line and says what is wrong; the
	 * others split the same argv after it succeeded. */
	if (m->rank == 0)
		failed = rank_stats_split(argc, argv, &cl) < 0;
	if (any_failed(failed))
		return 2;
	if (m->rank != 0 && rank_stats_split(argc, argv, &cl) < 0)
		MPI_Abort(MPI_COMM_WORLD, 2);
	if (m->rank == 0)
		b = make_list(&cl, &len);
	if (!(b = broadcast(m, b, &len)) || parse_list((char *)b, len, &jl) < 0) {
		if (!jl.blob)
			free(b);
		goto out;
	}
	failed = !(where = malloc((jl.n ? jl.n : 1) * sizeof(*where))) ||
		 !(st = rankstate_new(jl.n)) || !(spill = tmpfile());
	if (failed)
		error("cannot create a temporary file: %s", strerror(errno));
	else {
		for (size_t k = 0; k < jl.n; k++)
			where[k] = TIME_WHERE_UNKNOWN;
		r = read_share(m, &cl, argv[0], jobs, metric, &jl, st, spill, &syms, where);
		failed = r < 0;
	}
	if (any_failed(failed))
		goto out;
	if (any_failed(r > 0)) {
		/* a rank's sidecar cannot be read (its reader said which):
		 * every process reads its share again, every rank from its
		 * gmon file, as gprof --rank-stats does */
		rankstate_free(st);
		fclose(spill);
		spill = NULL;
		jl.measured = 0;
		failed = !(st = rankstate_new(jl.n)) || !(spill = tmpfile());
		if (failed)
			error("cannot create a temporary file: %s", strerror(errno));
		else
			failed = read_share(m, &cl, argv[0], jobs, metric, &jl, st, spill, &syms,
					    where) < 0;
		if (any_failed(failed))
			goto out;
	}
	/* each rank's numbers were set by the one process that read it, -1
	 * (unknown) everywhere else; seconds are never negative: the maximum
	 * is the reader's */
	if (jl.n > (size_t)INT_MAX / 3 ||
	    MPI_Reduce(m->rank == 0 ? MPI_IN_PLACE : where, where, (int)(3 * jl.n), MPI_DOUBLE,
		       MPI_MAX, 0, MPI_COMM_WORLD) != MPI_SUCCESS)
		MPI_Abort(MPI_COMM_WORLD, 1);

	if (tree_reduce(m, st, &state_ops, 0) < 0)
		failed = 1;
	b = NULL;
	if (m->rank == 0 && !failed && rankstate_pack(st, &b, &len) < 0)
		failed = 1;
	if (!(b = broadcast(m, m->rank == 0 && !failed ? b : NULL, &len)))
		goto out;
	failed = rankstate_unpack(b, len, "the merged state", &global) < 0 ||
		 rankstate_finish(global) < 0 || rankpass_init(&pass, global) < 0 ||
		 rankstate_pass2(global, st, spill, &pass) < 0;
	free(b);
	if (any_failed(failed))
		goto out;
	if (tree_reduce(m, &pass, &pass_ops, 0) < 0)
		failed = 1;
	if (m->rank == 0 && !failed) {
		struct rankstats_opts ropts = RANKSTATS_OPTS_INIT;
		char title[1200];

		/* --metric EV: gprof --rank-stats --metric's title and units */
		snprintf(title, sizeof(title), "%s", jl.title);
		if (metric)
			rank_stats_metric_title(title, sizeof(title), metric);
		else if (jl.measured)
			rank_stats_source_title(title, sizeof(title), global->hz);
		ropts.unit = metric;
		if (rankstate_report(global, &pass, jl.tags, &rs) == 0)
			for (size_t k = 0; k < jl.n; k++) {
				rs->ranks[k].lib_s = where[k].libraries;
				rs->ranks[k].instr_s = where[k].instrumentation;
				rs->ranks[k].sampled_s = where[k].total;
			}
		if (!rs ||
		    rankpaths_fill(rs, jl.files, &syms, ropts.summary_items) < 0 ||
		    rank_stats_heatmaps(global, &pass, NULL, svg, png, title) < 0 ||
		    write_html(global, &pass, rs, &jl, html) < 0)
			goto out;
		ropts.files = jl.files;
		rankstats_print(stdout, rs, &ropts, title);
		if (fflush(stdout) != 0) {
			error("cannot write the report: %s", "write error on standard output");
			goto out;
		}
	}
	status = failed;
out:
	rankstats_free(rs);
	rankpaths_syms_release(&syms);
	rankpass_release(&pass);
	rankstate_free(global);
	rankstate_free(st);
	free(where);
	if (spill)
		fclose(spill);
	job_list_release(&jl);
	cmdline_release(&cl);
	return status;
}

int main(int argc, char **argv)
{
	struct mpi_ctx m;
	const char *svg = NULL, *png = NULL, *html = NULL, *metric = NULL;
	int jobs = 1, status, shift = 0;

	/* before MPI: `egprof-rankstats --help` works without mpirun */
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "--version"))) {
		if (argv[1][2] == 'h')
			fputs(usage_text, stdout);
		else
			printf("egprof-rankstats (egprof) %s\n", EGPROF_VERSION);
		return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
	}
	MPI_Init(&argc, &argv);
	error_set_program("egprof-rankstats");
	MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &m.nprocs);
	/* our options first, in any order; the rest is gprof's */
	while (argc - shift > 2) {
		const char *a = argv[shift + 1];

		if (!strcmp(a, "--jobs"))
			jobs = atoi(argv[shift + 2]);
		else if (!strcmp(a, "--svg"))
			svg = argv[shift + 2];
		else if (!strcmp(a, "--png"))
			png = argv[shift + 2];
		else if (!strcmp(a, "--html"))
			html = argv[shift + 2];
		else if (!strcmp(a, "--metric"))
			metric = strcmp(argv[shift + 2], "time") ? argv[shift + 2] : NULL;
		else
			break;
		shift += 2;
	}
	if (argc - shift < 3 || jobs < 1 || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "--help")) {
		status = usage(&m);
	} else {
		/* the loader, forked before the rank files are listed: its
		 * workers' forks copy a small process (gprof-ext/upstream.h) */
		upstream_load_prefork();
		argv[shift] = argv[0];
		status = run(&m, argc - shift, argv + shift, jobs, svg, png, html, metric);
		upstream_load_prefork_cancel();
	}
	MPI_Finalize();
	return status;
}
