/*
 * cmd_interval.c - a run's profile interval by interval, from the
 * runtime's cumulative snapshots (issue 26; doc/snapshots.md).
 *
 *   gprof --interval APP GMON.snap1 GMON.snap2 ... [GMON]
 *     one column per interval (start to the first file, then between
 *     consecutive files): each function's self seconds and calls in it,
 *     and how much its time grew from the first interval to the last.
 *   gprof --follow[=SECONDS] APP GMON
 *     while the program runs, every SECONDS (2) the newest snapshot
 *     GMON.snapK: the top functions of its last interval and of the whole
 *     run so far; ends with the run's own GMON once it is written.
 *
 * Each file is read by upstream gprof (the adapter), so a column is what
 * gprof computes for the file minus what it computes for the one before:
 * the differences of cumulative profiles.  Files of one binary share its
 * symbol table, so functions are matched by index (checked by name).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "format/sidecar.h"
#include "diff/profile.h"
#include "gprof-ext/cmdline.h"
#include "gprof-ext/commands.h"
#include "gprof-ext/gmon_check.h"
#include "gprof-ext/input_check.h"
#include "gprof-ext/operands.h"
#include "gprof-ext/upstream.h"
#include "model/run.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/banned.h"

#define TOP 12	/* functions shown */
#define COLUMNS 12	/* intervals shown: more files are taken every k-th */

static const struct cmdline_rule rules[] = {
	{ 'a', NULL, NULL }, { 'c', NULL, NULL }, { 'D', NULL, NULL },
	{ 'k', NULL, NULL }, { 'l', NULL, NULL }, { 'm', NULL, NULL },
	{ 'n', NULL, NULL }, { 'N', NULL, NULL }, { 'p', NULL, NULL },
	{ 'P', NULL, NULL }, { 'q', NULL, NULL }, { 'Q', NULL, NULL },
	{ 'C', NULL, NULL }, { 'z', NULL, NULL }, { 'b', NULL, NULL },
	{ 'T', NULL, NULL }, { 'w', NULL, NULL },
	{ 's', NULL, "it sums gmon files: interval views read each snapshot alone" },
	{ 'S', NULL, NULL },
};

static int split(struct egprof_opts *o, struct cmdline *cl, const char *mode)
{
	if (cmdline_split(cl, o->argc, o->argv) < 0)
		return -1;
	if (cmdline_check(cl, mode, rules, sizeof(rules) / sizeof(rules[0]),
			  "it does not apply to interval views") < 0 ||
	    input_check_cmdline(cl) < 0) {
		cmdline_release(cl);
		return -1;
	}
	return 0;
}

/* Every file read by upstream gprof with the user's options, one profile each. */
static int load(const struct egprof_opts *o, const struct cmdline *cl,
		char *const *files, size_t n, struct profile ***out)
{
	struct upstream_load req;
	struct upstream_job *job;
	size_t got = 0;

	for (size_t i = 0; i < n; i++)
		if (gmon_check(files[i], GMON_CHECK_STRICT) < 0)
			return -1;
	memset(&req, 0, sizeof(req));
	req.argv0 = o->argv[0];
	req.gprof_args = cl->args;
	req.nargs = cl->nargs;
	req.binary = cl->operands[0];
	req.gmon_files = files;
	req.ngmon = n;
	req.each = 1;
	req.jobs = o->jobs;
	req.force = o->force;
	/* one_source reads them all, checking each one's build-id */
	req.sidecars_checked = run_files_have_sidecars(files, n);
	if (upstream_load_start(&req, &job) < 0 ||
	    upstream_load_finish(job, out, &got) < 0)
		return -1;
	if (got != n) {
		for (size_t i = 0; i < got; i++)
			profile_free((*out)[i]);
		free(*out);
		return error("%s: read %zu profiles of %zu", files[0], got, n);
	}
	return 0;
}

