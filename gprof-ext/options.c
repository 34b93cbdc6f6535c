#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gprof-ext/options.h"
#include "diff/diff.h"
#include "gml/graph.h"
#include "export/table.h"
#include "utils/error.h"
#include "utils/banned.h"

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
	OPT_SHORT_NAMES,
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
};

struct option_spec {
	enum option_id id;
	const char *name;
	enum arg_kind arg;
	const char *argname;
	const char *help;
};

/* The one table: parsing and --help come from it, and the test suite
 * (t501) checks that egprof(1) and README.md name every option in it. */
static const struct option_spec table[] = {
	{ OPT_DIFF, "diff", ARG_NONE, NULL,
	  "APP1 GMON1 APP2 GMON2 (or APP GMON1 GMON2): print the profile of\n"
	  "the first run minus the second; a GMON may be a directory of rank files" },
	{ OPT_EXTENDED, "extended", ARG_NONE, NULL,
	  "with --diff: side-by-side table of both runs and their difference" },
	{ OPT_NOISE, "noise", ARG_REQUIRED, "K",
	  "with --diff: mark differences within K standard deviations of\n"
	  "sampling noise (default 2)" },
	{ OPT_GML, "gml", ARG_REQUIRED, "FILE",
	  "write the call graph as GML for yEd" },
	{ OPT_DOT, "dot", ARG_REQUIRED, "FILE",
	  "write the call graph as Graphviz DOT" },
	{ OPT_GRAPHML, "graphml", ARG_REQUIRED, "FILE",
	  "write the call graph as GraphML (yEd, networkx, Gephi)" },
	{ OPT_SVG, "svg", ARG_REQUIRED, "FILE",
	  "draw the call graph as SVG (graphviz's dot layout); with\n"
	  "--rank-stats, the imbalance heat map (top functions x ranks)" },
	{ OPT_PNG, "png", ARG_REQUIRED, "FILE",
	  "draw the call graph (with --rank-stats: the heat map) as PNG" },
	{ OPT_NODE_THRES, "node-thres", ARG_REQUIRED, "PCT",
	  "graphs: leave out functions whose time is under PCT% of the\n"
	  "total time (diff: of the sum of |self differences|); default 0.5" },
	{ OPT_EDGE_THRES, "edge-thres", ARG_REQUIRED, "PCT",
	  "graphs: leave out calls that pass on under PCT% of the total time\n"
	  "(diff: of the sum of |self differences|); default 0.1" },
	{ OPT_FOCUS, "focus", ARG_REQUIRED, "FUNC",
	  "graphs, folded stacks, pprof, HTML, JSON: only FUNC, its callers'\n"
	  "chains to the roots and its callees (the paths through FUNC)" },
	{ OPT_ROOT, "root", ARG_REQUIRED, "FUNC",
	  "the same outputs: only FUNC and its callees (paths from FUNC)" },
	{ OPT_DEPTH, "depth", ARG_REQUIRED, "N",
	  "the same outputs: only functions at most N calls from\n"
	  "--focus/--root FUNC (or from the uncalled functions)" },
	{ OPT_EXCLUDE, "exclude", ARG_REQUIRED, "FUNC",
	  "the same outputs: leave out FUNC and what is called only\n"
	  "through it (its subtree); may be given several times" },
	{ OPT_NO_NODE_SIZE, "no-node-size", ARG_NONE, NULL,
	  "graphs: draw every function the same size" },
	{ OPT_CALLPATH, "callpath", ARG_OPTIONAL, "FILE",
	  "print call-path profiles from GMON.callpath (or FILE), written\n"
	  "by programs linked with -lcallpath" },
	{ OPT_FOLDED, "folded", ARG_REQUIRED, "FILE",
	  "write call paths as folded stacks of time: the samples measured\n"
	  "on each path (flamegraph.pl, speedscope)" },
	{ OPT_FOLDED_CALLS, "folded-calls", ARG_REQUIRED, "FILE",
	  "write call paths as folded stacks of call counts" },
	{ OPT_SHORT_NAMES, "short-names", ARG_NONE, NULL,
	  "with --callpath, --folded, --folded-calls: C++ names with their\n"
	  "template arguments left out (std::vector<\xe2\x80\xa6>::push_back)" },
	{ OPT_METRIC, "metric", ARG_REQUIRED, "NAME",
	  "what --callpath, --folded, --pprof, --html, --diff's paths and\n"
	  "--rank-stats show: time (the default) or an event the run counted\n"
	  "(CALLPATH_EVENTS), e.g. perf::PAGE-FAULTS, PAPI_L1_DCM" },
	{ OPT_RANK_STATS, "rank-stats", ARG_NONE, NULL,
	  "APP FILES...|DIR: per-function statistics across MPI ranks" },
	{ OPT_INTERVAL, "interval", ARG_NONE, NULL,
	  "APP GMON.snap1 GMON.snap2 ... [GMON]: the run interval by interval,\n"
	  "from libcallpath's cumulative snapshots (doc/snapshots.md)" },
	{ OPT_FOLLOW, "follow", ARG_OPTIONAL, "SECONDS",
	  "APP GMON: while the program runs, print its newest snapshot's last\n"
	  "interval and the run so far, every SECONDS (2), until GMON is written" },
	{ OPT_PPROF, "pprof", ARG_REQUIRED, "FILE",
	  "write the profile (with --diff: the difference) as pprof's\n"
	  "profile.proto, gzipped (pprof, speedscope, Perfetto)" },
	{ OPT_HTML, "html", ARG_REQUIRED, "FILE",
	  "write a self-contained HTML report (a profile, a --diff or\n"
	  "--rank-stats): tables, flame graph, call graph, heat map" },
	{ OPT_PROGRESS, "progress", ARG_NONE, NULL,
	  "with --rank-stats: show progress on stderr also when it is not a\n"
	  "terminal (a line every 10 seconds, for batch jobs' logs)" },
	{ OPT_FORMAT, "format", ARG_REQUIRED, "FMT",
	  "with --diff, --rank-stats or --callpath: print the results as\n"
	  "json or csv on stdout instead of text (see doc/formats.md)" },
	{ OPT_JOBS, "jobs", ARG_REQUIRED, "N",
	  "read up to N profile files at once (default: the number of CPUs)" },
	{ OPT_SORT, "sort", ARG_REQUIRED, "KEY",
	  "with --diff: order rows by impact (significant changes first,\n"
	  "the default), abs (|self diff|), ratio, calls or name" },
	{ OPT_FORCE, "force", ARG_NONE, NULL,
	  "--diff, --rank-stats, graphs: read gmon files that do not belong\n"
	  "to the binary (another program or build) instead of refusing them" },
	{ OPT_RATIO, "ratio", ARG_NONE, NULL,
	  "with --diff: add a column of the second run's self time in\n"
	  "percent of the baseline's" },
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
	case OPT_SHORT_NAMES:
		o->short_names = 1;
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
			return error("option '--format' takes text, json or csv, not '%s'", arg);
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
 * Only exact names are ours: an abbreviation stays upstream's to resolve,
 * so every command line GNU gprof accepts means what it meant.
 */
int options_parse(struct egprof_opts *o, int argc, char **argv)
{
	int i;

	o->argv = calloc((size_t)argc + 1, sizeof(char *));
	if (!o->argv)
		return error("out of memory");
	o->argc = 0;
	o->argv[o->argc++] = argv[0];
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *eq, *arg = NULL;
		const struct option_spec *s;

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
		s = lookup(a + 2, eq ? (size_t)(eq - a - 2) : strlen(a + 2));
		if (!s) {
			o->argv[o->argc++] = argv[i];
			continue;
		}
		if (eq)
			arg = eq + 1;
		if (s->arg == ARG_NONE && eq)
			return error("option '--%s' takes no argument", s->name);
		if (s->arg == ARG_REQUIRED && !eq) {
			if (i + 1 >= argc)
				return error("option '--%s' needs an argument (%s)",
					     s->name, s->argname);
			arg = argv[++i];
		}
		if (apply(o, s, arg) < 0)
			return -1;
	}
	o->argv[o->argc] = NULL;
	return 0;
}

void options_help(FILE *out)
{
	size_t i;

	fprintf(out, "\negprof %s extensions:\n", EGPROF_VERSION);
	for (i = 0; i < NOPTIONS; i++) {
		const struct option_spec *s = &table[i];
		char head[64];
		const char *h = s->help;

		if (s->arg == ARG_REQUIRED)
			snprintf(head, sizeof(head), "--%s %s", s->name, s->argname);
		else if (s->arg == ARG_OPTIONAL)
			snprintf(head, sizeof(head), "--%s[=%s]", s->name, s->argname);
		else
			snprintf(head, sizeof(head), "--%s", s->name);
		fprintf(out, "  %-22s ", head);
		/* Continuation lines of the help text line up under the first. */
		while (*h) {
			const char *nl = strchr(h, '\n');
			size_t n = nl ? (size_t)(nl - h) : strlen(h);

			fprintf(out, "%.*s\n", (int)n, h);
			h += n;
			if (*h == '\n') {
				h++;
				fprintf(out, "  %-22s ", "");
			}
		}
	}
	fprintf(out, "See egprof(1) and doc/ for details.\n");
}
