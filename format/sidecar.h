/*
 * sidecar.h - the call-path sidecar format (`gmon.out.callpath`).
 *
 * One module shared by the runtime (writer, at process exit) and the
 * analysis side (reader, `gprof --callpath/--folded`).  The byte layout is
 * documented in doc/dev/sidecar-format.md; this header is the in-memory model.
 *
 * The model is a calling-context tree.  A node is one (call site, callee)
 * pair under its parent; the path of a node is the vector of call sites
 * from the root (iPath's representation).  Invariants kept by every function
 * here and checked by the reader:
 *   - nodes[i].parent is SIDECAR_ROOT or an index < i (parents come first,
 *     so one pass in index order visits parents before children);
 *   - no two children of one parent share (call_site, callee).
 *
 * Calling sequence:
 *   writer:  sc = sidecar_new(); sidecar_add(sc, ...) per node, fill the
 *            header fields; sidecar_write_atomic(sc, path, ...); sidecar_free(sc);
 *   reader:  sidecar_read(path, &sc, err, sizeof(err)); ...; sidecar_free(sc);
 *   summing: total = the first file read; sidecar_merge(total, one, ...) for
 *            each further file (model/sum.h does this for gmon files).
 *
 * Ownership: a struct sidecar owns its nodes, strings and index.  Nothing
 * returned by these functions points into another sidecar.  Library code
 * never exits: failures return -1 with a message in `err` that names the
 * file and what is wrong first, e.g.
 *   cannot read 'x.callpath': truncated node table at byte 4112
 */
#ifndef CALLPATH_SIDECAR_H
#define CALLPATH_SIDECAR_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#define SIDECAR_MAGIC        "EGPROFCP"	/* 8 bytes, no terminator on disk */
#define SIDECAR_VERSION      4u	/* written; versions 1 to 3 are still read */
#define SIDECAR_VERSION_MIN  1u
#define SIDECAR_NODE_SIZE_V1 40u	/* bytes per node record (versions 1 and 2) */
#define SIDECAR_NODE_SIZE_V3 48u	/* version 3: + recursive, self_samples */
/* version 4: tagged sections; a node record is 40 bytes + 8 per metric */
#define SIDECAR_NODE_SIZE_V4(nmetrics) (40u + 8u * (nmetrics))
#define SIDECAR_METRICS_MAX  64	/* metrics a file may describe */
#define SIDECAR_ROOT         UINT32_MAX	/* parent index of top-level nodes */
#define SIDECAR_BUILD_ID_MAX 64
#define SIDECAR_SUFFIX       ".callpath"

/* Header flags. */
enum {
	SIDECAR_F_FENTRY = 1u << 0,	/* recorded through __fentry__ (-mfentry) */
	SIDECAR_F_DEPTH_LIMITED = 1u << 1,	/* paths cut to the last `depth` frames */
	SIDECAR_F_MERGED = 1u << 2,	/* sum of several processes (sidecar_merge) */
	SIDECAR_F_RECURSION_FULL = 1u << 3,	/* recursion not folded (CALLPATH_RECURSION=full) */
	/*
	 * Sampling mode: the paths are the stacks of the samples, walked by
	 * the runtime, and calls were not counted (every count is 0 and
	 * means "not measured").  The file has the sampled section
	 * (struct sidecar_unwind); nodes are frames of any object, callee
	 * the start of the frame's function; a top-level node of callee 0
	 * holds the paths whose walk did not reach their root (`[truncated]`).
	 */
	SIDECAR_F_SAMPLED = 1u << 4,
};

/* Do the counts of `flags`' file mean calls (not a sampled file)? */
#define SIDECAR_CALLS_MEASURED(flags) (!((flags) & SIDECAR_F_SAMPLED))

