#ifndef EGPROF_MODEL_RUN_H
#define EGPROF_MODEL_RUN_H
/*
 * run.h - one run of a program, loaded once: what gprof computed from its
 * gmon files (through the adapter, gprof-ext/upstream.h), the calling
 * contexts its call-path sidecars recorded (each sidecar read once, through
 * the one sidecar reader, format/sidecar.h, and named once through the
 * binary's symbols), its files' MPI ranks, and its functions in the metric
 * the views show (model/measured.h).  A run is one side of --diff, or the
 * profile of plain gprof with extension outputs; the analysis
 * (model/analysis.h) reads runs, the views read the analysis, and neither
 * opens a file.
 *
 *   struct run r[2];
 *   run_init(&r[0], "app", "gmon.out");  run_init(&r[1], "app", "dir/");
 *   run_load(r, 2, &opts);       both sides' loaders at once; sidecars
 *   ... analysis_build(...) ...
 *   run_release(&r[0]); run_release(&r[1]);
 *
 * or, for plain gprof (upstream ran in this process):
 *
 *   run_init(&r, binary, NULL);  run_adopt(&r, profile, &opts);
 *
 * Ownership: a run owns everything it points to except binary and
 * operand (the command line's).
 */
#include <stddef.h>

#include "model/callpath_model.h"	/* struct callpath_symopts */
#include "model/where.h"

struct profile;
struct callpath_model;
struct upstream_job;

struct run_load_opts {
	const char *argv0;          /* upstream's messages name it */
	char *const *gprof_args;    /* the user's gprof options, no operands */
	size_t nargs;
	int force;                  /* --force: files of another run are read */
	int jobs;                   /* files read at once */
	/* the noise model wants each file of a side of several (a directory
	 * of repeated runs or ranks) alone too */
	int each;
	/* the paths' values: an event (--metric NAME), NULL for time */
	const char *metric;
	/* call sites named by file and line as gprof's -l/-L say (plain gprof,
	 * after upstream ran here: upstream.h's upstream_line_options) */
	int lines;
	/* --callpath=FILE: the sidecar of a single run, named by the user */
	const char *sidecar;
	/* a file without its sidecar is an error (--callpath), not a run
	 * without call paths */
	int paths_required;
	int clones;                 /* GCC clones folded (the diff's view) */
	/* keep the sidecars' sampled program counters (model/lines.h) as
	 * they are read: a view asks for source lines */
	int line_pcs;
	/* the sum of the sidecars themselves is kept (run.sidecar), for a
	 * view of metrics the paths do not hold (--callpath --metric LIST) */
	int keep_sidecars;
};

struct run {
	const char *binary;         /* the image, as given */
	const char *operand;        /* the gmon operand (a file or a
				       directory), as given; NULL: plain gprof's */
	char **files;               /* the gmon files (a directory expanded) */
	size_t nfiles;
	int is_dir;
	char *label;                /* "app gmon.out", "app dir (3 gmon files)" */
	/* each file's MPI rank from its sidecar, -1 when unknown */
	int *rank;

	/* gmon.out as upstream computed it: the sum of the files, and with
	 * opts.each each file's (nfiles of them, symbol i the same function
	 * in each) */
	struct profile *gmon;
	struct profile **gmon_each;
	size_t neach;

	/* The calling contexts of every file's sidecar, summed, in the metric
	 * asked for; NULL when a file has none.  paths_each[i]: file i's
	 * alone (opts.each).  paths_source names them ("gmon.out.callpath",
	 * "dir/gmon.1.callpath and 3 more"). */
	struct callpath_model *paths;
	struct callpath_model **paths_each;
	char *paths_source;
	/* The sidecars' sampled program counters, summed (opts.line_pcs),
	 * for the run's source lines (model/lines.h); NULL otherwise */
	struct line_pcs *pcs;
	/* with opts.keep_sidecars: the files' sidecars summed as read (every
	 * metric they recorded, unnamed), NULL otherwise */
	struct sidecar *sidecar;

	/* private: the loader jobs (gprof-ext/upstream.h) */
	struct upstream_job *job_sum, *job_each;
	int shared;                 /* job_sum serves both runs of a pair */
};

/* An empty run of `binary` and a gmon operand (NULL: set later). */
void run_init(struct run *r, const char *binary, const char *operand);

/*
 * Load n runs (1 or 2): check and expand their operands, start upstream's
 * loaders for all of them at once (one loader for both when they are one
 * file each of one binary), wait, check that each gmon file belongs to its
 * binary, then read the sidecars.  0, or -1 after reporting.
 */
int run_load(struct run *r, size_t n, const struct run_load_opts *opts);

/*
 * Plain gprof: the profile upstream computed in this process (taken over;
 * its gmon_files are the run's files), then its sidecars.  0, or -1 after
 * reporting.
 */
int run_adopt(struct run *r, struct profile *p, const struct run_load_opts *opts);

/* How the run's sidecars name functions and call sites: as gprof names
 * them in its gmon profile (demangled or not), with lines when asked
 * (plain gprof only: upstream's -l/-L), the values of `metric` (NULL:
 * time). */
struct callpath_symopts run_symopts(const struct run *r, int lines, const char *metric);

/* Whether the run's paths measured time (or the event): samples were
 * taken and placed in its calling contexts. */
int run_paths_timed(const struct run *r);

/*
 * --short-names: the run's functions and calling contexts named through
 * nm (utils/names.h), the one map of the command, so that every view
 * names a function alike and the views still join the gmon profile's
 * names with the paths'.  0, or -1 (reported).
 */
struct name_map;
int run_shorten_names(struct run *r, struct name_map *nm);

void run_release(struct run *r);

/*
 * For statistics over many files (--rank-stats), one file at a time, each
 * sidecar read once: the file's functions as its sidecar measured them
 * (model/measured.h, in `metric`, NULL for time), named through `gmon`,
 * the profile upstream computed for that file of `binary`; with `like`,
 * in like's symbols and order (measured.h: files of one run compared
 * symbol by symbol, --interval's cumulative snapshots).  out->functions
 * NULL when the file has no sidecar or (out->unreadable says) one that
 * cannot be read.  0, or -1 after reporting (a sidecar that belongs to
 * another run or binary, a metric it lacks).
 */
struct run_file {
	struct profile *functions;  /* the caller's to free */
	uint64_t written_ns;        /* when the runtime wrote it; 0: unknown */
	struct time_where where;    /* where its time went (model/where.h) */
	/* "" or, with functions NULL and 0 returned, why its sidecar could
	 * not be read (damaged, truncated), naming it: not reported */
	char unreadable[4200];
};
int run_file_functions(const struct profile *gmon, const char *binary, const char *file,
		       const char *metric, int force, const struct profile *like,
		       struct run_file *out);
/* Where the time of `file`'s run went, from its sidecar alone, for files
 * whose functions come from gmon.out (run_file_functions gives it
 * otherwise): TIME_WHERE_UNKNOWN without a readable sidecar of that gmon
 * file.  Never fails. */
struct time_where run_file_where(const char *file);
/* When each file's sidecar says it was written (ns; 0 for a file without
 * a readable one), for files whose functions come from gmon.out: the
 * sidecars beside some of them read for that alone.  0 (never fails). */
int run_files_written(char *const *files, size_t n, uint64_t *written);

/* Whether every one of the files has a sidecar beside it (n > 0). */
int run_files_have_sidecars(char *const *files, size_t n);

#endif
