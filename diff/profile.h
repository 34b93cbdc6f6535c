#ifndef EGPROF_PROFILE_H
#define EGPROF_PROFILE_H
/*
 * The profile model: one side of a comparison, as upstream gprof computed it
 * (its symbols, histogram assignment, call counts, cycles and propagated
 * times).  The adapter (gprof-ext/upstream.c) fills it from upstream's
 * globals, usually in a child process, and profile_write()/profile_read()
 * carry it back through a pipe.  Everything else (diff, graphs, rank
 * statistics, call paths) reads only this model, never upstream's globals.
 *
 * Ownership: a struct profile owns its arrays and its strings, except the
 * strings that lie in one of its pools (below); profile_free() releases
 * them and the struct.  Code that replaces a symbol's string releases the
 * old one with profile_str_free(), never free().
 *
 * Pools: a block of strings shared by reference count.  profile_read_mem()
 * copies every string of a frame into one pool (one allocation, not one
 * per string: a 20,000-function profile has 80,000 of them), and the
 * per-file profiles of one loader point at the strings of its symbol table
 * (profile_read_mem_names()), so a diff of one binary holds its names
 * once.
 *
 * Invariants:
 *  - syms[] is in upstream symbol-table order (ascending address); cycle
 *    "symbols" (gprof's "<cycle N as a whole>") come after the real ones,
 *    flagged PSYM_CYCLE, with cycle == N.
 *  - arcs[] refer to symbols by index into syms[] (parent, child); they are
 *    upstream's arcs between real symbols, in upstream's order.
 *  - Times are in ticks (histogram samples, weighted as gprof weights them);
 *    seconds are ticks / hz.  Two profiles may have different hz.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum profile_sym_flag {
	PSYM_STATIC = 1 << 0,   /* local symbol (static function) */
	PSYM_IN_FLAT = 1 << 1,  /* selected for the flat profile (-p/-P specs) */
	PSYM_IN_GRAPH = 1 << 2, /* selected for the call graph (-q/-Q specs) */
	PSYM_CYCLE = 1 << 3,    /* a cycle as a whole, not a function */
	PSYM_FUNC = 1 << 4,     /* a function entry point */
	/* Code outside the program's own functions, known only to the
	 * call-path sidecars (model/measured.h): what kind of row it is.  A
	 * symbol with none of the three is a function of the program. */
	PSYM_LIBRARY = 1 << 5,         /* a shared library's code ("sin [libm.so.6]") */
	PSYM_INSTRUMENTATION = 1 << 6, /* mcount, the runtime, its signals */
	PSYM_UNKNOWN = 1 << 7,         /* no known object or function holds it */
};
#define PSYM_KINDS (PSYM_LIBRARY | PSYM_INSTRUMENTATION | PSYM_UNKNOWN)

/* What kind of row a symbol is, as every view names it: "function",
 * "library", "instrumentation", "unknown" or "cycle". */
const char *profile_sym_kind(unsigned flags);

enum profile_input {
	PROFILE_HAS_HIST = 1 << 0, /* gmon had a histogram */
	PROFILE_HAS_CG = 1 << 1,   /* gmon had call-graph arcs */
	PROFILE_ARCS_FILTERED = 1 << 2, /* -k specs dropped arcs as upstream
					   read them: arcs[] is not the file's */
};

struct profile_sym {
	char *name;       /* symbol-table name, mangled for C++ */
	char *print_name; /* the name as gprof prints it (demangled per options) */
	char *file;       /* source file from debug info, or NULL */
	char *unit;       /* a static's compilation unit (the symbol table's
			     FILE entry before it): tells apart the copies
			     of a static function defined in a header; NULL
			     for globals or when unknown */
	int line;         /* source line, 0 if unknown */
	uint64_t addr;    /* link-time address */
	uint64_t end_addr;
	unsigned flags;   /* enum profile_sym_flag */
	int cycle;        /* cycle number, 0 when not in a cycle */
	int cg_index;     /* gprof's call-graph index ("[N]"), 0 when unprinted
			     and in a loaded profile (the loader does not
			     number them: cg_assemble_numbers) */
	double self_ticks;   /* histogram samples in this symbol */
	uint64_t ncalls;     /* calls from other functions (gprof's "called") */
	uint64_t self_calls; /* recursive calls (gprof's "+N") */
	double prop_self;    /* self time propagated, ticks (gprof's cg.prop.self) */
	double prop_child;   /* children's time propagated, ticks */
	double child_ticks;  /* gprof's cg.child_time: children's time before
				-E/-F fractions (the flat "total" column) */
};