/* Why a sampled stack walk ended (the sampled section counts each). */
enum sidecar_unwind_end {
	SIDECAR_UNWIND_COMPLETE,	/* at the root: main, a thread's start, an outermost frame */
	SIDECAR_UNWIND_NO_OBJECT,	/* a program counter in no loaded object (JIT code) */
	SIDECAR_UNWIND_NO_CFI,		/* code without unwind information */
	SIDECAR_UNWIND_BAD_READ,	/* a saved register outside the stack */
	SIDECAR_UNWIND_BAD_RETURN,	/* a return address not right after a call */
	SIDECAR_UNWIND_DEPTH,		/* deeper than the walk's bound */
	SIDECAR_UNWIND_BAD_CFI,		/* unwind information the walk cannot follow */
	SIDECAR_UNWIND_NO_PROGRESS,	/* the stack pointer did not grow */
	SIDECAR_UNWIND_BUSY,		/* a library was being unloaded */
	SIDECAR_UNWIND_END_NR
};
extern const char *const sidecar_unwind_end_names[SIDECAR_UNWIND_END_NR];

/* The sampled section: how the walks went (SIDECAR_F_SAMPLED files). */
struct sidecar_unwind {
	uint32_t max_frames;	/* the walk's bound */
	uint64_t walked;	/* samples whose stack was walked */
	uint64_t ends[SIDECAR_UNWIND_END_NR];	/* walks by how they ended */
};

/*
 * The header's sampling state (version 3): whether the runtime credited
 * time samples (the SIGPROF ticks of gmon.out's histogram) to calling
 * contexts, and whether that stopped early.  0 when no samples were taken
 * (versions 1 and 2, a run without profiling timer).
 */
enum {
	SIDECAR_SAMPLING_SELF = 1u << 0,	/* self_samples are filled */
	/*
	 * The program or a library replaced the SIGPROF handler or the
	 * profiling timer: samples after that point were not credited, so the
	 * per-context times cover only part of the run.
	 */
	SIDECAR_SAMPLING_STOPPED = 1u << 1,
};

/*
 * Node flags (version 3).  A folded-recursion node stands for recursive
 * calls folded into its parent (bounded calling-context tree): calls of the
 * parent's callee made from `call_site` while the parent was already on the
 * path.  Its callee is its parent's, its count is 0 and `recursive` holds
 * those calls.  It never has children.
 *
 * A leaf node (version 4) is a sampled program counter under the context
 * whose innermost live instrumented frame it was taken in (or at the top
 * level when the thread had none): its `callee` is the program counter,
 * its `call_site` its kind (SIDECAR_LEAF_*, so that a leaf never shares a
 * key with a call's node), count and recursive 0, metrics only, no
 * children.  The runtime records every sample so; the reader decides what
 * the program counter is (model/leaves.h): the context's own function
 * (its self time), another function's first bytes before its mcount call
 * (that function's), an uninstrumented function of the program, a
 * library function, the instrumentation.
 */
enum {
	SIDECAR_NODE_FOLDED = 1u << 0,
	SIDECAR_NODE_LEAF = 1u << 1,
};
/* A leaf's call_site: what the runtime knew of its program counter. */
enum {
	SIDECAR_LEAF_PC = 1,		/* a sampled program counter */
	/* inside the instrumentation (the trampolines, glibc's counter, the
	 * runtime itself): overhead, never a function's time */
	SIDECAR_LEAF_OVERHEAD = 2,
};

/*
 * Which gmon file a sidecar belongs to (version 4): recorded by the writer
 * once the gmon file is complete, checked by every reader against the gmon
 * file it pairs the sidecar with (model/sum.h), so that a sidecar left
 * from another run is refused whatever the counts say.
 */
enum {
	SIDECAR_ID_HASHED = 1u << 0,	/* gmon_size and gmon_hash are the file's */
	SIDECAR_ID_SUM = 1u << 1,	/* the sidecar of a sum (gmon.sum, egprof-sum) */
};
struct sidecar_identity {
	uint32_t flags;		/* SIDECAR_ID_*; 0: no identity (versions 1 to 3) */
	uint32_t snapshot;	/* 0 for the profile written at exit, else 1, 2, ... */
	uint64_t gmon_size;	/* bytes of the gmon file (SIDECAR_ID_HASHED) */
	uint64_t gmon_hash;	/* sidecar_hash() of its bytes (SIDECAR_ID_HASHED) */
	uint64_t run_id;	/* random, one per process run */
	uint64_t time_ns;	/* when the sidecar was written, ns since the epoch */
	char *gmon_name;	/* owned: the gmon file's name as written, never NULL */
};

