/*
 * runtime.h - internal interfaces of the call-path runtime (libcallpath).
 *
 * Three parts, linked into libcallpath.so / libcallpath.a:
 *   arch/<arch>/mcount.S  entry points mcount/_mcount/__fentry__: the
 *                         fast path (caller near the top of the shadow
 *                         stack, edge in the edge cache) in assembly,
 *                         otherwise call cp_enter_*(); then glibc's
 *                         counter (cp_next_*) until the runtime has taken
 *                         gmon.out over, nothing after;
 *   record.c              the per-call slow path: shadow stack and per-thread
 *                         calling-context tree, allocated as used, and the
 *                         retired tree that ended threads are merged into.
 *                         Compiled with -mgeneral-regs-only and calling
 *                         nothing but raw system calls, so the trampolines
 *                         need not save vector registers;
 *   stack.c               which stack a thread runs on, and reading a
 *                         shadow-stack entry's frame only where that is
 *                         safe (same constraints as record.c);
 *   sample.c              the SIGPROF handler (time per context) and the
 *                         signal(), sigaction() and setitimer() interposers;
 *   thread.c              threads' start and end in normal context: the
 *                         pthread_create wrapper and the key destructor
 *                         that retires a thread's state;
 *   gmonfile.c            which gmon file was written for this run, and
 *                         its hash (the sidecar's identity);
 *   gmon_*.c              gmon.out written by the runtime: its arcs are
 *                         the trees' (gmon_arcs.c), glibc's counter is not
 *                         called, the take-over is gmon_interpose.c
 *                         (dynamic) or gmon_static.c (static), the file
 *                         gmon_out.c's (doc/dev/runtime.md);
 *   runtime.c             start-up (environment, glibc chaining), fork,
 *                         and the exit-time merge and sidecar write.
 * chain.c finds glibc's functions; it is shared with the no-op build
 * (libcallpath-noop.so) that only tail-jumps, for measuring overhead.
 * doc/dev/runtime.md says which context each part runs in.
 *
 * Nothing here may exit or abort the profiled program: a failure calls
 * cp_fail(), which stops recording and leaves a code for the sidecar.
 */
#ifndef CALLPATH_RUNTIME_H
#define CALLPATH_RUNTIME_H

/*
 * Layout the trampolines read (arch/x86_64/mcount.S includes this file;
 * record.c checks every offset with _Static_assert).
 */
#define CP_TLS_TOP	0	/* struct cp_tls */
#define CP_TLS_LIMIT	8
#define CP_TLS_CACHE	16
#define CP_TLS_STACK_LO	32
#define CP_TLS_STACK_SPAN 40
#define CP_TLS_CACHE_MASK 48	/* the edge cache's set index mask, << CP_SET_SHIFT */
#define CP_TLS_CLOCK	56	/* calls so far: the last-call stamp of gmon.out's arcs */
#define CP_FRAME_SIZE	16	/* struct cp_frame */
#define CP_FRAME_FP	0
#define CP_FRAME_NODE	8
#define CP_FRAME_POPS	3	/* sentinels under the root's entry */
#define CP_FRAME_STEPS	8	/* stale entries mcount's fast path steps over */
#define CP_NODE_SITE	0	/* struct cp_node */
#define CP_NODE_CALLEE	8
#define CP_NODE_COUNT	16
#define CP_NODE_STAMP	24
#define CP_NODE_KIDS	40	/* struct cp_node *[CP_KIDS] */
#define CP_NODE_SIZE	56
#define CP_KIDS		2
#define CP_CACHE_BITS	10	/* struct cp_edge cache: 1 << CP_CACHE_BITS sets at first */
#define CP_CACHE_MAX_BITS 13	/* grown up to this (record.c) */
#define CP_EDGE_SHIFT	4	/* sizeof(struct cp_edge) == 1 << CP_EDGE_SHIFT */
#define CP_CACHE_WAYS	2	/* entries per set, side by side */
#define CP_SET_SHIFT	5	/* a set's bytes: 1 << CP_SET_SHIFT */
#define CP_EDGE_PARENT_SHIFT 20	/* cp_edge_index() */
#define CP_EDGE_MUL	0x9e3779b97f4a7c15	/* 2^64 / the golden ratio, odd */
#define CP_EDGE_HASH_SHIFT 40	/* the index: the product's bits 40 and up */
#define CP_EDGE_PARENT	0
#define CP_EDGE_CHILD	8
#define CP_STATE_IDLE 0
#define CP_STATE_RECORDING 1
#define CP_STATE_ARCS_OFF 3

