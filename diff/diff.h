#ifndef EGPROF_DIFF_H
#define EGPROF_DIFF_H
/*
 * A differential profile: two profiles (diff/profile.h) matched symbol by
 * symbol and subtracted, baseline minus second (the paper's convention: a
 * positive difference is time the second run no longer spends).
 *
 * Match, then link (perf's hists__match/hists__link): every function of
 * either side becomes one entry with both sides filled in.  A function that
 * exists on one side only still has both sides: the missing one is a
 * placeholder (sym == -1, present == 0, zero numbers, has_samples and
 * has_calls 0), so printers and graph writers never test for a missing side;
 * they print side[i] and the difference.  Zero differences are kept: in a
 * diff a zero means "equal", not "no data".
 *
 * Calling sequence:
 *
 *   struct diff d;
 *   struct diff_opts opts = DIFF_OPTS_INIT;
 *   if (diff_compute(&d, base, second, &opts) < 0) ... error reported ...
 *   diff_sort(&d);                 optional: entries in the options' order
 *   ... d.entries[i].side[DIFF_BASE].self_sec, d.arcs[j].count_diff ...
 *   diff_release(&d);
 *
 * Ownership: the diff owns its arrays.  It keeps pointers to the two
 * profiles (prof[]), which the caller owns and must keep alive until
 * diff_release(): an entry's strings are the profiles' own where they are
 * the same (name, file, unit, and most print names), and the diff's (in
 * its private `owned` list) where it makes one up: a cycle's name, a clone's
 * or a disambiguated print name.  Nobody frees an entry's string.
 *
 * Invariants:
 *  - entries[] holds every matched or one-sided function, and every cycle
 *    "as a whole" (flags & PSYM_CYCLE).  Cycle numbers are per side and
 *    mean nothing across sides, so cycles are matched by their members
 *    (diff/match.h) and renumbered 1..ncycles; a cycle entry's name is
 *    "<cycle N as a whole>" with the diff's N, and each member entry has
 *    cycle == N.  Cycle entries are never in the flat tables (in_flat 0)
 *    and add nothing to abs_sum or total_sec.  arcs[] refer to entries by
 *    index (parent, child), only between functions, and stay valid after
 *    diff_sort() (which renumbers them).
 *  - side[s].sym is an index into prof[s]->syms[], or -1 for a placeholder;
 *    present == (sym >= 0).
 *  - self_diff == side[0].self_sec - side[1].self_sec, in seconds (each
 *    side's ticks over its own hz: sampling rates may differ).
 *  - calls_diff == side[0].calls - side[1].calls, counting a side without
 *    call counts as 0.
 *  - impact == 100 * self_diff / abs_sum, 0 when abs_sum == 0.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "diff/profile.h"

enum diff_side_id { DIFF_BASE = 0, DIFF_SECOND = 1, DIFF_NSIDES = 2 };

/* How an entry was matched (for the reader, and for tests of each rule). */
enum diff_match_kind {
	MATCH_NONE,       /* on one side only */
	MATCH_NAME,       /* same (mangled) name, and same file when static */
	MATCH_CLONE_BASE, /* a GCC clone matched by its base name */
	MATCH_CYCLE,      /* a cycle matched by its members */
	MATCH__COUNT
};

/* Whether the time difference is within its noise (diff/noise.h): the
 * time test of the significance rule (diff/evidence.h) did not pass. */
enum diff_noise {
	NOISE_NONE,       /* the difference stands out of the noise, or is 0 */
	NOISE_WITHIN,     /* |excess_sec| is below noise_sec */
	NOISE__COUNT
};

/* What the call counts say (diff/evidence.h). */
enum diff_calls_evidence {
	CALLS_SAME,       /* equal, or neither side counted calls */
	CALLS_WITHIN,     /* changed, but not beyond the significance rule */
	CALLS_CHANGED,    /* changed by the factor (opts.calls_factor) or
			     more, beyond the Poisson noise of the counts,
			     and by a measurable time: evidence */
	CALLS__COUNT
};

/* The one verdict of a row or an arc (diff/evidence.h), the same in every
 * output: the text (the evidence list; "~" in --extended), JSON and CSV
 * (`verdict`), the graphs (colour). */
enum diff_verdict {
	VERDICT_EQUAL,       /* no difference at all: time, calls, ranks */
	VERDICT_NOISE,       /* a difference, within the noise of the runs */
	VERDICT_SIGNIFICANT, /* beyond it, after the correction for the
				number of rows tested */
	VERDICT__COUNT
};
extern const char *const diff_verdict_names[VERDICT__COUNT];

