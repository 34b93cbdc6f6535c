#ifndef EGPROF_RANKSTATE_H
#define EGPROF_RANKSTATE_H
/*
 * Statistics across ranks in bounded memory: the state a reader keeps while
 * it streams rank profiles, O(functions) however many ranks it reads, and
 * the second pass that places each rank against the others.  One code path
 * for the statistics, two drivers: `gprof --rank-stats` (one process,
 * gprof-ext/cmd_rank_stats.c) and `mpirun egprof-rankstats` (a tree of
 * processes, mpi/egprof-rankstats.c), which merges the states of its
 * processes with rankstate_merge() after rankstate_pack()/unpack().
 *
 *   st = rankstate_new(nranks);  spill = tmpfile();
 *   for each rank file i this process reads:
 *           rankstate_add(st, profile_i, i, spill);       pass 1
 *   [MPI: pack, send, unpack, rankstate_merge() up a tree; the root's
 *         merged state is packed and broadcast back: `global`]
 *   rankstate_finish(global);                 orders functions, medians
 *   rankpass_init(&pass, global);
 *   rankstate_pass2(global, st, spill, &pass);   each rank against the mean
 *   [MPI: rankpass_pack/unpack/merge up the tree]
 *   rankstate_report(global, &pass, tags, &rs);  struct rankstats to print
 *
 * Every sum is an integer (self ticks in 1/2^20 fixed point, shares of a
 * rank's total in 1/2^32), and ties go to the lower rank index, so the
 * result does not depend on which process read which file or in what order
 * the states met: the MPI report is byte-identical to the single-process
 * one.  Per function the state keeps sum, sum of squares, min and max with
 * their ranks, the count of ranks it ran on, the sums of its shares (for
 * the mean mix) and its distinct call counts up to RANKSTATE_MAX_VALUES
 * (the median of calls; past that the function has no typical count and
 * is left out of "calls off the median").  What needs every rank's value
 * of every function (distances from the mean mix, where a function did not
 * run) is computed in pass 2 from the spill file, where pass 1 wrote each
 * rank's sparse vector: memory stays O(functions), disk O(ranks x the
 * functions each ran).
 *
 * Ownership: a rankstate owns its functions' strings; rankstate_free()
 * releases it.  A rankpass owns its arrays; rankpass_release().
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "diff/profile.h"
#include "ranks/rankstats.h"

#define RANKSTATE_SELF_ONE ((uint64_t)1 << 20)  /* one tick, fixed point */
#define RANKSTATE_SHARE_ONE ((uint64_t)1 << 32) /* a share of 1 */
#define RANKSTATE_MAX_VALUES 32                 /* distinct call counts kept */
#define RANKSTATE_NONE UINT64_MAX
#define RANKSTATE_HEAT_ROWS 20   /* functions in the heat map */
#define RANKSTATE_HEAT_BINS 400  /* rank columns at most; ranks are binned */

struct rankstate_value {
	uint64_t value, count;
};

struct rankstate_fn {
	char *name;         /* symbol-table name: key with file */
	char *file;         /* may be NULL */
	char *print_name;
	uint64_t id;        /* index when created: the spill's number for it */
	/* over the ranks it ran on (absent ranks count 0, added at report) */
	uint64_t self_sum, self_min, self_max, self_min_rank, self_max_rank;
	unsigned __int128 self_sq;
	uint64_t calls_sum, calls_min, calls_max, calls_min_rank, calls_max_rank;
	uint64_t nran, first_rank;          /* ranks it ran on, the lowest */
	unsigned kind;                      /* PSYM_KINDS of its symbols (a
					       library's row: no calls counted) */
	uint64_t share_time, share_calls;   /* sums of shares of rank totals */
	struct rankstate_value *values;     /* distinct calls, sorted by value */
	uint32_t nvalues;
	int values_overflow;                /* more than RANKSTATE_MAX_VALUES */
	/* set by rankstate_finish() */
	uint64_t median_calls;
	int median_known;
};

