#ifndef EGPROF_RANK_STATS_H
#define EGPROF_RANK_STATS_H
/*
 * The parts of `gprof --rank-stats` (gprof-ext/cmd_rank_stats.c) that its
 * MPI driver (mpi/egprof-rankstats.c) shares: the command line's rules, the
 * reading of rank files into the bounded state (pass 1 of
 * ranks/rankstate.h), and the report's title.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "diff/ranks.h"
#include "gprof-ext/cmdline.h"
#include "model/where.h"
#include "ranks/rankpaths.h"
#include "ranks/rankstate.h"

/* argv: gprof options, APP, FILES...|DIR (argv[0] the program).  Refuses
 * the gprof options --rank-stats cannot honour, with the reason, and a
 * program or -S file upstream would hang on (input_check.h).  On success
 * the caller releases *cl. */
int rank_stats_split(int argc, char **argv, struct cmdline *cl);

/* How rank_stats_read reads the files. */
struct rank_stats_read_opts {
	const char *argv0;
	int jobs;                 /* loader workers (--jobs) */
	int force;                /* read files that do not belong to the binary */
	int progress;             /* --progress: a progress line whatever stderr is */
	/* every file has its own sidecar (diff/ranks.h's ranks_paired): each
	 * rank's functions are its sidecar's (model/run.h's
	 * run_file_functions: libraries' time measured per rank) */
	int measured;
	const char *metric;       /* --metric EV (NULL: time): its events,
				     whatever `measured` */
	/* zeroed by the caller, or NULL: the first profile's symbols kept
	 * there (ranks/rankpaths.h) */
	struct rankpaths_syms *syms;
	/* or NULL: where each rank's time went (model/where.h), at
	 * where[rank], from its sidecar as this pass reads it (each sidecar
	 * read once); TIME_WHERE_UNKNOWN for a file without one */
	struct time_where *where;
};

/* Read files[0..nfiles) (file i is rank rank_of[i], or i when rank_of is
 * NULL) and fold each into st, its sparse vector into spill.  Shows a
 * progress line on a terminal (utils/progress.h). */
int rank_stats_read(const struct cmdline *cl, const struct rank_stats_read_opts *o,
		    char *const *files, const uint64_t *rank_of, size_t nfiles,
		    struct rankstate *st, FILE *spill);

/* Append to a rank-stats title that its values are `metric`'s events, or
 * the sidecars' time samples at hz. */
void rank_stats_metric_title(char *buf, size_t len, const char *metric);
void rank_stats_source_title(char *buf, size_t len, double hz);

/* The heat maps --svg / --png ask for (NULL: none); title names the run.
 * outs: the command's outputs (utils/outfile.h), or NULL: written at once. */
struct outset;
int rank_stats_heatmaps(const struct rankstate *global, const struct rankpass *pass,
			struct outset *outs,
			const char *svg, const char *png, const char *title);

void rank_stats_title(char *buf, size_t len, const char *binary,
		      const struct rank_id *ids, size_t n);

#endif