/* The order of the tables (--sort). */
enum diff_sort_key {
	DIFF_SORT_IMPACT, /* significant rows first, by evidence_sec (one
			     unit, seconds, whatever the evidence); then
			     the rows within noise, by |self_diff| */
	DIFF_SORT_ABS,    /* |self_diff| (the order before evidence existed) */
	DIFF_SORT_RATIO,  /* |log(second/baseline)| of self seconds */
	DIFF_SORT_CALLS,  /* |calls_diff| */
	DIFF_SORT_NAME,   /* print name */
	DIFF_SORT__COUNT
};
extern const char *const diff_sort_names[DIFF_SORT__COUNT];

struct diff_side_sym {
	long sym;            /* index into prof[side]->syms[], -1: placeholder */
	int present;         /* the symbol exists in this side's binary */
	int has_samples;     /* this side has histogram samples in it ("---") */
	int has_calls;       /* this side has a call count for it ("-") */
	int calls_measured;  /* this side counted its calls at all (not a
				library row, not a sampling-only run):
				views show unmeasured calls as absent */
	double ticks;        /* self samples, in this side's ticks */
	double self_sec;     /* self seconds */
	double child_sec;    /* children's time, seconds (gprof's
				cg.child_time: the flat "total" column) */
	double prop_self_sec;  /* call graph's "self" (after -E/-F), seconds */
	double prop_child_sec; /* call graph's "children", seconds */
	uint64_t calls;      /* calls from others (gprof's "called") */
	uint64_t self_calls; /* recursive calls (gprof's "+N") */
	double run_var;      /* variance (seconds^2) of this side's self
				seconds from run to run, measured across
				repeated runs (of the same rank); 0 when
				not measured (diff/noise.h) */
	double calls_var;    /* the same for its call count (calls^2) */
	double sq_sec;       /* sum over the side's files of their self
				seconds squared (noise_set_runs); 0 for a
				side of one file (self_sec^2) */
	int cycle;           /* the side's own cycle number (gprof's
				"<cycle N>"), 0 when not in a cycle */
};

struct diff_entry {
	char *name;          /* symbol name (mangled for C++) */
	char *print_name;    /* as gprof prints it; a clone without a partner
				of its own name shows its base name first
				("foo [foo.isra.0]"); a name several static
				functions share gets " (file.c)" */
	char *file;          /* source file, or NULL */
	char *unit;          /* a static's compilation unit, or NULL */
	unsigned flags;      /* PSYM_* of the side(s) it comes from */
	enum diff_match_kind match;
	struct diff_side_sym side[DIFF_NSIDES];
	double self_diff;    /* seconds, baseline - second */
	double child_diff;   /* seconds */
	int64_t calls_diff;
	double impact;       /* percent of sum |self_diff| */
	/* The noise of the time difference (diff/noise.h): */
	double excess_sec;   /* self_diff beyond the runs' common speed:
				baseline * d->speed - second; what the time
				test judges (self_diff when speed is 1) */
	double sigma_sec;    /* its standard deviation when nothing changed:
				sampling, run-to-run jitter, the speed's
				uncertainty */
	double noise_sec;    /* the threshold applied: d->z_cut * sigma_sec */
	double time_zmax;    /* the largest |z| its samples allow
				(diff/signif.h) */
	enum diff_noise noise;
	/* The verdicts (diff/evidence.h), for printers and machine-readable
	 * writers alike: */
	double time_z;       /* excess_sec / sigma_sec */
	enum diff_calls_evidence calls_evidence;
	double calls_z;      /* the calls' z (signif_count_z) */
	double calls_factor; /* larger count / smaller count (>= 1), 0 when
				either side has no calls */
	enum diff_verdict verdict;
	int significant;     /* verdict == VERDICT_SIGNIFICANT */
	double evidence_sec; /* the size of the evidence, in seconds: the
				largest of the tests that passed: |excess_sec|,
				the time the call-count change implies
				(max side self seconds * (1 - 1/factor)), a
				rank's |excess|; 0 when not significant */
	double evidence_signed; /* evidence_sec with the direction of that
				test: > 0 less time (or fewer calls) in the
				second run, as self_diff; what graphs colour */
	double ratio;        /* second / baseline self seconds; 0 when the
				baseline has none */
	/* Moved cost (diff/evidence.h): a function present in one binary
	 * only (or whose calls from one caller went) whose caller moved the
	 * opposite way. */
	long moved_peer;     /* entry index of that caller (or of the
				vanished callee, on the caller's row);
				-1 for none */
	double moved_total_diff; /* the caller's self+children difference */
	int moved_why;       /* enum evidence_moved_why (diff/evidence.h) */
	int moved_caller;    /* this row is the caller that took the cost in */
	/* Ranks (diff/noise.h), when both sides know their files' ranks: */
	double *rank_diff;   /* per d->ranks[k]: mean self seconds of rank k,
				baseline - second; NULL without ranks */
	double *rank_excess; /* per rank: at that rank's own speed */
	double *rank_sigma;  /* per rank: its noise, seconds */
	double *rank_zmax;   /* per rank: the largest |z| its samples allow */
	unsigned char *rank_changed; /* per rank: its test passed */
	size_t nranks_changed;
	int ranks_alike;     /* the ranks that changed did not change more
				than the others, beyond noise: one change
				of the function, not of some ranks */
	double slowest_diff; /* max over ranks of the baseline minus max over
				ranks of the second run (critical path) */
	double *rank_stat;   /* private to diff/noise.c: per side, rank:
				mean seconds, sampling variance of the mean,
				run-to-run variance of the mean, samples */
	int in_flat;         /* selected for the flat profile on either side */
	int in_graph;        /* selected for the call graph on either side */
	int cycle;           /* the diff's cycle number: of the cycle entry,
				or of the cycle a function belongs to (the
				baseline's when it is in one), 0 for none */
};

