#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gprof-ext/options.h"
#include "gprof-ext/upstream.h"
#include "diff/diff.h"
#include "diff/gate.h"
#include "gml/graph.h"
#include "export/table.h"
#include "utils/error.h"
#include "utils/banned.h"

/* configure's --docdir, set for this file by gprof-ext/module.mk */
#ifndef EGPROF_DOCDIR
#define EGPROF_DOCDIR "/usr/local/share/doc/egprof"
#endif

enum arg_kind { ARG_NONE, ARG_REQUIRED, ARG_OPTIONAL };

enum option_id {
	OPT_DIFF,
	OPT_EXTENDED,
	OPT_NOISE,
	OPT_GML,
	OPT_DOT,
	OPT_GRAPHML,
	OPT_NODE_THRES,
	OPT_EDGE_THRES,
	OPT_NO_NODE_SIZE,
	OPT_CALLPATH,
	OPT_FOLDED,
	OPT_FOLDED_CALLS,
	OPT_FLAMEGRAPH,
	OPT_FLAMEGRAPH_MIN_WIDTH,
	OPT_SHORT_NAMES,
	OPT_ALL_PATHS,
	OPT_RANK_STATS,
	OPT_INTERVAL,
	OPT_FOLLOW,
	OPT_PROGRESS,
	OPT_JOBS,
	OPT_SORT,
	OPT_RATIO,
	OPT_FORCE,
	OPT_SVG,
	OPT_PNG,
	OPT_FOCUS,
	OPT_ROOT,
	OPT_DEPTH,
	OPT_FORMAT,
	OPT_EXCLUDE,
	OPT_PPROF,
	OPT_HTML,
	OPT_METRIC,
	OPT_FAIL_ON,
	OPT_LIST_OPTIONS,
};

struct option_spec {
	enum option_id id;
	const char *name;
	enum arg_kind arg;
	const char *argname;
	const char *help;     /* lines of at most HELP_TEXT_COLS columns */
	const char *section;  /* --help: a heading before this option */
	const char *values;   /* the words the argument may be, for shell
				 completion (the parser's own list: a test
				 checks each is accepted), or NULL */
};

/* The one table: parsing, abbreviations, --help and --list-options come
 * from it, and the test suite checks that egprof(1) and README.md name
 * every option in it.  --help is 80 columns: a help line holds
 * HELP_TEXT_COLS, after the option's HELP_HEAD_COLS. */