/*
 * Metrics per node (version 4).  The time samples the runtime credits
 * (self_samples, `sampling`, `unplaced_samples`) are the model's first
 * metric; a file may carry others, kept in `extra_metrics` and summed by
 * name.  Kinds say what a value counts; flags qualify it.
 */
enum sidecar_metric_kind {
	SIDECAR_METRIC_CPU_SAMPLES = 1,	/* CPU-time samples (timer ticks) */
	SIDECAR_METRIC_WALL_SAMPLES = 2,	/* wall-clock samples while off-CPU */
	SIDECAR_METRIC_EVENTS = 3,	/* hardware or software event counts */
};
enum {
	SIDECAR_METRIC_ESTIMATED = 1u << 0,	/* scaled, not counted exactly */
	SIDECAR_METRIC_MULTIPLEXED = 1u << 1,	/* counter time-shared */
	/* the source stopped early (its handler or timer was replaced): the
	 * values cover part of the run */
	SIDECAR_METRIC_STOPPED = 1u << 2,
	/* the source never ran (no profiling timer): the values are all 0 */
	SIDECAR_METRIC_INACTIVE = 1u << 3,
	/* events counted in user mode only (the system forbade kernel mode):
	 * what happens in the kernel (context switches, a fault's handling)
	 * is not in the values */
	SIDECAR_METRIC_USER_ONLY = 1u << 4,
};
struct sidecar_metric {
	char *name;		/* owned, e.g. "prof-timer", "PAPI_TOT_CYC" */
	char *unit;		/* owned, e.g. "samples", "events" */
	uint32_t kind;		/* enum sidecar_metric_kind */
	uint32_t flags;		/* SIDECAR_METRIC_* */
	uint64_t period;	/* ns per sample, or events per overflow; 0 unknown */
	uint64_t unplaced;	/* samples or events no context could take */
	/*
	 * Samples taken (signals handled, sampler observations): the values
	 * are weighted (a timer signal that stands for several periods counts
	 * them all), so a value v carries a sampling noise of sqrt(v * mean
	 * weight), the mean weight being (sum of values + unplaced) / taken.
	 * 0 when unknown (files before issue 22): weight 1.
	 */
	uint64_t taken;
};
/*
 * The name and unit of the time samples: the runtime's per-thread CPU-time
 * timers (CALLPATH_HZ); "prof-timer" in files of the runtime before issue
 * 22, which chained glibc's 100 Hz SIGPROF.
 */
#define SIDECAR_TIME_METRIC_NAME "cpu-time"
#define SIDECAR_TIME_METRIC_UNIT "samples"
/* The off-CPU samples of CALLPATH_CLOCK=wall (kind SIDECAR_METRIC_WALL_SAMPLES). */
#define SIDECAR_OFFCPU_METRIC_NAME "off-cpu"

/*
 * A loaded object of the recorded process (version 4): the main program,
 * shared libraries, the vDSO.  Readers name program counters outside the
 * main program with them (issue 22's leaf frames).
 */
enum {
	SIDECAR_OBJECT_MAIN = 1u << 0,	/* the main program */
};
struct sidecar_object {
	char *path;		/* owned, as the dynamic loader names it */
	uint64_t start, end;	/* run-time address range of its PT_LOAD segments */
	uint64_t bias;		/* load bias: run-time address - address in the file */
	uint32_t flags;		/* SIDECAR_OBJECT_* */
	uint32_t build_id_len;
	unsigned char build_id[SIDECAR_BUILD_ID_MAX];
};