#ifndef __ASSEMBLER__

#include <stdint.h>

#include "format/sidecar.h"

#define CP_HIDDEN __attribute__((visibility("hidden")))
#define CP_NONE UINT32_MAX	/* no node; equal to SIDECAR_ROOT */

/* cp_state: recording happens only in CP_RECORDING. */
/*
 * CP_ARCS_OFF: recording, but gmon.out's arcs are off (moncontrol(0) once
 * the runtime has taken gmon.out over, gmon_arcs.c): every call takes the
 * slow path, which also counts it in the off table.
 */
enum { CP_IDLE = CP_STATE_IDLE, CP_RECORDING = CP_STATE_RECORDING, CP_STOPPED,
       CP_ARCS_OFF = CP_STATE_ARCS_OFF };

struct cp_config {
	uint32_t depth;		/* CALLPATH_DEPTH: keep last k frames, 0 = all */
	uint32_t max_nodes;	/* CALLPATH_MAX_NODES: per-thread node bound */
	uint32_t max_depth;	/* CALLPATH_MAX_DEPTH: shadow stack entries */
	uint32_t fold;		/* fold recursion (CALLPATH_RECURSION, default) */
	uint32_t threads;	/* CALLPATH_THREADS: threads kept apart, 0 = none */
};

/*
 * One calling-context-tree node in a thread's pool (56 bytes).
 *
 * Recursion is folded (the bounded calling-context tree of Ammons, Ball and
 * Larus): a call whose callee is already on the path goes back to that
 * ancestor A instead of growing the path.  It is counted in a folded node,
 * a child of A keyed (A, call site, callee) with CP_NODE_FOLDED set: one per
 * call site the recursion comes back through, whatever the depth.  A frame
 * running a folded call has the folded node as its node, and stands for A:
 * its calls are A's children (or fold again).  The choice is made when the
 * edge (frame's node, call site, callee) is first resolved and the edge
 * cache keeps it, so a recursion's calls are fast-path cache hits.
 *
 * kids are the children last resolved in record.c from a frame whose node
 * this is, most recent first: the trampolines' first look-up, which
 * compares the kid's own call site and callee with the call's.  Most frames
 * call one or two children over and over (a loop, a recursion's two calls),
 * and there the look-up needs no hash and no parent compare.  An empty kid
 * is cp_no_kid (callee 0, which no call has), never NULL, so the
 * trampolines need no test.  Only the owner thread reads or writes them
 * (never the exit writer or the sampler), and never while it is busy.
 */
struct cp_node {
	uint64_t call_site;
	uint64_t callee;
	uint64_t count;
	/*
	 * The thread's cp_tls.clock at its last call: gmon.out lists a call
	 * site's arcs most recently called first, as glibc's mcount keeps
	 * them, and gprof's call graph depends on that order where counts tie.
	 */
	uint64_t stamp;
	uint32_t parent;	/* CP_NONE for children of the root */
	uint32_t flags;		/* CP_NODE_FOLDED */
	struct cp_node *kids[CP_KIDS];
};
#define CP_NODE_FOLDED 1u
/* every node's kids until filled: no call matches it (record.c) */
extern struct cp_node cp_no_kid CP_HIDDEN;

/*
 * One entry of a thread's edge cache: a two-way set-associative table of tree edges
 * (parent, call site, callee) -> child, indexed by cp_edge_index(), filled by
 * record.c and read by the trampolines' fast path.  The call site and
 * callee are the child's own (a child, folded or not, holds the call site
 * and callee it was resolved for, as the kids' look-up relies on), so an
 * entry is 16 bytes and a hit reads the child's line, which the count
 * touches anyway.  Nodes never move, so an entry never goes stale; a
 * conflict only costs a hash lookup.  An empty entry's parent is NULL,
 * which no frame has, so its child is never read.
 */
struct cp_edge {
	struct cp_node *parent;
	struct cp_node *child;
};

