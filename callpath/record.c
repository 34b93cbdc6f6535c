/*
 * record.c - the per-call fast path of the call-path runtime.
 *
 * Each thread keeps a shadow stack of the instrumented frames that are live,
 * identified by the address of their return-address slot (the stack grows
 * down, so a deeper frame has a lower slot), and a calling-context tree whose
 * nodes are (call site, callee) pairs under a parent.  On every call:
 *
 *   1. pop the entries whose slot is at or below the new frame's slot: those
 *      frames have returned, or were left by longjmp, an exception or a tail
 *      call, since nothing deeper than a function that is just starting can
 *      be live;
 *   2. (mcount only) check that the top entry is the caller: the saved %rbp
 *      in the new frame points at the caller's frame.  If not, look the
 *      caller's slot up (binary search: slots decrease towards the top) and
 *      drop the stale entries above it; if the caller is not instrumented,
 *      the nearest instrumented frame stays the parent;
 *   3. find the child (call site, callee) of the top node: first the child
 *      this frame called last (kept in the frame entry), then the node's
 *      last child, then the thread's hash table; create it when new;
 *   4. count it and push the frame.
 *
 * So a call costs O(1) amortised (each entry is pushed and popped once) and
 * no stack walk is needed.  The only memory read outside our own state is the
 * new frame itself (its saved %rbp and return address), which is always
 * mapped.
 *
 * This file is compiled with -mgeneral-regs-only and calls only mmap and
 * munmap: the trampolines do not save vector registers.
 */
#include <stddef.h>
#include <sys/mman.h>

#include "runtime.h"
#include "utils/banned.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define HASH_INITIAL 4096u	/* slots; grows by doubling up to 2 * max_nodes */

static __thread struct cp_thread *cp_self
	__attribute__((tls_model("initial-exec")));

struct cp_thread *cp_threads;

static void *map(size_t len, int flags)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static size_t page_round(size_t n)
{
	return (n + 4095) & ~(size_t)4095;
}

static uint32_t hash3(uint32_t parent, uint64_t call_site, uint64_t callee)
{
	uint64_t h = (call_site ^ (callee << 17) ^ (callee >> 13)) *
		     0x9e3779b97f4a7c15ull;

	h ^= parent * 0xc2b2ae3dull;
	return (uint32_t)(h >> 32) ^ (uint32_t)h;
}

/* First call on this thread: map its state and register it. */
static struct cp_thread *thread_start(void)
{
	size_t head = page_round(sizeof(struct cp_thread));
	size_t stack = page_round((size_t)cp_config.max_depth *
				  sizeof(struct cp_frame));
	struct cp_thread *t;

	/* the stack and node pool are only touched as they are used */
	t = map(head + stack, MAP_NORESERVE);
	if (!t)
		goto fail;
	t->stack = (struct cp_frame *)((char *)t + head);
	t->nodes = map((size_t)cp_config.max_nodes * sizeof(struct cp_node),
		       MAP_NORESERVE);
	t->hash = map(HASH_INITIAL * sizeof(uint32_t), 0);
	if (!t->nodes || !t->hash) {
		if (t->nodes)
			munmap(t->nodes, (size_t)cp_config.max_nodes *
					 sizeof(struct cp_node));
		munmap(t, head + stack);
		goto fail;
	}
	for (uint32_t i = 0; i < HASH_INITIAL; i++)
		t->hash[i] = CP_NONE;
	t->hash_mask = HASH_INITIAL - 1;
	t->root_last = CP_NONE;

