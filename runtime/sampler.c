/*
 * sampler.c - the sampled program counters per context (leaf tables) and
 * the per-thread CPU-time timers of CALLPATH_HZ.
 *
 * Every time sample is recorded as (context node, kind, program counter)
 * in its thread's leaf table (runtime.h, struct cp_leaves): the reader
 * names the program counter after the run, from the objects the sidecar
 * lists, and decides whether it is the context's own code, another
 * function's first bytes, a library function or the instrumentation
 * (doc/dev/runtime.md, "One sampler, N metrics per node").  The tables are
 * filled by the thread's own SIGPROF handler, so everything here that the
 * handler or record.c's slow path calls uses raw system calls only (built
 * -mgeneral-regs-only, as sample.c).
 *
 * The timers: glibc's ITIMER_PROF is process-wide, 100 Hz, and the kernel
 * charges its ticks to whichever thread runs (7 to 17% above the threads'
 * own CPU time with two threads).  Each thread gets its own POSIX timer on
 * CLOCK_THREAD_CPUTIME_ID, delivered to it alone (SIGEV_THREAD_ID) with
 * SIGPROF, the signal profiling already owns, so that no signal number is
 * taken from the program; sample.c's handler tells our signals (si_code
 * SI_TIMER and our value) from glibc's ticks, which it only passes on to
 * glibc's histogram.  The kernel checks CPU-time timers at its scheduler
 * tick (250 Hz here): above that rate a signal stands for several periods,
 * and si_overrun says how many more, so each sample weighs 1 + si_overrun.
 * The timer ids live in a table of slots (not in the threads' states) so
 * that the program replacing SIGPROF deletes them all without walking the
 * registry from whatever context its sigaction runs in; a slot is taken
 * and released with atomic exchanges, so an id is deleted exactly once and
 * never after the program could have been given it again.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>

#include "gmonfile.h"
#include "runtime.h"
#include "sys.h"
#include "utils/banned.h"

#define LEAF_TAB0 256u		/* entries of the first table */
#define TIMER_SLOTS 4096
#define DEFAULT_HZ 1000u

struct cp_leaves cp_retired_leaves;

static uint32_t sampler_hz = DEFAULT_HZ;
static int timers_on;		/* a timer was armed: time comes from them */
static int timers_stopped;	/* the program took SIGPROF: no more timers */
static int32_t timer_ids[TIMER_SLOTS];	/* id + 1; 0 free, -1 being armed */
static const int timer_magic;		/* its address is our timers' sigval */

/* ---- leaf tables ---- */

static size_t tab_bytes(uint32_t cap)
{
	return (offsetof(struct cp_leaftab, e) + (size_t)cap * sizeof(struct cp_leaf) +
		4095) & ~(size_t)4095;
}

static uint32_t leaf_hash(uint64_t pc, uint32_t node, uint32_t kind)
{
	uint64_t h = (pc ^ ((uint64_t)node << 32 | kind)) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32);
}

/* The entry of (node, kind, pc) in `tab`, or the free entry it would take. */
static struct cp_leaf *tab_probe(struct cp_leaftab *tab, uint64_t pc, uint32_t node,
				 uint32_t kind, uint32_t h)
{
	uint32_t mask = tab->cap - 1;

	for (uint32_t i = h & mask;; i = (i + 1) & mask) {
		struct cp_leaf *e = &tab->e[i];
		uint32_t k = __atomic_load_n(&e->kind, __ATOMIC_ACQUIRE);

		if (!k || (k == kind && e->pc == pc && e->node == node))
			return e;
	}
}

int cp_leaf_add(struct cp_leaves *l, uint32_t node, uint32_t kind, uint64_t pc,
		uint32_t metric, uint64_t weight, struct cp_leaf **at)
{
	uint32_t h = leaf_hash(pc, node, kind), n;
	struct cp_leaftab *last;
	struct cp_leaf *e = NULL;
	int ret = -1;

	if (metric >= CP_LEAF_METRICS ||
	    __atomic_exchange_n(&l->busy, 1, __ATOMIC_ACQUIRE))
		return -1;	/* a nested handler: its caller is mid-insert */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	n = l->ntab;
	for (uint32_t k = 0; k < n; k++) {
		e = tab_probe(l->tab[k], pc, node, kind, h);
		if (e->kind)
			goto add;
	}
	last = n ? l->tab[n - 1] : NULL;
	/* half full at most: probes stay short, and one is always free */
	if (!last || 2 * (last->used + 1) > last->cap) {
		uint32_t cap = last ? 2 * last->cap : LEAF_TAB0;
		void *p;

		if (n == CP_LEAF_TABS)
			goto out;
		p = cp_mmap(NULL, tab_bytes(cap), PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			goto out;
		last = p;
		last->cap = cap;
		__atomic_store_n(&l->tab[n], last, __ATOMIC_RELEASE);
		__atomic_store_n(&l->ntab, n + 1, __ATOMIC_RELEASE);
	}
	e = tab_probe(last, pc, node, kind, h);
	e->pc = pc;
	e->node = node;
	__atomic_store_n(&e->kind, kind, __ATOMIC_RELEASE);
	last->used++;
add:
	__atomic_fetch_add(&e->value[metric], weight, __ATOMIC_RELAXED);
	if (at)
		*at = e;
	ret = 0;
out:
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&l->busy, 0, __ATOMIC_RELEASE);
	return ret;
}