static void free_profiles(struct profile **p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		profile_free(p[i]);
	free(p);
}

/* Give p the symbols of `to` it lacks at its end, without samples:
 * from symbol `from` of `to` on. */
static int pad_symbols(struct profile *p, const struct profile *to, size_t from)
{
	for (size_t i = from; i < to->nsyms; i++)
		if (profile_add_named_sym(p, to->syms[i].name, to->syms[i].print_name,
					  to->syms[i].flags) < 0)
			return error("out of memory");
	return 0;
}

/*
 * One source for every file: where each has a call-path sidecar, the
 * functions its sidecar measured (model/run.h: every thread's time,
 * libraries' included), in the last file's symbols (the files are
 * cumulative: the last holds every function); else gmon.out's, as read.
 * *measured says which; written[k], when not NULL, when file k's sidecar
 * says it was written, 0 without one (each sidecar read once, whichever
 * source).  0, or -1 after reporting.
 */
static int one_source(const struct egprof_opts *o, const char *binary, char *const *files,
		      size_t n, struct profile **p, int *measured, uint64_t *written)
{
	struct profile **m;

	*measured = 0;
	if (!run_files_have_sidecars(files, n))
		return written ? run_files_written(files, n, written) : 0;
	if (!(m = calloc(n, sizeof(*m))))
		return error("out of memory");
	for (size_t k = n; k-- > 0;) {
		struct run_file rf;

		if (run_file_functions(p[k], binary, files[k], NULL, o->force,
				       k + 1 < n ? m[n - 1] : NULL, &rf) < 0 || !rf.functions) {
			if (rf.unreadable[0])
				error("%s", rf.unreadable);
			free_profiles(m, n);
			return -1;
		}
		m[k] = rf.functions;
		if (written)
			written[k] = rf.written_ns;
		/*
		 * Names the last file lacks (files that are not snapshots of
		 * one run: a library sampled in an earlier one only) follow
		 * its symbols in file k's profile; the last takes them too,
		 * without samples, so that every profile is the last's, or
		 * the start of it (padded below).
		 */
		if (k + 1 < n && pad_symbols(m[n - 1], m[k], m[n - 1]->nsyms) < 0) {
			free_profiles(m, n);
			return -1;
		}
	}
	for (size_t k = 0; k + 1 < n; k++)
		if (pad_symbols(m[k], m[n - 1], m[k]->nsyms) < 0) {
			free_profiles(m, n);
			return -1;
		}
	for (size_t k = 0; k < n; k++) {
		profile_free(p[k]);
		p[k] = m[k];
	}
	free(m);
	*measured = 1;
	return 0;
}

/* The source of the seconds, said once. */
static void source_line(FILE *out, const struct profile *p, int measured)
{
	if (measured)
		fprintf(out, "(time: call-path samples of each thread, %g Hz; libraries' time in "
			"rows of their own)\n", p->hz);
}

/* The files are of one binary: the same functions in the same order. */
static int same_symbols(const struct profile *a, const struct profile *b,
			const char *fa, const char *fb)
{
	if (a->nsyms != b->nsyms)
		return error("'%s' and '%s' do not have the same functions", fa, fb);
	for (size_t i = 0; i < a->nsyms; i++)
		if (strcmp(a->syms[i].name, b->syms[i].name))
			return error("'%s' and '%s' do not have the same functions "
				     "('%s', '%s')", fa, fb, a->syms[i].name,
				     b->syms[i].name);
	return 0;
}

static double secs(const struct profile *p, size_t i)
{
	return p && p->hz > 0 ? p->syms[i].self_ticks / p->hz : 0;
}

static uint64_t calls(const struct profile *p, size_t i)
{
	return p ? p->syms[i].ncalls + p->syms[i].self_calls : 0;
}

static int is_real(const struct profile *p, size_t i)
{
	return !(p->syms[i].flags & PSYM_CYCLE);
}

