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
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "env.h"
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
		     const uint32_t *ix, struct cp_kept_thread *keep)
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
				else if (keep && m == CP_LEAF_CPU)
					keep->v[keep->n++] = (struct cp_kept_value){
						node, e->kind, e->pc, 0, e->value[m] };
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
 * Short threads.  The kernel checks CPU-time timers only at its scheduler
 * tick (250 Hz here), and only on a thread it finds running: a thread of
 * 0.4 ms of CPU is rarely running at a tick, and with each thread's timer
 * starting a full period from zero, 1,000 such threads run one after
 * another had 41 samples for 0.44 s of CPU.  So each thread's periods are
 * counted from its CPU time, and the signals only place them:
 *
 *   - the threads' CPU times are laid end to end on one process-wide
 *     clock of periods (systematic sampling): `carry` holds the part of a
 *     period that the threads which ended (and the main thread, at exit)
 *     ran past their last period, and a thread starts with it, so that its
 *     first period falls due after the rest of the period (its timer's
 *     first expiry).  The clock's start is random (uniform in a period,
 *     drawn once per process): each thread's expected number of periods is
 *     then its CPU time over the period, exactly, and the total over the
 *     threads that ended in turn is their CPU time over the period within
 *     one period (concurrent threads share the carry in whatever order they
 *     start and end: the totals stay exact, a period may move between
 *     them);
 *   - when the thread ends (or the timers stop), the periods its CPU time
 *     makes minus those its signals credited are credited to the leaf of
 *     its last signal, or with none, to its first recorded frame's context
 *     (its start routine: the thread ran under it), its program counter
 *     unknown; what is left of a period goes back to `carry`, and a whole
 *     period gathered there is this thread's.
 *
 * Normal context, on the thread itself (clock_gettime of its own clock).
 */
static uint64_t carry;
static uint64_t unsignalled;		/* other threads' periods credited without a signal */
static uint64_t sampler_rusage_ns[2];	/* user, system: when the timers stopped */
static int sampler_rusage_set;

static uint64_t period_ns(void)
{
	return 1000000000u / sampler_hz;
}

/* The carry so far, taken by a starting thread (0 to a period - 1). */
static uint64_t carry_take(void)
{
	return __atomic_exchange_n(&carry, 0, __ATOMIC_ACQ_REL);
}

/* `left` ns back into the carry: 1 when a whole period gathered there. */
static int carry_put(uint64_t left)
{
	uint64_t p = period_ns(), c = __atomic_add_fetch(&carry, left, __ATOMIC_ACQ_REL);

	while (c >= p) {
		if (__atomic_compare_exchange_n(&carry, &c, c - p, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_RELAXED))
			return 1;
	}
	return 0;
}

/* `n` periods of the thread's time nobody signalled: see above. */
static void credit_unsignalled(struct cp_thread *t, uint64_t n)
{
	const struct cp_frame *base = t->stack + CP_FRAME_POPS, *top = cp_tls.top;
	uint32_t node = CP_NONE;

	if (t->tid != (uint32_t)cp_syscall0(SYS_getpid))
		__atomic_fetch_add(&unsignalled, n, __ATOMIC_RELAXED);
	if (t->timer_last) {
		__atomic_fetch_add(&t->timer_last->value[CP_LEAF_CPU], n, __ATOMIC_RELAXED);
		return;
	}
	if (top && top > base && base[1].node)
		node = base[1].node->flags & CP_NODE_FOLDED
			? base[1].node->parent : cp_tree_index(&t->tree, base[1].node);
	if (node != CP_NONE)
		__atomic_fetch_add(cp_tree_samples(&t->tree, node), n, __ATOMIC_RELAXED);
	else
		__atomic_fetch_add(&t->unplaced, n, __ATOMIC_RELAXED);
}

/*
 * The periods of a thread's CPU time before its timer is armed (its start
 * in the kernel and the C library, the runtime's thread start): counted as
 * samples that could not be placed, as a signal there would have been
 * (the thread had no context yet), so that the samples cover the thread's
 * CPU time from its birth; what is left of a period is where its timer
 * starts.  Not the main thread's: before its first call it ran the
 * program's loading and constructors, which the samples never covered
 * (gprof's histogram starts at the same point), and a run too short for
 * a sample keeps having none.
 */
static void arm_from_birth(struct cp_thread *t)
{
	uint64_t p = period_ns(), ran = carry_take();

	if (t->tid != (uint32_t)cp_syscall0(SYS_getpid))
		ran += t->timer_cpu0;
	if (ran / p) {
		__atomic_fetch_add(&t->unplaced, ran / p, __ATOMIC_RELAXED);
		if (t->tid != (uint32_t)cp_syscall0(SYS_getpid))
			__atomic_fetch_add(&unsignalled, ran / p, __ATOMIC_RELAXED);
	}
	t->timer_carry = ran % p;
}

/*
 * Credit the thread's periods not signalled so far.  `rest_later`: what is
 * left of a period stays out of the carry, for cp_sampler_tail_end() to
 * put there after the thread's last work (its retirement).
 */