/*
 * A live instrumented frame (16 bytes): its frame address (the address of
 * its return-address slot minus 8, which is %rbp after a -pg prologue:
 * mcount compares it with saved %rbp values as it is) and its node, NULL
 * when the call was not recorded.
 *
 * Each thread's stack starts with CP_FRAME_POPS + 1 sentinels whose fp is
 * UINTPTR_MAX, all holding the thread's root node, so the trampolines'
 * loops over stale entries stop without checking for the bottom; the
 * topmost sentinel is the root's own entry.
 */
struct cp_frame {
	uintptr_t fp;
	struct cp_node *node;
};

/*
 * The edge cache's set index (mcount.S's EDGE_HIT computes the same): the
 * parent node's address shifted up, plus the call site and twice the
 * callee, multiplied by a 64-bit odd constant (Knuth's multiplicative
 * hash), and the product's bits 40 and up, as many as the cache has sets
 * (`mask` = sets - 1).  Two entries per set: a direct-mapped table holding
 * an evaluator's 926 edges in 4,096 entries still had a fifth of them
 * sharing an entry with another, and 1.8% of its calls took the slow
 * path for it (5 instructions a call on average).  Every input bit below those moves them (a 32-bit
 * constant, imul's immediate, left the inputs' low 9 bits out: a site's
 * callees landed in neighbouring entries), so the cache's whole size is
 * used: the sum alone (two lea, the index before) took its bits straight
 * from the addresses, whose small spread (nodes 56 bytes apart, call sites
 * and callees within a few kilobytes of text) packed a thousand contexts'
 * edges into a few hundred entries of any size of cache, and an
 * evaluator's calls (each site calling one of several functions) missed
 * it on a third of its calls.  The multiply is only on the path of calls
 * the caller's kids do not serve (a loop's, a recursion's go there first).
 */
static inline uint64_t cp_edge_index(const struct cp_node *parent,
				     uint64_t call_site, uint64_t callee, uint64_t mask)
{
	uint64_t x = ((uint64_t)(uintptr_t)parent << CP_EDGE_PARENT_SHIFT) + call_site +
		     callee * 2;

	return ((x * (uint64_t)CP_EDGE_MUL) >> CP_EDGE_HASH_SHIFT) & mask;
}

/*
 * What the trampolines read, in initial-exec TLS so that one %fs-relative
 * load reaches it.  top is NULL until the thread's first call (record.c maps
 * the thread's state then) and while the thread is inside the runtime (the
 * trampolines' fast path or record.c): calls that find it NULL go to
 * record.c, which drops and counts them (signal handlers).  The fast path
 * pushes only above a caller entry below limit: from there on the shadow
 * stack is full or CALLPATH_DEPTH applies.  starting guards thread_start()
 * the same way.
 */
struct cp_tls {
	struct cp_frame *top;
	struct cp_frame *limit;
	struct cp_edge *cache;
	struct cp_thread *self;	/* CP_RETIRED once the thread's state is retired */
	/*
	 * The thread's own stack, [stack_lo, stack_lo + stack_span + 8): a
	 * frame fp with fp - stack_lo < stack_span has its return-address
	 * slot on it, mapped for the thread's life, so the fast path may read
	 * it (one compare).  0 and 0 until known (stack.c): nothing is read
	 * then but through stack.c.
	 */
	uintptr_t stack_lo;
	uintptr_t stack_span;
	/* (sets of the edge cache - 1) << CP_SET_SHIFT: it grows (record.c) */
	uint64_t cache_mask;
	uint64_t clock;		/* calls counted on this thread (node stamps) */
	/*
	 * The top record.c's slow path works from while cp_tls.top is NULL
	 * (NULL around a move of the shadow stack): where the time sampler
	 * places a sample taken inside the runtime (sample.c; the trampolines
	 * keep theirs in %rax).
	 */
	struct cp_frame *busy_top;
	uint32_t starting;
	uint32_t early_reentry;	/* calls dropped before self was set */
};
/* The trampolines' code, [start, end) (mcount.S). */
extern const char cp_trampolines_start[] CP_HIDDEN, cp_trampolines_end[] CP_HIDDEN;
/* cp_tls.self of a thread whose state was merged into the retired tree */
#define CP_RETIRED ((struct cp_thread *)1)

