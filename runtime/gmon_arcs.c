/*
 * gmon_arcs.c - the runtime as gmon.out's arc source (gmon_takeover.h):
 * what gmon_interpose.c (dynamic) and gmon_static.c (static) ask of it.
 *
 * Once taken over, a call's arc is counted where the call is recorded:
 *   - the calling-context trees (every node is an arc: its call site, its
 *     callee, its count; summed over every thread's tree, live and
 *     retired, by the writer);
 *   - the flat table, for the calls the trees do not take (busy: a signal
 *     handler's call while the runtime works; the node or depth bounds; the
 *     runtime stopped by a failure; a thread whose state was retired or
 *     could not be mapped): nothing is lost;
 *   - the off table, given to the writer as a `subtract` source: the calls
 *     made while moncontrol had arcs off (the trees count them anyway, for
 *     the sidecar), and at take-over every call counted so far (glibc
 *     starts each session from empty tables).
 * glibc's counter is not called meanwhile (record.c's cp_counter_set()).
 *
 * The tables are lock-free (inserted into from the slow path, which a
 * signal handler may reach while the same thread is inserting): segments
 * of open addressing, each entry claimed by a compare-and-swap, counts
 * added atomically, a new segment mapped when the probes run out.  An
 * entry being claimed is skipped: the key may then have two entries, which
 * the writer sums.  Built like record.c (-mgeneral-regs-only, raw system
 * calls only): the slow path calls it under the trampolines.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <sys/mman.h>

#include "gmon_arcs.h"
#include "gmon_takeover.h"
#include "runtime.h"
#include "sys.h"
#include "utils/banned.h"

#define SEG_SLOTS 4096u		/* entries per segment (160 KiB, touched as used) */
#define PROBES 32u		/* probes per segment before the next */

enum { FREE, CLAIMING, READY };

struct arc_entry {
	uint64_t state;
	uint64_t frompc, selfpc;
	uint64_t count, stamp;
};

struct arc_seg {
	struct arc_seg *next;
	uint64_t pad[4];
	struct arc_entry e[SEG_SLOTS];
};

struct arc_table {
	struct arc_seg *first;
};

#define SEG_BYTES ((sizeof(struct arc_seg) + 4095) & ~(size_t)4095)

int cp_arcs_taken;
int cp_arcs_disabled;		/* CALLPATH_ARCS=glibc */
static struct arc_table flat;
static struct arc_table *off;	/* swapped at each take-over, never unmapped */
static uint64_t lost;		/* calls no table could take (no memory) */