void cp_leaves_merge(struct cp_leaves *dst, const struct cp_leaves *src,
		     const uint32_t *ix)
{
	for (uint32_t k = 0; k < src->ntab; k++) {
		const struct cp_leaftab *tab = src->tab[k];

		for (uint32_t i = 0; i < tab->cap; i++) {
			const struct cp_leaf *e = &tab->e[i];
			uint32_t node = e->node;

			if (!e->kind)
				continue;
			if (node != CP_NONE)
				node = ix[node];
			for (uint32_t m = 0; m < CP_LEAF_METRICS; m++) {
				if (!e->value[m])
					continue;
				/* its node was lost (bounds): the sample has no context */
				if ((e->node != CP_NONE && node == CP_NONE) ||
				    cp_leaf_add(dst, node, e->kind, e->pc, m, e->value[m], NULL) < 0)
					cp_retired_unplaced += e->value[m];
			}
		}
	}
}

void cp_leaves_free(struct cp_leaves *l)
{
	for (uint32_t k = 0; k < l->ntab; k++)
		cp_munmap(l->tab[k], tab_bytes(l->tab[k]->cap));
	l->ntab = 0;
}

/* ---- timers ---- */

struct k_itimerspec {
	struct timespec interval, value;
};

/* The calling thread's CPU time in ns (a raw system call: no libc here). */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts = { 0, 0 };

	if (cp_syscall6(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, (long)&ts, 0, 0, 0, 0))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The calling thread's CPU time since its last signal, which no signal
 * will credit now that its timer goes: to the leaf its last sample went
 * to (the kernel checks CPU-time timers only at scheduler ticks that find
 * the thread running, so on a loaded machine a thread may run 20 ms past
 * its last signal; counted nowhere, that tail made a 0.2 s thread's time
 * 10% short).  Normal context, on the thread itself.
 */
static void credit_tail(struct cp_thread *t)
{
	uint64_t period = 1000000000u / sampler_hz, now = thread_cpu_ns(), due;

	if (!t->timer_last || !now || now < t->timer_cpu0)
		return;
	due = (now - t->timer_cpu0) / period;
	if (due > t->timer_credited) {
		__atomic_fetch_add(&t->timer_last->value[CP_LEAF_CPU], due - t->timer_credited,
				   __ATOMIC_RELAXED);
		t->timer_credited = due;
	}
}

void cp_sampler_credited(struct cp_thread *t, struct cp_leaf *e, uint64_t weight)
{
	t->timer_credited += weight;
	if (e)
		t->timer_last = e;
}

static void timer_delete_id(int32_t slot_value)
{
	if (slot_value > 0)
		cp_syscall6(SYS_timer_delete, slot_value - 1, 0, 0, 0, 0, 0);
}

int cp_sampler_timers(void)
{
	return __atomic_load_n(&timers_on, __ATOMIC_RELAXED);
}

int cp_sampler_wanted(void)
{
	return sampler_hz != 0;
}

uint32_t cp_sampler_hz(void)
{
	return sampler_hz ? sampler_hz : DEFAULT_HZ;
}

int cp_sampler_is_ours(const void *siginfo)
{
	const siginfo_t *si = siginfo;

	return si && si->si_code == SI_TIMER && si->si_value.sival_ptr == &timer_magic;
}

int cp_sample_active(void) CP_HIDDEN;