/*
 * A calling-context tree: a thread's, or the retired tree that the trees
 * of ended threads are merged into.  Nodes live in chunks that never move
 * (the edge cache and the shadow stack point to them), chunk c holding
 * CP_CHUNK0 << c nodes followed by their time samples (samples[i] belongs
 * to the chunk's node i: written by the SIGPROF handler, touched only
 * where samples land).  Node index i is in chunk c where
 * i / CP_CHUNK0 + 1 has its highest bit at c (cp_tree_node()).  The hash
 * table (open addressing over node indices) doubles as the tree grows.
 * Only one thread writes a tree (its owner; the retired tree under
 * cp_registry_lock); the exit writer reads nodes below nr_nodes, loaded
 * with acquire ordering.
 */
#define CP_CHUNK0 128u
#define CP_HOME_HASH 1u
#define CP_HOME_CHUNK0 2u
#define CP_CHUNKS 26		/* CP_CHUNK0 << 25 > 2^30 nodes, the bound's maximum */
struct cp_tree {
	uint32_t nr_nodes;
	uint32_t hash_mask;	/* hash has hash_mask + 1 slots, 0 before the first */
	uint32_t *hash;
	/*
	 * CP_HOME_*: the parts that lie in the thread's first mapping (one
	 * mmap per thread start), unmapped with it, never alone: a hole
	 * punched in it could be given to another mapping before we unmap the
	 * whole.
	 */
	uint32_t home;
	struct cp_node *chunk[CP_CHUNKS];
	struct cp_node root;	/* parent of the top-level nodes, not in a chunk */
};

/* The index of node `n` of `tr` (CP_NONE for its root; record.c). */
uint32_t cp_tree_index(const struct cp_tree *tr, const struct cp_node *n)
	__attribute__((visibility("hidden")));

static inline uint32_t cp_chunk_of(uint32_t i)
{
	return 31u - (uint32_t)__builtin_clz(i / CP_CHUNK0 + 1);
}

static inline uint32_t cp_chunk_first(uint32_t c)
{
	return CP_CHUNK0 * ((1u << c) - 1);
}

static inline struct cp_node *cp_tree_node(const struct cp_tree *t, uint32_t i)
{
	uint32_t c = cp_chunk_of(i);

	return &t->chunk[c][i - cp_chunk_first(c)];
}

/* The time samples of node i (its chunk's array after the nodes). */
static inline uint64_t *cp_tree_samples(const struct cp_tree *t, uint32_t i)
{
	uint32_t c = cp_chunk_of(i);

	return (uint64_t *)(t->chunk[c] + (CP_CHUNK0 << c)) + (i - cp_chunk_first(c));
}

/*
 * Sampled program counters per context (sampler.c): every sample a thread
 * takes is recorded as (node index, kind, program counter) with one value
 * per sampled metric, so that the reader can name what ran (the context's
 * own function, another function's first bytes, a library function, the
 * instrumentation) after the run.  Open addressing in tables mapped as
 * needed by the owning thread's signal handler (raw mmap), each twice the
 * last, never moved or freed while the thread lives: the exit writer may
 * read them as the thread adds to them (an entry's kind is stored last,
 * with release ordering; values are relaxed atomics).  A sample no table
 * can take is counted on the context's node (its pc is then unknown).
 */
#define CP_LEAF_CPU 0		/* the time samples (CALLPATH_HZ, or glibc's ticks) */
#define CP_LEAF_OFFCPU 1	/* CALLPATH_CLOCK=wall: samples while blocked */
#define CP_LEAF_METRICS 2
#define CP_LEAF_TABS 14		/* 256 << 13 entries in the last: 2 M leaves */
struct cp_leaf {
	uint64_t pc;
	uint32_t node;		/* the thread tree's node index, CP_NONE: no live frame */
	uint32_t kind;		/* SIDECAR_LEAF_*, 0 for a free entry */
	uint64_t value[CP_LEAF_METRICS];
};
struct cp_leaftab {
	uint32_t cap;		/* entries, a power of two */
	uint32_t used;
	uint64_t pad[3];
	struct cp_leaf e[];
};
struct cp_leaves {
	struct cp_leaftab *tab[CP_LEAF_TABS];
	uint32_t ntab;
	uint32_t busy;		/* an insertion is under way (nested handler) */
};

