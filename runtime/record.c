/*
 * record.c - the per-call slow path of the call-path runtime.
 *
 * Each thread keeps a shadow stack of the instrumented frames that are live,
 * identified by their frame address, fp (the address of their return-address
 * slot - 8; the stack grows down, so a deeper frame has a lower fp), and a
 * calling-context tree whose nodes are (call site, callee) pairs under a
 * parent.  On every call:
 *
 *   1. pop the entries whose fp is at or below the new frame's: those frames
 *      have returned, or were left by longjmp, an exception or a tail call,
 *      since nothing deeper than a function that is just starting can be
 *      live;
 *   2. (mcount only) check that the top entry is the caller: the saved %rbp
 *      in the new frame is the caller's frame.  If not, look the caller's
 *      frame up (binary search: frames decrease towards the top) and
 *      drop the stale entries above it; if the caller is not instrumented,
 *      the nearest instrumented frame stays the parent;
 *   3. find the child (call site, callee) of the top node: first in the
 *      thread's edge cache, then in its hash table; create it when new; and
 *      remember it among the top node's kids (struct cp_node);
 *   4. count it and push the frame.
 *
 * The trampolines (arch/x86_64/mcount.S) do all of this themselves in the
 * common case: the caller on the stack under stale entries only (mcount;
 * for __fentry__, the topmost entry above the new frame, if live), the child
 * among the caller's node's kids or in the edge cache, room on the stack and no
 * CALLPATH_DEPTH cut.  They come here for everything else, and this code
 * must leave the state as they expect it (struct cp_tls, the sentinels, the
 * nodes' kids, the edge cache).  Both mark the thread busy
 * the same way: cp_tls.top is NULL while they work.
 *
 * So a call costs O(1) amortised (each entry is pushed and popped once) and
 * no stack walk is needed.  The memory read outside our own state is the new
 * frame itself (its saved %rbp and return address), which is always mapped,
 * and the return-address slots of older entries' frames, read only through
 * stack.c's cp_slot_live() (where the frame is on the stack the thread runs
 * on now: a coroutine's freed stack is never touched).
 *
 * A thread's state is mapped on its first call, small, and grown as used:
 * node chunks that never move, a hash table that doubles, a shadow stack
 * grown with mremap while the thread is busy (nothing points into it but
 * cp_tls and this function's locals).  When the thread ends, thread.c calls
 * cp_thread_retire(): its tree goes into the process's retired tree and
 * its state is unmapped, so any number of threads over time costs the live
 * threads' states and the union of the paths.
 *
 * This file is compiled with -mgeneral-regs-only and makes raw system
 * calls only (mmap, mremap, munmap, and sched_yield to wait for the
 * registry's lock; sample.c and stack.c are built the same way): the
 * trampolines do not save vector registers.
 */
#define _GNU_SOURCE	/* MREMAP_MAYMOVE */
#include <stddef.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "gmon_arcs.h"
#include "runtime.h"
#include "sys.h"
#include "utils/banned.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define cold __attribute__((noinline, cold))

#define HASH_INITIAL 1024u	/* slots (a page); doubles, at most half full */
#define CACHE_SIZE (CP_CACHE_WAYS << CP_CACHE_BITS)	/* entries */
#define SENTINELS (CP_FRAME_POPS + 1)	/* see struct cp_frame */
#define STACK_INITIAL 4096u	/* bytes of shadow stack at first; doubles */
#define CHUNK_BYTES(c) page_round((size_t)(CP_CHUNK0 << (c)) * \
				  (sizeof(struct cp_node) + sizeof(uint64_t)))

_Static_assert(offsetof(struct cp_tls, top) == CP_TLS_TOP, "cp_tls");
_Static_assert(offsetof(struct cp_tls, limit) == CP_TLS_LIMIT, "cp_tls");
_Static_assert(offsetof(struct cp_tls, cache) == CP_TLS_CACHE, "cp_tls");
_Static_assert(offsetof(struct cp_tls, stack_lo) == CP_TLS_STACK_LO, "cp_tls");
_Static_assert(offsetof(struct cp_tls, stack_span) == CP_TLS_STACK_SPAN, "cp_tls");
_Static_assert(sizeof(struct cp_frame) == CP_FRAME_SIZE, "cp_frame");
_Static_assert(offsetof(struct cp_frame, fp) == CP_FRAME_FP, "cp_frame");
_Static_assert(offsetof(struct cp_frame, node) == CP_FRAME_NODE, "cp_frame");
_Static_assert(offsetof(struct cp_tls, clock) == CP_TLS_CLOCK, "cp_tls");
_Static_assert(offsetof(struct cp_tls, cache_mask) == CP_TLS_CACHE_MASK, "cp_tls");
_Static_assert(CP_CACHE_MAX_BITS <= 64 - CP_EDGE_HASH_SHIFT,
	       "cp_edge_index(): the index lies in the product's bits");
_Static_assert(CP_CACHE_WAYS << CP_EDGE_SHIFT == 1 << CP_SET_SHIFT, "edge cache sets");
_Static_assert(sizeof(struct cp_node) == CP_NODE_SIZE, "cp_node");
_Static_assert(offsetof(struct cp_node, stamp) == CP_NODE_STAMP, "cp_node");
_Static_assert(offsetof(struct cp_node, count) == CP_NODE_COUNT, "cp_node");
_Static_assert(offsetof(struct cp_node, call_site) == CP_NODE_SITE, "cp_node");
_Static_assert(offsetof(struct cp_node, callee) == CP_NODE_CALLEE, "cp_node");
_Static_assert(offsetof(struct cp_node, kids) == CP_NODE_KIDS, "cp_node");
_Static_assert(CP_KIDS == 2, "mcount.S's KID_HIT looks at two kids");
_Static_assert(sizeof(struct cp_edge) == 1u << CP_EDGE_SHIFT, "cp_edge");
_Static_assert(offsetof(struct cp_edge, parent) == CP_EDGE_PARENT, "cp_edge");
_Static_assert(offsetof(struct cp_edge, child) == CP_EDGE_CHILD, "cp_edge");

__thread struct cp_tls cp_tls __attribute__((tls_model("initial-exec"), aligned(64)));

