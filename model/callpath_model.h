#ifndef MODEL_CALLPATH_MODEL_H
#define MODEL_CALLPATH_MODEL_H
/*
 * report.h - the symbolised call-path model, and the call-path profile and
 * calling-context tree printed after gprof's own output (`--callpath`).
 *
 * A sidecar (sidecar.h) records run-time addresses.  callpath_model_build()
 * names them through a struct profile (diff/profile.h: upstream's symbols
 * with link-time addresses): the sidecar's load_address is subtracted
 * first, so PIE programs work.  Callees become function names as gprof
 * prints them; call sites (return addresses) become "function+0xOFFSET", or
 * "file:line" when the options ask for lines and debug info has them.
 * Addresses outside every symbol become "[unknown]"; call site 0, a call
 * from outside the program (sidecar.h), becomes "[external]" and is left
 * out of a top-level frame's label (main, called by the C library).
 *
 * The model is a calling-context tree of names: sidecar nodes that name the
 * same (parent, function, call site) are one frame, so sidecars of several
 * runs of one program (different load addresses, different return
 * addresses into the C library) read as one tree.
 *
 *   struct callpath_model *m;
 *   struct callpath_symopts so = { .lines = 0 };
 *   if (callpath_model_build(sc, prof, &so, &m) < 0) return -1;
 *   callpath_report_print(stdout, m, "gmon.out.callpath");
 *   callpath_model_free(m);
 *
 * Invariants: frames[i].parent is CALLPATH_NONE or < i (parents first);
 * func and site index names[]; no two frames share (parent, func, site).
 * Ownership: the model owns its frames and names; it keeps no pointer to the
 * sidecar or the profile it was built from.
 */
#include <stdint.h>
#include <stdio.h>

#include "model/metric.h"
#include "format/sidecar.h"

struct sidecar;
struct profile;

#define CALLPATH_NONE UINT32_MAX

/* One function of an inline chain (callpath_symopts.inlines). */
struct callpath_inline {
	const char *func;	/* its name as the debug information has it */
	const char *file;	/* where it runs, or where the next was inlined */
	int line;
};

struct callpath_symopts {
	int lines;	/* call sites as file:line (gprof -l) */
	int full_paths;	/* with lines: the file as debug info names it, not
			   its last component (gprof -L) */
	/* Source position of a link-time address, or -1; NULL: none known.
	 * *file stays owned by the callee. */
	int (*addr_to_line)(uint64_t addr, const char **file, int *line);
	/* The demangled form of a symbol-table name (malloc'd), or NULL when
	 * it is not mangled: names of functions gprof leaves out of its table
	 * (GCC clones, elfsyms.h) are demangled with it as gprof demangles its
	 * own.  NULL: they keep their symbol-table names (gprof --no-demangle). */
	char *(*demangle)(const char *name);
	/* --metric NAME: what the frames' samples are (model/metric.h);
	 * NULL: time */
	const char *metric;
	/*
	 * Sampled paths (a build without -pg): the functions inlined at a
	 * link-time address of `binary`, by its debug information, innermost
	 * first, the last one the function itself; the first's file and line
	 * are the address's, each other's where the one before was inlined
	 * into it.  n, or -1 when unknown.  NULL: no inline frames.  Each
	 * call site and each sample of a sampled path then gets a frame per
	 * function inlined there, named "NAME [inlined]".
	 */
	int (*inlines)(const char *binary, uint64_t addr, struct callpath_inline *out, int max);
};