#define HELP_HEAD_COLS 24
#define HELP_TEXT_COLS (80 - 2 - HELP_HEAD_COLS - 1)
static const struct option_spec table[] = {
	{ OPT_DIFF, "diff", ARG_NONE, NULL,
	  "APP1 GMON1 APP2 GMON2 (or APP GMON1 GMON2): the\n"
	  "first run minus the second, its differences\n"
	  "judged against noise; a GMON may be a directory;\n"
	  "with -l line by line, with -A[FUNCTION] the\n"
	  "changed functions' annotated source",
	  "Comparing two runs", NULL },
	{ OPT_EXTENDED, "extended", ARG_NONE, NULL,
	  "with --diff: both runs side by side, then the\n"
	  "difference", NULL, NULL },
	{ OPT_NOISE, "noise", ARG_REQUIRED, "K",
	  "with --diff: a difference is significant beyond\n"
	  "K standard deviations of the noise (default 2)", NULL, NULL },
	{ OPT_SORT, "sort", ARG_REQUIRED, "KEY",
	  "with --diff: rows by impact (the default), abs,\n"
	  "ratio, calls or name", NULL, "impact abs ratio calls name" },
	{ OPT_RATIO, "ratio", ARG_NONE, NULL,
	  "with --diff: a column of the second run's self\n"
	  "time in percent of the baseline's", NULL, NULL },
	{ OPT_FAIL_ON, "fail-on", ARG_REQUIRED, "EXPR",
	  "with --diff: exit with status 3 when a significant\n"
	  "difference crosses EXPR: slowdown, any,\n"
	  "function>10%, function>0.5s, total>2%, or\n"
	  "function:NAME>5%; several joined by commas", NULL,
	  "slowdown any function>10% function>0.5s total>2% total>1s" },
	{ OPT_FORCE, "force", ARG_NONE, NULL,
	  "read gmon files that do not belong to the binary\n"
	  "(another program or build) instead of refusing", NULL, NULL },
	{ OPT_GML, "gml", ARG_REQUIRED, "FILE",
	  "write the call graph as GML for yEd", "Call graphs", NULL },
	{ OPT_DOT, "dot", ARG_REQUIRED, "FILE",
	  "write the call graph as Graphviz DOT", NULL, NULL },
	{ OPT_GRAPHML, "graphml", ARG_REQUIRED, "FILE",
	  "write the call graph as GraphML (yEd, networkx)", NULL, NULL },
	{ OPT_SVG, "svg", ARG_REQUIRED, "FILE",
	  "draw the call graph as SVG; with --rank-stats,\n"
	  "the imbalance heat map", NULL, NULL },
	{ OPT_PNG, "png", ARG_REQUIRED, "FILE",
	  "the same drawing as PNG", NULL, NULL },
	{ OPT_NODE_THRES, "node-thres", ARG_REQUIRED, "PCT",
	  "leave out functions under PCT% of the total time\n"
	  "(of the total change in a diff); default 0.5", NULL, NULL },
	{ OPT_EDGE_THRES, "edge-thres", ARG_REQUIRED, "PCT",
	  "leave out calls carrying under PCT% (default 0.1)", NULL, NULL },
	{ OPT_NO_NODE_SIZE, "no-node-size", ARG_NONE, NULL,
	  "draw every function the same size", NULL, NULL },
	{ OPT_FOCUS, "focus", ARG_REQUIRED, "FUNC",
	  "only the paths through FUNC (its callers' chains\n"
	  "and its callees)", "Part of a program (graphs, folded, pprof, HTML, JSON)", NULL },
	{ OPT_ROOT, "root", ARG_REQUIRED, "FUNC",
	  "only FUNC and its callees", NULL, NULL },
	{ OPT_DEPTH, "depth", ARG_REQUIRED, "N",
	  "only functions at most N calls from FUNC (or\n"
	  "from the uncalled functions)", NULL, NULL },
	{ OPT_EXCLUDE, "exclude", ARG_REQUIRED, "FUNC",
	  "leave out FUNC and what only it calls; may be\n"
	  "given several times", NULL, NULL },
	{ OPT_CALLPATH, "callpath", ARG_OPTIONAL, "FILE",
	  "call-path profile from GMON.callpath (or FILE),\n"
	  "written by programs run with libcallpath",
	  "Call paths (programs run with libcallpath)", NULL },
	{ OPT_FOLDED, "folded", ARG_REQUIRED, "FILE",
	  "write folded stacks of time (speedscope,\n"
	  "flamegraph.pl)", NULL, NULL },
	{ OPT_FOLDED_CALLS, "folded-calls", ARG_REQUIRED, "FILE",
	  "write folded stacks of call counts", NULL, NULL },
	{ OPT_FLAMEGRAPH, "flamegraph", ARG_REQUIRED, "FILE",
	  "write an interactive flame graph (SVG: search,\n"
	  "zoom; a diff coloured by change)", NULL, NULL },
	{ OPT_FLAMEGRAPH_MIN_WIDTH, "flamegraph-min-width", ARG_REQUIRED, "PX",
	  "--flamegraph: merge frames narrower than PX\n"
	  "pixels of 1200 (default 0.1)", NULL, NULL },
	{ OPT_SHORT_NAMES, "short-names", ARG_NONE, NULL,
	  "C++ names without template arguments in every\n"
	  "output (std::vector<\xe2\x80\xa6>::push_back); distinct\n"
	  "functions stay distinct", NULL, NULL },
	{ OPT_ALL_PATHS, "all-paths", ARG_NONE, NULL,
	  "--callpath: every path and calling context\n"
	  "(by default each function's paths covering 95%\n"
	  "of its time, at most 20, and the tree's nodes\n"
	  "over 0.5%; the rest counted)", NULL, NULL },
	{ OPT_METRIC, "metric", ARG_REQUIRED, "NAME",
	  "show time (the default) or an event the run\n"
	  "counted (CALLPATH_EVENTS), e.g. PAPI_L1_DCM", NULL, NULL },
	{ OPT_PPROF, "pprof", ARG_REQUIRED, "FILE",
	  "write pprof's profile.proto, gzipped (go tool\n"
	  "pprof, speedscope, Perfetto)", "Other outputs and modes", NULL },
	{ OPT_HTML, "html", ARG_REQUIRED, "FILE",
	  "write a self-contained HTML report: tables, flame\n"
	  "graph, call graph, rank heat map", NULL, NULL },
	{ OPT_FORMAT, "format", ARG_REQUIRED, "FMT",
	  "results of --diff, --rank-stats or --callpath as\n"
	  "json or csv on stdout; markdown: a --diff's\n"
	  "summary for CI logs and pull requests", NULL, "text json csv markdown" },
	{ OPT_RANK_STATS, "rank-stats", ARG_NONE, NULL,
	  "APP FILES...|DIR: each function across MPI ranks", NULL, NULL },
	{ OPT_INTERVAL, "interval", ARG_NONE, NULL,
	  "APP GMON.snap1 GMON.snap2 ... [GMON]: the run\n"
	  "interval by interval, from libcallpath's snapshots", NULL, NULL },
	{ OPT_FOLLOW, "follow", ARG_OPTIONAL, "SECONDS",
	  "APP GMON: a running program's newest interval\n"
	  "every SECONDS (2), until GMON is written", NULL, NULL },
	{ OPT_PROGRESS, "progress", ARG_NONE, NULL,
	  "with --rank-stats: progress lines on stderr even\n"
	  "when it is not a terminal (batch jobs' logs)", NULL, NULL },
	{ OPT_JOBS, "jobs", ARG_REQUIRED, "N",
	  "read up to N profile files at once (default: the\n"
	  "number of CPUs)", NULL, NULL },
	{ OPT_LIST_OPTIONS, "list-options", ARG_NONE, NULL,
	  "print every long option, ours and gprof's, one a\n"
	  "line (for shell completion)", NULL, NULL },
};