	t->next = __atomic_load_n(&cp_threads, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&cp_threads, &t->next, t, 1,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
	cp_self = t;
	return t;
fail:
	cp_fail(SIDECAR_FAIL_MMAP);
	return NULL;
}

static int hash_grow(struct cp_thread *t)
{
	uint32_t size = (t->hash_mask + 1) * 2;
	uint32_t *hash = map((size_t)size * sizeof(uint32_t), 0);

	if (!hash) {
		cp_fail(SIDECAR_FAIL_HASH);
		return -1;
	}
	for (uint32_t i = 0; i < size; i++)
		hash[i] = CP_NONE;
	for (uint32_t i = 0; i < t->nr_nodes; i++) {
		const struct cp_node *n = &t->nodes[i];
		uint32_t h = hash3(n->parent, n->call_site, n->callee);

		while (hash[h & (size - 1)] != CP_NONE)
			h++;
		hash[h & (size - 1)] = i;
	}
	munmap(t->hash, (size_t)(t->hash_mask + 1) * sizeof(uint32_t));
	t->hash = hash;
	t->hash_mask = size - 1;
	return 0;
}

static __attribute__((noinline)) uint32_t
child_slow(struct cp_thread *t, uint32_t parent, uint64_t call_site,
	   uint64_t callee)
{
	struct cp_node *n;
	uint32_t h, i;

	for (h = hash3(parent, call_site, callee);; h++) {
		i = t->hash[h & t->hash_mask];
		if (i == CP_NONE)
			break;
		n = &t->nodes[i];
		if (n->parent == parent && n->call_site == call_site &&
		    n->callee == callee)
			return i;
	}
	if (t->nr_nodes >= cp_config.max_nodes)
		return CP_NONE;
	if (2u * (t->nr_nodes + 1) > t->hash_mask + 1) {
		if (hash_grow(t) < 0)
			return CP_NONE;
		for (h = hash3(parent, call_site, callee);
		     t->hash[h & t->hash_mask] != CP_NONE; h++)
			;
	}
	i = t->nr_nodes;
	n = &t->nodes[i];
	n->call_site = call_site;
	n->callee = callee;
	n->count = 0;
	n->parent = parent;
	n->last_child = CP_NONE;
	t->hash[h & t->hash_mask] = i;
	/* the exit-time merge reads nodes below nr_nodes */
	__atomic_store_n(&t->nr_nodes, i + 1, __ATOMIC_RELEASE);
	return i;
}

static inline uint32_t child(struct cp_thread *t, uint32_t parent,
			     uint64_t call_site, uint64_t callee)
{
	uint32_t *last = parent == CP_NONE ? &t->root_last
					   : &t->nodes[parent].last_child;
	uint32_t c = *last;

	if (likely(c != CP_NONE && t->nodes[c].call_site == call_site &&
		   t->nodes[c].callee == callee))
		return c;
	c = child_slow(t, parent, call_site, callee);
	if (c != CP_NONE)
		*last = c;
	return c;
}

/* Node of the path made of the last `depth` frames plus the new call. */
static uint32_t child_limited(struct cp_thread *t, uint32_t sp,
			      uint64_t call_site, uint64_t callee)
{
	uint32_t k = cp_config.depth, node = CP_NONE;

	for (uint32_t i = sp - (k - 1); i < sp; i++) {
		const struct cp_node *f;

		if (t->stack[i].node == CP_NONE)
			return CP_NONE;
		f = &t->nodes[t->stack[i].node];
		node = child(t, node, f->call_site, f->callee);
		if (node == CP_NONE)
			return CP_NONE;
	}
	return child(t, node, call_site, callee);
}

/* Index of the entry whose slot is `slot`, or `sp` when there is none. */
static uint32_t find_slot(const struct cp_frame *st, uint32_t sp, uintptr_t slot)
{
	uint32_t lo = 0, hi = sp;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (st[mid].slot == slot)
			return mid;
		if (st[mid].slot > slot)
			lo = mid + 1;
		else
			hi = mid;
	}
	return sp;
}

/*
 * slot: address of the new frame's return-address slot;
 * caller_slot: the caller's slot if known (mcount), else 0.
 */
static inline __attribute__((always_inline)) void
enter(uintptr_t slot, uintptr_t selfpc, uintptr_t caller_slot)
{
	struct cp_thread *t = cp_self;
	struct cp_frame *st;
	uint32_t sp, parent, node;
	uint64_t call_site;

	if (unlikely(!t)) {
		if (__atomic_load_n(&cp_state, __ATOMIC_RELAXED) != CP_RECORDING) {
			__atomic_fetch_add(&cp_dropped_early, 1, __ATOMIC_RELAXED);
			return;
		}
		t = thread_start();
		if (!t)
			return;
	}
	if (unlikely(t->busy)) {
		t->dropped[SIDECAR_DROP_REENTRY]++;
		return;
	}
	t->busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (unlikely(__atomic_load_n(&cp_state, __ATOMIC_RELAXED) != CP_RECORDING)) {
		t->dropped[SIDECAR_DROP_STOPPED]++;
		goto out;
	}

	st = t->stack;
	sp = t->sp;
	while (sp && st[sp - 1].slot <= slot)
		sp--;
	if (caller_slot && sp && st[sp - 1].slot != caller_slot) {
		uint32_t j = find_slot(st, sp, caller_slot);

		if (j < sp)
			sp = j + 1;
	}
	if (unlikely(sp >= cp_config.max_depth)) {
		t->sp = sp;
		t->dropped[SIDECAR_DROP_DEPTH]++;
		goto out;
	}

	call_site = *(const uintptr_t *)slot;
	if (likely(sp && st[sp - 1].child_site == call_site &&
		   st[sp - 1].child_callee == selfpc)) {
		node = st[sp - 1].child;	/* same call as last time */
	} else {
		if (likely(!cp_config.depth || sp < cp_config.depth)) {
			parent = sp ? st[sp - 1].node : CP_NONE;
			if (unlikely(sp && parent == CP_NONE))
				node = CP_NONE;	/* under a call not recorded */
			else
				node = child(t, parent, call_site, selfpc);
		} else {
			node = child_limited(t, sp, call_site, selfpc);
		}
		if (sp) {
			st[sp - 1].child_site = call_site;
			st[sp - 1].child_callee = selfpc;
			st[sp - 1].child = node;
		}
	}
	if (likely(node != CP_NONE))
		__atomic_store_n(&t->nodes[node].count, t->nodes[node].count + 1,
				 __ATOMIC_RELAXED);
	else
		t->dropped[SIDECAR_DROP_NODES]++;
	st[sp].slot = slot;
	st[sp].node = node;
	st[sp].child_site = 0;	/* no call site is 0: the cache starts empty */
	st[sp].child_callee = 0;
	t->sp = sp + 1;
out:
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->busy = 0;
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
	enter(frame + 8, selfpc, *(const uintptr_t *)frame + 8);
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
	enter(slot, selfpc, 0);
}