struct callpath_frame {
	uint32_t parent;	/* CALLPATH_NONE for a top-level frame */
	uint32_t func;		/* index into names[]: the function called */
	uint32_t site;		/* index into names[]: where it was called from */
	uint64_t count;		/* calls along this path */
	/*
	 * Folded recursion (sidecar.h, SIDECAR_NODE_FOLDED): a folded frame
	 * stands for `recursive` calls of its parent's function, made from
	 * `site` (in function `caller`, a names[] index: [external] or
	 * [unknown] when not in the program) while the parent was on the
	 * path, and folded into the parent.  Its count is 0; it has no
	 * children.  Reports print its calls on the parent, "1+2692536".
	 */
	int folded;
	uint32_t caller;
	uint64_t recursive;
	uint64_t samples;	/* time samples with this frame innermost (self);
				   0 for a folded frame (its parent's frames hold them) */
	/* names[] index of the function gprof attributes the callee to: func
	 * itself, but for functions gprof leaves out of its table (OpenMP's
	 * main._omp_fn.0), named by their own symbols in func (elfsyms.h) */
	uint32_t attributed;
	/*
	 * A leaf frame (sidecar.h, SIDECAR_NODE_LEAF): time sampled below its
	 * parent in code the parent did not call through an instrumented
	 * entry (a library function, an uninstrumented function of the
	 * program, a function's first bytes, the instrumentation).  0 for a
	 * frame of a recorded call, else 1 + its enum leaf_class (leaves.h).
	 * Count 0, no children.
	 */
	uint16_t leaf;
	/* A frame of a call in sampled paths: where its function's code is,
	 * 1 + its enum leaf_class (a library's function, met as a frame of a
	 * call when it called another); 0 for the program's code and for
	 * leaves (`leaf` says theirs). */
	uint16_t code;
};

/*
 * The threads of a run whose sidecar kept them apart (sidecar.h's threads
 * section): entries as the sidecar lists them (the main thread, threads
 * kept apart, "other threads" summed), and each one's calls and time
 * samples per frame, sparse.  Over a frame's values of all threads the sums
 * are exactly the frame's count + recursive and samples.  None when the
 * sidecar has none, or when the samples shown are not the CPU-time samples
 * the section splits (wall-clock time, --metric).
 */
struct callpath_thread {
	uint64_t tid;		/* 0 for the other threads */
	uint32_t flags;		/* SIDECAR_THREAD_* */
	uint32_t threads;	/* threads summed in this entry */
	char *name;		/* owned */
};
struct callpath_thread_value {
	uint32_t frame, thread;	/* frames[] and threads[] indices */
	uint64_t calls, samples;
};

struct callpath_model {
	struct callpath_frame *frames;
	uint32_t nr_frames;
	char **names;		/* interned function names and call-site labels */
	uint32_t nr_names;
	uint64_t total;		/* sum of all counts and recursive calls */
	/*
	 * 1 when the frames' counts are not calls: sampled paths of a build
	 * without -pg (sidecar.h, SIDECAR_F_SAMPLED), whose counts are all 0
	 * and mean "not measured".  Every view reads it here and shows such
	 * counts as unmeasured (`-`, or leaves them out), never as 0; a copy
	 * of a model copies it.  `unwind` says how the stacks were walked.
	 */
	int calls_unmeasured;
	struct sidecar_unwind unwind;
	/*
	 * Measured time (the sidecar's per-context samples): sampling is the
	 * sidecar's SIDECAR_SAMPLING_* (0: no samples, the report shows calls
	 * only); hz converts samples to seconds (gmon.out's rate: the runtime
	 * counts the histogram's own ticks).
	 */
	uint32_t sampling;
	uint64_t total_samples;	/* sum of frames' samples */
	/* a sum of counts, recursive calls or samples passed 2^64 - 1 and
	 * was saturated there (utils/satmath.h), not wrapped: a corrupt or
	 * forged sidecar; the caller warns naming it */
	int saturated;
	uint64_t unplaced_samples;
	/* the time samples taken (signals handled: sidecar.h's time_taken),
	 * 0 when unknown; a timer signal may stand for several periods, so
	 * a count of n samples has the noise of n times their mean weight,
	 * (total_samples + unplaced_samples) / time_taken */
	uint64_t time_taken;
	double hz;
	/* the process's CPU time in seconds when sampling stopped (the
	 * sidecar's process_cpu, getrusage), 0 when unknown or not CPU time */
	double process_cpu_s;
	/*
	 * The samples by where they ran (enum leaf_class, leaves.h): the
	 * program's code, libraries, the instrumentation, no known object.
	 * Their sum is total_samples.  `time_name` is the time metric's
	 * name (sidecar.h: "cpu-time", "prof-timer" of older runtimes), NULL
	 * when the sidecar said none.
	 */
	uint64_t class_samples[4];
	char *time_name;
	/* what a sample is (model/metric.h): time, or one overflow of an
	 * event (hz then 1/period: samples / hz is events) */
	struct callpath_metric_desc metric;

	/* per-thread values (above), in (frame, thread) order, one per pair */
	struct callpath_thread *threads;	/* owned */
	uint32_t nr_threads;
	struct callpath_thread_value *thread_values;	/* owned */
	size_t nr_thread_values;