#define NOPTIONS (sizeof(table) / sizeof(table[0]))

/* One loader process per CPU, but never a crowd of them on a large node:
 * each holds the program's symbols. */
static int default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

void options_init(struct egprof_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = MODE_GPROF;
	o->noise_sigmas = 2.0;
	o->node_thres = GRAPH_NODE_THRES_DEFAULT;
	o->edge_thres = GRAPH_EDGE_THRES_DEFAULT;
	o->depth = -1;
	o->jobs = default_jobs();
	o->follow_secs = 2;
}

void options_release(struct egprof_opts *o)
{
	free(o->argv);
	o->argv = NULL;
	free(o->exclude);
	o->exclude = NULL;
	o->nexclude = 0;
	gate_free(o->gate);
	o->gate = NULL;
}

static int parse_number(const char *opt, const char *arg, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(v) || v < lo || v > hi)
		return error("option '--%s' needs a number from %g to %g, not '%s'",
			     opt, lo, hi, arg);
	*out = v;
	return 0;
}

static int apply(struct egprof_opts *o, const struct option_spec *s, const char *arg)
{
	double v;

	switch (s->id) {
	case OPT_DIFF:
		if (o->mode == MODE_RANK_STATS)
			return error("--diff and --rank-stats cannot be combined");
		if (o->mode != MODE_GPROF && o->mode != MODE_DIFF)
			return error("--diff cannot be combined with --interval or --follow");
		o->mode = MODE_DIFF;
		return 0;
	case OPT_RANK_STATS:
		if (o->mode == MODE_DIFF)
			return error("--diff and --rank-stats cannot be combined");
		if (o->mode != MODE_GPROF && o->mode != MODE_RANK_STATS)
			return error("--rank-stats cannot be combined with --interval or --follow");
		o->mode = MODE_RANK_STATS;
		return 0;
	case OPT_INTERVAL:
	case OPT_FOLLOW:
		if (o->mode != MODE_GPROF &&
		    o->mode != (s->id == OPT_INTERVAL ? MODE_INTERVAL : MODE_FOLLOW))
			return error("--%s cannot be combined with --diff, --rank-stats, "
				     "--interval or --follow", s->name);
		o->mode = s->id == OPT_INTERVAL ? MODE_INTERVAL : MODE_FOLLOW;
		if (s->id == OPT_FOLLOW && arg)
			return parse_number(s->name, arg, 0.1, 86400, &o->follow_secs);
		return 0;
	case OPT_EXTENDED:
		o->extended = 1;
		return 0;
	case OPT_NOISE:
		return parse_number(s->name, arg, 0, 1000, &o->noise_sigmas);
	case OPT_GML:
		o->gml_path = arg;
		return 0;
	case OPT_DOT:
		o->dot_path = arg;
		return 0;
	case OPT_GRAPHML:
		o->graphml_path = arg;
		return 0;
	case OPT_NODE_THRES:
		return parse_number(s->name, arg, 0, 100, &o->node_thres);
	case OPT_EDGE_THRES:
		return parse_number(s->name, arg, 0, 100, &o->edge_thres);
	case OPT_NO_NODE_SIZE:
		o->no_node_size = 1;
		return 0;
	case OPT_CALLPATH:
		o->callpath = 1;
		o->callpath_file = arg;
		return 0;
	case OPT_FOLDED:
		o->folded_path = arg;
		return 0;
	case OPT_FOLDED_CALLS:
		o->folded_calls_path = arg;
		return 0;
	case OPT_FLAMEGRAPH:
		o->flamegraph_path = arg;
		return 0;
	case OPT_FLAMEGRAPH_MIN_WIDTH:
		return parse_number(s->name, arg, 0.001, 1200, &o->flamegraph_min_width);
	case OPT_SHORT_NAMES:
		o->short_names = 1;
		return 0;
	case OPT_ALL_PATHS:
		o->all_paths = 1;
		return 0;
	case OPT_METRIC:
		o->metric = arg;
		return 0;
	case OPT_PROGRESS:
		o->progress = 1;
		return 0;
	case OPT_SORT:
		if ((o->diff_sort = diff_sort_parse(arg)) < 0)
			return error("option '--sort' needs impact, abs, ratio, calls or name, "
				     "not '%s'", arg);
		return 0;
	case OPT_RATIO:
		o->ratio_column = 1;
		return 0;
	case OPT_FORCE:
		o->force = 1;
		return 0;
	case OPT_SVG:
		o->svg_path = arg;
		return 0;
	case OPT_PNG:
		o->png_path = arg;
		return 0;
	case OPT_FOCUS:
		if (o->root)
			return error("--focus and --root cannot be combined");
		o->focus = arg;
		return 0;
	case OPT_ROOT:
		if (o->focus)
			return error("--focus and --root cannot be combined");
		o->root = arg;
		return 0;
	case OPT_DEPTH:
		if (parse_number(s->name, arg, 0, 1000000, &v) < 0)
			return -1;
		if (v != (int)v)
			return error("option '--depth' needs a whole number, not '%s'", arg);
		o->depth = (int)v;
		return 0;
	case OPT_EXCLUDE: {
		const char **n = realloc(o->exclude, (o->nexclude + 1) * sizeof(*n));

		if (!n)
			return error("out of memory");
		o->exclude = n;
		o->exclude[o->nexclude++] = arg;
		return 0;
	}
	case OPT_PPROF:
		o->pprof_path = arg;
		return 0;
	case OPT_HTML:
		o->html_path = arg;
		return 0;
	case OPT_FORMAT:
		if ((o->format = table_format_parse(arg)) < 0)
			return error("option '--format' takes text, json, csv or markdown, "
				     "not '%s'", arg);
		return 0;
	case OPT_FAIL_ON:
		gate_free(o->gate);
		o->gate = NULL;
		return gate_parse(arg, &o->gate);
	case OPT_LIST_OPTIONS:
		o->list_options = 1;
		return 0;
	case OPT_JOBS:
		if (parse_number(s->name, arg, 1, 1024, &v) < 0)
			return -1;
		o->jobs = (int)v;
		return 0;
	}
	return error("internal error: option '--%s' has no handler", s->name);
}