/* Why calls were not recorded; one counter each in the header. */
enum sidecar_drop {
	SIDECAR_DROP_REENTRY,	/* call arrived while this thread was inside the runtime */
	SIDECAR_DROP_NODES,	/* node bound (CALLPATH_MAX_NODES) reached */
	SIDECAR_DROP_DEPTH,	/* shadow stack full (CALLPATH_MAX_DEPTH) */
	SIDECAR_DROP_STOPPED,	/* recording stopped (failure, or after exit began) */
	SIDECAR_DROP_NR
};
extern const char *const sidecar_drop_names[SIDECAR_DROP_NR];

/* Internal failures of the runtime; the first one stops recording. */
enum sidecar_failure {
	SIDECAR_FAIL_NONE,
	SIDECAR_FAIL_MMAP,		/* could not map a node pool, table or stack */
	SIDECAR_FAIL_NO_NEXT_MCOUNT,	/* glibc's mcount/__fentry__ not found */
	SIDECAR_FAIL_HASH,		/* node index could not grow */
	SIDECAR_FAIL_NR
};
extern const char *const sidecar_failure_names[SIDECAR_FAIL_NR];

struct sidecar_node {
	uint32_t parent;	/* SIDECAR_ROOT or index of the parent node */
	uint32_t flags;		/* SIDECAR_NODE_*; 0 before version 3 */
	uint64_t call_site;	/* return address in the caller (run-time address),
				   0 when the caller is outside the program */
	uint64_t callee;	/* address inside the callee (mcount's selfpc) */
	uint64_t count;		/* calls along this path */
	/*
	 * Recursive calls folded into the parent through this node's call
	 * site (version 3; SIDECAR_NODE_FOLDED nodes only, else 0): a report
	 * shows the parent's calls as `count+recursive` (summed over its
	 * folded children), as gprof shows recursive calls.
	 */
	uint64_t recursive;
	/* SIGPROF samples taken while this context was the innermost live
	 * instrumented frame (header sampling bit 0), else 0 */
	uint64_t self_samples;
};

/*
 * Per-thread values (the optional threads section, doc/dev/sidecar-format.md):
 * the tree stays the process's, merged; this says, for each thread kept
 * apart and for the rest summed as one entry (SIDECAR_THREAD_OTHER), the
 * calls and time samples it contributed to each node it reached.  Over all
 * entries, a node's values sum exactly to the node's (calls: count +
 * recursive; samples: self_samples): the reader refuses a file where they
 * do not.
 */
enum {
	SIDECAR_THREAD_OTHER = 1u << 0,	/* the threads not kept apart, summed */
	SIDECAR_THREAD_MAIN = 1u << 1,	/* the process's main thread */
};
#define SIDECAR_THREADS_DEFAULT 64u	/* threads kept apart (CALLPATH_THREADS) */
#define SIDECAR_THREADS_MAX 4096u
struct sidecar_thread_value {
	uint32_t node;		/* index in the tree */
	uint64_t calls;		/* its calls by this thread (count or recursive) */
	uint64_t samples;	/* its time samples taken on this thread */
};
struct sidecar_thread {
	uint64_t tid;		/* 0 for SIDECAR_THREAD_OTHER */
	uint32_t flags;		/* SIDECAR_THREAD_* */
	uint32_t threads;	/* threads summed in this entry (1 unless OTHER) */
	char *name;		/* owned, NUL-terminated: the thread's name (comm) */
	/* owned; in node order without repeats once sidecar_threads_finish()
	 * or the reader has run */
	struct sidecar_thread_value *values;
	uint32_t nr_values, alloc_values;
};

