/*
 * arcrec.c - a test fixture standing for the runtime in front of
 * runtime/gmon_*.c: an arc recorder fed by its own mcount
 * (arcrec_mcount.S), a locked hash of (frompc, selfpc) -> count, and the
 * functions gmon_takeover.h asks of the runtime.  Built into an
 * LD_PRELOAD library with gmon_interpose.c (dynamic) or an archive with
 * gmon_static.c (-DARCREC_STATIC), it proves that the modules write what
 * glibc writes, from arcs that are not glibc's.
 *
 * Each arc carries the sequence number of its last call (ARCREC_STAMP=last,
 * the default: glibc's most-recent-first order exactly) or of its first
 * (ARCREC_STAMP=first: what the runtime's trees know for free, node
 * creation order).  ARCREC_TAKEOVER=0 refuses the take-over: glibc's
 * functions and counter do everything.  ARCREC_SCALE=N multiplies every
 * count given to the writer (counts past 2^32 without 2^32 calls).
 *
 * Built -mgeneral-regs-only: it runs under mcount, which saves no vector
 * register.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/gmon_out.h"
#include "runtime/gmon_takeover.h"

#define CAPACITY (1u << 16)	/* distinct arcs; more are dropped (counted) */

struct arc {
	uint64_t frompc, selfpc, count, stamp;
};

static struct arc *table;
static int lock;
static uint64_t seq;
static uint64_t nr_arcs, dropped;
static int taken_over, arcs_on, stamp_first, refuse;
static uint64_t scale = 1;
static __thread int busy;
void *arcrec_next_mcount __attribute__((visibility("hidden")));

#ifdef ARCREC_STATIC
void __mcount_internal(unsigned long frompc, unsigned long selfpc);
#endif

/*
 * What gmon_interpose.c and gmon_static.c ask of the runtime besides
 * gmon_takeover.h: the exit's write held against the end signals
 * (runtime/ends.h) and the process marked profiled (runtime/profiled.h).
 * Nothing to do here.
 */
struct cp_end_hold;
void cp_end_hold_begin(struct cp_end_hold *h);
void cp_end_hold_end(struct cp_end_hold *h);
void cp_profiled_mark(unsigned why);

void cp_end_hold_begin(struct cp_end_hold *h)
{
	(void)h;
}

void cp_end_hold_end(struct cp_end_hold *h)
{
	(void)h;
}

void cp_profiled_mark(unsigned why)
{
	(void)why;
}

static int counting(void)
{
#ifdef ARCREC_STATIC
	return gmon_static_arcs_on();
#else
	return __atomic_load_n(&arcs_on, __ATOMIC_RELAXED);
#endif
}

static void count(uint64_t frompc, uint64_t selfpc)
{
	uint64_t h = (frompc * 0x9e3779b97f4a7c15ull) ^ (selfpc * 0xc2b2ae3dull);

	while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
		;
	seq++;
	for (uint32_t i = 0; i < CAPACITY; i++, h++) {
		struct arc *a = &table[h & (CAPACITY - 1)];

		if (a->count == 0) {
			if (nr_arcs >= CAPACITY / 2)
				break;
			nr_arcs++;
			a->frompc = frompc;
			a->selfpc = selfpc;
			a->stamp = seq;
		} else if (a->frompc != frompc || a->selfpc != selfpc) {
			continue;
		}
		a->count++;
		if (!stamp_first)
			a->stamp = seq;
		__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
		return;
	}
	dropped++;
	__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
}

/* 1: tail-jump to glibc's mcount (dynamic, not taken over). */
__attribute__((visibility("hidden"))) long arcrec_mcount(uint64_t frompc,
							  uint64_t selfpc)
{
	if (!__atomic_load_n(&taken_over, __ATOMIC_ACQUIRE)) {
#ifdef ARCREC_STATIC
		__mcount_internal(frompc, selfpc);
		return 0;
#else
		return arcrec_next_mcount != NULL;
#endif
	}
	if (!counting() || busy)
		return 0;
	busy = 1;
	count(frompc, selfpc);
	busy = 0;
	return 0;
}

static void arcrec_init(void);

int gmon_runtime_take_over(int on)
{
	arcrec_init();
	if (on && (refuse || !table))
		return 0;
	if (on) {
		/* a new session counts from nothing (glibc's fresh tables) */
		while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
			;
		memset(table, 0, CAPACITY * sizeof(struct arc));
		nr_arcs = 0;
		__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&taken_over, on, __ATOMIC_RELEASE);
	return 1;
}

void gmon_runtime_arcs(int on)
{
	__atomic_store_n(&arcs_on, on, __ATOMIC_RELAXED);
}

struct cursor {
	uint32_t i;
};

static int next_arc(void *ctx, struct gmon_arc *out)
{
	struct cursor *c = ctx;

	for (; c->i < CAPACITY; c->i++) {
		const struct arc *a = &table[c->i];

		if (a->count == 0)
			continue;
		out->frompc = a->frompc;
		out->selfpc = a->selfpc;
		out->count = a->count * scale;
		out->stamp = a->stamp;
		c->i++;
		return 1;
	}
	return 0;
}

static struct cursor cursor;
static struct gmon_arc_source source = { .next = next_arc, .ctx = &cursor };

int gmon_runtime_arc_sources(struct gmon_arc_source **srcs, size_t max)
{
	if (max < 1 || !table)
		return -1;
	busy = 1;	/* this thread's calls are not counted while it writes */
	while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
		;	/* held until ..._done: no count changes under the writer */
	cursor.i = 0;
	source.max_arcs = CAPACITY;
	srcs[0] = &source;
	return 1;
}

void gmon_runtime_arc_sources_done(void)
{
	__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
	busy = 0;
	if (dropped && getenv("ARCREC_VERBOSE"))
		(void)!write(2, "arcrec: dropped\n", 16);
}

int gmon_runtime_arc_sources_signal(struct gmon_arc_source **srcs, size_t max)
{
	return gmon_runtime_arc_sources(srcs, max) < 0 ? -ENOTSUP : 1;
}

/* the runtime's sidecar bookkeeping, sampler and static gate: nothing to
 * do here */
void gmon_runtime_before_write(void)
{
}

void gmon_runtime_profil_changed(void)
{
}

void gmon_runtime_arcs_gate(const long *state)
{
	(void)state;
}

static void arcrec_init(void)
{
	static int done;
	const char *s = getenv("ARCREC_STAMP");
	const char *t = getenv("ARCREC_TAKEOVER");
	const char *x = getenv("ARCREC_SCALE");
	void *p;

	if (done)
		return;
	done = 1;
	stamp_first = s && strcmp(s, "first") == 0;
	refuse = t && strcmp(t, "0") == 0;
	if (x)
		scale = strtoull(x, NULL, 10);
#ifndef ARCREC_STATIC
	arcrec_next_mcount = dlsym(RTLD_NEXT, "mcount");
#endif
	p = mmap(NULL, CAPACITY * sizeof(struct arc), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED)
		table = p;
}

__attribute__((constructor(101))) static void arcrec_start(void)
{
	arcrec_init();
}
