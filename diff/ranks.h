#ifndef EGPROF_RANKS_H
#define EGPROF_RANKS_H
/*
 * Rank identity: which MPI rank wrote which gmon file.
 *
 * glibc writes one gmon file per process ("$GMON_OUT_PREFIX.<pid>"), and
 * libcallpath writes "<gmon file>.callpath" beside it, recording the pid and
 * the MPI rank (format/sidecar.h).  A file with a readable sidecar takes
 * the rank from it; a file without one is labelled by its name, and its pid
 * is taken from a numeric last suffix when there is one.
 *
 *   struct rank_id *ids; size_t n;
 *   ranks_identify(files, nfiles, &ids);    one entry per file, same order
 *   ranks_sort(ids, n, order);              known ranks first, by rank
 *   ... ids[i].label, ids[i].rank ...
 *   ranks_free(ids, n);
 *
 * Summing the sidecars of rank files (gprof -s, --diff of rank directories)
 * is model/sum.h's job, not this module's.
 *
 * Ownership: a struct rank_id owns its strings; ranks_free() releases an
 * array of them.
 */
#include <stddef.h>
#include <stdint.h>


struct rank_id {
	char *gmon;       /* the gmon file, as given */
	char *sidecar;    /* its sidecar when one was read, else NULL */
	int rank;         /* MPI rank from the sidecar, -1 when unknown */
	uint64_t pid;     /* from the sidecar or the file name, 0 when unknown */
	char *label;      /* "rank 3", or the file's base name */
	char *tag;        /* short column form: "3", or "#5" (index in files) */
};

/* One rank_id per file, from its sidecar's head (format/sidecar.h's
 * sidecar_read_head: the contexts are read once, by the pass over the
 * files).  Unreadable sidecars are warned about and the file
 * is labelled by name; two files claiming one rank are warned about.
 * 0, or -1 when out of memory. */
int ranks_identify(char *const *files, size_t n, struct rank_id **out);
void ranks_free(struct rank_id *ids, size_t n);

/* Fill order[0..n) with indices of ids: known ranks ascending, then the
 * files without a rank in their given order. */
void ranks_sort(const struct rank_id *ids, size_t n, size_t *order);

/* How many ids have a rank. */
size_t ranks_known(const struct rank_id *ids, size_t n);

/* Whether every file had its own sidecar (read, and of its run): what
 * lets statistics over them take their time from the sidecars. */
int ranks_paired(const struct rank_id *ids, size_t n);

#endif