struct sidecar {
	uint32_t version;
	uint32_t flags;		/* SIDECAR_F_* */
	uint64_t pid;
	uint64_t ppid;		/* pid of the parent if this process is a fork child, else 0 */
	int32_t rank;		/* MPI rank, -1 when none was set */
	uint32_t depth;		/* CALLPATH_DEPTH, 0 = full paths */
	uint32_t failure;	/* enum sidecar_failure */
	uint32_t threads;	/* threads whose trees were merged */
	uint32_t sampling;	/* SIDECAR_SAMPLING_*; 0 before version 3 */
	/*
	 * Samples that could not be placed in a context (the thread inside the
	 * runtime or not started, the program counter outside the program, no
	 * live recorded frame); counted, never guessed.  32 bits on disk,
	 * saturating.
	 */
	uint64_t unplaced_samples;
	uint64_t load_address;	/* load bias of the main program (0 unless PIE) */
	/* The main program's image, run-time addresses [start, end); both 0
	 * when unknown (read from a version-1 file). */
	uint64_t program_start, program_end;
	uint64_t dropped[SIDECAR_DROP_NR];
	char *host;		/* owned, NUL-terminated, never NULL after sidecar_new */
	char *exe;		/* owned, NUL-terminated, never NULL after sidecar_new */
	/* their bytes as the file records them: a forged file may hold a NUL
	 * inside, which cuts the C strings (cpdump shows every byte) */
	uint32_t host_len, exe_len;
	unsigned char build_id[SIDECAR_BUILD_ID_MAX];
	uint32_t build_id_len;

	struct sidecar_identity id;	/* version 4; flags 0 before */
	struct sidecar_unwind unwind;	/* SIDECAR_F_SAMPLED files; 0 otherwise */
	/* Metrics beyond the time samples (version 4): descriptions, and
	 * nr_extra values per node, node i's at extra_values[i * nr_extra]. */
	struct sidecar_metric *extra_metrics;	/* owned */
	uint32_t nr_extra;
	uint64_t *extra_values;		/* owned; NULL when nr_extra is 0 */
	/* The time metric's description when the file had one (version 4). */
	uint64_t time_period;		/* ns per sample, 0 unknown */
	uint64_t time_taken;		/* its samples taken (struct sidecar_metric) */
	/*
	 * The process's CPU time, getrusage(RUSAGE_SELF) when the time samples
	 * stopped (the optional section 7; files without it: valid 0): what
	 * the samples could cover, sidecar_cpu_coverage().  A sum of sidecars
	 * has the sum when every one had it.
	 */
	struct sidecar_process_cpu {
		uint32_t valid;
		uint64_t user_ns, sys_ns;
	} process_cpu;
	char *time_name;		/* owned: its name, SIDECAR_TIME_METRIC_NAME by default */
	struct sidecar_object *objects;	/* owned */
	uint32_t nr_objects;

	struct sidecar_node *nodes;	/* owned; nr_nodes valid entries */
	uint32_t nr_nodes;

	/* Per-thread values (none: the file has no threads section). */
	struct sidecar_thread *thread_views;	/* owned */
	uint32_t nr_thread_views;
	uint32_t thread_limit;		/* threads the writer kept apart at most */

	/* private: capacity and the (parent, call site, callee) index */
	uint32_t alloc_nodes;
	uint32_t alloc_extra;		/* nodes extra_values has room for */
	struct sidecar_index *index;
};

/*
 * The share of the process's CPU time that `samples` time samples (all of
 * them, placed or not) of time_period ns each cover: 1.0 is all of it.
 * -1 when the file does not say (no process CPU time, no period, or none
 * used).  Below SIDECAR_CPU_COVERAGE_WARN, readers warn: time ran where
 * no sample could see it (threads too short for their timer, threads
 * without an instrumented call, the runtime's own threads).
 */
#define SIDECAR_CPU_COVERAGE_WARN 0.9
double sidecar_cpu_coverage(const struct sidecar *sc, uint64_t samples);

/* An empty tree with version set and rank -1; NULL when out of memory. */
struct sidecar *sidecar_new(void);
void sidecar_free(struct sidecar *sc);

/* Replace host/exe (copied).  0 or -1 (out of memory). */
int sidecar_set_strings(struct sidecar *sc, const char *host, const char *exe);

/* Replace the time metric's name (copied; SIDECAR_TIME_METRIC_NAME by
 * default).  0 or -1 (out of memory). */
int sidecar_set_time_name(struct sidecar *sc, const char *name);