void cp_sampler_thread(struct cp_thread *t)
{
	struct sigevent sev;
	struct k_itimerspec its;
	long period = 1000000000L / (long)sampler_hz;
	int32_t none = 0;
	int timer = -1;
	uint32_t s;

	/* what the off-CPU sampler needs to find the thread (offcpu.c) */
	t->tls = &cp_tls;
	t->tid = (uint32_t)cp_syscall0(SYS_gettid);
	if (t->timer_tried || !sampler_hz || !cp_sample_active())
		return;
	t->timer_tried = 1;
	if (__atomic_load_n(&timers_stopped, __ATOMIC_RELAXED))
		return;
	for (s = 0; s < TIMER_SLOTS; s++)
		if (__atomic_compare_exchange_n(&timer_ids[s], &none, -1, 0,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			break;
		else
			none = 0;
	if (s == TIMER_SLOTS)
		return;		/* that many live threads: this one is not timed */
	for (size_t i = 0; i < sizeof(sev); i++)	/* no libc here (memset) */
		((volatile char *)&sev)[i] = 0;
	sev.sigev_value.sival_ptr = (void *)&timer_magic;
	sev.sigev_signo = SIGPROF;
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev._sigev_un._tid = (int)t->tid;
	its.interval.tv_sec = its.value.tv_sec = 0;
	its.interval.tv_nsec = its.value.tv_nsec = period;
	if (cp_syscall6(SYS_timer_create, CLOCK_THREAD_CPUTIME_ID, (long)&sev,
			(long)&timer, 0, 0, 0) != 0) {
		__atomic_store_n(&timer_ids[s], 0, __ATOMIC_RELEASE);
		return;
	}
	none = -1;
	if (!__atomic_compare_exchange_n(&timer_ids[s], &none, timer + 1, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		/* cp_sampler_stop() emptied the slot meanwhile */
		timer_delete_id(timer + 1);
		return;
	}
	t->timer_slot = s + 1;
	t->timer_cpu0 = thread_cpu_ns();
	t->timer_credited = 0;
	t->timer_last = NULL;
	if (cp_syscall6(SYS_timer_settime, timer, 0, (long)&its, 0, 0, 0) != 0) {
		timer_delete_id(__atomic_exchange_n(&timer_ids[s], 0, __ATOMIC_ACQ_REL));
		t->timer_slot = 0;
		return;
	}
	__atomic_store_n(&timers_on, 1, __ATOMIC_RELEASE);
}

void cp_sampler_thread_end(struct cp_thread *t)
{
	if (t->timer_slot &&
	    __atomic_load_n(&timer_ids[t->timer_slot - 1], __ATOMIC_ACQUIRE) > 0) {
		timer_delete_id(__atomic_exchange_n(&timer_ids[t->timer_slot - 1], 0,
						    __ATOMIC_ACQ_REL));
		credit_tail(t);
	}
	t->timer_slot = 0;
}

void cp_sampler_stop(void)
{
	struct cp_thread *self = cp_tls.self;

	__atomic_store_n(&timers_stopped, 1, __ATOMIC_RELEASE);
	/* the calling thread's own tail (at exit, the main thread's) */
	if (self && self != CP_RETIRED)
		cp_sampler_thread_end(self);
	for (uint32_t s = 0; s < TIMER_SLOTS; s++) {
		int32_t v = __atomic_load_n(&timer_ids[s], __ATOMIC_RELAXED);

		if (v > 0)
			timer_delete_id(__atomic_exchange_n(&timer_ids[s], 0,
							    __ATOMIC_ACQ_REL));
	}
}

void cp_sampler_fork_child(struct cp_thread *t)
{
	/* the parent's timers are not the child's: their ids may be given
	 * to the child's own timers, never to be deleted by us */
	memset(timer_ids, 0, sizeof(timer_ids));
	if (t && t != CP_RETIRED) {
		t->timer_slot = 0;
		t->timer_tried = 0;
		cp_sampler_thread(t);
	}
}

/*
 * CALLPATH_HZ: 10 to 10,000 samples per second of each thread's CPU time;
 * 0 for none of our own: glibc's ticks (gmon.out's histogram) are the time
 * samples, as before issue 22.
 */
__attribute__((constructor(103))) static void sampler_start(void)
{
	const char *s = getenv("CALLPATH_HZ");
	char *end;
	long v;

	/*
	 * A static link: the program's moncontrol(0) is glibc's own, whose
	 * profil(NULL) puts SIGPROF's default action back behind our back (in
	 * a dynamic link gmon_interpose.c puts our handler back in front): a
	 * timer's next signal would kill the program.  glibc's ticks instead.
	 */
	if (cp_static_link()) {
		sampler_hz = 0;
		if (s && *s && strcmp(s, "0"))
			dprintf(2, "callpath: CALLPATH_HZ=%s is not available in a static link "
				"(glibc's own moncontrol); time samples are glibc's 100 Hz ticks\n", s);
		return;
	}
	if (!s || !*s)
		return;
	v = strtol(s, &end, 10);
	if (*end || (v != 0 && v < 10) || v > 10000) {
		dprintf(2, "callpath: CALLPATH_HZ=%s is not 0 or a rate from 10 to 10000; "
			"sampling at %u Hz\n", s, DEFAULT_HZ);
		return;
	}
	sampler_hz = (uint32_t)v;
}