struct diff_arc {
	uint32_t parent;     /* index into entries[] */
	uint32_t child;
	int present[DIFF_NSIDES];   /* the arc was recorded on that side */
	uint64_t count[DIFF_NSIDES];/* 0 on a side without it */
	int64_t count_diff;  /* count[0] - count[1] */
	double time_sec[DIFF_NSIDES];       /* self time along the arc */
	double child_time_sec[DIFF_NSIDES]; /* children's time along it */
	/* The arc's verdict, by the rows' rule in a family of its own
	 * (diff/evidence.h): its time (self + children along it, gprof's
	 * split) and its calls. */
	double excess_sec;   /* time difference at the runs' common speed */
	double sigma_sec;
	double time_zmax;
	double time_z, calls_z, calls_factor;
	int calls_changed;   /* its calls' test passed */
	enum diff_verdict verdict;
	int significant;
	double evidence_sec, evidence_signed; /* as the entries' */
};

struct diff_opts {
	double noise_sigmas; /* K: the family-wise error of the significance
				rule is that of K sigmas (diff/signif.h) */
	double jitter_prior; /* the relative run-to-run noise of a function's
				time assumed where the runs do not measure
				it (diff/noise.h) */
	double calls_factor; /* calls changing by this factor can be
				evidence: the tolerance of threaded -pg
				counts, which lose calls */
	enum diff_sort_key sort;
};
#define DIFF_OPTS_NOISE_SIGMAS 2.0
#define DIFF_OPTS_INIT { DIFF_OPTS_NOISE_SIGMAS, DIFF_JITTER_PRIOR, 1.5, DIFF_SORT_IMPACT }
/* A change of calls of no measurable time counts from this many calls on
 * the larger side (diff/evidence.h). */
#define DIFF_CALLS_FLOOR 100
/* What a shared machine's runs of one binary showed (doc/diff.md: the
 * A/A pairs of bench/diff/real/aa.sh). */
#define DIFF_JITTER_PRIOR 0.08

struct diff {
	const struct profile *prof[DIFF_NSIDES];  /* borrowed, see above */
	struct diff_entry *entries;
	size_t nentries;
	struct diff_arc *arcs;
	size_t narcs;
	double abs_sum;      /* sum of |self_diff| over entries */
	double total_sec[DIFF_NSIDES]; /* each side's total self seconds */
	int has_hist[DIFF_NSIDES];     /* each side had a histogram */
	int has_cg[DIFF_NSIDES];       /* each side had call-graph arcs */
	size_t nruns[DIFF_NSIDES];     /* gmon files summed into each side
					  (set by noise_set_runs, else 1) */
	int repeated[DIFF_NSIDES];     /* the side holds repeated runs, so
					  run-to-run noise was measured */
	struct diff_opts opts;         /* as given to diff_compute */
	/* The noise model (diff/noise.h): */
	double speed;                  /* second / baseline self seconds that
					  most functions share (a loaded
					  machine), 1 when none */
	double speed_var;              /* its variance (0 when speed is 1) */
	double jitter;                 /* relative run-to-run noise of one
					  run's time of a function */
	double jitter_weight;          /* what the functions that measured it
					  are worth, in perfectly measured
					  ones (diff/signif.h; 0: the prior
					  alone) */
	int jitter_from_repeats;       /* measured across repeated runs */
	double repeat_jitter2;         /* noise_set_runs: the repeats' c^2 */
	double repeat_weight;          /* and what they are worth (as
					  jitter_weight; 0: no repeats) */
	double *rank_speed;            /* per rank: its own speed */
	/* Rows outside the program's functions (a library's, an MPI
	 * library's wait, the instrumentation, unknown code: diff/profile.h's
	 * PSYM_KINDS) are a population of their own in the noise model
	 * (diff/noise.h): their common speed, its variance, their jitter and
	 * what measured it, and each rank's speed of them (1, 0, the
	 * program's jitter... when there are none) */
	double outside_speed, outside_speed_var;
	double outside_jitter, outside_jitter_weight;
	double *rank_outside_speed;
	/* private to diff/noise.c: per side and rank, the mean seconds of
	 * the program's rows and of the rows outside them */
	double *rank_totals;
	/* The significance rule (diff/evidence.h): */
	size_t ntests, arc_ntests;     /* tests of each family */
	double z_cut, arc_z_cut;       /* |z| that passes, per family */
	double min_evidence_sec;       /* a call change must imply this much
					  time to count: two samples */
	int *ranks;                    /* the MPI ranks of rank_diff[], NULL */
	size_t nranks;
	int ncycles;                   /* cycle entries, numbered 1..ncycles */
	/* private: the strings the diff made (see Ownership), freed by
	 * diff_release; entries' other strings are the profiles' (copying
	 * them was a tenth of a 20,000-function diff's front end) */
	char **owned;
	size_t nowned, alloc_owned;
};