static const struct option_spec *lookup(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < NOPTIONS; i++)
		if (strlen(table[i].name) == len && !strncmp(table[i].name, name, len))
			return &table[i];
	return NULL;
}

/*
 * A long option that is not exactly one of ours is resolved against both
 * tables, ours and upstream's, as getopt_long resolves abbreviations:
 *
 *  - a name upstream knows, exactly or as an abbreviation (even an
 *    ambiguous one), is upstream's: every command line GNU gprof accepts
 *    means what it meant there (--gr is --graph, not --graphml), and its
 *    own messages stay;
 *  - else an abbreviation of exactly one of ours is that option
 *    (--extend, --rank);
 *  - else it is an error that says what to do: the options it could
 *    abbreviate, or the nearest names ("did you mean --folded?"), instead
 *    of upstream's usage, which does not list ours.
 *
 * Upstream's table is read by running upstream's main up to its
 * getopt_long (upstream_option_spec), which allocates: in the process
 * that later runs upstream, that would move upstream's heap (plain gprof's
 * out-of-memory messages count its bytes).  So a child resolves the
 * names and sends one byte per name back through a pipe; the parent
 * allocates nothing for it.
 */
enum resolution { RES_UPSTREAM = 0, RES_ERROR = 255 };
/* a byte 1..NOPTIONS: table[byte - 1] */