/* A stack the thread may be running on: its range and how to read it. */
enum { CP_STACK_UNKNOWN, CP_STACK_ALT, CP_STACK_MAPPING, CP_STACK_NONE, CP_STACK_OWN };
struct cp_stack_range {
	uintptr_t lo, hi;
	uintptr_t kind;		/* CP_STACK_*: not looked up yet, sigaltstack, ... */
};

/*
 * Per-thread state, mapped on the thread's first call and sized for what
 * the thread uses (the node chunks, the hash table and the shadow stack
 * grow).  When the thread ends its tree is merged into the retired tree
 * and all of it is unmapped (record.c's cp_thread_retire()); threads that
 * run at exit are summed from here.  Only the owning thread writes it.
 */
struct cp_thread {
	struct cp_thread *next, *prev;	/* registry (cp_threads), under the lock */
	struct cp_tree tree;
	struct cp_frame *stack;	/* CP_FRAME_POPS + 1 sentinels, then entries */
	uint32_t stack_cap;	/* entries mapped, sentinels included */
	uint32_t stack_home;	/* the stack is in the first mapping (CP_HOME_*) */
	/* kept with stack_cap: user entries mapped (stack_cap - sentinels) */
	uint32_t stack_room;
	/*
	 * The edge cache once grown out of the first mapping (NULL before),
	 * and what decides its growth (record.c's child()): the misses of
	 * edges the tree had since it last grew, the clock then, and 1 once
	 * it is as large as it gets.
	 */
	struct cp_edge *cache;
	uint64_t cache_mask;
	uint64_t cache_misses, cache_clock;
	uint32_t cache_full;
	uint64_t dropped[SIDECAR_DROP_NR];
	uint64_t unplaced;	/* samples of this thread that had no context */
	struct cp_leaves leaves;	/* sampled program counters (sampler.c) */
	uint32_t timer_slot;	/* its CPU-time timer's slot in sampler.c + 1, 0: none */
	uint32_t timer_tried;	/* the timer was tried (armed or refused) */
	/*
	 * What the timer's samples cover (sampler.c): the thread's CPU time
	 * when it was armed, the periods credited since, and the leaf the
	 * last one went to, which takes the thread's CPU time after its last
	 * signal when the thread ends (or the timers stop).
	 */
	uint64_t timer_cpu0;
	uint64_t timer_credited;
	struct cp_leaf *timer_last;
	uint64_t timer_carry;	/* ns of a period carried in from ended threads */
	/*
	 * For CALLPATH_CLOCK=wall's sampler thread (offcpu.c), which reads
	 * this thread's state from outside: its TLS (the shadow stack's top)
	 * and id, set on its first call; when it last looked at the thread
	 * (CLOCK_MONOTONIC ns) and the part of a period not yet credited.
	 */
	struct cp_tls *tls;
	uint32_t tid;
	uint64_t wall_last, wall_rem;
	uint64_t wall_rq;	/* its run-queue wait (schedstat) at the last look */
	struct cp_leaf *wall_leaf;	/* where the last look found it blocked, NULL: on a CPU */
	/*
	 * stack.c: mappings recently found holding the stack pointer when it
	 * was neither on the thread's own stack nor on the alternate signal
	 * stack (coroutines), and the buffer it reads /proc/self/maps into.
	 */
	struct cp_stack_range maps_cache[4];
	uint32_t maps_next;
	char maps_buf[1024];
};

extern struct cp_config cp_config CP_HIDDEN;
extern int cp_state CP_HIDDEN;
extern uint32_t cp_failure CP_HIDDEN;
/*
 * The registry of live threads' states and the retired tree (with its
 * dropped counters, unplaced samples and thread count), both under
 * cp_registry_lock: taken in the slow path only to register a new thread,
 * and in normal context to retire one, to sum everything at exit, and
 * around fork.
 */
