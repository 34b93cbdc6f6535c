#ifndef EGPROF_OPTIONS_H
#define EGPROF_OPTIONS_H
/*
 * egprof's own options.  One table (options.c) drives parsing, --help and
 * defaults.  Everything that is not ours is left in argv for upstream gprof,
 * in its original order, so `gprof` without our options is GNU gprof.
 *
 *   struct egprof_opts o;
 *   options_init(&o);
 *   if (options_parse(&o, argc, argv) < 0) exit(1);
 *   ... o.argc/o.argv is what upstream gets ...
 *   options_release(&o);
 */
#include <stdio.h>
#include "filter/filter.h"

struct outset;
struct gate;
struct option;

enum egprof_mode {
	MODE_GPROF,      /* plain gprof (maybe with exports or call paths) */
	MODE_DIFF,       /* --diff */
	MODE_RANK_STATS, /* --rank-stats */
	MODE_INTERVAL,   /* --interval */
	MODE_FOLLOW,     /* --follow */
};

struct egprof_opts {
	enum egprof_mode mode;
	int extended;              /* --extended: side-by-side diff table */
	const char *gml_path;      /* --gml FILE */
	const char *dot_path;      /* --dot FILE */
	const char *graphml_path;  /* --graphml FILE */
	double node_thres;         /* --node-thres PCT: prune smaller nodes */
	double edge_thres;         /* --edge-thres PCT */
	int no_node_size;          /* --no-node-size: all nodes one size */
	const char *svg_path;      /* --svg FILE: the call graph drawn */
	const char *png_path;      /* --png FILE */
	const char *focus;         /* --focus FUNC */
	const char *root;          /* --root FUNC */
	int depth;                 /* --depth N, -1 when not given */
	const char **exclude;      /* --exclude FUNC, each time given (owned
				      array of pointers into argv) */
	size_t nexclude;
	const char *pprof_path;    /* --pprof FILE: profile.proto, gzipped */
	const char *html_path;     /* --html FILE: the self-contained report */
	int format;                /* --format: enum table_format (export/table.h) */
	int callpath;              /* --callpath[=FILE] */
	const char *callpath_file; /* explicit sidecar, else GMON.callpath */
	const char *folded_path;   /* --folded FILE: time per path */
	const char *folded_calls_path; /* --folded-calls FILE: calls per path */
	const char *flamegraph_path; /* --flamegraph FILE: the SVG flame graph */
	double flamegraph_min_width; /* --flamegraph-min-width PX, 0: default */
	int all_paths;             /* --all-paths: --callpath cuts nothing */
	int short_names;           /* --short-names: C++ template arguments left
				      out of every output's names */
	/* Not an option: with --short-names, the command's one map of short
	 * names (utils/names.h), so that every output names a function
	 * alike; NULL without */
	struct name_map *names;
	const char *metric;        /* --metric NAME: what call-path outputs
				      show (model/metric.h); NULL: time */
	double noise_sigmas;       /* --noise K: |d| < K*sqrt(nA+nB) is noise */
	int jobs;                  /* --jobs N: files read at once (>= 1) */
	int progress;              /* --progress: progress on stderr also when
				      it is not a terminal */
	/* Not an option: the command's planned outputs (utils/outfile.h),
	 * committed together when it succeeds; NULL writes each at once. */
	struct outset *outs;
	int diff_sort;             /* --sort KEY: enum diff_sort_key */
	int ratio_column;          /* --ratio: second/baseline column */
	int force;                 /* --force: no gmon-belongs-to-binary check */
	double follow_secs;        /* --follow=SECONDS: refresh period (2) */
	struct gate *gate;         /* --fail-on EXPR (diff/gate.h), owned;
				      NULL: no gate */
	int list_options;          /* --list-options */
	/* Not an option: set by --diff when the gate failed (main exits
	 * with GATE_EXIT_STATUS once every output is written). */
	int gate_failed;

	/* What upstream gets: argv[0] and every argument that is not ours. */
	int argc;
	char **argv;
};

/* The filter options (filter/filter.h) of the command line. */
static inline struct filter_opts filter_opts_of(const struct egprof_opts *o)
{
	struct filter_opts f = { o->focus, o->root, o->depth, o->exclude, o->nexclude };

	return f;
}

void options_init(struct egprof_opts *o);
/*
 * Our options (and unambiguous abbreviations of them) taken out of argv;
 * the rest is left for upstream in order.  A long option neither table
 * knows is an error naming the nearest options.  0, or -1 after reporting.
 */
int options_parse(struct egprof_opts *o, int argc, char **argv);
/* The same with upstream's option table given (upstream_option_spec), in
 * this process: for tests and the fuzzer.  options_parse reads that table
 * in a child, so that upstream's heap stays stock gprof's. */
int options_parse_with(struct egprof_opts *o, int argc, char **argv,
		       const struct option *upstream_longopts);
void options_release(struct egprof_opts *o);
/* Our section of --help. */
void options_help(FILE *out);
/* --list-options: every long option, ours and upstream's, one a line:
 * "--name", "--name=" (an argument) or "--name[=]" (an optional one).
 * 0, or -1 after reporting. */
int options_list(FILE *out);

#endif