struct resolver {
	const struct option *longopts;  /* upstream's table, when this
					   process may read it */
	int fd_out;       /* the child: answers go here; else -1 */
	int fd_in;        /* the parent: the child's answers; -1: none */
	pid_t pid;
};

/* Does `name` (len bytes) abbreviate or name one of upstream's options? */
static int upstream_knows(const struct option *longopts, const char *name, size_t len)
{
	const struct option *p;

	for (p = longopts; p && p->name; p++)
		if (*p->name && !strncmp(p->name, name, len))
			return 1;
	return 0;
}

/* Optimal string alignment distance (an adjacent swap costs 1), at most
 * 64 bytes of each: enough for option names. */
static size_t edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
	size_t d[3][65], i, j;

	if (la > 64)
		la = 64;
	if (lb > 64)
		lb = 64;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		size_t *cur = d[i % 3], *prev = d[(i - 1) % 3], *prev2 = d[(i + 1) % 3];

		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t v = prev[j - 1] + cost;

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
	}
	return d[la % 3][lb];
}

/* Append "'--name'" to a list of suggestions in buf, as "a", "a or b",
 * "a, b or c" once the caller closes it. */
static void list_add(char *buf, size_t n, size_t *count, const char *name)
{
	size_t used = strlen(buf);

	if (used >= n - 1)
		return;
	snprintf(buf + used, n - used, "%s'--%s'", *count ? "\x1f" : "", name);
	(*count)++;
}

/* The separators of a list: ", " between, " or " before the last (the
 * result cut to the buffer's size). */