struct rankstate {
	uint64_t nranks;     /* ranks in the job */
	uint64_t nread;      /* ranks folded in */
	double hz;           /* samples per second, 0 until a rank is read */
	/* the largest mean weight of a sample over the ranks read (>= 1; a
	 * timer signal may stand for several periods: diff/profile.h's
	 * profile_weight), for the noise of their counts */
	double weight;
	struct rankstate_fn *fns;
	size_t nfns, cap;
	size_t *slots;       /* hash of fns by key: index + 1, 0 empty */
	size_t nslots;
};

struct rankstate *rankstate_new(uint64_t nranks);
void rankstate_free(struct rankstate *st);

/* Pass 1: fold rank `rank`'s profile in and append its sparse vector to
 * `spill`.  -1 with an error naming the file (hz differs, write failed). */
int rankstate_add(struct rankstate *st, const struct profile *p, uint64_t rank, FILE *spill);
/* The same for profiles that are one symbol table refilled with each rank's
 * counts (gprof-ext/upstream.h's upstream_load_counts): symbol i's function
 * is looked up by name once, not once per rank.  The memo (zeroed by the
 * caller) keys on the profile's address: it holds while that profile's
 * symbols keep their names and order and while st is only added to
 * (rankstate_finish reorders the functions). */
struct rankstate_memo {
	const struct profile *table;
	size_t n;
	size_t *fn;          /* per symbol: function index + 1, 0 unknown */
};
int rankstate_add_memo(struct rankstate *st, const struct profile *p, uint64_t rank, FILE *spill,
		       struct rankstate_memo *memo);
void rankstate_memo_release(struct rankstate_memo *memo);
/* into += from (same nranks). */
int rankstate_merge(struct rankstate *into, const struct rankstate *from);
int rankstate_pack(const struct rankstate *st, unsigned char **buf, size_t *len);
/* `what` names the message in errors. */
int rankstate_unpack(const unsigned char *buf, size_t len, const char *what,
		     struct rankstate **out);
/* Orders the functions by key (so every process numbers them alike) and
 * computes the medians of calls. */
int rankstate_finish(struct rankstate *st);
/* Index of a function in st by key, -1 when absent. */
long rankstate_find(const struct rankstate *st, const char *name, const char *file);

/* Pass 2: what each rank read here is, against the finished global state. */
struct rankpass_rank {
	uint64_t rank;
	uint64_t self, calls;       /* fixed ticks, calls */
	double time_dist, calls_dist;
	uint64_t nran, nunique, ncalls_differ;
};

struct rankpass {
	uint64_t nfns;              /* the global state's */
	uint64_t *first_absent;     /* per function: lowest rank it did not run on */
	struct rankpass_rank *ranks;
	size_t nranks, cap;
	/* The heat map's data: the functions of largest max self time (the
	 * report's first rows), and per bin of consecutive ranks the largest
	 * self time (fixed ticks) of a rank in it: heat[row * bins + bin]. */
	uint64_t heat_rows, heat_bins;
	uint64_t heat_fn[RANKSTATE_HEAT_ROWS];   /* global function indices */
	uint64_t *heat;
};

/* The bin of rank r among n ranks in `bins` bins. */
static inline uint64_t rankpass_bin(uint64_t r, uint64_t n, uint64_t bins)
{
	return (uint64_t)(((unsigned __int128)r * bins) / n);
}

int rankpass_init(struct rankpass *pass, const struct rankstate *global);
void rankpass_release(struct rankpass *pass);
int rankstate_pass2(const struct rankstate *global, const struct rankstate *local,
		    FILE *spill, struct rankpass *pass);
int rankpass_merge(struct rankpass *into, const struct rankpass *from);
int rankpass_pack(const struct rankpass *pass, unsigned char **buf, size_t *len);
int rankpass_unpack(const unsigned char *buf, size_t len, const char *what,
		    struct rankpass *out);

/* The report's statistics; tags[i] names rank i.  Every rank 0..nranks-1
 * must be in `pass`. */
int rankstate_report(const struct rankstate *global, const struct rankpass *pass,
		     char *const *tags, struct rankstats **out);

#endif
