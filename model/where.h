#ifndef EGPROF_MODEL_WHERE_H
#define EGPROF_MODEL_WHERE_H
/*
 * Where a run's sampled time went, from its sidecar: seconds in shared
 * libraries (leaf frames in an object other than the program: for MPI
 * codes the time a rank spends in libmpi, much of it waiting), in the
 * instrumentation (the runtime's leaves) and in all.  --rank-stats's
 * per-rank table shows it; the model computes it where it reads the
 * sidecar (model/run.h's run_file_functions and run_file_where), so that
 * no view reads a sidecar for it.
 */
struct sidecar;

struct time_where {
	double libraries;        /* seconds; -1 each when unknown */
	double instrumentation;
	double total;
};

#define TIME_WHERE_UNKNOWN ((struct time_where){ -1, -1, -1 })

/*
 * `sc`'s numbers: 0 with *w set; -1 (w unknown) when the sidecar has no
 * time or no leaves (an old runtime's).  CALLPATH_CLOCK=wall's off-CPU
 * samples are time too (MPI waits).  glibc's mcount counts as library
 * time here: naming it needs the library's symbols (--callpath's report
 * does).
 */
int time_where_of(const struct sidecar *sc, struct time_where *w);

#endif