/* Indices of the TOP functions by `key` (descending), at most n. */
static size_t top(const struct profile *last, const double *key, size_t *idx)
{
	size_t n = 0;

	for (size_t i = 0; i < last->nsyms; i++) {
		size_t j;

		if (!is_real(last, i) || key[i] <= 0)
			continue;
		if (n == TOP && key[i] <= key[idx[n - 1]])
			continue;
		j = n < TOP ? n++ : n - 1;
		while (j > 0 && key[idx[j - 1]] < key[i]) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = i;
	}
	return n;
}

/* written: when each file's sidecar was written (0: unknown), read when
 * the files were loaded (one_source) */
static int interval_table(FILE *out, struct profile **p, char *const *files, size_t n,
			  int measured, const uint64_t *written)
{
	double *total = calloc(p[n - 1]->nsyms, sizeof(double));
	uint64_t t0 = written[0], tprev = 0;
	size_t idx[TOP], k;
	int fewer = 0;

	if (!total)
		return error("out of memory");
	for (size_t i = 0; i < p[n - 1]->nsyms; i++)
		total[i] = secs(p[n - 1], i) + 1e-9 * (double)calls(p[n - 1], i);
	k = top(p[n - 1], total, idx);
	fprintf(out, "Interval profile: %zu cumulative profiles, %zu intervals (an\n"
		"interval is a file minus the one before it; the first, the first file).\n\n",
		n, n);
	for (size_t c = 0; c < n; c++) {
		uint64_t t = written[c];

		fprintf(out, "  interval %2zu: %s", c + 1, files[c]);
		if (t && t0 && c > 0 && tprev)
			fprintf(out, " (%.2f s after the one before)", (double)(t - tprev) / 1e9);
		fputc('\n', out);
		tprev = t;
	}
	fputs("\nSelf seconds per interval, the top functions of the whole run:\n", out);
	source_line(out, p[n - 1], measured);
	fputc('\n', out);
	for (size_t c = 0; c < n; c++)
		fprintf(out, "%9zu", c + 1);
	fprintf(out, "  %9s  %s\n", "last-1st", "name");
	for (size_t r = 0; r < k; r++) {
		size_t i = idx[r];
		double first = secs(p[0], i), last = n > 1 ? secs(p[n - 1], i) - secs(p[n - 2], i)
							    : first;

		for (size_t c = 0; c < n; c++)
			fprintf(out, "%9.2f", secs(p[c], i) - (c ? secs(p[c - 1], i) : 0));
		fprintf(out, "  %+9.2f  %s\n", last - first, p[n - 1]->syms[i].print_name);
	}
	fputs("\nCalls per interval:\n\n", out);
	for (size_t c = 0; c < n; c++)
		fprintf(out, "%12zu", c + 1);
	fputs("  name\n", out);
	for (size_t r = 0; r < k; r++) {
		size_t i = idx[r];

		for (size_t c = 0; c < n; c++) {
			uint64_t now = calls(p[c], i), before = c ? calls(p[c - 1], i) : 0;

			if (!profile_sym_calls_measured(p[c], &p[c]->syms[i]))
				fprintf(out, "%12s", "-");	/* a library's: never counted */
			else if (now >= before)
				fprintf(out, "%12llu", (unsigned long long)(now - before));
			else {
				fprintf(out, "%12s", "-");
				fewer = 1;
			}
		}
		fprintf(out, "  %s\n", p[n - 1]->syms[i].print_name);
	}
	if (fewer)
		fputs("\n-: the later file counts fewer calls than the one before: glibc's\n"
		      "own gmon.out (the run's end) loses calls of threads that find its\n"
		      "counter busy, which snapshots count (doc/snapshots.md).\n", out);
	free(total);
	return 0;
}