/* Replace the identity's gmon file name (copied).  0 or -1. */
int sidecar_set_gmon_name(struct sidecar *sc, const char *name);

/*
 * Add a loaded object (strings copied).  0 or -1 (out of memory, or
 * SIDECAR_BUILD_ID_MAX exceeded).
 */
int sidecar_add_object(struct sidecar *sc, const char *path, uint64_t start,
		       uint64_t end, uint64_t bias, uint32_t flags,
		       const unsigned char *build_id, uint32_t build_id_len);

/*
 * Add a metric beyond the time samples (strings copied); its values start
 * at 0 for every node.  Its index among the extra metrics, or -1.
 */
int sidecar_add_metric(struct sidecar *sc, const char *name, const char *unit,
		       uint32_t kind, uint32_t flags, uint64_t period);

/*
 * The 64-bit hash of a gmon file's bytes that identities record: defined
 * in doc/dev/sidecar-format.md, the same on every host.  sidecar_hash_begin,
 * then sidecar_hash_add for each piece in order (any sizes), then
 * sidecar_hash_end.
 */
struct sidecar_hash {
	uint64_t h, len, tail;
	uint32_t ntail;
};
void sidecar_hash_begin(struct sidecar_hash *hs);
void sidecar_hash_add(struct sidecar_hash *hs, const void *buf, size_t len);
uint64_t sidecar_hash_end(const struct sidecar_hash *hs);

/*
 * Size and hash of the regular file `path`, read with plain system calls
 * (no allocation: the runtime calls it at exit).  0, or -1 with errno set
 * (EINVAL when it is not a regular file).
 */
int sidecar_hash_file(const char *path, uint64_t *size, uint64_t *hash);

/*
 * Find the child (call_site, callee) of `parent`, creating it when missing,
 * and add `count` to it.  Its index is stored in *idx.  0 or -1 (out of
 * memory, bad parent, or more than UINT32_MAX - 1 nodes).
 */
int sidecar_add(struct sidecar *sc, uint32_t parent, uint64_t call_site,
		uint64_t callee, uint64_t count, uint32_t *idx);

/* Is node `n` a leaf (a sampled program counter)? */
static inline int sidecar_node_is_leaf(const struct sidecar_node *n)
{
	return (n->flags & SIDECAR_NODE_LEAF) != 0;
}

/*
 * Add a leaf (a sampled program counter `pc` of kind SIDECAR_LEAF_*) under
 * `parent`, or find it; its index in *idx.  0 or -1 (out of memory, bad
 * parent or kind, a parent that is a leaf or folded).
 */
int sidecar_add_leaf(struct sidecar *sc, uint32_t parent, uint32_t kind,
		     uint64_t pc, uint32_t *idx);

/* The value of extra metric k of node i (0 when k is out of range). */
static inline uint64_t sidecar_extra_value(const struct sidecar *sc, uint32_t i,
					   uint32_t k)
{
	return k < sc->nr_extra ? sc->extra_values[(size_t)i * sc->nr_extra + k] : 0;
}

/* The object of `sc` whose address range holds `addr`, or NULL. */
const struct sidecar_object *sidecar_object_of(const struct sidecar *sc,
					       uint64_t addr);

/* Index of the child or SIDECAR_ROOT when there is none. */
uint32_t sidecar_find(const struct sidecar *sc, uint32_t parent,
		      uint64_t call_site, uint64_t callee);

/*
 * Key comparisons made so far by sidecar_add, sidecar_find, sidecar_merge
 * and the reader's duplicate check on `sc` (its index is a hash table of
 * balanced trees: O(log n) of them per node found or added, whatever the
 * addresses, about one on ordinary keys).  For tests and benchmarks.
 */
uint64_t sidecar_index_comparisons(const struct sidecar *sc);

/* Is `addr` inside the main program's image?  0 when the range is unknown. */
static inline int sidecar_in_program(const struct sidecar *sc, uint64_t addr)
{
	return addr >= sc->program_start && addr < sc->program_end;
}