static struct arc_seg *seg_map(void)
{
	void *p = cp_mmap(NULL, SEG_BYTES, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* The segment after `s` (or the first), mapped when there is none yet. */
static struct arc_seg *seg_next(struct arc_seg **link)
{
	struct arc_seg *s = __atomic_load_n(link, __ATOMIC_ACQUIRE), *n;

	if (s)
		return s;
	n = seg_map();
	if (!n)
		return NULL;
	if (__atomic_compare_exchange_n(link, &s, n, 0, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		return n;
	cp_munmap(n, SEG_BYTES);	/* another thread (or a handler) won */
	return s;
}

static uint64_t arc_hash(uint64_t frompc, uint64_t selfpc)
{
	uint64_t h = (frompc * 0x9e3779b97f4a7c15ull) ^ (selfpc * 0xc2b2ae3d27d4eb4full);

	return h ^ (h >> 31);
}

static int table_add(struct arc_table *t, uint64_t frompc, uint64_t selfpc,
		     uint64_t n, uint64_t stamp)
{
	uint64_t h = arc_hash(frompc, selfpc);

	for (struct arc_seg **link = &t->first;;) {
		struct arc_seg *s = seg_next(link);

		if (!s)
			return -1;
		for (uint32_t p = 0; p < PROBES; p++) {
			struct arc_entry *e = &s->e[(h + p) & (SEG_SLOTS - 1)];
			uint64_t st = __atomic_load_n(&e->state, __ATOMIC_ACQUIRE);

			if (st == FREE) {
				if (!__atomic_compare_exchange_n(&e->state, &st, CLAIMING, 0,
								 __ATOMIC_ACQ_REL,
								 __ATOMIC_ACQUIRE))
					goto taken;
				e->frompc = frompc;
				e->selfpc = selfpc;
				__atomic_store_n(&e->count, n, __ATOMIC_RELAXED);
				__atomic_store_n(&e->stamp, stamp, __ATOMIC_RELAXED);
				__atomic_store_n(&e->state, READY, __ATOMIC_RELEASE);
				return 0;
			}
taken:
			if (st == READY && e->frompc == frompc && e->selfpc == selfpc) {
				__atomic_fetch_add(&e->count, n, __ATOMIC_RELAXED);
				if (stamp > __atomic_load_n(&e->stamp, __ATOMIC_RELAXED))
					__atomic_store_n(&e->stamp, stamp, __ATOMIC_RELAXED);
				return 0;
			}
		}
		link = &s->next;
	}
}

static uint64_t table_slots(const struct arc_table *t)
{
	uint64_t n = 0;

	if (!t)
		return 0;
	for (const struct arc_seg *s = __atomic_load_n(&t->first, __ATOMIC_ACQUIRE); s;
	     s = __atomic_load_n(&s->next, __ATOMIC_ACQUIRE))
		n += SEG_SLOTS;
	return n;
}

void cp_arcs_flat_add(uint64_t frompc, uint64_t selfpc)
{
	if (table_add(&flat, frompc, selfpc, 1, ++cp_tls.clock) < 0)
		__atomic_fetch_add(&lost, 1, __ATOMIC_RELAXED);
}

void cp_arcs_off_add(uint64_t frompc, uint64_t selfpc)
{
	struct arc_table *t = __atomic_load_n(&off, __ATOMIC_ACQUIRE);

	if (!t || table_add(t, frompc, selfpc, 1, 0) < 0)
		__atomic_fetch_add(&lost, 1, __ATOMIC_RELAXED);
}

/* ---- the sources: the trees, the flat table, the off table ---- */

struct tree_iter {
	const struct cp_tree *tree;	/* the retired tree, then each thread's */
	const struct cp_thread *thread;	/* whose tree is `tree` (phase 2) */
	int phase;			/* 0: not started, 1: retired, 2: threads */
	uint32_t i, n;
	uint64_t left;			/* at most max_arcs in all */
};

static int tree_advance(struct tree_iter *it)
{
	if (it->phase == 0) {
		it->phase = 1;
		it->tree = &cp_retired;
	} else {
		const struct cp_thread *t = it->phase == 1
			? __atomic_load_n(&cp_threads, __ATOMIC_ACQUIRE) : it->thread->next;

		if (!t)
			return 0;
		it->phase = 2;
		it->thread = t;
		it->tree = &t->tree;
	}
	it->i = 0;
	it->n = __atomic_load_n(&it->tree->nr_nodes, __ATOMIC_ACQUIRE);
	return 1;
}

static int tree_next(void *ctx, struct gmon_arc *a)
{
	struct tree_iter *it = ctx;
	const struct cp_node *n;

	while (it->i >= it->n)
		if (!tree_advance(it))
			return 0;
	if (!it->left)
		return 0;	/* nodes made since the sources were counted */
	it->left--;
	n = cp_tree_node(it->tree, it->i++);
	a->frompc = n->call_site;
	a->selfpc = n->callee;
	a->count = __atomic_load_n(&n->count, __ATOMIC_RELAXED);
	a->stamp = __atomic_load_n(&n->stamp, __ATOMIC_RELAXED);
	return 1;
}

struct table_iter {
	const struct arc_seg *seg;
	uint32_t i;
	uint64_t left;
};

static int table_next(void *ctx, struct gmon_arc *a)
{
	struct table_iter *it = ctx;

	while (it->seg && it->left) {
		const struct arc_entry *e;

		if (it->i >= SEG_SLOTS) {
			it->seg = __atomic_load_n(&it->seg->next, __ATOMIC_ACQUIRE);
			it->i = 0;
			continue;
		}
		e = &it->seg->e[it->i++];
		it->left--;
		if (__atomic_load_n(&e->state, __ATOMIC_ACQUIRE) != READY)
			continue;
		a->frompc = e->frompc;
		a->selfpc = e->selfpc;
		a->count = __atomic_load_n(&e->count, __ATOMIC_RELAXED);
		a->stamp = __atomic_load_n(&e->stamp, __ATOMIC_RELAXED);
		return 1;
	}
	return 0;
}

/* Slack for nodes made between counting and reading (other threads run on). */
#define TREE_SLACK 4096u

static struct {
	struct tree_iter trees;
	struct table_iter flat, off;
	struct gmon_arc_source src[3];
	int held;	/* sources handed out: the registry lock is held */
} out;

static uint64_t nodes_now(void)
{
	uint64_t n = __atomic_load_n(&cp_retired.nr_nodes, __ATOMIC_ACQUIRE);

	for (const struct cp_thread *t = __atomic_load_n(&cp_threads, __ATOMIC_ACQUIRE);
	     t; t = t->next)
		n += __atomic_load_n(&t->tree.nr_nodes, __ATOMIC_ACQUIRE);
	return n;
}

/* Under the registry lock: the three sources in out.src. */
static int sources_fill(struct gmon_arc_source **srcs, size_t max)
{
	struct arc_table *o = __atomic_load_n(&off, __ATOMIC_ACQUIRE);
	int n = 0;

	if (max < 3)
		return -1;
	out.trees = (struct tree_iter){ .left = nodes_now() + TREE_SLACK };
	out.src[n] = (struct gmon_arc_source){ tree_next, &out.trees, out.trees.left, 0 };
	srcs[n] = &out.src[n];
	n++;
	out.flat = (struct table_iter){ __atomic_load_n(&flat.first, __ATOMIC_ACQUIRE), 0,
					table_slots(&flat) };
	out.src[n] = (struct gmon_arc_source){ table_next, &out.flat, out.flat.left, 0 };
	srcs[n] = &out.src[n];
	n++;
	out.off = (struct table_iter){ o ? __atomic_load_n(&o->first, __ATOMIC_ACQUIRE) : NULL,
				       0, table_slots(o) };
	out.src[n] = (struct gmon_arc_source){ table_next, &out.off, out.off.left, 1 };
	srcs[n] = &out.src[n];
	n++;
	return n;
}

int gmon_runtime_arc_sources(struct gmon_arc_source **srcs, size_t max)
{
	int n;

	if (!__atomic_load_n(&cp_arcs_taken, __ATOMIC_ACQUIRE))
		return -1;
	cp_registry_lock();
	n = sources_fill(srcs, max);
	if (n < 0) {
		cp_registry_unlock();
		return -1;
	}
	out.held = 1;
	return n;
}

int gmon_runtime_arc_sources_signal(struct gmon_arc_source **srcs, size_t max)
{
	int n;

	if (!__atomic_load_n(&cp_arcs_taken, __ATOMIC_ACQUIRE))
		return -ENOTSUP;
	if (cp_registry_trylock(2000) < 0)
		return -EDEADLK;
	n = sources_fill(srcs, max);
	if (n < 0) {
		cp_registry_unlock();
		return -EINVAL;
	}
	out.held = 1;
	return n;
}

void gmon_runtime_arc_sources_done(void)
{
	if (out.held) {
		out.held = 0;
		cp_registry_unlock();
	}
}

/*
 * A new off table holding every call counted so far (trees and flat
 * table): a new session starts from nothing.  Normal context.
 */
static int baseline(void)
{
	struct arc_table *t = NULL;
	struct gmon_arc_source *srcs[3];
	struct gmon_arc a;
	struct arc_seg *s0 = seg_map();
	int n, ret = 0;

	if (!s0)
		return -1;
	/* the table header lives in the first segment's padding */
	t = (struct arc_table *)&s0->pad[0];
	t->first = s0;
	cp_registry_lock();
	n = sources_fill(srcs, 3);
	for (int i = 0; i < n - 1 && ret == 0; i++)	/* not the old off table */
		while (srcs[i]->next(srcs[i]->ctx, &a) > 0 && ret == 0)
			if (a.count && table_add(t, a.frompc, a.selfpc, a.count, 0) < 0)
				ret = -1;
	cp_registry_unlock();
	if (ret == 0)
		__atomic_store_n(&off, t, __ATOMIC_RELEASE);
	/* a failed table is left mapped: nothing points to it, nothing reads it */
	return ret;
}

int gmon_runtime_take_over(int on)
{
	int st;

	if (!on) {
		__atomic_store_n(&cp_arcs_taken, 0, __ATOMIC_RELEASE);
		cp_counter_set(0);
		cp_arcs_state(1);
		return 0;
	}
	if (cp_arcs_disabled)
		return 0;
	if (__atomic_load_n(&cp_state, __ATOMIC_ACQUIRE) == CP_IDLE)
		cp_start_early();
	st = __atomic_load_n(&cp_state, __ATOMIC_ACQUIRE);
	if (cp_arcs_disabled || (st != CP_RECORDING && st != CP_ARCS_OFF))
		return 0;
	if (!seg_next(&flat.first) || baseline() < 0)
		return 0;
	/* arcs start off: the interposer turns them on */
	cp_arcs_state(0);
	__atomic_store_n(&cp_arcs_taken, 1, __ATOMIC_RELEASE);
	cp_counter_set(1);
	return 1;
}

void gmon_runtime_arcs(int on)
{
	if (__atomic_load_n(&cp_arcs_taken, __ATOMIC_ACQUIRE))
		cp_arcs_state(on);
}

void gmon_runtime_before_write(void)
{
	cp_gmon_before_write();
}

void gmon_runtime_profil_changed(void)
{
	cp_sample_rechain();
}

uint64_t cp_arcs_lost(void)
{
	return __atomic_load_n(&lost, __ATOMIC_RELAXED);
}
