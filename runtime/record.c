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
 *      remember it as the top entry's last edge (struct cp_frame);
 *   4. count it and push the frame.
 *
 * The trampolines (arch/x86_64/mcount.S) do all of this themselves in the
 * common case: the caller among the CP_FRAME_POPS + 1 entries at the top
 * (mcount; for __fentry__, at most CP_FRAME_POPS entries to pop), the edge
 * in the caller's entry's last edge or in the cache, room on the stack and no
 * CALLPATH_DEPTH cut.  They come here for everything else, and this code
 * must leave the state as they expect it (struct cp_tls, the sentinels, the
 * last edges, the edge cache).  Both mark the thread busy
 * the same way: cp_tls.top is NULL while they work.
 *
 * So a call costs O(1) amortised (each entry is pushed and popped once) and
 * no stack walk is needed.  The only memory read outside our own state is the
 * new frame itself (its saved %rbp and return address), which is always
 * mapped.
 *
 * This file is compiled with -mgeneral-regs-only and calls only mmap and
 * munmap (and sample.c's cp_sample_install, built the same way, which makes
 * one raw system call): the trampolines do not save vector registers.
 */
#include <stddef.h>
#include <sys/mman.h>

#include "runtime.h"
#include "utils/banned.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define cold __attribute__((noinline, cold))

#define HASH_INITIAL 4096u	/* slots; grows by doubling up to 2 * max_nodes */
#define CACHE_SIZE (1u << CP_CACHE_BITS)
#define SENTINELS (CP_FRAME_POPS + 1)	/* see struct cp_frame */

_Static_assert(offsetof(struct cp_tls, top) == CP_TLS_TOP, "cp_tls");
_Static_assert(offsetof(struct cp_tls, limit) == CP_TLS_LIMIT, "cp_tls");
_Static_assert(offsetof(struct cp_tls, cache) == CP_TLS_CACHE, "cp_tls");
_Static_assert(sizeof(struct cp_frame) == CP_FRAME_SIZE, "cp_frame");
_Static_assert(offsetof(struct cp_frame, fp) == CP_FRAME_FP, "cp_frame");
_Static_assert(offsetof(struct cp_frame, node) == CP_FRAME_NODE, "cp_frame");
_Static_assert(offsetof(struct cp_frame, last) == CP_FRAME_LAST, "cp_frame");
_Static_assert(sizeof(struct cp_node) == 1u << CP_NODE_SHIFT, "cp_node");
_Static_assert(offsetof(struct cp_node, count) == CP_NODE_COUNT, "cp_node");
_Static_assert(offsetof(struct cp_node, call_site) == CP_NODE_SITE, "cp_node");
_Static_assert(sizeof(struct cp_edge) == 1u << CP_EDGE_SHIFT, "cp_edge");
_Static_assert(offsetof(struct cp_edge, parent) == CP_EDGE_PARENT, "cp_edge");
_Static_assert(offsetof(struct cp_edge, call_site) == CP_EDGE_SITE, "cp_edge");
_Static_assert(offsetof(struct cp_edge, callee) == CP_EDGE_CALLEE, "cp_edge");
_Static_assert(offsetof(struct cp_edge, child) == CP_EDGE_CHILD, "cp_edge");

__thread struct cp_tls cp_tls __attribute__((tls_model("initial-exec"), aligned(64)));

struct cp_thread *cp_threads;
void *cp_mcount_internal = cp_chain_mcount;
void *cp_fentry_internal = cp_chain_fentry;

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
		__atomic_store_n(&cp_mcount_internal, fn, __ATOMIC_RELAXED);
	fn = glibc_internal(cp_next_fentry, glibc_fentry, sizeof(glibc_fentry),
			    GLIBC_CALL(glibc_fentry));
	if (fn)
		__atomic_store_n(&cp_fentry_internal, fn, __ATOMIC_RELAXED);
}

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

/* The entries above the root sentinel: user entry i (from 1) is st(t)[i]. */
static inline struct cp_frame *st(struct cp_thread *t)
{
	return t->stack + SENTINELS - 1;
}