/*
 * The call site as a sidecar records it: 0 ("external") when it is outside
 * the program (the C library calling main, a callback from qsort, code of
 * any shared library), so that such calls line up across processes that
 * load the libraries at different addresses.  Unchanged when the program's
 * range is unknown.  The runtime applies it when writing.
 */
static inline uint64_t sidecar_canonical_site(const struct sidecar *sc,
					      uint64_t call_site)
{
	if (!sc->program_end || sidecar_in_program(sc, call_site))
		return call_site;
	return 0;
}

/*
 * Add every path of `src` into `dst` (counts summed where (call site, callee)
 * paths match, new paths appended), and sum the dropped counters and thread
 * counts.
 *
 * The merged tree is expressed in dst's address space: src's addresses
 * inside src's program range are shifted by dst->load_address -
 * src->load_address first, so two processes of one PIE program, loaded at
 * different addresses, line up (the shift is 0 without PIE and between
 * threads of one process).  Other addresses are kept: external call sites
 * are 0 in every process, and callees in instrumented shared libraries are
 * not rebased (they line up only where the library was loaded at the same
 * address).  A src without a program range (version 1) has every non-zero
 * address shifted, as version 1 did; a dst without one takes src's, moved.
 *
 * A src whose build-id differs from dst's, when both have one, comes from
 * another binary: refused with an error naming both build-ids, dst
 * unchanged.  A dst without a build-id takes src's.
 *
 * Other header fields of `dst` are kept, except: SIDECAR_F_MERGED is set
 * when the pids differ, and rank becomes -1 when the ranks differ (a sum of
 * several ranks is no one rank).  0 or -1 with `err` set; after an
 * out-of-memory failure dst holds part of src.  1 when a sum (a count,
 * recursive calls, samples, a dropped counter) passed 2^64 - 1: it is
 * saturated there, never wrapped (utils/satmath.h), and the caller, which
 * knows the file's name, warns.
 */
/* What a caller of sidecar_merge() says, after the file's name, when it
 * returned 1. */
#define SIDECAR_SATURATED "a sum of calls or samples with the files before " \
	"it passes 2^64 - 1: it is kept at 18446744073709551615 (saturated), " \
	"not wrapped (a corrupt or forged sidecar?)"

int sidecar_merge(struct sidecar *dst, const struct sidecar *src,
		  char *err, size_t errlen);

/*
 * Depth of node `idx` (1 for a top-level node); stores up to `max` node
 * indices of its path, root side first, in `path` (may be NULL).
 */
uint32_t sidecar_path(const struct sidecar *sc, uint32_t idx,
		      uint32_t *path, uint32_t max);

/* Sum of the calls of all nodes (count + recursive), saturated at 2^64 - 1. */
uint64_t sidecar_total(const struct sidecar *sc);

/* Sum of the placed time samples of all nodes (self_samples), saturated. */
uint64_t sidecar_total_samples(const struct sidecar *sc);

/*
 * Recursive calls folded into each node: into[i] = the sum of `recursive`
 * over node i's folded children (one pass; `into` has nr_nodes entries).
 */
void sidecar_folded_sums(const struct sidecar *sc, uint64_t *into);

/* Does `sc` fold recursion (version 3 without SIDECAR_F_RECURSION_FULL)? */
static inline int sidecar_folds_recursion(const struct sidecar *sc)
{
	return sc->version >= 3 && !(sc->flags & SIDECAR_F_RECURSION_FULL);
}

/*
 * Per-thread values.  sidecar_thread_new() adds an entry (name copied;
 * NULL: none) and returns its index, or -1 (out of memory).
 * sidecar_thread_add() adds `calls` and `samples` of node `node` to entry
 * `t` (repeats allowed: summed by sidecar_threads_finish()); 0 or -1.
 */
int sidecar_thread_new(struct sidecar *sc, uint64_t tid, uint32_t flags,
		       uint32_t threads, const char *name);
int sidecar_thread_add(struct sidecar *sc, uint32_t t, uint32_t node,
		       uint64_t calls, uint64_t samples);