struct profile_arc {
	uint32_t parent;   /* index into syms[] */
	uint32_t child;
	uint64_t count;    /* calls along this arc */
	double time;       /* self time inherited along the arc, ticks */
	double child_time; /* children's time inherited along the arc, ticks */
};

/*
 * What a profile's numbers are and where they come from, so that every
 * view says it once and never mixes two sources.  Upstream's profiles are
 * gmon.out's (the zero value: time from the histogram at hz, each sample
 * one period, calls counted by mcount); model/measured.h builds profiles
 * from the call-path sidecars: self_ticks are then the samples of each
 * thread at the sidecar's rate (hz), or of an event (metric set: hz is
 * 1/period, so that ticks / hz is events).
 */
enum profile_source {
	PROFILE_FROM_GMON,     /* gmon.out: histogram and mcount's arcs */
	PROFILE_FROM_SIDECARS, /* the call-path sidecars' samples and counts */
};
struct profile_measure {
	enum profile_source source;
	char metric[128];  /* the event (--metric NAME); "" for time */
	char unit[32];     /* the metric's unit ("events"); "" for seconds */
	double weight;     /* mean weight of a sample (a timer signal may stand
			      for several periods): n samples are n / weight
			      independent ones; 0 or 1: each is one */
	int calls_unmeasured; /* the run counted no calls (a sampling-only
				 run): views show them as "-", never 0 */
	int per_thread;    /* samples of each thread's CPU time (sidecars) */
};

/* A pool of strings (see Pools): `refs` profiles point into bytes[0..used). */
struct profile_pool {
	size_t refs;
	size_t size, used;
	char bytes[];
};
/* A frame's own strings, and those of the symbol table it borrows. */
#define PROFILE_MAX_POOLS 2

struct profile {
	char *binary;       /* the image file */
	char **gmon_files;  /* the gmon files summed into this profile */
	size_t ngmon;
	char *label;        /* how to name this profile to a reader ("rank 3") */
	int rank;           /* MPI rank from a sidecar, -1 when unknown */
	double hz;          /* samples per second */
	unsigned input;     /* enum profile_input */
	double total_ticks; /* sum of self_ticks over real symbols */
	double print_ticks; /* gprof's total for percentages (after -E/-N) */
	struct profile_measure measure; /* what the numbers are (above);
					   not sent by profile_write */
	uint64_t hist_lowpc;  /* first histogram's address range, 0 if none */
	uint64_t hist_highpc;
	struct profile_sym *syms;
	size_t nsyms;
	struct profile_arc *arcs;
	size_t narcs;

	/* private: capacities of the arrays above (utils/array.h) */
	size_t alloc_gmon, alloc_syms, alloc_arcs;
	/* private: the pools its strings may lie in (see Pools) */
	struct profile_pool *pools[PROFILE_MAX_POOLS];
};

struct profile *profile_new(void);
void profile_free(struct profile *p);
struct name_map;
/* --short-names: every symbol's print_name as `nm` shortens it
 * (utils/names.h), the names made distinct together.  0, or -1 when out
 * of memory (reported). */
int profile_shorten_names(struct profile *p, struct name_map *nm);

/* A pool for size bytes of strings, with one reference (the caller's);
 * NULL when out of memory. */
struct profile_pool *profile_pool_new(size_t size);
/* Drop a reference; the last one frees the pool.  NULL is ignored. */
void profile_pool_release(struct profile_pool *pool);
/* Let p's strings lie in pool (p takes a reference of its own).  0, or -1
 * when p already uses PROFILE_MAX_POOLS pools. */
int profile_use_pool(struct profile *p, struct profile_pool *pool);
/* Release a string of p's: freed unless it lies in one of p's pools. */
void profile_str_free(struct profile *p, char *s);

/* Append a symbol or arc; the profile takes ownership of the strings in *s.
 * Return the new index, or -1 when out of memory. */
long profile_add_sym(struct profile *p, const struct profile_sym *s);
long profile_add_arc(struct profile *p, const struct profile_arc *a);
/* Append a symbol with no samples or calls, its names copied (print_name
 * NULL: name): a function another profile or the call paths hold and p
 * lacks.  The new index, or -1 when out of memory. */
long profile_add_named_sym(struct profile *p, const char *name, const char *print_name,
			   unsigned flags);
int profile_add_gmon_file(struct profile *p, const char *path);
/* Room for this many symbols and arcs in all, when the count is known
 * before they are added (each doubling of a large array copied it and
 * touched its pages again).  0, or -1 when out of memory. */
int profile_reserve(struct profile *p, size_t nsyms, size_t narcs);

/* A sample's weight (>= 1), and whether symbol s's calls were counted:
 * library, instrumentation and unknown rows, and every row of a run that
 * counted no calls, have none. */