/* First call on this thread: map its state, register it, fill cp_tls. */
static cold struct cp_thread *thread_start(void)
{
	size_t head = page_round(sizeof(struct cp_thread));
	size_t cache = page_round(CACHE_SIZE * sizeof(struct cp_edge));
	size_t stack = page_round(((size_t)cp_config.max_depth + SENTINELS) *
				  sizeof(struct cp_frame));
	uint32_t fast = cp_config.max_depth;
	struct cp_thread *t;

	/* the stack and node pool are only touched as they are used */
	t = map(head + cache + stack, MAP_NORESERVE);
	if (!t)
		goto fail;
	cp_tls.cache = (struct cp_edge *)((char *)t + head);
	t->stack = (struct cp_frame *)((char *)t + head + cache);
	t->nodes = map((size_t)cp_config.max_nodes * sizeof(struct cp_node),
		       MAP_NORESERVE);
	/* per-node time samples (sample.c); without them samples are unplaced */
	t->samples = map((size_t)cp_config.max_nodes * sizeof(uint64_t),
			 MAP_NORESERVE);
	t->hash = map(HASH_INITIAL * sizeof(uint32_t), 0);
	if (!t->nodes || !t->hash) {
		if (t->nodes)
			munmap(t->nodes, (size_t)cp_config.max_nodes *
					 sizeof(struct cp_node));
		munmap(t, head + cache + stack);
		cp_tls.cache = NULL;
		goto fail;
	}
	for (uint32_t i = 0; i < HASH_INITIAL; i++)
		t->hash[i] = CP_NONE;
	t->hash_mask = HASH_INITIAL - 1;
	t->root.parent = CP_NONE;
	for (int i = 0; i < SENTINELS; i++) {
		t->stack[i].fp = UINTPTR_MAX;
		t->stack[i].node = &t->root;
	}
	/* the zeroed cache holds no edge: no parent is NULL there */

	t->next = __atomic_load_n(&cp_threads, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(&cp_threads, &t->next, t, 1,
					    __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		;
	if (cp_config.depth && cp_config.depth < fast)
		fast = cp_config.depth;
	direct_mode_init();
	cp_tls.self = t;
	cp_tls.limit = st(t) + fast;	/* the first caller entry that cannot push */
	cp_tls.top = st(t);
	return t;
fail:
	cp_fail(SIDECAR_FAIL_MMAP);
	return NULL;
}

static cold int hash_grow(struct cp_thread *t)
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

/*
 * The child (call_site, callee) of node index `parent` in the hash table,
 * or NULL; *slot is the hash value where it would go.
 */
static struct cp_node *find_child(struct cp_thread *t, uint32_t parent,
				  uint64_t call_site, uint64_t callee, uint32_t *slot)
{
	uint32_t h, i;

	for (h = hash3(parent, call_site, callee);; h++) {
		struct cp_node *n;

		i = t->hash[h & t->hash_mask];
		if (i == CP_NONE)
			break;
		n = &t->nodes[i];
		if (n->parent == parent && n->call_site == call_site &&
		    n->callee == callee)
			return n;
	}
	*slot = h;
	return NULL;
}

/* The child (call_site, callee) of node index `parent`, created with `flags`
 * when new.  NULL: bound. */
static struct cp_node *child_hashed(struct cp_thread *t, uint32_t parent,
				    uint64_t call_site, uint64_t callee,
				    uint32_t flags)
{
	uint32_t h, i;
	struct cp_node *n = find_child(t, parent, call_site, callee, &h);

	if (n)
		return n;
	if (t->nr_nodes >= cp_config.max_nodes)
		return NULL;
	if (2u * (t->nr_nodes + 1) > t->hash_mask + 1) {
		if (hash_grow(t) < 0)
			return NULL;
		find_child(t, parent, call_site, callee, &h);	/* the new slot */
	}
	i = t->nr_nodes;
	n = &t->nodes[i];
	n->call_site = call_site;
	n->callee = callee;
	n->count = 0;
	n->parent = parent;
	n->flags = flags;
	t->hash[h & t->hash_mask] = i;
	/* the exit-time merge reads nodes below nr_nodes */
	__atomic_store_n(&t->nr_nodes, i + 1, __ATOMIC_RELEASE);
	return n;
}

static uint32_t node_index(struct cp_thread *t, const struct cp_node *n)
{
	return n == &t->root ? CP_NONE : (uint32_t)(n - t->nodes);
}

/*
 * The node index whose children a frame with node `n` makes: a folded
 * node's frame stands for the ancestor it was folded into (its parent).
 */
static uint32_t frame_parent(struct cp_thread *t, const struct cp_node *n)
{
	return (n->flags & CP_NODE_FOLDED) ? n->parent : node_index(t, n);
}

/* The node of index `p` or one of its ancestors that calls `callee`, or CP_NONE. */
static uint32_t on_path(const struct cp_thread *t, uint32_t p, uint64_t callee)
{
	for (; p != CP_NONE; p = t->nodes[p].parent)
		if (t->nodes[p].callee == callee)
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
static struct cp_node *resolve(struct cp_thread *t, struct cp_node *parent,
			       uint64_t call_site, uint64_t callee)
{
	uint32_t p = frame_parent(t, parent), a, slot;
	struct cp_node *c;

	if (!cp_config.fold)
		return child_hashed(t, p, call_site, callee, 0);
	/* an existing child first: no path walk on the common case */
	c = find_child(t, p, call_site, callee, &slot);
	if (c)
		return c;
	a = on_path(t, p, callee);
	if (a == CP_NONE)
		return child_hashed(t, p, call_site, callee, 0);
	return child_hashed(t, a, call_site, callee, CP_NODE_FOLDED);
}

/* The node of the call (call_site, callee) from a frame whose node is `parent`
 * (not NULL), or NULL at the bound; through the edge cache. */
static struct cp_node *child(struct cp_thread *t, struct cp_node *parent,
			     uint64_t call_site, uint64_t callee)
{
	struct cp_edge *e = &cp_tls.cache[cp_edge_index(parent, call_site, callee)];
	struct cp_node *c;

	if (e->parent == parent && e->call_site == call_site &&
	    e->callee == callee)
		return e->child;
	c = resolve(t, parent, call_site, callee);
	if (c) {
		e->parent = parent;
		e->call_site = call_site;
		e->callee = callee;
		e->child = c;
	}
	return c;
}

/* Node of the path made of the last `depth` frames plus the new call. */
static struct cp_node *child_limited(struct cp_thread *t,
				     const struct cp_frame *top,
				     uint64_t call_site, uint64_t callee)
{
	uint32_t k = cp_config.depth;
	struct cp_node *node = &t->root;

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
 * Is the frame of entry `f` still live, as far as its return-address slot
 * tells?  A live frame's slot holds the return address it was called with
 * (its node's call site).  Once the function has returned, the next call
 * made by whoever it returned to pushes its own return address at or above
 * that slot's place; when that caller is not instrumented (qsort calling a
 * comparison function again from a deeper level of its recursion, the C
 * library calling main after a static initialiser) no entry of ours is
 * popped by position, but the slot no longer holds our return address.
 * The slot lies above the new frame (step 1 popped the others), on this
 * thread's stack, so it is mapped.  Entries without a node (calls not
 * recorded) and the root's sentinel are taken as live.
 */
static inline int frame_live(const struct cp_frame *f)
{
	return !f->node || f->fp == UINTPTR_MAX ||
	       *(const uintptr_t *)(f->fp + 8) == f->node->call_site;
}

/* frame_live() for the SIGPROF handler (sample.c), which must agree with it. */
int cp_frame_live(const struct cp_frame *f)
{
	return frame_live(f);
}

/* Pop the entries above `base` whose frames have returned (frame_live). */
static struct cp_frame *live_top(struct cp_frame *base, struct cp_frame *top)
{
	while (top != base && !frame_live(top))
		top--;
	return top;
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

	if (unlikely(!t)) {
		if (__atomic_load_n(&cp_state, __ATOMIC_RELAXED) != CP_RECORDING) {
			__atomic_fetch_add(&cp_dropped_early, 1, __ATOMIC_RELAXED);
			return;
		}
		if (cp_tls.starting) {	/* a signal handler during thread_start */
			cp_tls.early_reentry++;
			return;
		}
		cp_tls.starting = 1;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		t = thread_start();
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		cp_tls.starting = 0;
		if (!t)
			return;
		t->dropped[SIDECAR_DROP_REENTRY] += cp_tls.early_reentry;
		cp_tls.early_reentry = 0;
	}
	/* top is NULL while this thread is inside the runtime: see cp_tls */
	top = cp_tls.top;
	if (unlikely(!top)) {
		t->dropped[SIDECAR_DROP_REENTRY]++;
		return;
	}
	cp_tls.top = NULL;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (unlikely(__atomic_load_n(&cp_state, __ATOMIC_RELAXED) != CP_RECORDING)) {
		t->dropped[SIDECAR_DROP_STOPPED]++;
		goto out;
	}

	base = st(t);
	while (top->fp <= fp)	/* the root sentinel stops it */
		top--;
	if (!caller_fp) {
		/* __fentry__: no caller frame to match, slots only */
		top = live_top(base, top);
	} else if (top != base && top->fp != caller_fp) {
		f = find_frame(base, (uint32_t)(top - base), caller_fp);
		/* not found: the caller is not instrumented (or keeps no %rbp) */
		top = f ? f : live_top(base, top);
	}
	sp = (uint32_t)(top - base);
	/* no live caller (main's first call, a thread's): glibc's profiling
	 * handler may be in place by now for sample.c to chain */
	if (unlikely(!sp && __atomic_load_n(&cp_sample_pending, __ATOMIC_RELAXED)))
		cp_sample_install();
	if (unlikely(sp >= cp_config.max_depth)) {
		t->dropped[SIDECAR_DROP_DEPTH]++;
		goto out;
	}

	call_site = *(const uintptr_t *)(fp + 8);
	parent = top->node;
	if (likely(!cp_config.depth || sp < cp_config.depth)) {
		node = parent ? child(t, parent, call_site, selfpc)
			      : NULL;	/* under a call not recorded */
		if (node)	/* the trampolines push from here: see cp_frame */
			top->last = (struct cp_edge){ parent, call_site, selfpc, node };
	} else
		node = child_limited(t, top, call_site, selfpc);
	if (likely(node))
		__atomic_store_n(&node->count, node->count + 1, __ATOMIC_RELAXED);
	else
		t->dropped[SIDECAR_DROP_NODES]++;
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