static int check_ours(const struct egprof_opts *o, const char *mode)
{
	if (o->extended || o->gml_path || o->dot_path || o->graphml_path ||
	    o->callpath || o->folded_path || o->folded_calls_path || o->flamegraph_path ||
	    o->pprof_path || o->html_path || o->svg_path || o->png_path || o->format)
		return error("%s prints its own report: it takes no other report option",
			     mode);
	return 0;
}

int cmd_interval(struct egprof_opts *o)
{
	struct cmdline cl;
	char **files = NULL;
	size_t n = 0;
	struct profile **p = NULL;
	uint64_t *written = NULL;
	int status = 1, measured = 0;

	if (check_ours(o, "--interval") < 0 || split(o, &cl, "--interval") < 0)
		return 1;
	if (cl.noperands < 2) {
		error("--interval needs the program and its snapshots: APP GMON.snap1 "
		      "GMON.snap2 ... [GMON]");
		goto out;
	}
	if (gmon_operand_expand_all(cl.operands + 1, cl.noperands - 1, &files, &n) < 0)
		goto out;
	if (n > COLUMNS) {
		/* cumulative files: every k-th (and the last) is the same run
		 * in k-times longer intervals */
		size_t k = (n + COLUMNS - 1) / COLUMNS, m = 0;

		printf("%zu files: every %zu-th is read (and the last), so each interval "
		       "below spans %zu of theirs.\n", n, k, k);
		for (size_t i = 0; i < n; i++) {
			if ((i + 1) % k == 0 || i + 1 == n)
				files[m++] = files[i];
			else
				free(files[i]);
		}
		n = m;
	}
	if (load(o, &cl, files, n, &p) < 0)
		goto out;
	for (size_t i = 1; i < n; i++)
		if (same_symbols(p[0], p[i], files[0], files[i]) < 0)
			goto out;
	if (!(written = calloc(n, sizeof(*written)))) {
		error("out of memory");
		goto out;
	}
	if (one_source(o, cl.operands[0], files, n, p, &measured, written) < 0)
		goto out;
	if (interval_table(stdout, p, files, n, measured, written) == 0)
		status = 0;
out:
	if (p)
		free_profiles(p, n);
	free(written);
	operands_free(files, n);
	cmdline_release(&cl);
	return status;
}

/* ---- --follow ---- */

/* The newest GMON.snapK (K), 0 when there is none. */
static unsigned newest_snapshot(const char *gmon)
{
	char dir[4096], *slash;
	const char *base = gmon;
	size_t blen;
	unsigned best = 0;
	DIR *d;
	struct dirent *de;

	snprintf(dir, sizeof(dir), "%s", gmon);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		base = gmon + (slash - dir) + 1;
	} else {
		snprintf(dir, sizeof(dir), ".");
	}
	blen = strlen(base);
	if (!(d = opendir(dir)))
		return 0;
	while ((de = readdir(d))) {
		const char *s = de->d_name + blen;
		char *end;
		unsigned long k;

		if (strncmp(de->d_name, base, blen) || strncmp(s, ".snap", 5) || !s[5])
			continue;
		errno = 0;
		k = strtoul(s + 5, &end, 10);
		if (!errno && !*end && k > best && k < 1000000000u)
			best = (unsigned)k;
	}
	closedir(d);
	return best;
}

static int mtime_after(const char *a, const char *b)
{
	struct stat sa, sb;

	if (stat(a, &sa) < 0)
		return 0;
	if (stat(b, &sb) < 0)
		return 1;
	return sa.st_mtim.tv_sec > sb.st_mtim.tv_sec ||
	       (sa.st_mtim.tv_sec == sb.st_mtim.tv_sec &&
		sa.st_mtim.tv_nsec >= sb.st_mtim.tv_nsec);
}

