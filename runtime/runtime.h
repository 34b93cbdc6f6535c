/*
 * runtime.h - internal interfaces of the call-path runtime (libcallpath).
 *
 * Three parts, linked into libcallpath.so / libcallpath.a:
 *   arch/<arch>/mcount.S  entry points mcount/_mcount/__fentry__: call
 *                         glibc's counter or tail-jump to glibc's function
 *                         (cp_next_*); the fast path (caller near the top
 *                         of the shadow stack, edge in the edge cache) in
 *                         assembly, otherwise call cp_enter_*();
 *   record.c              the per-call slow path: shadow stack and per-thread
 *                         calling-context tree.  Compiled with
 *                         -mgeneral-regs-only and calling nothing but
 *                         mmap/munmap, so the trampolines need not save
 *                         vector registers;
 *   runtime.c             start-up (environment, glibc chaining), fork,
 *                         and the exit-time merge and sidecar write.
 * chain.c finds glibc's functions; it is shared with the no-op build
 * (libcallpath-noop.so) that only tail-jumps, for measuring overhead.
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
#define CP_FRAME_SIZE	48	/* struct cp_frame */
#define CP_FRAME_FP	0
#define CP_FRAME_NODE	8
#define CP_FRAME_LAST	16	/* a struct cp_edge */
#define CP_FRAME_POPS	3	/* stale entries the fast path pops */
#define CP_NODE_SITE	0	/* struct cp_node */
#define CP_NODE_COUNT	16
#define CP_NODE_SHIFT	5	/* sizeof(struct cp_node) == 1 << CP_NODE_SHIFT */
#define CP_CACHE_BITS	10	/* struct cp_edge cache: 1 << CP_CACHE_BITS entries */
#define CP_EDGE_SHIFT	5	/* sizeof(struct cp_edge) == 1 << CP_EDGE_SHIFT */
#define CP_EDGE_PARENT	0
#define CP_EDGE_SITE	8
#define CP_EDGE_CALLEE	16
#define CP_EDGE_CHILD	24
#define CP_STATE_IDLE 0
#define CP_STATE_RECORDING 1

#ifndef __ASSEMBLER__

#include <stdint.h>

#include "callpath/sidecar.h"

#define CP_HIDDEN __attribute__((visibility("hidden")))
#define CP_NONE UINT32_MAX	/* no node; equal to SIDECAR_ROOT */

/* cp_state: recording happens only in CP_RECORDING. */
enum { CP_IDLE = CP_STATE_IDLE, CP_RECORDING = CP_STATE_RECORDING, CP_STOPPED };

struct cp_config {
	uint32_t depth;		/* CALLPATH_DEPTH: keep last k frames, 0 = all */
	uint32_t max_nodes;	/* CALLPATH_MAX_NODES: per-thread node bound */
	uint32_t max_depth;	/* CALLPATH_MAX_DEPTH: shadow stack entries */
	uint32_t fold;		/* fold recursion (CALLPATH_RECURSION, default) */
};

/*
 * One calling-context-tree node in a thread's pool (32 bytes).
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
 */
struct cp_node {
	uint64_t call_site;
	uint64_t callee;
	uint64_t count;
	uint32_t parent;	/* CP_NONE for children of the root */
	uint32_t flags;		/* CP_NODE_FOLDED */
};
#define CP_NODE_FOLDED 1u

/*
 * One entry of a thread's edge cache: a direct-mapped table of tree edges
 * (parent, call site, callee) -> child, indexed by cp_edge_index(), filled by
 * record.c and read by the trampolines' fast path.  Nodes never move, so an
 * entry never goes stale; a conflict only costs a hash lookup.
 */
struct cp_edge {
	struct cp_node *parent;
	uint64_t call_site;
	uint64_t callee;
	struct cp_node *child;
};