struct cp_thread *cp_threads;
struct cp_tree cp_retired = {
	.root = { .parent = CP_NONE, .kids = { &cp_no_kid, &cp_no_kid } }
};
struct cp_node cp_no_kid;
uint64_t cp_retired_dropped[SIDECAR_DROP_NR];
uint64_t cp_retired_unplaced;
uint32_t cp_retired_threads;
uint64_t cp_dropped_late;
struct cp_kept_thread *cp_kept;
uint32_t cp_kept_nr;
int cp_exit_summed;
static int registry_lock;
void *cp_mcount_internal = cp_chain_mcount;
void *cp_fentry_internal = cp_chain_fentry;
/* glibc's counters (direct mode) or cp_chain_*: what cp_counter_set(0) restores */
static void *glibc_mcount_internal = cp_chain_mcount;
static void *glibc_fentry_internal = cp_chain_fentry;
/* moncontrol's arcs (gmon_arcs.c): on until a take-over turns them off */
static int arcs_on = 1;
static const long gate_open;
/* the trampolines skip glibc's counter (cp_counter_set) */
unsigned char cp_counter_off;
const long *cp_arcs_gate = &gate_open;

/*
 * What the trampolines call after their work: glibc's counter, or, once
 * the runtime keeps gmon.out's arcs itself, nothing (cp_count_none, a
 * ret: the trampolines also skip the call where they can).
 */
void cp_counter_set(int taken)
{
	__atomic_store_n(&cp_counter_off, taken ? 1 : 0, __ATOMIC_RELAXED);
	__atomic_store_n(&cp_mcount_internal,
			 taken ? (void *)cp_count_none : glibc_mcount_internal,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&cp_fentry_internal,
			 taken ? (void *)cp_count_none : glibc_fentry_internal,
			 __ATOMIC_RELAXED);
}

/*
 * moncontrol's arcs, once taken over.  Dynamic builds: off is the state
 * CP_ARCS_OFF, which the fast path's test of cp_state already sends to
 * the slow path (a failure's CP_STOPPED is never overwritten).
 */