static void list_close(char *buf, size_t size)
{
	char *last = strrchr(buf, '\x1f'), *p;
	char out[600];
	size_t k = 0;

	for (p = buf; *p && k + 5 < sizeof(out); p++) {
		if (*p != '\x1f') {
			out[k++] = *p;
			continue;
		}
		memcpy(out + k, p == last ? " or " : ", ", p == last ? 4 : 2);
		k += p == last ? 4 : 2;
	}
	if (k >= size)
		k = size - 1;
	out[k] = 0;
	memcpy(buf, out, k + 1);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "'--a', '--b' or '--c'" of names[0..n), sorted, into buf. */
static void name_list(char *buf, size_t size, const char **names, size_t n)
{
	size_t i, count = 0;

	qsort(names, n, sizeof(*names), cmp_names);
	buf[0] = 0;
	for (i = 0; i < n; i++)
		list_add(buf, size, &count, names[i]);
	list_close(buf, size);
}

#define MAX_CANDIDATES 128

/*
 * The child's answer for one "--name[=arg]" (name is len bytes): upstream's,
 * one of ours, or an error it reports here.
 */
static unsigned char resolve_name(const struct option *longopts, const char *arg,
				  const char *name, size_t len)
{
	const struct option *p;
	const char *cand[MAX_CANDIDATES];
	char list[512];
	size_t i, n = 0, best = (size_t)-1;
	const struct option_spec *hit = NULL;

	if (len == 0 || upstream_knows(longopts, name, len))
		return RES_UPSTREAM;
	for (i = 0; i < NOPTIONS && n < MAX_CANDIDATES; i++)
		if (!strncmp(table[i].name, name, len)) {
			hit = &table[i];
			cand[n++] = table[i].name;
		}
	if (n == 1)
		return (unsigned char)(hit - table + 1);
	if (n > 1) {
		name_list(list, sizeof(list), cand, n);
		error("option '%.*s' is ambiguous: %s?", (int)(len + 2), arg, list);
		return RES_ERROR;
	}
	/* the nearest names of both tables, if any is near enough to be a
	 * slip of the fingers: at most a third of the name wrong */
	for (i = 0; i < NOPTIONS; i++) {
		size_t dist = edit_distance(name, len, table[i].name, strlen(table[i].name));

		if (dist < best)
			best = dist;
	}
	for (p = longopts; p && p->name; p++)
		if (*p->name) {
			size_t dist = edit_distance(name, len, p->name, strlen(p->name));

			if (dist < best)
				best = dist;
		}
	if (best * 3 <= len) {
		for (i = 0; i < NOPTIONS && n < MAX_CANDIDATES; i++)
			if (edit_distance(name, len, table[i].name, strlen(table[i].name)) == best)
				cand[n++] = table[i].name;
		for (p = longopts; p && p->name && n < MAX_CANDIDATES; p++)
			if (*p->name && edit_distance(name, len, p->name, strlen(p->name)) == best)
				cand[n++] = p->name;
		name_list(list, sizeof(list), cand, n);
		error("unknown option '%.*s'; did you mean %s? ('%s --help' lists the "
		      "options)", (int)(len + 2), arg, list, error_program());
	} else {
		error("unknown option '%.*s' ('%s --help' lists the options)",
		      (int)(len + 2), arg, error_program());
	}
	return RES_ERROR;
}

/* A long option argument that is not exactly ours: needs the resolver. */
static int needs_resolving(const char *a, size_t *len)
{
	const char *eq;

	if (strncmp(a, "--", 2) != 0 || !a[2])
		return 0;
	eq = strchr(a + 2, '=');
	*len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
	return !lookup(a + 2, *len);
}

static int walk(struct egprof_opts *o, int argc, char **argv, struct resolver *r);

/* The child: resolve, send the answers, exit. */
static void resolver_child(int fd, int argc, char **argv)
{
	const char *optstring;
	struct resolver r = { NULL, fd, -1, 0 };
	struct egprof_opts scratch;

	if (upstream_option_spec(&optstring, &r.longopts) < 0)
		_exit(1);
	options_init(&scratch);
	scratch.argv = calloc((size_t)argc + 1, sizeof(char *));
	if (!scratch.argv)
		_exit(1);
	walk(&scratch, argc, argv, &r);
	_exit(0);
}

/* Start the child when some name needs it; no child (fd_in -1): every
 * such name is left to upstream, as exact names alone were ours before. */
static void resolver_start(struct resolver *r, int argc, char **argv)
{
	int i, fds[2], any = 0;
	size_t len;

	r->longopts = NULL;
	r->fd_out = r->fd_in = -1;
	r->pid = -1;
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0 && !any; i++)
		any = needs_resolving(argv[i], &len);
	if (!any || pipe(fds) < 0)
		return;
	fflush(NULL);
	r->pid = fork();
	if (r->pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (r->pid == 0) {
		close(fds[0]);
		resolver_child(fds[1], argc, argv);
	}
	close(fds[1]);
	r->fd_in = fds[0];
}

static void resolver_finish(struct resolver *r)
{
	int st;

	if (r->fd_in >= 0)
		close(r->fd_in);
	if (r->pid > 0)
		while (waitpid(r->pid, &st, 0) < 0 && errno == EINTR)
			;
	r->fd_in = -1;
	r->pid = -1;
}

/* What a name needing resolution (len bytes after the dashes) is. */
static unsigned char resolve(struct resolver *r, const char *a, size_t len)
{
	unsigned char c;
	ssize_t n;

	if (r->longopts) {
		c = resolve_name(r->longopts, a, a + 2, len);
		if (r->fd_out >= 0 && write(r->fd_out, &c, 1) != 1)
			_exit(1);
		return c;
	}
	if (r->fd_in < 0)
		return RES_UPSTREAM;
	while ((n = read(r->fd_in, &c, 1)) < 0 && errno == EINTR)
		;
	if (n != 1) { /* the child could not tell: upstream decides */
		close(r->fd_in);
		r->fd_in = -1;
		return RES_UPSTREAM;
	}
	return c;
}

static int walk(struct egprof_opts *o, int argc, char **argv, struct resolver *r)
{
	int i;

	o->argc = 0;
	o->argv[o->argc++] = argv[0];
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *eq, *arg = NULL;
		const struct option_spec *s;
		size_t len;

		if (!strcmp(a, "--")) {
			while (i < argc)
				o->argv[o->argc++] = argv[i++];
			break;
		}
		if (strncmp(a, "--", 2) != 0) {
			o->argv[o->argc++] = argv[i];
			continue;
		}
		eq = strchr(a + 2, '=');
		len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
		s = lookup(a + 2, len);
		if (!s && needs_resolving(a, &len)) {
			unsigned char c = resolve(r, a, len);

			if (c == RES_ERROR)
				return -1;
			if (c > 0 && c <= NOPTIONS)
				s = &table[c - 1];
		}
		if (!s) {
			o->argv[o->argc++] = argv[i];
			continue;
		}
		if (eq)
			arg = eq + 1;
		/* the child only resolves: the parent reports the rest */
		if (r->fd_out >= 0 && ((s->arg == ARG_NONE && eq) ||
				       (s->arg == ARG_REQUIRED && !eq && i + 1 >= argc)))
			return -1;
		if (s->arg == ARG_NONE && eq)
			return error("option '--%s' takes no argument", s->name);
		if (s->arg == ARG_REQUIRED && !eq) {
			if (i + 1 >= argc)
				return error("option '--%s' needs an argument (%s)",
					     s->name, s->argname);
			arg = argv[++i];
		}
		if (r->fd_out >= 0)
			continue;
		if (apply(o, s, arg) < 0)
			return -1;
	}
	o->argv[o->argc] = NULL;
	return 0;
}