/*
 * A live instrumented frame (48 bytes): its frame address (the address of
 * its return-address slot minus 8, which is %rbp after a -pg prologue:
 * mcount compares it with saved %rbp values as it is) and its node, NULL
 * when the call was not recorded.
 *
 * `last` is the edge a call from this stack position last resolved in
 * record.c.  It belongs to the position, not to the frame: a push leaves it,
 * and it is valid for whichever frame is there as long as its parent is that
 * frame's node (a loop calling one callee, or the frames of a recursion,
 * which come back to the same position with the same node, find their child
 * in it).  record.c fills it only where the trampolines may push without
 * checking cp_tls.limit.  Never filled: zero, and no callee is 0.
 *
 * Each thread's stack starts with CP_FRAME_POPS + 1 sentinels whose fp is
 * UINTPTR_MAX, all holding the thread's root node, so the trampolines may
 * read the CP_FRAME_POPS entries under the top without checking for the
 * bottom; the topmost sentinel is the root's own entry.
 */
struct cp_frame {
	uintptr_t fp;
	struct cp_node *node;
	struct cp_edge last;
};

/*
 * Two lea instructions in mcount.S: parent bits 5 and up (the node), call
 * site bits 2 and up, callee bits 4 and up (functions are 16-byte aligned)
 * land on the index.  Weaker than a multiplicative hash, but the cache is
 * only a cache, and the lookup is on the path of every call that the last
 * edge does not serve (a multiply and a shift cost 2% on fib, 3% on
 * ptrtable).
 */
static inline uint64_t cp_edge_index(const struct cp_node *parent,
				     uint64_t call_site, uint64_t callee)
{
	return (((uintptr_t)parent + call_site * 8 + callee * 2) >> CP_EDGE_SHIFT) &
	       ((1u << CP_CACHE_BITS) - 1);
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
	struct cp_thread *self;
	uint32_t starting;
	uint32_t early_reentry;	/* calls dropped before self was set */
};

/*
 * Per-thread state, mmap'ed on the thread's first call and never freed, so
 * the exit-time merge also sees threads that have ended.  Only the owning
 * thread writes it; the merge reads nr_nodes with acquire ordering.
 */
struct cp_thread {
	struct cp_thread *next;	/* registry of all threads (cp_threads) */
	uint32_t nr_nodes;
	uint32_t hash_mask;	/* hash has hash_mask + 1 slots */
	uint32_t *hash;		/* open addressing over node indices */
	struct cp_node *nodes;	/* reserved for max_nodes, touched on demand */
	struct cp_frame *stack;	/* CP_FRAME_POPS + 1 sentinels, max_depth entries */
	struct cp_node root;	/* parent of the top-level nodes, not in nodes[] */
	uint64_t dropped[SIDECAR_DROP_NR];
	/*
	 * Time samples (sample.c): samples[i] belongs to nodes[i], reserved
	 * for max_nodes like nodes (NULL if it could not be mapped: every
	 * sample is then unplaced).  Written only by this thread's SIGPROF
	 * handler, read by the exit-time merge.
	 */
	uint64_t *samples;
	uint64_t unplaced;	/* samples of this thread that had no context */
};

extern struct cp_config cp_config CP_HIDDEN;
extern int cp_state CP_HIDDEN;
extern uint32_t cp_failure CP_HIDDEN;
extern struct cp_thread *cp_threads CP_HIDDEN;
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
/* At exit: SIDECAR_SAMPLING_* and the unplaced samples of no thread. */
uint32_t cp_sample_state(void) CP_HIDDEN;
uint64_t cp_sample_unplaced_early(void) CP_HIDDEN;

/*
 * Start the runtime (environment, glibc's functions, recording) once: from
 * our constructor, or from the trampolines on a call that arrives before it
 * ran (another library's constructor calling into the program, with
 * libcallpath preloaded), so that the call still reaches glibc's counter
 * and is recorded.  The trampolines save the vector registers around it:
 * it runs C library code.
 */
void cp_start_early(void) CP_HIDDEN;

/* Stop recording and keep the first failure code. */
void cp_fail(uint32_t code) CP_HIDDEN;

#endif /* __ASSEMBLER__ */
#endif