static void credit_tail(struct cp_thread *t, int rest_later)
{
	uint64_t p = period_ns(), now = thread_cpu_ns(), ran, due, n = 0;

	if (!now || now < t->timer_cpu0)
		return;
	ran = t->timer_carry + (now - t->timer_cpu0);
	due = ran / p;
	if (due > t->timer_credited)
		n = due - t->timer_credited;
	if (!rest_later)
		n += (uint64_t)carry_put(ran % p);
	t->timer_credited += n;
	if (n)
		credit_unsignalled(t, n);
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
	its.interval.tv_nsec = period;
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
	arm_from_birth(t);
	its.value.tv_nsec = period - (long)t->timer_carry;	/* the period's rest */
	if (cp_syscall6(SYS_timer_settime, timer, 0, (long)&its, 0, 0, 0) != 0) {
		timer_delete_id(__atomic_exchange_n(&timer_ids[s], 0, __ATOMIC_ACQ_REL));
		carry_put(t->timer_carry);
		t->timer_slot = 0;
		return;
	}
	__atomic_store_n(&timers_on, 1, __ATOMIC_RELEASE);
}

static int timer_end(struct cp_thread *t)
{
	int live = t->timer_slot &&
		   __atomic_load_n(&timer_ids[t->timer_slot - 1], __ATOMIC_ACQUIRE) > 0;

	if (live)
		timer_delete_id(__atomic_exchange_n(&timer_ids[t->timer_slot - 1], 0,
						    __ATOMIC_ACQ_REL));
	t->timer_slot = 0;
	return live;
}

void cp_sampler_thread_end(struct cp_thread *t)
{
	if (timer_end(t))
		credit_tail(t, 0);
}

void cp_sampler_thread_retiring(struct cp_thread *t, struct cp_sampler_tail *tail)
{
	tail->live = timer_end(t);
	if (tail->live)
		credit_tail(t, 1);
	tail->cpu0 = t->timer_cpu0;
	tail->carry = t->timer_carry;
	tail->credited = t->timer_credited;
}

uint64_t cp_sampler_tail_end(const struct cp_sampler_tail *tail)
{
	uint64_t p = period_ns(), now, ran, n = 0;

	if (!tail->live || !(now = thread_cpu_ns()) || now < tail->cpu0)
		return 0;
	ran = tail->carry + (now - tail->cpu0);
	if (ran / p > tail->credited)
		n = ran / p - tail->credited;
	n += (uint64_t)carry_put(ran % p);
	__atomic_fetch_add(&unsignalled, n, __ATOMIC_RELAXED);
	return n;
}

uint64_t cp_sampler_unsignalled(void)
{
	return __atomic_load_n(&unsignalled, __ATOMIC_RELAXED);
}

/* The process's CPU time now (getrusage: every thread's, ended ones too). */
static int rusage_ns(uint64_t *user_ns, uint64_t *sys_ns)
{
	struct rusage ru;

	if (cp_syscall6(SYS_getrusage, RUSAGE_SELF, (long)&ru, 0, 0, 0, 0) != 0)
		return -1;
	*user_ns = (uint64_t)ru.ru_utime.tv_sec * 1000000000u + (uint64_t)ru.ru_utime.tv_usec * 1000u;
	*sys_ns = (uint64_t)ru.ru_stime.tv_sec * 1000000000u + (uint64_t)ru.ru_stime.tv_usec * 1000u;
	return 0;
}

static void note_rusage(void)
{
	if (__atomic_exchange_n(&sampler_rusage_set, 1, __ATOMIC_ACQ_REL) ||
	    rusage_ns(&sampler_rusage_ns[0], &sampler_rusage_ns[1]) != 0)
		return;
	__atomic_store_n(&sampler_rusage_set, 2, __ATOMIC_RELEASE);
}

int cp_sampler_process_cpu(uint64_t *user_ns, uint64_t *sys_ns)
{
	if (__atomic_load_n(&sampler_rusage_set, __ATOMIC_ACQUIRE) != 2)
		return -1;
	*user_ns = sampler_rusage_ns[0];
	*sys_ns = sampler_rusage_ns[1];
	return 0;
}

int cp_sampler_process_cpu_now(uint64_t *user_ns, uint64_t *sys_ns)
{
	if (cp_sampler_process_cpu(user_ns, sys_ns) == 0)
		return 0;
	return rusage_ns(user_ns, sys_ns);
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
	/* what the samples are compared with: the CPU time they could cover */
	note_rusage();
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
 * Where the process's clock of periods starts (credit_tail()): random,
 * so that a thread's expected periods are its CPU time over the period.
 * Not a secret: the time and the process id, mixed (splitmix64).
 */
static uint64_t random_start(void)
{
	struct timespec ts = { 0, 0 };
	uint64_t z;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	z = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^
	    ((uint64_t)getpid() << 32);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * CALLPATH_HZ: 10 to 10,000 samples per second of each thread's CPU time;
 * 0 for none of our own: glibc's ticks (gmon.out's histogram) are the time
 * samples, as before issue 22.
 */
__attribute__((constructor(103))) static void sampler_start(void)
{
	const char *s = getenv("CALLPATH_HZ");
	unsigned long long v;

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
	/* 10 to 10,000, or 0 (off); anything else: said (env.h), the default */
	if (cp_env_number("CALLPATH_HZ", 10, 10000, 1, &v) == 1)
		sampler_hz = (uint32_t)v;
	if (sampler_hz)
		carry = random_start() % period_ns();
}