/*
 * Put each entry's values in node order, summing repeats and dropping
 * zeros, and add the SIDECAR_THREAD_OTHER entry: what the tree holds
 * beyond the entries' sums (the threads not kept apart, `other_threads`
 * of them), so that the sums are exact.  Where the entries hold more than
 * a node (a writer's inconsistency) every entry is dropped: 1.  0, 1, or
 * -1 (out of memory: every entry dropped too).
 */
int sidecar_threads_finish(struct sidecar *sc, uint32_t other_threads);

/* Drop every per-thread entry (a sum of files keeps none). */
void sidecar_threads_clear(struct sidecar *sc);

/*
 * Do the entries sum to each node's values exactly?  0, or -1 with `err`
 * naming the first node that does not.
 */
int sidecar_threads_check(const struct sidecar *sc, char *err, size_t errlen);

/* Serialised size in bytes (version 4); sidecar_encode fills a buffer of
 * that size. */
size_t sidecar_encoded_size(const struct sidecar *sc);
void sidecar_encode(const struct sidecar *sc, unsigned char *buf);

/* The encoding to an open stream (the analysis side writes its files
 * through utils/outfile.h).  0, or -1 on a failed write or no memory. */
int sidecar_write_fp(const struct sidecar *sc, FILE *fp);

/*
 * The runtime's writer, which treats the sidecar path as glibc treats
 * gmon.out: a symbolic link there is refused (-1, `err` says so, nothing
 * written); a FIFO, a character device or another file that is not a
 * regular file is opened and written into (as glibc writes into them); a
 * regular file or a new name is written to a temporary file in the same
 * folder, created with mode 0666 less the umask (gmon.out's), and renamed
 * over it, so a reader never sees half a file.  The process's umask is
 * never changed.  0, or -1 with `err` naming the file and the reason.
 */
int sidecar_write_atomic(const struct sidecar *sc, const char *path,
			 char *err, size_t errlen);

/*
 * Parse `len` bytes; `name` is used in messages only.  On success *out owns
 * a new tree.  Truncated, foreign, future-version or inconsistent input
 * returns -1 with `err` like "cannot read 'NAME': bad magic".
 */
int sidecar_decode(const void *buf, size_t len, const char *name,
		   struct sidecar **out, char *err, size_t errlen);
int sidecar_read(const char *path, struct sidecar **out,
		 char *err, size_t errlen);

/*
 * What identifies a run, without its contexts: a version-4 file's header,
 * its chain of section headers (to the file's size) and its process and
 * identity sections (rank, pid, program range, build-id, the gmon file it
 * belongs to); no node, metric or object is read or checked, so a reader
 * that goes on to the contexts reads the file whole (sidecar_read) once.
 * A file of an older version, or not a sidecar, is read by sidecar_read.
 * The sidecar's nr_nodes is 0.  0, or -1 with `err` naming the file.
 */
int sidecar_read_head(const char *path, struct sidecar **out, char *err, size_t errlen);

/*
 * Does `sc` belong to the gmon file `gmon`?  A sidecar of version 4 records
 * the size and hash of the gmon file it was written with; another file's
 * bytes are another run's.  1 when it belongs, or nothing can tell (a
 * sidecar without identity, versions 1 to 3; a gmon file that is not a
 * regular file or cannot be read: its reader reports that); 0 when it does
 * not, `why` then saying what differs ("recorded with a gmon file of 2966
 * bytes, hash ..., and 'gmon.out' has 3012 bytes, hash ...").  The one
 * test of every reader (model/sum.h's callpath_pair_check() reports it).
 */
int sidecar_belongs_to(const struct sidecar *sc, const char *gmon,
		       char *why, size_t whylen);

/*
 * The sidecar name for a gmon file name: "gmon.out" -> "gmon.out.callpath".
 * Returns the length written (like snprintf) or -1 when it does not fit.
 */
int sidecar_name_for(const char *gmon_name, char *buf, size_t buflen);

#endif