extern struct cp_thread *cp_threads CP_HIDDEN;
extern struct cp_tree cp_retired CP_HIDDEN;
extern uint64_t cp_retired_dropped[SIDECAR_DROP_NR] CP_HIDDEN;
extern uint64_t cp_retired_unplaced CP_HIDDEN;
extern struct cp_leaves cp_retired_leaves CP_HIDDEN;
extern uint32_t cp_retired_threads CP_HIDDEN;
extern uint64_t cp_dropped_late CP_HIDDEN;	/* calls after a thread retired */
/*
 * Ended threads kept apart for the per-thread views (the sidecar's threads
 * section): what each added to the retired tree, as (retired node, calls,
 * samples) for its nodes and (retired node, kind, pc, samples) for its
 * leaves.  At most cp_config.threads - 1 of them (a place stays for the
 * main thread, written at exit): when full, a thread with more samples
 * (then calls) than the smallest kept one takes its place.  The others'
 * values are the tree's beyond the kept ones' (sidecar_threads_finish()),
 * so they need no memory.  Under cp_registry_lock; mapped, never malloc'd
 * (record.c maps nothing with the C library).
 */
struct cp_kept_value {
	uint32_t node;		/* the retired tree's index, CP_NONE: top-level leaf */
	uint32_t kind;		/* 0: the node itself; else a leaf's SIDECAR_LEAF_* */
	uint64_t pc;		/* the leaf's program counter */
	uint64_t calls, samples;
};
struct cp_kept_thread {
	uint64_t tid;
	char name[16];		/* its name (comm) when it ended */
	uint64_t samples, calls;	/* its weight */
	struct cp_kept_value *v;
	uint64_t n;
	size_t bytes;		/* v's mapping */
};
extern struct cp_kept_thread *cp_kept CP_HIDDEN;
extern uint32_t cp_kept_nr CP_HIDDEN;
extern int cp_exit_summed CP_HIDDEN;	/* the exit writer has read them all */
void cp_registry_lock(void) CP_HIDDEN;
void cp_registry_unlock(void) CP_HIDDEN;
int cp_registry_trylock(unsigned tries) CP_HIDDEN;
/*
 * Merge the calling thread's tree into the retired tree and unmap its
 * state (normal context: the key destructor of thread.c).  Later calls on
 * the thread are counted in cp_dropped_late.
 */
void cp_thread_retire(void) CP_HIDDEN;
extern __thread struct cp_tls cp_tls CP_HIDDEN
	__attribute__((tls_model("initial-exec")));
extern uint64_t cp_dropped_early CP_HIDDEN;
extern int cp_saw_fentry CP_HIDDEN;	/* an -mfentry caller was seen */

/* The functions the trampolines tail-jump to (glibc's), NULL if unknown. */
extern void *cp_next_mcount CP_HIDDEN;
extern void *cp_next_fentry CP_HIDDEN;
/*
 * What the trampolines call once they have done their work, with the
 * arguments of glibc's counter __mcount_internal(frompc, selfpc): that
 * counter itself once record.c has checked that cp_next_* is glibc's exact
 * wrapper (direct mode), else cp_chain_* (chained mode, in mcount.S), which
 * closes the trampoline's frame and tail-jumps to cp_next_*.
 */
extern void *cp_mcount_internal CP_HIDDEN;
extern void *cp_fentry_internal CP_HIDDEN;
void cp_chain_mcount(void) CP_HIDDEN;
void cp_chain_fentry(void) CP_HIDDEN;
void cp_chain_init(void) CP_HIDDEN;
/* a ret: what they call once the runtime keeps gmon.out's arcs itself */
void cp_count_none(void) CP_HIDDEN;

/* Called by the trampolines; see arch/x86_64/mcount.S. */
void cp_enter_mcount(uintptr_t frame, uintptr_t selfpc, uintptr_t sp) CP_HIDDEN;
void cp_enter_fentry(uintptr_t slot, uintptr_t selfpc) CP_HIDDEN;

/*
 * Time samples per calling context (sample.c).  cp_sample_install() chains
 * our SIGPROF handler in front of glibc's profiling handler once glibc has
 * installed it; record.c calls it from the slow path while
 * cp_sample_pending is set (a call with no live caller: main's first call,
 * a new thread's first).  Both it and the handler use general registers
 * only and no libc: they run under the trampolines.
 */