/* Both sides' numbers are the call-path sidecars' (model/measured.h). */
static inline int diff_from_sidecars(const struct diff *d)
{
	return d->prof[DIFF_BASE] && d->prof[DIFF_SECOND] &&
	       d->prof[DIFF_BASE]->measure.source == PROFILE_FROM_SIDECARS &&
	       d->prof[DIFF_SECOND]->measure.source == PROFILE_FROM_SIDECARS;
}

/* Match and subtract.  Returns 0, or -1 (reported) when out of memory. */
int diff_compute(struct diff *d, const struct profile *base,
		 const struct profile *second, const struct diff_opts *opts);

/* The order of both diff tables, by key (see enum diff_sort_key); ties go
 * by |self_diff|, then |calls_diff|, then print name, then file.  A
 * qsort-style comparison. */
int diff_entry_cmp(const struct diff_entry *l, const struct diff_entry *r,
		   enum diff_sort_key key);
/* diff_entry_cmp up to the names: 0 when the numbers tie. */
int diff_entry_cmp_numbers(const struct diff_entry *l, const struct diff_entry *r,
			   enum diff_sort_key key);

/*
 * A name's sort key: its first 8 bytes as a big-endian number, zeros after
 * its end.  Two names whose keys differ compare as their keys do (strcmp's
 * order, bytes unsigned); only equal keys need strcmp.  The printers sort
 * tens of thousands of rows whose numbers mostly tie, where strcmp through
 * the entries was a tenth of a big diff's time.
 */
static inline uint64_t diff_name_key(const char *s)
{
	uint64_t k = 0;
	int i;

	for (i = 0; i < 8 && s[i]; i++)
		k |= (uint64_t)(unsigned char)s[i] << (56 - 8 * i);
	return k;
}

/* strcmp's sign for two names with their keys (diff_name_key). */
static inline int diff_name_cmp(uint64_t kl, const char *l, uint64_t kr, const char *r)
{
	if (kl != kr)
		return kl < kr ? -1 : 1;
	return kl & 0xff ? strcmp(l + 8, r + 8) : 0;
}

/*
 * Put the entry indices idx[0..n) in diff_entry_cmp's order with
 * d->opts.sort, ties by index.  The numbers and names compared are
 * gathered first into small records: comparing 500-byte entries through
 * indices missed the cache at every comparison.  0, or -1 when out of
 * memory (idx as it was).
 */
int diff_order(const struct diff *d, size_t *idx, size_t n);

/*
 * The arcs into and out of each entry, as arc indices in the diff's order:
 * into entry e, in[in_at[e] .. in_at[e + 1]); out of it, out[out_at[e] ..
 * out_at[e + 1]).  A counting sort, O(entries + arcs): a view that walks
 * an entry's callers or callees reads its own list instead of every arc
 * (a pass over 40,000 arcs per evidence row was a tenth of a 20,000-
 * function diff's cache misses).  Valid until the arcs change.
 */
struct diff_arc_index {
	size_t *in_at, *in;
	size_t *out_at, *out;
};

/* 0, or -1 when out of memory (ai then holds nothing to free). */
int diff_arc_index_build(const struct diff *d, struct diff_arc_index *ai);
void diff_arc_index_free(struct diff_arc_index *ai);

/* Sort the entries by diff_entry_cmp with d->opts.sort (ties keep their
 * order), in place.  Remaps arcs and moved_peer. */
void diff_sort(struct diff *d);

/* The noise verdicts (diff/noise.h) and the evidence (diff/evidence.h) of
 * every entry, again: after noise_set_runs(), or a change of d->opts. */
void diff_assess(struct diff *d);

/* The name of a sort key, or -1 for an unknown name. */
int diff_sort_parse(const char *name);

/* The entry index for a symbol of one side, -1 when none (linear). */
long diff_find(const struct diff *d, const char *name);

void diff_release(struct diff *d);

#endif