void cp_arcs_state(int on)
{
	int from = on ? CP_ARCS_OFF : CP_RECORDING;

	__atomic_store_n(&arcs_on, on, __ATOMIC_RELEASE);
	if (cp_arcs_gate != &gate_open)
		return;		/* static link: glibc's state is the gate */
	__atomic_compare_exchange_n(&cp_state, &from, on ? CP_RECORDING : CP_ARCS_OFF,
				    0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

void gmon_runtime_arcs_gate(const long *state)
{
	__atomic_store_n(&cp_arcs_gate, state ? state : &gate_open, __ATOMIC_RELEASE);
}

/* gmon.out's arcs are the runtime's and on: a call must reach them */
static inline int arcs_counting(void)
{
	return __atomic_load_n(&cp_arcs_taken, __ATOMIC_RELAXED) &&
	       __atomic_load_n(&arcs_on, __ATOMIC_RELAXED) &&
	       (unsigned long)*cp_arcs_gate <= 1;	/* GMON_PROF_ON, BUSY */
}

/*
 * A call the tree did not take: into the flat table while gmon.out's arcs
 * are the runtime's and on (fp + 8 is the new frame's return-address slot,
 * mapped: the call's frompc).
 */
static cold void not_taken(uintptr_t fp, uintptr_t selfpc)
{
	if (arcs_counting())
		cp_arcs_flat_add(*(const uintptr_t *)(fp + 8), selfpc);
}

/* A call the tree took while the arcs were off: the off table subtracts it. */
static cold void taken_while_off(uint64_t call_site, uint64_t selfpc)
{
	if (__atomic_load_n(&cp_arcs_taken, __ATOMIC_RELAXED) && !arcs_counting())
		cp_arcs_off_add(call_site, selfpc);
}

/*
 * glibc's x86_64 mcount and __fentry__ (sysdeps/x86_64/_mcount.S) byte for
 * byte, the call's rel32 excepted: save rax rcx rdx rsi rdi r8 r9, load
 * selfpc and frompc, call __mcount_internal, restore, ret.  Only when the
 * function we chain to is exactly this do the trampolines call the counter
 * themselves (direct mode); any other build of glibc keeps the tail-jump.
 */
#define GLIBC_SAVE 0x48, 0x89, 0x04, 0x24, 0x48, 0x89, 0x4c, 0x24, 0x08, \
	0x48, 0x89, 0x54, 0x24, 0x10, 0x48, 0x89, 0x74, 0x24, 0x18, \
	0x48, 0x89, 0x7c, 0x24, 0x20, 0x4c, 0x89, 0x44, 0x24, 0x28, \
	0x4c, 0x89, 0x4c, 0x24, 0x30
#define GLIBC_RESTORE 0x4c, 0x8b, 0x4c, 0x24, 0x30, 0x4c, 0x8b, 0x44, 0x24, 0x28, \
	0x48, 0x8b, 0x7c, 0x24, 0x20, 0x48, 0x8b, 0x74, 0x24, 0x18, \
	0x48, 0x8b, 0x54, 0x24, 0x10, 0x48, 0x8b, 0x4c, 0x24, 0x08, \
	0x48, 0x8b, 0x04, 0x24
static const unsigned char glibc_mcount[] = {
	0x48, 0x83, 0xec, 0x38, GLIBC_SAVE,
	0x48, 0x8b, 0x74, 0x24, 0x38,		/* mov 0x38(%rsp),%rsi */
	0x48, 0x8b, 0x7d, 0x08,			/* mov 0x8(%rbp),%rdi */
	0xe8, 0, 0, 0, 0, GLIBC_RESTORE,
	0x48, 0x83, 0xc4, 0x38, 0xc3,
};
static const unsigned char glibc_fentry[] = {
	0x48, 0x83, 0xec, 0x40, GLIBC_SAVE,
	0x48, 0x8b, 0x74, 0x24, 0x40,		/* mov 0x40(%rsp),%rsi */
	0x48, 0x8b, 0x7c, 0x24, 0x48,		/* mov 0x48(%rsp),%rdi */
	0xe8, 0, 0, 0, 0, GLIBC_RESTORE,
	0x48, 0x83, 0xc4, 0x40, 0xc3,
};
/* offset of the call in `code`: before it, restore, add and ret */
#define GLIBC_CALL(code) \
	(sizeof(code) - 5 - sizeof((unsigned char[]){ GLIBC_RESTORE }) - 5)

/* The counter `fn` calls if `fn` is `code` (call rel32 at `call`), else NULL. */
static cold void *glibc_internal(const unsigned char *fn, const unsigned char *code,
				 size_t len, size_t call)
{
	int32_t rel;

	if (!fn)
		return NULL;
	for (size_t i = 0; i < len; i++)
		if ((i <= call || i >= call + 5) && fn[i] != code[i])
			return NULL;
	rel = (int32_t)((uint32_t)fn[call + 1] | (uint32_t)fn[call + 2] << 8 |
			(uint32_t)fn[call + 3] << 16 | (uint32_t)fn[call + 4] << 24);
	return (void *)(fn + call + 5 + rel);
}

/* Once, on the first thread's start: may the trampolines use direct mode? */
static cold void direct_mode_init(void)
{
	static int done;
	void *fn;

	if (__atomic_exchange_n(&done, 1, __ATOMIC_RELAXED))
		return;
	fn = glibc_internal(cp_next_mcount, glibc_mcount, sizeof(glibc_mcount),
			    GLIBC_CALL(glibc_mcount));
	if (fn)
		glibc_mcount_internal = fn;
	fn = glibc_internal(cp_next_fentry, glibc_fentry, sizeof(glibc_fentry),
			    GLIBC_CALL(glibc_fentry));
	if (fn)
		glibc_fentry_internal = fn;
	cp_counter_set(__atomic_load_n(&cp_arcs_taken, __ATOMIC_ACQUIRE));
}

static void *map(size_t len)
{
	void *p = cp_mmap(NULL, len, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static size_t page_round(size_t n)
{
	return (n + 4095) & ~(size_t)4095;
}

/*
 * The registry's lock.  Held briefly (to register or unlink a thread) or
 * for a merge (retiring a thread, the exit writer), never by a thread
 * inside the trampolines while it waits for anything but the lock: a
 * thread that finds it taken yields.  Never taken from a signal handler
 * (a handler's calls are dropped before they could get here).
 */
void cp_registry_lock(void)
{
	while (__atomic_exchange_n(&registry_lock, 1, __ATOMIC_ACQUIRE))
		cp_syscall0(SYS_sched_yield);
}

/*
 * The lock from a signal handler (gmon_arcs.c, snapshot.c): tried, with a
 * yield between tries, never waited on for ever, since the interrupted
 * code may be the holder.  0 when taken, -1 after `tries` tries.
 */
int cp_registry_trylock(unsigned tries)
{
	for (unsigned i = 0; __atomic_exchange_n(&registry_lock, 1, __ATOMIC_ACQUIRE); i++) {
		if (i >= tries)
			return -1;
		cp_syscall0(SYS_sched_yield);
	}
	return 0;
}

void cp_registry_unlock(void)
{
	__atomic_store_n(&registry_lock, 0, __ATOMIC_RELEASE);
}

static uint32_t hash3(uint32_t parent, uint64_t call_site, uint64_t callee)
{
	uint64_t h = (call_site ^ (callee << 17) ^ (callee >> 13)) *
		     0x9e3779b97f4a7c15ull;

	h ^= parent * 0xc2b2ae3dull;
	return (uint32_t)(h >> 32) ^ (uint32_t)h;
}

/* The entries above the root sentinel: user entry i (from 1) is st(t)[i]. */
static inline struct cp_frame *st(struct cp_thread *t)
{
	return t->stack + SENTINELS - 1;
}

/*
 * The stack's capacity changed: the user entries mapped, and the index
 * below which a caller entry may push (mapped room and the bounds); the
 * trampolines' limit is the entry there.
 */
static void stack_limits(struct cp_thread *t)
{
	uint32_t fast = cp_config.max_depth;

	t->stack_room = t->stack_cap - SENTINELS;
	if (cp_config.depth && cp_config.depth < fast)
		fast = cp_config.depth;
	cp_tls.limit = st(t) + (fast < t->stack_room ? fast : t->stack_room);
}

/* A node's kids before record.c resolves a call from it (struct cp_node). */
static void no_kids(struct cp_node *n)
{
	for (uint32_t k = 0; k < CP_KIDS; k++)
		n->kids[k] = &cp_no_kid;
}

static void tree_unmap(struct cp_tree *tr)
{
	for (uint32_t c = 0; c < CP_CHUNKS && tr->chunk[c]; c++) {
		if (c || !(tr->home & CP_HOME_CHUNK0))
			cp_munmap(tr->chunk[c], CHUNK_BYTES(c));
		tr->chunk[c] = NULL;
	}
	if (tr->hash && !(tr->home & CP_HOME_HASH))
		cp_munmap(tr->hash, (size_t)(tr->hash_mask + 1) * sizeof(uint32_t));
	tr->hash = NULL;
	tr->hash_mask = 0;
	tr->nr_nodes = 0;
}

/*
 * A thread's first mapping: its header, the edge cache, then the first
 * hash table, shadow stack and node chunk, so that a thread's start and
 * end cost one mmap and one munmap (a program that runs threads one after
 * another pays them per thread).
 */
#define HEAD_BYTES page_round(sizeof(struct cp_thread))
#define CACHE_BYTES ((size_t)CACHE_SIZE * sizeof(struct cp_edge))
#define HASH0_BYTES ((size_t)HASH_INITIAL * sizeof(uint32_t))
#define HOME_BYTES (HEAD_BYTES + CACHE_BYTES + HASH0_BYTES + STACK_INITIAL + CHUNK_BYTES(0))

/* Bytes of an edge cache whose set mask (cp_tls.cache_mask) is `mask`. */
static size_t cache_bytes(uint64_t mask)
{
	return (size_t)((mask >> CP_SET_SHIFT) + 1) << CP_SET_SHIFT;
}

/* The thread's edge cache when it is not the one in its first mapping. */
static void cache_unmap(struct cp_thread *t, struct cp_edge *cache, uint64_t mask)
{
	if (cache && cache != (struct cp_edge *)((char *)t + HEAD_BYTES))
		cp_munmap(cache, cache_bytes(mask));
}

/*
 * A few first mappings of ended threads are kept for the next threads to
 * start (a program that runs short threads one after another paid an
 * mmap, a dozen page faults and an munmap per thread: 0.05 ms of a 0.4 ms
 * thread).  Under the registry lock; taken with a try only, so that a
 * thread's start never waits for it.
 */
#define HOME_POOL 4u
static struct cp_thread *home_pool[HOME_POOL];
static uint32_t home_pooled;

/* The thread's first mapping, kept for another thread or unmapped. */
static void home_release(struct cp_thread *t)
{
	if (cp_registry_trylock(0) == 0) {
		if (home_pooled < HOME_POOL) {
			home_pool[home_pooled++] = t;
			t = NULL;
		}
		cp_registry_unlock();
	}
	if (t)
		cp_munmap(t, HOME_BYTES);
}

/* A kept first mapping, zeroed where a new thread expects zeros, or NULL. */
static struct cp_thread *home_reuse(void)
{
	struct cp_thread *t = NULL;

	if (cp_registry_trylock(0) == 0) {
		if (home_pooled)
			t = home_pool[--home_pooled];
		cp_registry_unlock();
	}
	if (t) {
		/* the header and the edge cache (stale edges would point into
		 * the new thread's nodes), and the first chunk's samples */
		uint64_t *z = (uint64_t *)t, *end = (uint64_t *)((char *)t + HEAD_BYTES + CACHE_BYTES);
		uint64_t *s = (uint64_t *)((char *)t + HOME_BYTES - CHUNK_BYTES(0)) + CP_CHUNK0 *
			      sizeof(struct cp_node) / sizeof(uint64_t);

		while (z < end)
			*z++ = 0;
		for (uint32_t i = 0; i < CP_CHUNK0; i++)
			s[i] = 0;
	}
	return t;
}

static void thread_unmap(struct cp_thread *t)
{
	cp_leaves_free(&t->leaves);
	cache_unmap(t, t->cache, t->cache_mask);
	tree_unmap(&t->tree);
	if (t->stack && !t->stack_home)
		cp_munmap(t->stack, (size_t)t->stack_cap * sizeof(struct cp_frame));
	home_release(t);
}

/* First call on this thread: map its state, register it, fill cp_tls. */
static cold struct cp_thread *thread_start(uintptr_t sp)
{
	struct cp_thread *t;
	char *p;

	t = home_reuse();
	if (!t)
		t = map(HOME_BYTES);
	if (!t)
		goto fail;
	p = (char *)t + HEAD_BYTES + CACHE_BYTES;
	t->tree.hash = (uint32_t *)p;
	t->tree.hash_mask = HASH_INITIAL - 1;
	for (uint32_t i = 0; i < HASH_INITIAL; i++)
		t->tree.hash[i] = CP_NONE;
	p += HASH0_BYTES;
	t->stack = (struct cp_frame *)p;
	t->stack_cap = STACK_INITIAL / sizeof(struct cp_frame);
	t->stack_home = 1;
	p += STACK_INITIAL;
	t->tree.chunk[0] = (struct cp_node *)p;
	t->tree.home = CP_HOME_HASH | CP_HOME_CHUNK0;
	t->tree.root.parent = CP_NONE;
	no_kids(&t->tree.root);
	for (int i = 0; i < SENTINELS; i++) {
		t->stack[i].fp = UINTPTR_MAX;
		t->stack[i].node = &t->tree.root;
	}
	/* the zeroed cache holds no edge: no parent is NULL there */
	if (!cp_tls.stack_span)
		cp_stack_own_from_maps(t, sp);

	/*
	 * Registered under the lock.  The exit writer holds it while it sums
	 * (and mallocs); a thread that meets it there stops waiting once
	 * recording has stopped, and its call is not recorded.
	 */
	while (__atomic_exchange_n(&registry_lock, 1, __ATOMIC_ACQUIRE)) {
		int st = __atomic_load_n(&cp_state, __ATOMIC_RELAXED);

		if (st != CP_RECORDING && st != CP_ARCS_OFF) {
			thread_unmap(t);
			return NULL;
		}
		cp_syscall0(SYS_sched_yield);
	}
	t->next = cp_threads;
	if (t->next)
		t->next->prev = t;
	__atomic_store_n(&cp_threads, t, __ATOMIC_RELEASE);
	cp_registry_unlock();
	direct_mode_init();
	cp_tls.cache = (struct cp_edge *)((char *)t + HEAD_BYTES);
	cp_tls.cache_mask = (uint64_t)((1u << CP_CACHE_BITS) - 1) << CP_SET_SHIFT;
	t->cache_clock = cp_tls.clock;
	cp_tls.self = t;
	stack_limits(t);	/* cp_tls.limit: the first caller entry that cannot push */
	cp_tls.top = st(t);
	return t;
fail:
	cp_fail(SIDECAR_FAIL_MMAP);
	return NULL;
}

/*
 * Double the shadow stack (the thread is busy: nothing points into it but
 * cp_tls and enter()'s `top`): `top` rebased, or NULL at the bound.  The
 * first one in the thread's first mapping is copied out, the others moved
 * by mremap.  (It returns `top` rather than taking its address, which
 * would keep enter()'s `top` in memory on every call.)
 */
static cold struct cp_frame *stack_grow(struct cp_thread *t, struct cp_frame *top)
{
	size_t old = (size_t)t->stack_cap * sizeof(struct cp_frame);
	size_t max = page_round(((size_t)cp_config.max_depth + SENTINELS + 1) *
				sizeof(struct cp_frame));
	size_t len = old * 2 < max ? old * 2 : max;
	struct cp_frame *s;

	if (len <= old)
		return NULL;
	if (t->stack_home) {
		s = map(len);
		if (!s)
			return NULL;
		for (uint32_t i = 0; i < t->stack_cap; i++)
			s[i] = t->stack[i];
		t->stack_home = 0;
	} else {
		s = cp_mremap(t->stack, old, len, MREMAP_MAYMOVE);
		if (s == MAP_FAILED)
			return NULL;
	}
	top = s + (top - t->stack);
	t->stack = s;
	t->stack_cap = (uint32_t)(len / sizeof(struct cp_frame));
	stack_limits(t);
	return top;
}

static cold int hash_grow(struct cp_tree *tr)
{
	uint32_t size = tr->hash_mask ? (tr->hash_mask + 1) * 2 : HASH_INITIAL;
	uint32_t *hash = map((size_t)size * sizeof(uint32_t));

	if (!hash)
		return -1;
	for (uint32_t i = 0; i < size; i++)
		hash[i] = CP_NONE;
	for (uint32_t i = 0; i < tr->nr_nodes; i++) {
		const struct cp_node *n = cp_tree_node(tr, i);
		uint32_t h = hash3(n->parent, n->call_site, n->callee);

		while (hash[h & (size - 1)] != CP_NONE)
			h++;
		hash[h & (size - 1)] = i;
	}
	if (tr->hash && !(tr->home & CP_HOME_HASH))
		cp_munmap(tr->hash, (size_t)(tr->hash_mask + 1) * sizeof(uint32_t));
	tr->home &= ~CP_HOME_HASH;
	tr->hash = hash;
	tr->hash_mask = size - 1;
	return 0;
}

/*
 * The child (call_site, callee) of node index `parent` in the hash table,
 * or NULL; *slot is the hash value where it would go.
 */
static struct cp_node *find_child(struct cp_tree *tr, uint32_t parent,
				  uint64_t call_site, uint64_t callee, uint32_t *slot)
{
	uint32_t h, i;

	if (!tr->hash) {
		*slot = 0;
		return NULL;
	}
	for (h = hash3(parent, call_site, callee);; h++) {
		struct cp_node *n;

		i = tr->hash[h & tr->hash_mask];
		if (i == CP_NONE)
			break;
		n = cp_tree_node(tr, i);
		if (n->parent == parent && n->call_site == call_site &&
		    n->callee == callee)
			return n;
	}
	*slot = h;
	return NULL;
}

/*
 * The child (call_site, callee) of node index `parent`, created with `flags`
 * when new, its index in *idx.  NULL: the node bound, or no memory (the
 * caller counts the call as dropped; recording goes on).
 */
static struct cp_node *tree_child(struct cp_tree *tr, uint32_t parent,
				  uint64_t call_site, uint64_t callee,
				  uint32_t flags, uint32_t *idx)
{
	uint32_t h, i, c;
	struct cp_node *n = find_child(tr, parent, call_site, callee, &h);

	if (n) {
		*idx = (uint32_t)CP_NONE;	/* not needed for a hit */
		return n;
	}
	i = tr->nr_nodes;
	if (i >= cp_config.max_nodes)
		return NULL;
	if (2u * (i + 1) > tr->hash_mask + 1 || !tr->hash) {
		if (hash_grow(tr) < 0)
			return NULL;
		find_child(tr, parent, call_site, callee, &h);	/* the new slot */
	}
	c = cp_chunk_of(i);
	if (!tr->chunk[c]) {
		tr->chunk[c] = map(CHUNK_BYTES(c));
		if (!tr->chunk[c])
			return NULL;
	}
	n = cp_tree_node(tr, i);
	n->call_site = call_site;
	n->callee = callee;
	n->count = 0;
	n->stamp = 0;
	n->parent = parent;
	n->flags = flags;
	no_kids(n);
	tr->hash[h & tr->hash_mask] = i;
	/* the exit-time merge reads nodes below nr_nodes */
	__atomic_store_n(&tr->nr_nodes, i + 1, __ATOMIC_RELEASE);
	*idx = i;
	return n;
}

static struct cp_node *child_hashed(struct cp_tree *tr, uint32_t parent,
				    uint64_t call_site, uint64_t callee,
				    uint32_t flags)
{
	uint32_t idx;

	return tree_child(tr, parent, call_site, callee, flags, &idx);
}

/* The index of a node of `tr` (CP_NONE for the root): found by its chunk. */
uint32_t cp_tree_index(const struct cp_tree *tr, const struct cp_node *n)
{
	if (n == &tr->root)
		return CP_NONE;
	for (uint32_t c = 0; c < CP_CHUNKS && tr->chunk[c]; c++)
		if (n >= tr->chunk[c] && n < tr->chunk[c] + (CP_CHUNK0 << c))
			return cp_chunk_first(c) + (uint32_t)(n - tr->chunk[c]);
	return CP_NONE;	/* not reached: frames hold this tree's nodes */
}

/*
 * The node index whose children a frame with node `n` makes: a folded
 * node's frame stands for the ancestor it was folded into (its parent).
 */
static uint32_t frame_parent(struct cp_tree *tr, const struct cp_node *n)
{
	return (n->flags & CP_NODE_FOLDED) ? n->parent : cp_tree_index(tr, n);
}

/* The node of index `p` or one of its ancestors that calls `callee`, or CP_NONE. */
static uint32_t on_path(const struct cp_tree *tr, uint32_t p, uint64_t callee)
{
	for (; p != CP_NONE; p = cp_tree_node(tr, p)->parent)
		if (cp_tree_node(tr, p)->callee == callee)
			return p;
	return CP_NONE;
}

/*
 * The node a call (call_site, callee) from a frame whose node is `parent`
 * goes to, created when new (NULL at the bound): the child of the frame's
 * node or, when recursion is folded and the callee is already on the path,
 * the folded node (ancestor, call_site, callee).  Folding never leaves a
 * child with its parent's callee, so a child found in the hash table is
 * the answer without walking the path.
 */
static struct cp_node *resolve(struct cp_tree *tr, struct cp_node *parent,
			       uint64_t call_site, uint64_t callee)
{
	uint32_t p = frame_parent(tr, parent), a, slot;
	struct cp_node *c;

	if (!cp_config.fold)
		return child_hashed(tr, p, call_site, callee, 0);
	/* an existing child first: no path walk on the common case */
	c = find_child(tr, p, call_site, callee, &slot);
	if (c)
		return c;
	a = on_path(tr, p, callee);
	if (a == CP_NONE)
		return child_hashed(tr, p, call_site, callee, 0);
	return child_hashed(tr, a, call_site, callee, CP_NODE_FOLDED);
}

/*
 * The edge cache grows while it misses edges the tree already has: at
 * least half its size in such misses since it last grew, and at least one
 * call in 32 (a rare pair of edges that keep evicting each other in a long
 * run is not worth the memory), up to 1 << CP_CACHE_MAX_BITS entries.  The
 * entries are rehashed into the new table (the thread is busy: nothing
 * else reads it).  A cache that cannot grow (no memory) stays as it is.
 */
/* Edge `e` into its set of `cache` (set mask `mask`): first, the other moved
 * second (a least recently resolved replacement). */
static void cache_put(struct cp_edge *cache, uint64_t mask, struct cp_node *parent,
		      struct cp_node *child)
{
	struct cp_edge *set = &cache[cp_edge_index(parent, child->call_site, child->callee,
						   mask) * CP_CACHE_WAYS];

	if (set[0].parent != parent || set[0].child != child)
		set[1] = set[0];
	set[0].parent = parent;
	set[0].child = child;
}

static cold void cache_grow(struct cp_thread *t)
{
	uint64_t mask = cp_tls.cache_mask >> CP_SET_SHIFT, nmask = mask * 2 + 1;
	struct cp_edge *old = cp_tls.cache, *e;

	t->cache_misses = 0;
	t->cache_clock = cp_tls.clock;
	if (nmask + 1 >= 1u << CP_CACHE_MAX_BITS)
		t->cache_full = 1;
	e = map((size_t)(nmask + 1) << CP_SET_SHIFT);
	if (!e)
		return;
	/* second ways first: the first ways, put last, stay first */
	for (uint32_t w = CP_CACHE_WAYS; w-- > 0;)
		for (uint64_t i = 0; i <= mask; i++) {
			const struct cp_edge *o = &old[i * CP_CACHE_WAYS + w];

			if (o->parent)
				cache_put(e, nmask, o->parent, o->child);
		}
	cp_tls.cache = t->cache = e;
	cp_tls.cache_mask = t->cache_mask = nmask << CP_SET_SHIFT;
	cache_unmap(t, old, mask << CP_SET_SHIFT);
}

/* The node of the call (call_site, callee) from a frame whose node is `parent`
 * (not NULL), or NULL at the bound; through the edge cache. */
static struct cp_node *child(struct cp_thread *t, struct cp_node *parent,
			     uint64_t call_site, uint64_t callee)
{
	uint64_t mask = cp_tls.cache_mask >> CP_SET_SHIFT;
	struct cp_edge *set = &cp_tls.cache[cp_edge_index(parent, call_site, callee, mask) *
					    CP_CACHE_WAYS];
	uint32_t nodes = t->tree.nr_nodes;
	struct cp_node *c;

	for (uint32_t w = 0; w < CP_CACHE_WAYS; w++)
		if (set[w].parent == parent && set[w].child->call_site == call_site &&
		    set[w].child->callee == callee) {
			c = set[w].child;
			cache_put(cp_tls.cache, mask, parent, c);	/* first now */
			return c;
		}
	c = resolve(&t->tree, parent, call_site, callee);
	if (c) {
		cache_put(cp_tls.cache, mask, parent, c);
		/* an edge the cache had lost (not a new one) */
		if (t->tree.nr_nodes == nodes && !t->cache_full &&
		    ++t->cache_misses > mask / 2 &&
		    t->cache_misses > (cp_tls.clock - t->cache_clock) / 32)
			cache_grow(t);
	}
	return c;
}

/*
 * The trampolines' first look-up (struct cp_node's kids): the child just
 * resolved from a frame whose node is parent goes first, the other moves
 * down.  A child holds the call site and callee it was resolved for (a
 * folded one too), which the trampolines compare.  Filled only here, where
 * the call is resolved without CALLPATH_DEPTH's cut; the trampolines check
 * cp_tls.limit before they push.
 */
static void remember_kid(struct cp_node *parent, struct cp_node *child)
{
	if (parent->kids[0] == child)
		return;
	for (uint32_t k = CP_KIDS - 1; k > 0; k--)
		parent->kids[k] = parent->kids[k - 1];
	parent->kids[0] = child;
}

/* Node of the path made of the last `depth` frames plus the new call. */
static struct cp_node *child_limited(struct cp_thread *t,
				     const struct cp_frame *top,
				     uint64_t call_site, uint64_t callee)
{
	uint32_t k = cp_config.depth;
	struct cp_node *node = &t->tree.root;

	for (const struct cp_frame *f = top - ((ptrdiff_t)k - 2); f <= top; f++) {
		if (!f->node)
			return NULL;
		node = child(t, node, f->node->call_site, f->node->callee);
		if (!node)
			return NULL;
	}
	return child(t, node, call_site, callee);
}

/*
 * The entry of s[0..n] whose frame is `fp`, or NULL (frames decrease).  s[0]
 * is the root's (UINTPTR_MAX), as for the trampolines' search.
 */
static struct cp_frame *find_frame(struct cp_frame *s, uint32_t n, uintptr_t fp)
{
	uint32_t lo = 0, hi = n + 1;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s[mid].fp == fp)
			return &s[mid];
		if (s[mid].fp > fp)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * Pop the entries above `base` whose frames have returned: a live frame's
 * return-address slot still holds the return address it was called with
 * (its node's call site).  Once the function has returned, the next call
 * made by whoever it returned to pushes its own return address at or above
 * that slot's place; when that caller is not instrumented (qsort calling a
 * comparison function again from a deeper level of its recursion, the C
 * library calling main after a static initialiser) no entry of ours is
 * popped by position, but the slot no longer holds our return address.
 * The slot is read only where stack.c can tell it is on the stack the
 * thread runs on now (`sp`); a frame on another stack (a coroutine's, one
 * that may be freed) is not live.
 */
static struct cp_frame *live_top(struct cp_thread *t, struct cp_frame *base,
				 struct cp_frame *top, uintptr_t sp)
{
	struct cp_stack_range cur = { 0, 0, CP_STACK_UNKNOWN };

	while (top != base && !cp_slot_live(t, top, sp, &cur))
		top--;
	return top;
}

/* A call on a thread whose state was retired: counted, never recorded. */
static cold void dropped_late(void)
{
	__atomic_fetch_add(&cp_dropped_late, 1, __ATOMIC_RELAXED);
}

/*
 * fp: the new frame (the address of its return-address slot - 8);
 * caller_fp: the caller's frame if known (mcount), else 0.
 */
static inline __attribute__((always_inline)) void
enter(uintptr_t fp, uintptr_t selfpc, uintptr_t caller_fp)
{
	struct cp_thread *t = cp_tls.self;
	struct cp_frame *top, *base, *f;
	struct cp_node *parent, *node;
	uint64_t call_site;
	uint32_t sp;
	int state;

	if (unlikely(!t || t == CP_RETIRED)) {
		if (t == CP_RETIRED) {
			dropped_late();
			not_taken(fp, selfpc);
			return;
		}
		state = __atomic_load_n(&cp_state, __ATOMIC_RELAXED);
		if (state != CP_RECORDING && state != CP_ARCS_OFF) {
			__atomic_fetch_add(&cp_dropped_early, 1, __ATOMIC_RELAXED);
			not_taken(fp, selfpc);
			return;
		}
		if (cp_tls.starting) {	/* a signal handler during thread_start */
			cp_tls.early_reentry++;
			not_taken(fp, selfpc);
			return;
		}
		cp_tls.starting = 1;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		t = thread_start(fp);
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		cp_tls.starting = 0;
		if (!t) {
			__atomic_fetch_add(&cp_dropped_early, 1, __ATOMIC_RELAXED);
			not_taken(fp, selfpc);
			return;
		}
		t->dropped[SIDECAR_DROP_REENTRY] += cp_tls.early_reentry;
		cp_tls.early_reentry = 0;
	}
	/* top is NULL while this thread is inside the runtime: see cp_tls */
	top = cp_tls.top;
	if (unlikely(!top)) {
		t->dropped[SIDECAR_DROP_REENTRY]++;
		not_taken(fp, selfpc);
		return;
	}
	cp_tls.busy_top = top;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	cp_tls.top = NULL;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	state = __atomic_load_n(&cp_state, __ATOMIC_RELAXED);
	if (unlikely(state != CP_RECORDING && state != CP_ARCS_OFF)) {
		t->dropped[SIDECAR_DROP_STOPPED]++;
		not_taken(fp, selfpc);
		goto out;
	}

	base = st(t);
	while (top->fp <= fp)	/* the root sentinel stops it */
		top--;
	if (!caller_fp) {
		/* __fentry__: no caller frame to match, slots only */
		top = live_top(t, base, top, fp);
	} else if (top != base && top->fp != caller_fp) {
		f = find_frame(base, (uint32_t)(top - base), caller_fp);
		/* not found: the caller is not instrumented (or keeps no %rbp) */
		top = f ? f : live_top(t, base, top, fp);
	}
	sp = (uint32_t)(top - base);
	/* no live caller (main's first call, a thread's): glibc's profiling
	 * handler may be in place by now for sample.c to chain */
	if (unlikely(!sp)) {
		if (__atomic_load_n(&cp_sample_pending, __ATOMIC_RELAXED))
			cp_sample_install();
		if (!t->timer_tried)
			cp_sampler_thread(t);	/* its CALLPATH_HZ timer (sampler.c) */
	}
	if (unlikely(sp >= cp_config.max_depth)) {
		t->dropped[SIDECAR_DROP_DEPTH]++;
		not_taken(fp, selfpc);
		goto out;
	}
	if (unlikely(sp >= t->stack_room)) {
		struct cp_frame *moved;

		/* the old mapping goes: not for the sampler to read */
		cp_tls.busy_top = NULL;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		moved = stack_grow(t, top);

		if (!moved) {
			t->dropped[SIDECAR_DROP_DEPTH]++;
			not_taken(fp, selfpc);
			goto out;
		}
		top = moved;
	}

	call_site = *(const uintptr_t *)(fp + 8);
	parent = top->node;
	if (likely(!cp_config.depth || sp < cp_config.depth)) {
		node = parent ? child(t, parent, call_site, selfpc)
			      : NULL;	/* under a call not recorded */
		if (node)
			remember_kid(parent, node);
	} else
		node = child_limited(t, top, call_site, selfpc);
	if (likely(node)) {
		__atomic_store_n(&node->count, node->count + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&node->stamp, ++cp_tls.clock, __ATOMIC_RELAXED);
		if (unlikely(state == CP_ARCS_OFF || cp_arcs_gate != &gate_open))
			taken_while_off(call_site, selfpc);
	} else {
		t->dropped[SIDECAR_DROP_NODES]++;
		not_taken(fp, selfpc);
	}
	top[1].fp = fp;
	top[1].node = node;
	top++;
out:
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	cp_tls.top = top;
}

void cp_enter_mcount(uintptr_t frame, uintptr_t selfpc, uintptr_t sp)
{
	/*
	 * frame is the instrumented function's %rbp: mcount runs after its
	 * prologue.  It must lie above the stack pointer at mcount's entry
	 * (sp) and be aligned, or this is not a -pg prologue and we keep out.
	 */
	if (unlikely(frame <= sp || (frame & 7)))
		return;
	enter(frame, selfpc, *(const uintptr_t *)frame);
}

void cp_enter_fentry(uintptr_t slot, uintptr_t selfpc)
{
	/*
	 * __fentry__ runs before the prologue and -mfentry code may omit
	 * frame pointers, so %rbp says nothing about the caller: rely on
	 * slot order alone.
	 */
	if (unlikely(!cp_saw_fentry))
		cp_saw_fentry = 1;
	enter(slot - 8, selfpc, 0);
}

/* ---- ended threads: the retired tree ---- */

/*
 * Add tree `src` (a thread's) to the retired tree, parents first.  A node
 * the retired tree cannot take (its bound, no memory) loses its calls,
 * counted as dropped; its children go with it.  Under the registry lock.
 */
static void retire_tree(const struct cp_tree *src, const struct cp_leaves *leaves,
			struct cp_kept_thread *keep)
{
	uint32_t small[1024];	/* normal context, the thread's own stack */
	size_t len = page_round((size_t)src->nr_nodes * sizeof(uint32_t) + 1);
	uint32_t *ix = src->nr_nodes <= 1024 ? small : map(len);

	if (!ix) {
		for (uint32_t i = 0; i < src->nr_nodes; i++)
			cp_retired_dropped[SIDECAR_DROP_NODES] += cp_tree_node(src, i)->count;
		return;
	}
	for (uint32_t i = 0; i < src->nr_nodes; i++) {
		const struct cp_node *n = cp_tree_node(src, i);
		uint32_t parent = n->parent == CP_NONE ? CP_NONE : ix[n->parent], at;
		struct cp_node *r = NULL;

		if (n->parent == CP_NONE || parent != CP_NONE) {
			r = tree_child(&cp_retired, parent, n->call_site, n->callee,
				       n->flags, &at);
			if (r && at == (uint32_t)CP_NONE)
				at = cp_tree_index(&cp_retired, r);
		}
		if (!r) {
			ix[i] = CP_NONE;
			cp_retired_dropped[SIDECAR_DROP_NODES] += n->count;
			continue;
		}
		ix[i] = at;
		r->count += n->count;
		if (n->stamp > r->stamp)
			r->stamp = n->stamp;
		*cp_tree_samples(&cp_retired, at) += *cp_tree_samples(src, i);
		if (keep && (n->count || *cp_tree_samples(src, i)))
			keep->v[keep->n++] = (struct cp_kept_value){
				at, 0, 0, n->count, *cp_tree_samples(src, i) };
	}
	cp_leaves_merge(&cp_retired_leaves, leaves, ix, keep);
	if (ix != small)
		cp_munmap(ix, len);
}

/*
 * A record for the retiring thread's values, with room for one per node
 * and leaf of its tree, or NULL (none kept: CALLPATH_THREADS=0 or 1, no
 * memory).  Under the registry lock.
 */
static struct cp_kept_thread *kept_begin(const struct cp_thread *t, struct cp_kept_thread *k)
{
	uint64_t n = t->tree.nr_nodes;

	if (cp_config.threads < 2)
		return NULL;
	if (!cp_kept) {
		cp_kept = map(page_round((size_t)cp_config.threads * sizeof(*cp_kept)));
		if (!cp_kept)
			return NULL;
	}
	for (uint32_t i = 0; i < t->leaves.ntab; i++)
		n += t->leaves.tab[i]->used;
	k->n = 0;
	k->bytes = page_round((size_t)n * sizeof(*k->v) + 1);
	k->v = map(k->bytes);
	if (!k->v)
		return NULL;
	k->tid = (uint64_t)cp_syscall0(SYS_gettid);
	/* PR_GET_NAME: the name pthread_setname_np gave it, else its comm */
	cp_syscall6(SYS_prctl, 16, (long)k->name, 0, 0, 0, 0);
	k->name[15] = 0;
	return k;
}

/* Is a's weight (samples, then calls) below b's? */
static int kept_lighter(const struct cp_kept_thread *a, const struct cp_kept_thread *b)
{
	return a->samples < b->samples || (a->samples == b->samples && a->calls < b->calls);
}

/* Keep the record `k` filled by retire_tree(), or drop it (see cp_kept). */
static void kept_end(struct cp_kept_thread *k)
{
	uint32_t room = cp_config.threads - 1, min = 0;

	k->samples = k->calls = 0;
	for (uint64_t i = 0; i < k->n; i++) {
		k->samples += k->v[i].samples;
		k->calls += k->v[i].calls;
	}
	if (cp_kept_nr < room) {
		cp_kept[cp_kept_nr++] = *k;
		return;
	}
	for (uint32_t i = 1; i < cp_kept_nr; i++)
		if (kept_lighter(&cp_kept[i], &cp_kept[min]))
			min = i;
	if (cp_kept_nr && kept_lighter(&cp_kept[min], k)) {
		/* its values stay in the tree, summed with the others' */
		cp_munmap(cp_kept[min].v, cp_kept[min].bytes);
		cp_kept[min] = *k;
		return;
	}
	cp_munmap(k->v, k->bytes);
}

void cp_thread_retire(void)
{
	struct cp_thread *t = cp_tls.self;
	struct cp_sampler_tail tail;
	uint64_t n;

	if (!t || t == CP_RETIRED) {
		cp_tls.self = CP_RETIRED;
		return;
	}
	cp_sampler_thread_retiring(t, &tail);	/* no more samples of it */
	/* busy for good: the trampolines go to enter(), which drops */
	cp_tls.top = NULL;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	cp_tls.self = CP_RETIRED;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	cp_registry_lock();
	if (t->prev)
		t->prev->next = t->next;
	else
		__atomic_store_n(&cp_threads, t->next, __ATOMIC_RELEASE);
	if (t->next)
		t->next->prev = t->prev;
	/* after the exit writer nobody reads the retired tree */
	if (!cp_exit_summed) {
		struct cp_kept_thread rec, *keep = kept_begin(t, &rec);

		retire_tree(&t->tree, &t->leaves, keep);
		if (keep)
			kept_end(keep);
		for (int d = 0; d < SIDECAR_DROP_NR; d++)
			cp_retired_dropped[d] += t->dropped[d];
		cp_retired_unplaced += __atomic_load_n(&t->unplaced, __ATOMIC_RELAXED);
		cp_retired_threads++;
	}
	cp_registry_unlock();
	cp_tls.cache = NULL;
	cp_tls.limit = NULL;
	thread_unmap(t);
	/* the CPU time the retirement took: sampled, with no context */
	n = cp_sampler_tail_end(&tail);
	if (n) {
		cp_registry_lock();
		if (!cp_exit_summed)
			cp_retired_unplaced += n;
		cp_registry_unlock();
	}
}

/* ---- sampling mode (sampled.c): the same trees, filled by a signal handler ---- */

struct cp_thread *cp_thread_begin(uintptr_t sp)
{
	struct cp_thread *t = cp_tls.self;

	if (t)
		return t == CP_RETIRED ? NULL : t;
	cp_tls.starting = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t = thread_start(sp);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	cp_tls.starting = 0;
	return t;
}

uint32_t cp_tree_child(struct cp_tree *tr, uint32_t parent, uint64_t call_site,
		       uint64_t callee, uint32_t flags)
{
	uint32_t idx;
	struct cp_node *n = tree_child(tr, parent, call_site, callee, flags, &idx);

	if (!n)
		return CP_NONE;
	return idx != (uint32_t)CP_NONE ? idx : cp_tree_index(tr, n);
}