extern int cp_sample_pending CP_HIDDEN;
void cp_sample_install(void) CP_HIDDEN;
void cp_sample_rechain(void) CP_HIDDEN;
/* At exit: SIDECAR_SAMPLING_* and the unplaced samples of no thread. */
uint32_t cp_sample_state(void) CP_HIDDEN;
uint64_t cp_sample_unplaced_early(void) CP_HIDDEN;
uint64_t cp_sample_taken(void) CP_HIDDEN;	/* signals credited, whatever their weight */

/*
 * The sampler (sampler.c): CALLPATH_HZ per-thread CPU-time timers
 * delivering SIGPROF to their thread (told from glibc's ITIMER_PROF ticks
 * by si_code SI_TIMER and our value), and the leaf tables above.
 *   cp_sampler_thread()   a thread's first call with no live caller (slow
 *                         path, raw system calls): arm its timer once the
 *                         handler is in place;
 *   cp_sampler_thread_end() delete it (normal context, before retiring);
 *   cp_sampler_stop()     the program replaced SIGPROF: delete them all;
 *   cp_sampler_fork_child() the child has none of the parent's timers;
 *   cp_leaf_add()         add a sample (signal handler, owning thread);
 *   cp_leaves_merge()     a retiring thread's leaves into the retired
 *                         tree's, node i becoming ix[i] (under the lock);
 *   cp_leaves_free()      unmap a thread's tables.
 */
int cp_sampler_timers(void) CP_HIDDEN;	/* 1: the time samples are our timers' */
int cp_sampler_wanted(void) CP_HIDDEN;	/* 1: CALLPATH_HZ asks for timers */
/*
 * CALLPATH_CLOCK=wall (offcpu.c): a sampler thread that credits the time
 * threads spend off the CPU (blocked, sleeping, waiting for a CPU) to the
 * context they are in, as the metric CP_LEAF_OFFCPU, in periods of
 * CALLPATH_HZ, without ever signalling them.  cp_offcpu_on(): it runs;
 * cp_offcpu_stop(): it stops crediting (before the exit writer reads);
 * cp_offcpu_catch_up(): it credits what is due now (before a snapshot).
 */
int cp_offcpu_on(void) CP_HIDDEN;
void cp_offcpu_stop(void) CP_HIDDEN;
void cp_offcpu_catch_up(void) CP_HIDDEN;
uint32_t cp_sampler_hz(void) CP_HIDDEN;
void cp_sampler_thread(struct cp_thread *t) CP_HIDDEN;
void cp_sampler_thread_end(struct cp_thread *t) CP_HIDDEN;
/*
 * A retiring thread (record.c's cp_thread_retire()): its timer deleted and
 * its periods so far credited, as cp_sampler_thread_end(); what its
 * retirement then runs (the merge, the unmapping) is counted by
 * cp_sampler_tail_end() after it, from `tail` (the state is gone by then):
 * the periods it makes, to be added to the ended threads' unplaced
 * samples, and the rest of a period put in the carry.
 */
struct cp_sampler_tail {
	uint64_t cpu0, carry, credited;
	int live;
};
void cp_sampler_thread_retiring(struct cp_thread *t, struct cp_sampler_tail *tail) CP_HIDDEN;
uint64_t cp_sampler_tail_end(const struct cp_sampler_tail *tail) CP_HIDDEN;
void cp_sampler_stop(void) CP_HIDDEN;
/*
 * The periods of CPU time credited without a signal so far to the threads
 * other than the main one (time no timer expiry reached: see sampler.c,
 * short threads; a main thread without a signal ran too briefly).
 */
uint64_t cp_sampler_unsignalled(void) CP_HIDDEN;
/*
 * The process's CPU time (getrusage RUSAGE_SELF: user and system ns, every
 * thread's, ended ones too) when the timers stopped (the exit, or the
 * program taking SIGPROF): what the time samples are compared with.  0, or
 * -1 before they stopped.
 */
int cp_sampler_process_cpu(uint64_t *user_ns, uint64_t *sys_ns) CP_HIDDEN;
/*
 * The same while the program runs (a snapshot, a killed run's profile):
 * at the timers' stop if they stopped, else now.  Async-signal-safe.
 */