static inline double profile_weight(const struct profile *p)
{
	return p->measure.weight > 1 ? p->measure.weight : 1.0;
}
static inline int profile_sym_calls_measured(const struct profile *p,
					     const struct profile_sym *s)
{
	return !p->measure.calls_unmeasured && !(s->flags & PSYM_KINDS);
}

/* Seconds of a tick count in this profile. */
static inline double profile_seconds(const struct profile *p, double ticks)
{
	return p->hz > 0 ? ticks / p->hz : 0.0;
}

/* The symbol with this symbol-table name and source file (file may be NULL
 * to match any); -1 when absent.  Linear: for lookups in a loop, build an
 * index of your own. */
long profile_find(const struct profile *p, const char *name, const char *file);

/*
 * Serialisation, for the pipe between a loader child and the front end.
 * The format is private to one egprof binary (no compatibility promise):
 * magic, version, then the fields in order.  profile_read() reads strings
 * in chunks as their bytes arrive (no fixed cap, and a corrupt length costs
 * only the bytes really there) and fails with one message naming `what`,
 * what is wrong and the byte offset where it was found.
 */
int profile_write(FILE *fp, const struct profile *p);
int profile_read(FILE *fp, const char *what, struct profile **out);
/* The same bytes in one block of their exact size (*buf is the caller's to
 * free): what a loader sends.  0, or -1 (reported) when out of memory. */
int profile_encode(const struct profile *p, char **buf, size_t *len);
/* The bytes profile_encode would give, counted; and the same bytes given
 * to sink a block of 256 KiB at a time (a block longer only for a longer
 * name), with nothing else allocated: what a loader's worker sends down
 * its pipe.  profile_encode_to returns 0, or -1 when out of memory
 * (reported) or when sink returned -1 (not reported: the sink's to say). */
size_t profile_encoded_size(const struct profile *p);
int profile_encode_to(const struct profile *p,
		      int (*sink)(void *ctx, const void *bytes, size_t n), void *ctx);
/*
 * A profile encoded a part at a time, with no struct profile of it (a
 * loader's worker walks upstream's symbols): the bytes profile_encode gives
 * for the profile of the same parts, given in the format's order:
 *
 *   ps = profile_sender_new(sink, ctx);     sink NULL: only count bytes
 *   profile_send_head(ps, head);            everything but symbols, arcs
 *   profile_send_count(ps, nsyms);  profile_send_sym(ps, &s) ... nsyms times
 *   profile_send_count(ps, narcs);  profile_send_arc(ps, &a) ... narcs times
 *   profile_sender_end(ps, &bytes);         the trailer; frees ps
 *
 * A sink gets blocks of 256 KiB (longer only for a longer name).
 * profile_sender_new returns NULL when out of memory; profile_sender_end
 * returns 0 (and, counting, the bytes), or -1 when the sink failed.
 */
struct profile_sender;
struct profile_sender *profile_sender_new(int (*sink)(void *ctx, const void *bytes, size_t n),
					  void *ctx);
void profile_send_head(struct profile_sender *ps, const struct profile *head);
void profile_send_count(struct profile_sender *ps, uint64_t n);
void profile_send_sym(struct profile_sender *ps, const struct profile_sym *s);
void profile_send_arc(struct profile_sender *ps, const struct profile_arc *a);
int profile_sender_end(struct profile_sender *ps, uint64_t *bytes);
/* One profile that fills buf[0..len) exactly (bytes after its trailer are
 * an error); messages as profile_read's. */
int profile_read_mem(const void *buf, size_t len, const char *what, struct profile **out);
/*
 * A profile sent without the strings of its first names->nsyms symbols
 * (profile_encode of a profile whose symbols there have NULL name, print
 * name, file and unit), which are the symbols of `names` in its order, at
 * the same addresses: the per-file profiles of one loader, which sends its
 * symbol table once.  Those symbols take names' strings (sharing its pool
 * when it has one); symbols after them (cycles) carry their own.  A frame
 * whose symbols are not names' is refused ("a symbol that is not the
 * symbol table's").  Messages as profile_read's.
 */
int profile_read_mem_names(const void *buf, size_t len, const char *what,
			   const struct profile *names, struct profile **out);
/*
 * A profile with a histogram must have a sampling rate: with rate 0 every
 * sample would count as 0 seconds (upstream prints "inf").  profile_read()
 * refuses such a profile, so --diff and --rank-stats never compute with
 * one: "cannot read 'WHAT': ...".  0 or -1 (reported).
 */
int profile_check_rate(const struct profile *p, const char *what);

#endif
