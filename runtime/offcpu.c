/*
 * offcpu.c - CALLPATH_CLOCK=wall: the time threads spend off the CPU,
 * placed in the context they are in, without signalling them.
 *
 * A signal to a blocked thread makes its system call return EINTR or end
 * early (nanosleep, select, poll, read on a pipe, pthread_cond_wait's
 * futex: SA_RESTART does not cover them all), so the CPU-time timers
 * (sampler.c) cannot measure blocked time.  Instead one sampler thread of
 * ours wakes every few milliseconds and, for each registered thread,
 * reads /proc/self/task/TID/syscall: "running" for a thread on a CPU (its
 * timer measures it), else the system call it is blocked in (or -1 when
 * it is runnable but preempted) followed by its user stack pointer and
 * program counter.  The wall time since the sampler last looked is then
 * credited, in nanoseconds, as the metric CP_LEAF_OFFCPU of the leaf
 * (innermost live frame, program counter), exactly as the SIGPROF handler
 * places a CPU sample, but reading the thread's shadow stack and stack
 * from outside with process_vm_readv, which fails instead of faulting
 * when the thread moved or freed what we read.  The blocked thread is
 * never touched: it cannot tell it was looked at.
 *
 * Accuracy: each look credits the time since the previous one, so a
 * thread's off-CPU time is counted to within one interval (5 ms, or the
 * CPU period when that is longer) at each change of state; a thread that
 * blocks and wakes within one interval is seen only if it is blocked at
 * the look (an unbiased sample of its blocked time).  Time spent waiting
 * for a CPU counts as off-CPU too: it is wall-clock time.  The sampler
 * thread is the runtime's, not the program's (own_thread.h): every signal
 * blocked but SIGPROF while SIGPROF is the runtime's, so that no handler
 * of the program's runs on it, not instrumented, and its own CPU time is
 * nobody's (bench/ measures it).
 * It does not exist in a fork child, which gets CPU time only.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "counters.h"
#include "own_thread.h"
#include "runtime.h"
#include "sys.h"
#include "utils/banned.h"

#define MIN_INTERVAL_NS 5000000u	/* 200 looks a second at most */
#define FRAMES_READ 256			/* innermost shadow-stack entries read */

static int offcpu_running;	/* CALLPATH_CLOCK=wall: the off-CPU time */
static int offcpu_stopped;
static struct cp_prof_gate offcpu_gate = CP_PROF_GATE_INIT;
/*
 * The same thread reads the counters of events that would overflow while
 * their thread sleeps (counters.h: context switches), and places what
 * they counted where it finds each thread, the way it places off-CPU
 * time: it never signals them.
 */
static int reads_counters;

int cp_offcpu_on(void)
{
	return __atomic_load_n(&offcpu_running, __ATOMIC_ACQUIRE);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* `len` bytes at `addr` of our own memory, or -1 where it is not mapped. */
static int peek(const void *addr, void *buf, size_t len)
{
	struct iovec local = { buf, len }, remote = { (void *)addr, len };

	return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)len ? 0 : -1;
}

/*
 * Thread `tid`'s state: 1 on a CPU, 0 off it with its user stack pointer
 * and program counter in *sp and *pc, -1 unknown (it ended).
 */