	/* private: capacities and the interning and frame indexes */
	uint32_t alloc_frames, alloc_names;
	uint32_t *name_index, name_mask;
	/* frame slots: the key's hash above the frame's index, all ones when
	 * free, so that a probe reads a frame only when the hashes match */
	uint64_t *frame_index;
	uint32_t frame_mask;
};

/* What is said, after the sidecar's name, when sums saturated. */
#define CALLPATH_SATURATED "sums of calls or samples pass 2^64 - 1: they are " \
	"shown as 18446744073709551615 (saturated), not wrapped (a corrupt or " \
	"forged sidecar?)"

/* An empty model; NULL when out of memory. */
struct callpath_model *callpath_model_new(void);
void callpath_model_free(struct callpath_model *m);

/* The index of `s` in names[], added when missing; CALLPATH_NONE when out
 * of memory. */
uint32_t callpath_model_intern(struct callpath_model *m, const char *s);

/* Add `count` to the frame (parent, func, site), created when missing; its
 * index in *idx.  0 or -1 (out of memory or bad parent). */
int callpath_model_add(struct callpath_model *m, uint32_t parent, uint32_t func,
		       uint32_t site, uint64_t count, uint32_t *idx);
/*
 * The same with the frame's kind: folded 1 for a frame of folded recursion
 * (callers then add its recursive calls and caller).  Such a frame is
 * never one with a frame of calls, whose key it may share once addresses
 * are names (a library's functions are all [unknown], a wrong load address
 * names other functions): a folded frame has no children and no calls of
 * its own, which the maker of its calls relies on (recursion.h).
 */
int callpath_model_add_kind(struct callpath_model *m, uint32_t parent, uint32_t func,
			    uint32_t site, int folded, uint64_t count, uint32_t *idx);

/* Name the sidecar's nodes through the profile's symbols (hz from the
 * profile's histogram).  0 or -1 (out of memory, reported with error()). */
int callpath_model_build(const struct sidecar *sc, const struct profile *p,
			 const struct callpath_symopts *so,
			 struct callpath_model **out);

/*
 * A copy of m with every name in its short form as `nm` gives it
 * (utils/names.h: C++ template arguments left out, distinct functions kept
 * distinct), for `--short-names`: the command's one map, so that the
 * call paths name a function as its other outputs do.
 * 0 or -1 (out of memory, reported with error()).
 */
struct name_map;
int callpath_model_shorten(const struct callpath_model *m, struct name_map *nm,
			   struct callpath_model **out);

/*
 * The per-thread values of `src` into `dst`, whose frame i of src became
 * frame map[i] (CALLPATH_NONE: gone, with its values).  `what`, when not
 * NULL, says per src frame what dst took of it: CALLPATH_CARRY_SAMPLES
 * and/or CALLPATH_CARRY_CALLS (a filter that gives a cut frame's time to
 * the frame kept above it, and only its time).  0 or -1 (out of memory,
 * reported with error()).
 */
enum { CALLPATH_CARRY_SAMPLES = 1, CALLPATH_CARRY_CALLS = 2 };
int callpath_model_threads_carry(struct callpath_model *dst, const struct callpath_model *src,
				 const uint32_t *map, const unsigned char *what);

/* Depth of frame `idx` (1 for top level); fills up to `max` frame indices
 * of its path, root first, when `path` is not NULL. */
uint32_t callpath_model_path(const struct callpath_model *m, uint32_t idx,
			     uint32_t *path, uint32_t max);

/* Add `samples` to frame `idx`'s self samples (and the model's total). */
void callpath_model_add_samples(struct callpath_model *m, uint32_t idx,
				uint64_t samples);

/* Inclusive samples per frame: the frame's own plus its descendants'
 * (`incl` has nr_frames entries; one pass, children after parents). */
void callpath_model_inclusive(const struct callpath_model *m, uint64_t *incl);


/*
 * The share of the process's CPU time the time samples cover (1.0: all),
 * or -1 when unknown (no process CPU time recorded, or a metric that is
 * not CPU time).  callpath_coverage_print() says it in one line, and warns
 * below SIDECAR_CPU_COVERAGE_WARN; nothing when unknown.
 */
double callpath_model_coverage(const struct callpath_model *m);

#endif