int options_parse(struct egprof_opts *o, int argc, char **argv)
{
	struct resolver r;
	int ret;

	o->argv = calloc((size_t)argc + 1, sizeof(char *));
	if (!o->argv)
		return error("out of memory");
	resolver_start(&r, argc, argv);
	ret = walk(o, argc, argv, &r);
	resolver_finish(&r);
	return ret;
}

int options_parse_with(struct egprof_opts *o, int argc, char **argv,
		       const struct option *upstream_longopts)
{
	struct resolver r = { upstream_longopts, -1, -1, -1 };

	o->argv = calloc((size_t)argc + 1, sizeof(char *));
	if (!o->argv)
		return error("out of memory");
	return walk(o, argc, argv, &r);
}

/* One option's lines of --help: its head, then its text at column
 * 2 + HELP_HEAD_COLS + 1, on the head's line when the head fits. */
static void help_option(FILE *out, const struct option_spec *s)
{
	char head[64];
	const char *h = s->help;
	int first = 1;

	if (s->arg == ARG_REQUIRED)
		snprintf(head, sizeof(head), "--%s %s", s->name, s->argname);
	else if (s->arg == ARG_OPTIONAL)
		snprintf(head, sizeof(head), "--%s[=%s]", s->name, s->argname);
	else
		snprintf(head, sizeof(head), "--%s", s->name);
	if (strlen(head) > HELP_HEAD_COLS) {
		fprintf(out, "  %s\n", head);
		first = 0;
	}
	while (*h) {
		const char *nl = strchr(h, '\n');
		size_t n = nl ? (size_t)(nl - h) : strlen(h);

		fprintf(out, "  %-*s %.*s\n", HELP_HEAD_COLS, first ? head : "", (int)n, h);
		first = 0;
		h += n;
		if (*h == '\n')
			h++;
	}
}