static int task_state(uint32_t tid, uintptr_t *sp, uintptr_t *pc)
{
	char path[64], buf[256];
	unsigned long long v[9];
	long long nr;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%u/syscall", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (!strncmp(buf, "running", 7))
		return 1;
	/* "-1 sp pc" (preempted), or "nr a1 .. a6 sp pc" (in a system call) */
	if (sscanf(buf, "%lld %llx %llx %llx %llx %llx %llx %llx %llx", &nr, &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 9) {
		*sp = (uintptr_t)v[6];
		*pc = (uintptr_t)v[7];
		return 0;
	}
	if (nr == -1 && sscanf(buf, "%lld %llx %llx", &nr, &v[0], &v[1]) == 3) {
		*sp = (uintptr_t)v[0];
		*pc = (uintptr_t)v[1];
		return 0;
	}
	return -1;
}

/* Thread `tid`'s time waiting on a run queue (ns), or -1 (no schedstat). */
static int64_t run_delay(uint32_t tid)
{
	char path[64], buf[128];
	unsigned long long cpu, wait;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%u/schedstat", tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &cpu, &wait) != 2)
		return -1;
	return (int64_t)wait;
}

/* The index of node `n` in thread `t`'s tree (its chunks never move). */
static uint32_t index_of(const struct cp_thread *t, const struct cp_node *n)
{
	for (uint32_t c = 0; c < CP_CHUNKS && t->tree.chunk[c]; c++)
		if (n >= t->tree.chunk[c] && n < t->tree.chunk[c] + (CP_CHUNK0 << c))
			return cp_chunk_first(c) + (uint32_t)(n - t->tree.chunk[c]);
	return CP_NONE;
}

/*
 * The innermost live recorded frame of blocked thread `t` at stack
 * pointer `sp`, as sample.c's credit() judges it: at or above sp, its
 * return-address slot still holding its call site.  CP_NONE when none;
 * -1 (as CP_NONE - 1) when the thread is inside the runtime.
 */
static uint32_t live_node(struct cp_thread *t, uintptr_t sp)
{
	struct cp_frame frames[FRAMES_READ], *top, *base;
	struct cp_tls *tls = t->tls;
	size_t n;

	if (peek(&tls->top, &top, sizeof(top)) < 0)
		return CP_NONE;
	if (!top)
		return CP_NONE - 1;
	base = t->stack + CP_FRAME_POPS;
	if (top <= base)
		return CP_NONE;
	n = (size_t)(top - base);
	if (n > FRAMES_READ)
		n = FRAMES_READ;
	if (peek(top - n + 1, frames, n * sizeof(*frames)) < 0)
		return CP_NONE;
	for (size_t k = n; k-- > 0;) {
		const struct cp_frame *f = &frames[k];
		struct cp_node node;
		uintptr_t slot;

		if (!f->node || f->fp + 8 < sp || f->fp == UINTPTR_MAX)
			continue;
		if (peek(f->node, &node, sizeof(node)) < 0 ||
		    peek((const void *)(f->fp + 8), &slot, sizeof(slot)) < 0 ||
		    slot != node.call_site)
			continue;
		/* a recursive call's frame stands for the ancestor it was folded into */
		return node.flags & CP_NODE_FOLDED ? node.parent : index_of(t, f->node);
	}
	return CP_NONE;
}

/*
 * A thread the kernel reports "running" may be waiting for a CPU (woken
 * from a sleep on a busy machine, or preempted): its CPU timer does not
 * count that, and its stack cannot be read.  Its run-queue wait since the
 * last look (schedstat) goes where it was last seen: to the blocking call
 * it was woken from, else to its last CPU sample, else (no timer signal
 * has reached it yet: on a busy machine a thread that runs in slices
 * shorter than the kernel's tick may go seconds without one, its CPU time
 * credited by sampler.c without a leaf) to the function of the innermost
 * live entry of its shadow stack, as context_now() finds it.
 */
static void credit_run_wait(struct cp_thread *t)
{
	int64_t rq = run_delay(t->tid);
	struct cp_leaf *e = t->wall_leaf ? t->wall_leaf : t->timer_last;
	uint64_t waited;

	if (rq < 0)
		return;
	if (!t->wall_rq || (uint64_t)rq <= t->wall_rq) {	/* 0: no baseline yet */
		t->wall_rq = (uint64_t)rq;
		return;
	}
	waited = (uint64_t)rq - t->wall_rq;
	t->wall_rq = (uint64_t)rq;
	if (e) {
		__atomic_fetch_add(&e->value[CP_LEAF_OFFCPU], waited, __ATOMIC_RELAXED);
		return;
	}
	{
		uint32_t node = live_node(t, 0);

		if (node < CP_NONE - 1)
			cp_leaf_add(&t->leaves, node, SIDECAR_LEAF_PC,
				    cp_tree_node(&t->tree, node)->callee, CP_LEAF_OFFCPU, waited,
				    &e);
	}
}

static void look(struct cp_thread *t, uint64_t now)
{
	uintptr_t sp = 0, pc = 0;
	uint64_t elapsed;
	uint32_t node, kind = SIDECAR_LEAF_PC;
	struct cp_leaf *e = NULL;
	int state;

	if (!t->tls || !t->tid)
		return;		/* not yet seen by sampler.c */
	elapsed = t->wall_last ? now - t->wall_last : 0;
	t->wall_last = now;
	state = task_state(t->tid, &sp, &pc);
	if (state == 1) {
		credit_run_wait(t);
		t->wall_leaf = NULL;
		return;
	}
	if (state != 0)
		return;
	/* blocked: its run-queue wait so far is behind it; what it waits
	 * once woken is this blocking call's (credit_run_wait) */
	{
		int64_t rq = run_delay(t->tid);

		if (rq >= 0)
			t->wall_rq = (uint64_t)rq;
	}
	if (!elapsed)
		return;
	node = live_node(t, sp);
	if (node == CP_NONE - 1) {
		node = CP_NONE;
		kind = SIDECAR_LEAF_OVERHEAD;
	}
	if (cp_leaf_add(&t->leaves, node, kind, pc, CP_LEAF_OFFCPU, elapsed, &e) == 0)
		t->wall_leaf = e;
}

/*
 * One look at every thread now, under the registry's lock (tried, not
 * waited on: the exit writer may run in a signal handler that interrupted
 * its holder; without it the stretch since the sampler thread's last look
 * waits for its next).  The calling thread is on a CPU, so its own
 * schedstat is up to date; its /proc syscall file would name the read of
 * that file, so it is credited its run-queue wait only.  stop: no look
 * after this one.
 */
static void look_all(int stop)
{
	uint32_t self;
	uint64_t now;

	if (!cp_offcpu_on() || __atomic_load_n(&offcpu_stopped, __ATOMIC_ACQUIRE) ||
	    cp_registry_trylock(1000) < 0) {
		if (stop)
			__atomic_store_n(&offcpu_stopped, 1, __ATOMIC_RELEASE);
		return;
	}
	if (stop ? !__atomic_exchange_n(&offcpu_stopped, 1, __ATOMIC_ACQ_REL)
		 : !__atomic_load_n(&offcpu_stopped, __ATOMIC_ACQUIRE)) {
		self = (uint32_t)cp_syscall0(SYS_gettid);
		now = mono_ns();
		for (struct cp_thread *t = cp_threads; t; t = t->next) {
			if (!t->tls || !t->tid)
				continue;
			if (t->tid == self)
				credit_run_wait(t);
			else
				look(t, now);
		}
	}
	cp_registry_unlock();
}

/*
 * Stop, after one last look at every thread: what each waited for a CPU
 * since the sampler thread last looked is otherwise lost, and on a loaded
 * machine that thread itself waits long between looks (a CPU-bound
 * function's last half second of run-queue wait, seen in a test beside a
 * busy loop per core).
 */
void cp_offcpu_stop(void)
{
	look_all(1);
}

/*
 * Before a snapshot reads the trees: what each thread waited since the
 * sampler thread's last look goes into the snapshot, as the exit's last
 * look puts it into the exit's profile.  Else a snapshot and the exit
 * after it disagree on what came before the snapshot: on a busy machine
 * the sampler thread's next look, after the snapshot, credited the
 * run-queue wait of a sleeper's last wake-up (4 ms, beside a busy loop
 * per core).
 */
void cp_offcpu_catch_up(void)
{
	look_all(0);
}

/*
 * The context thread `t` is in now, for the counters read from outside:
 * where it blocks, or, on a CPU, the innermost entry of its shadow stack
 * whose return-address slot still holds its call site (read while it
 * runs: process_vm_readv fails rather than faults).  CP_NONE: unknown.
 */
static uint32_t context_now(struct cp_thread *t)
{
	uintptr_t sp = 0, pc = 0;
	int state;
	uint32_t node;

	if (!t->tls || !t->tid)
		return CP_NONE;
	state = task_state(t->tid, &sp, &pc);
	if (state < 0)
		return CP_NONE;
	node = live_node(t, state == 0 ? sp : 0);
	return node == CP_NONE - 1 ? CP_NONE : node;
}

static void *offcpu_main(void *arg)
{
	uint64_t interval = (uint64_t)(uintptr_t)arg;
	struct timespec ts = { 0, (long)interval };

	cp_prof_open(&offcpu_gate);
	while (!__atomic_load_n(&offcpu_stopped, __ATOMIC_ACQUIRE)) {
		uint64_t now;

		nanosleep(&ts, NULL);
		cp_prof_poll(&offcpu_gate);
		now = mono_ns();
		/* the registry's lock keeps each thread's state mapped while we read */
		cp_registry_lock();
		if (!__atomic_load_n(&offcpu_stopped, __ATOMIC_ACQUIRE))
			for (struct cp_thread *t = cp_threads; t; t = t->next) {
				if (cp_offcpu_on())
					look(t, now);
				if (reads_counters)
					cp_counters_read(t, context_now(t));
			}
		cp_registry_unlock();
	}
	cp_prof_done(&offcpu_gate);
	return NULL;
}

/* CALLPATH_CLOCK: cpu (default) or wall. */
__attribute__((constructor(104))) static void offcpu_start(void)
{
	const char *s = getenv("CALLPATH_CLOCK");
	uint64_t interval = 1000000000u / cp_sampler_hz();
	int r, wall = 0;

	reads_counters = cp_counters_reader_wanted();
	if (s && *s && !strcmp(s, "wall"))
		wall = 1;
	else if (s && *s && strcmp(s, "cpu"))
		dprintf(2, "callpath: CALLPATH_CLOCK=%s is neither cpu nor wall; "
			"measuring CPU time\n", s);
	if (!wall && !reads_counters)
		return;
	if (__atomic_load_n(&cp_state, __ATOMIC_ACQUIRE) != CP_RECORDING)
		return;
	if (interval < MIN_INTERVAL_NS)
		interval = MIN_INTERVAL_NS;
	/*
	 * SIGPROF open while it is the runtime's: our own CPU time advances
	 * glibc's process-wide ITIMER_PROF while the program's threads sleep,
	 * and the kernel gives its tick to the thread that runs when it
	 * expires, if it takes SIGPROF: this one.  Blocking it would send the
	 * tick to a sleeping thread of the program, whose nanosleep would
	 * return EINTR.  (Its pc is ours, outside the histogram's range.)  Shut
	 * for good before the program installs a SIGPROF handler (own_thread.h):
	 * the thread polls between looks.
	 */
	cp_prof_gate_add(&offcpu_gate, NULL);
	r = cp_own_thread_start(offcpu_main, (void *)(uintptr_t)interval, 64 * 1024);
	if (r) {
		if (wall)
			dprintf(2, "callpath: CALLPATH_CLOCK=wall: cannot start the sampler "
				"thread; measuring CPU time\n");
		if (reads_counters)
			dprintf(2, "callpath: cannot start the thread that reads the "
				"context switches; they are counted at each thread's end, "
				"where it is then\n");
		return;
	}
	if (wall)
		__atomic_store_n(&offcpu_running, 1, __ATOMIC_RELEASE);
}
