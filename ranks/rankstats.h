#ifndef EGPROF_RANKSTATS_H
#define EGPROF_RANKSTATS_H
/*
 * Statistics across MPI ranks: one struct profile per rank in, per-function
 * min/mean/max/spread and per-rank outlier scores out.  Works only on the
 * profile model (diff/profile.h), so it is unit-tested without upstream.
 *
 *   struct rankstats *rs;
 *   rankstats_compute(profiles, tags, n, &rs);   profiles[i] is rank tags[i]
 *   rankstats_print(stdout, rs, &opts);
 *   rankstats_free(rs);
 *
 * Definitions (self time in seconds, calls as gprof's "called" + recursive):
 *  - a function "ran" on a rank when it has calls or samples there;
 *  - imbalance = max / mean of self time over all ranks (1.0 is perfect
 *    balance; undefined, printed "-", when no rank has samples);
 *  - cost = imbalance * total self time = n * max: with ranks meeting at a
 *    barrier, every rank waits for the slowest, so this is the CPU time the
 *    function costs the job.  Functions are sorted by cost, then by most
 *    calls, then by name;
 *  - a rank's distance from the others is the total variation distance of
 *    its time shares from the mean shares, plus the same for call shares
 *    (0 = same mix as the average rank, 2 = nothing in common).  Outliers
 *    are the ranks with the largest distance.
 *
 * Functions are matched across ranks by symbol name and source file.
 * Symbols gprof would leave out of the flat profile (-p/-P specs) and
 * symbols with neither calls nor samples on any rank are left out.
 *
 * rankstats_compute() is the one-call form over ranks/rankstate.h (the
 * bounded-memory engine both drivers use), for profiles already in memory.
 *
 * Ownership: a struct rankstats owns copies of every string it shows;
 * the profiles and tags may be freed after rankstats_compute().
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "diff/profile.h"

struct rankstats_fn {
	char *name;         /* print name */
	char *file;         /* source file or NULL */
	unsigned kind;      /* PSYM_KINDS (diff/profile.h): a library's row,
			       whose calls were never counted */
	uint64_t calls_min, calls_max, calls_total;
	size_t calls_min_rank, calls_max_rank; /* indices into ranks[] */
	double self_min, self_mean, self_max, self_sd, self_total; /* seconds */
	size_t self_min_rank, self_max_rank;
	double imbalance;   /* max / mean, 0 when mean is 0 */
	double cost;        /* n * max, seconds */
	double max_ticks, mean_ticks; /* samples: the evidence behind max/mean */
	size_t nran;        /* ranks on which it ran */
	size_t only_rank;   /* with nran == 1: the one rank */
	char **paths;       /* calling contexts carrying the imbalance, each
			       "a>b>f: N calls on rank X, M on rank Y"
			       (ranks/rankpaths.h); NULL when not computed */
	size_t npaths;
};
#define RANKSTATS_PATHS 3   /* calling contexts shown per imbalanced function */

struct rankstats_rank {
	char *tag;          /* short name for columns ("3", "#5") */
	double self;        /* total self seconds */
	uint64_t calls;     /* total calls */
	double time_dist;   /* TVD of time shares from the mean, 0..1 */
	double calls_dist;  /* TVD of call shares from the mean, 0..1 */
	size_t nran;        /* functions that ran here */
	size_t nunique;     /* functions that ran here and on < half the ranks */
	size_t ncalls_differ; /* functions whose calls differ from the median */
	/* where its sampled time went (model/where.h), from its sidecar as
	 * the pass over the files read it: seconds in libraries, in the
	 * instrumentation, in all; -1 when unknown */
	double lib_s, instr_s, sampled_s;
};

struct rankstats {
	size_t nranks;
	struct rankstats_rank *ranks;
	struct rankstats_fn *fns;   /* sorted by cost */
	size_t nfns;
	size_t *outliers;           /* rank indices, most distant first */
	double total_self;          /* seconds, all ranks */
	double hz;                  /* samples per second */
	double weight;              /* a sample's weight, >= 1 (rankstate.h) */
};

struct rankstats_opts {
	size_t max_rank_rows;   /* per-rank table only up to this many ranks */
	size_t summary_items;   /* functions and ranks in the summary */
	char *const *files;     /* per rank, shown in the per-rank table; may be NULL */
	const char *unit;       /* --metric EV: the values are EV's events
				   (model/run.h's run_file_functions); NULL: seconds */
};
#define RANKSTATS_OPTS_INIT { 64, 5, NULL, NULL }

/* The summary calls a function imbalanced only when its slowest rank's
 * excess over the mean is beyond its sampling noise: Poisson deviations
 * (sqrt of its samples), decided as one family over the functions
 * (diff/signif.h) at the two-sided tail of this many deviations, so that
 * the chance of any balanced function being called imbalanced is 4.55%. */
#define RANKSTATS_IMBALANCE_Z 2.0

int rankstats_compute(struct profile *const *profiles, char *const *tags, size_t n,
		      struct rankstats **out);
void rankstats_free(struct rankstats *rs);

/* The statistics of one function, by printed name and file (file NULL: any);
 * NULL when absent.  For the diff's noise rule: self_sd is the spread. */
const struct rankstats_fn *rankstats_find(const struct rankstats *rs,
					  const char *name, const char *file);

/* The functions the summary calls imbalanced, most waited for first
 * (indices into rs->fns, *n of them; the caller frees the array). */
int rankstats_imbalanced(const struct rankstats *rs, size_t **idx, size_t *n);

/*
 * Did any rank count calls?  A gmon file without a call graph (a build
 * without -pg, sampled) counts none, and its calls are not measured: the
 * report and the JSON show them as such ("-", null), never as 0.
 */
int rankstats_calls_counted(const struct rankstats *rs);

/* The report: per-function table, per-rank table, summary.  `title`
 * names what was read ("4 ranks of 'prog'"). */
void rankstats_print(FILE *fp, const struct rankstats *rs,
		     const struct rankstats_opts *o, const char *title);

#endif