/*
 * Where the installed pages are: configure's docdir, or the one beside
 * this program's bindir when it was installed under another prefix (make
 * install prefix=...), which is the one a user of that copy can read.
 */
static const char *doc_dir(char *buf, size_t n)
{
	char exe[2048];
	ssize_t k;
	char *slash;

	if (access(EGPROF_DOCDIR "/quickstart.md", R_OK) == 0)
		return EGPROF_DOCDIR;
	k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (k <= 0)
		return EGPROF_DOCDIR;
	exe[k] = 0;
	/* PREFIX/bin/gprof -> PREFIX */
	if ((slash = strrchr(exe, '/')))
		*slash = 0;
	if ((slash = strrchr(exe, '/')))
		*slash = 0;
	if (snprintf(buf, n, "%s/share/doc/egprof/quickstart.md", exe) < (int)n &&
	    access(buf, R_OK) == 0) {
		buf[strlen(buf) - strlen("/quickstart.md")] = 0;
		return buf;
	}
	return EGPROF_DOCDIR;
}

void options_help(FILE *out)
{
	char docbuf[4096];
	size_t i;

	fprintf(out, "\negprof %s extensions:\n", EGPROF_VERSION);
	for (i = 0; i < NOPTIONS; i++) {
		if (table[i].section)
			fprintf(out, "%s%s:\n", i ? "\n" : "", table[i].section);
		help_option(out, &table[i]);
	}
	fputs("\nAbbreviations work when they are unambiguous (--ext is --extended).\n"
	      "\nExamples:\n"
	      "  gprof -b prog gmon.out               gprof's profile (cc -pg prog.c)\n"
	      "  gprof -b --diff old/prog old/gmon.out new/prog new/gmon.out\n"
	      "                                       old minus new, noise marked\n"
	      "  gprof -b prog gmon.out --html r.html  one page for a browser\n"
	      "  gprof --diff --fail-on slowdown --format markdown old/prog old/runs\n"
	      "        new/prog new/runs              CI: exit 3 on a slowdown\n"
	      "  LD_PRELOAD=libcallpath.so.1 ./prog; gprof --callpath prog gmon.out\n"
	      "                                       every calling context\n", out);
	fprintf(out, "\nDocumentation: %s (quickstart.md first),\n"
		"man egprof.  Exit status: 0, 1 on an error, 3 when --fail-on fails.\n",
		doc_dir(docbuf, sizeof(docbuf)));
}

/* --list-options: every long option of both tables, one a line, as
 * "--name" (no argument), "--name=ARG" (one required), "--name[=ARG]"
 * (optional), and the words ARG may be in parentheses: shell completion
 * is generated from it (scripts/gen-completion). */
int options_list(FILE *out)
{
	const char *optstring;
	const struct option *longopts, *p;
	size_t i;

	for (i = 0; i < NOPTIONS; i++) {
		const struct option_spec *s = &table[i];

		fprintf(out, "--%s%s%s%s", s->name, s->arg == ARG_OPTIONAL ? "[=" :
			s->arg == ARG_REQUIRED ? "=" : "", s->arg != ARG_NONE ? s->argname : "",
			s->arg == ARG_OPTIONAL ? "]" : "");
		if (s->values)
			fprintf(out, " (%s)", s->values);
		fputc('\n', out);
	}
	if (upstream_option_spec(&optstring, &longopts) < 0)
		return -1;
	for (p = longopts; p->name; p++)
		if (*p->name)
			fprintf(out, "--%s%s\n", p->name, p->has_arg == required_argument ? "=ARG" :
				p->has_arg == optional_argument ? "[=ARG]" : "");
	return 0;
}