int cp_sampler_process_cpu_now(uint64_t *user_ns, uint64_t *sys_ns) CP_HIDDEN;
void cp_sampler_fork_child(struct cp_thread *t) CP_HIDDEN;
int cp_sampler_is_ours(const void *siginfo) CP_HIDDEN;
int cp_leaf_add(struct cp_leaves *l, uint32_t node, uint32_t kind, uint64_t pc,
		uint32_t metric, uint64_t weight, struct cp_leaf **at) CP_HIDDEN;
/* `keep`, when not NULL, is told each time sample the merge placed, by
 * (node in dst's tree, kind, pc, samples) */
struct cp_kept_thread;
void cp_leaves_merge(struct cp_leaves *dst, const struct cp_leaves *src,
		     const uint32_t *ix, struct cp_kept_thread *keep) CP_HIDDEN;
void cp_leaves_free(struct cp_leaves *l) CP_HIDDEN;
/* The handler credited `weight` periods of the thread's timer to leaf `e`
 * (NULL: to its node, no leaf could take it). */
void cp_sampler_credited(struct cp_thread *t, struct cp_leaf *e, uint64_t weight) CP_HIDDEN;

/*
 * Stacks (stack.c).  cp_stack_set_own() records the calling thread's own
 * stack (the main thread: pthread_getattr_np); cp_stack_own_here() and
 * cp_stack_own_from_maps() find it from /proc/self/maps (a thread's start,
 * or its first call when nobody did).
 * cp_slot_live() is the one liveness test of a shadow-stack entry's frame
 * (record.c, the SIGPROF handler; mcount.S's fast path does its own-stack
 * case): live when its return-address slot, read only where that is safe,
 * still holds the entry's call site.  `sp` is where the thread runs now;
 * `cur` caches the stack found for it (kind CP_STACK_UNKNOWN: not looked
 * up yet).
 */
void cp_stack_set_own(uintptr_t lo, uintptr_t hi) CP_HIDDEN;
void cp_stack_own_from_maps(struct cp_thread *t, uintptr_t sp) CP_HIDDEN;
/* The mapping holding the caller's frame, as its own stack (thread.c). */
void cp_stack_own_here(void) CP_HIDDEN;
int cp_slot_live(struct cp_thread *t, const struct cp_frame *f, uintptr_t sp,
		 struct cp_stack_range *cur) CP_HIDDEN;
/*
 * For a stack walk (unwind.c, in the thread's own signal handler): the
 * stack holding `sp` (the thread's own, its alternate signal stack while
 * on it, or the mapping holding sp), its lower bound raised to sp less the
 * red zone (a live frame's data is at or above it): 0, or -1 when sp is on
 * none.  cp_stack_read(): the word at `addr`, only when it lies in `r`,
 * read directly on the thread's own and alternate stacks, through
 * process_vm_readv on a mapping (which may go away meanwhile): 0, or -1.
 */
int cp_stack_find(struct cp_thread *t, uintptr_t sp, struct cp_stack_range *r) CP_HIDDEN;
int cp_stack_read(const struct cp_stack_range *r, uintptr_t addr, uintptr_t *val) CP_HIDDEN;
extern int cp_pid CP_HIDDEN;	/* this process's id (set again in a fork child) */

/*
 * Start the runtime (environment, glibc's functions, recording) once: from
 * our constructor, or from the trampolines on a call that arrives before it
 * ran (another library's constructor calling into the program, with
 * libcallpath preloaded), so that the call still reaches glibc's counter
 * and is recorded.  The trampolines save the vector registers around it:
 * it runs C library code.
 */
void cp_start_early(void) CP_HIDDEN;

/*
 * Sampling mode (sampled.c, doc/dev/runtime.md "Sampling mode"): a thread's
 * state made in normal context (its tree filled by its SIGPROF handler
 * from stack walks, never by calls; NULL: retired, or no memory), and a
 * tree's child (call_site, callee) created when new with `flags`: its
 * index, or CP_NONE at the node bound or out of memory (raw system calls
 * only: signal context).
 */
struct cp_thread *cp_thread_begin(uintptr_t sp) CP_HIDDEN;
uint32_t cp_tree_child(struct cp_tree *tr, uint32_t parent, uint64_t call_site,
		       uint64_t callee, uint32_t flags) CP_HIDDEN;

/* Stop recording and keep the first failure code. */
void cp_fail(uint32_t code) CP_HIDDEN;

#endif /* __ASSEMBLER__ */
#endif