/* The top functions of the last interval and of the whole run. */
static int follow_print(const struct egprof_opts *o, const struct cmdline *cl,
			char *prev, char *cur, const char *what)
{
	char *files[2] = { prev, cur };
	size_t n = prev ? 2 : 1, idx[TOP], k;
	struct profile **p = NULL, *a, *b;
	double *key;
	int measured = 0;

	if (load(o, cl, prev ? files : files + 1, n, &p) < 0)
		return -1;
	if (one_source(o, cl->operands[0], prev ? files : files + 1, n, p, &measured, NULL) < 0) {
		free_profiles(p, n);
		return -1;
	}
	a = n == 2 ? p[0] : NULL;
	b = p[n - 1];
	if (a && same_symbols(a, b, prev, cur) < 0) {
		free_profiles(p, n);
		return -1;
	}
	key = calloc(b->nsyms, sizeof(double));
	if (!key) {
		free_profiles(p, n);
		return error("out of memory");
	}
	for (size_t i = 0; i < b->nsyms; i++)
		key[i] = secs(b, i) - (a ? secs(a, i) : 0) +
			 1e-9 * ((double)calls(b, i) - (a ? (double)calls(a, i) : 0));
	k = top(b, key, idx);
	printf("\n== %s: %s%s%s\n", what, cur, prev ? " minus " : "", prev ? prev : "");
	source_line(stdout, b, measured);
	printf("%12s %14s %12s %14s  %s\n", "interval s", "interval calls", "run s",
	       "run calls", "name");
	for (size_t r = 0; r < k; r++) {
		size_t i = idx[r];

		uint64_t cb = calls(b, i), ca = a ? calls(a, i) : 0;

		if (!profile_sym_calls_measured(b, &b->syms[i]))
			/* a library's calls were never counted */
			printf("%12.2f %14s %12.2f %14s  %s\n", secs(b, i) - (a ? secs(a, i) : 0),
			       "-", secs(b, i), "-", b->syms[i].print_name);
		else
			printf("%12.2f %14lld %12.2f %14llu  %s\n", secs(b, i) - (a ? secs(a, i) : 0),
			       cb >= ca ? (long long)(cb - ca) : -(long long)(ca - cb), secs(b, i),
			       (unsigned long long)cb, b->syms[i].print_name);
	}
	if (!k)
		puts("(nothing ran in this interval)");
	fflush(stdout);
	free(key);
	free_profiles(p, n);
	return 0;
}

int cmd_follow(struct egprof_opts *o)
{
	struct cmdline cl;
	const char *gmon;
	char cur[4200], prev[4200];
	unsigned shown = 0;
	int status = 1;

	if (check_ours(o, "--follow") < 0 || split(o, &cl, "--follow") < 0)
		return 1;
	if (cl.noperands != 2) {
		error("--follow needs the program and the gmon file's name: APP GMON "
		      "(its snapshots are GMON.snap1, GMON.snap2, ...)");
		goto out;
	}
	gmon = cl.operands[1];
	for (;;) {
		unsigned k = newest_snapshot(gmon);
		struct timespec ts;

		snprintf(cur, sizeof(cur), "%s.snap%u", gmon, k);
		/* the run's own file, written after its last snapshot: the end */
		if (access(gmon, R_OK) == 0 && (k == 0 || mtime_after(gmon, cur))) {
			snprintf(prev, sizeof(prev), "%s.snap%u", gmon, k);
			if (follow_print(o, &cl, k ? prev : NULL, (char *)gmon,
					 "the run's end") < 0)
				goto out;
			break;
		}
		if (k && k != shown) {
			snprintf(prev, sizeof(prev), "%s.snap%u", gmon, k - 1);
			if (follow_print(o, &cl, k > 1 ? prev : NULL, cur, "snapshot") < 0)
				goto out;
			shown = k;
		}
		ts.tv_sec = (time_t)o->follow_secs;
		ts.tv_nsec = (long)((o->follow_secs - (double)ts.tv_sec) * 1e9);
		nanosleep(&ts, NULL);
	}
	status = 0;
out:
	cmdline_release(&cl);
	return status;
}
