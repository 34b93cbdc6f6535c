/*
 * runtime.h - internal interfaces of the call-path runtime (libcallpath).
 *
 * Three parts, linked into libcallpath.so / libcallpath.a:
 *   arch/<arch>/mcount.S  entry points mcount/_mcount/__fentry__: save the
 *                         argument registers, call cp_enter_*(), restore,
 *                         tail-jump to glibc's function (cp_next_*);
 *   record.c              the per-call fast path: shadow stack and per-thread
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

#include <stdint.h>

#include "sidecar.h"

#define CP_HIDDEN __attribute__((visibility("hidden")))
#define CP_NONE UINT32_MAX	/* no node; equal to SIDECAR_ROOT */

/* cp_state: recording happens only in CP_RECORDING. */
enum { CP_IDLE, CP_RECORDING, CP_STOPPED };

struct cp_config {
	uint32_t depth;		/* CALLPATH_DEPTH: keep last k frames, 0 = all */
	uint32_t max_nodes;	/* CALLPATH_MAX_NODES: per-thread node bound */
	uint32_t max_depth;	/* CALLPATH_MAX_DEPTH: shadow stack entries */
};

/* One calling-context-tree node in a thread's pool (32 bytes). */
struct cp_node {
	uint64_t call_site;
	uint64_t callee;
	uint64_t count;
	uint32_t parent;	/* CP_NONE for children of the root */
	uint32_t last_child;	/* cache: the child found last time, or CP_NONE */
};

/*
 * A live instrumented frame: its return-address slot, its node, and the
 * child it called last, so that a loop calling the same function finds the
 * child node without reading the node pool (32 bytes).
 */
struct cp_frame {
	uintptr_t slot;
	uint64_t child_site;	/* (call site, callee) of `child` */
	uint64_t child_callee;
	uint32_t node;		/* CP_NONE when the call was not recorded */
	uint32_t child;		/* CP_NONE when no call was made yet */
};

/*
 * Per-thread state, mmap'ed on the thread's first call and never freed, so
 * the exit-time merge also sees threads that have ended.  Only the owning
 * thread writes it; the merge reads nr_nodes with acquire ordering.
 */
struct cp_thread {
	struct cp_thread *next;	/* registry of all threads (cp_threads) */
	uint32_t busy;		/* re-entry guard (signal handlers) */
	uint32_t sp;		/* live entries in stack[] */
	uint32_t nr_nodes;
	uint32_t root_last;	/* last_child cache of the root */
	uint32_t hash_mask;	/* hash has hash_mask + 1 slots */
	uint32_t pad;
	uint32_t *hash;		/* open addressing over node indices */
	struct cp_node *nodes;	/* reserved for max_nodes, touched on demand */
	struct cp_frame *stack;	/* max_depth entries */
	uint64_t dropped[SIDECAR_DROP_NR];
};

extern struct cp_config cp_config CP_HIDDEN;
extern int cp_state CP_HIDDEN;
extern uint32_t cp_failure CP_HIDDEN;
extern struct cp_thread *cp_threads CP_HIDDEN;
extern uint64_t cp_dropped_early CP_HIDDEN;
extern int cp_saw_fentry CP_HIDDEN;	/* an -mfentry caller was seen */

/* The functions the trampolines tail-jump to (glibc's), NULL if unknown. */
extern void *cp_next_mcount CP_HIDDEN;
extern void *cp_next_fentry CP_HIDDEN;
void cp_chain_init(void) CP_HIDDEN;

/* Called by the trampolines; see arch/x86_64/mcount.S. */
void cp_enter_mcount(uintptr_t frame, uintptr_t selfpc, uintptr_t sp) CP_HIDDEN;
void cp_enter_fentry(uintptr_t slot, uintptr_t selfpc) CP_HIDDEN;

/* Stop recording and keep the first failure code. */
void cp_fail(uint32_t code) CP_HIDDEN;

#endif
