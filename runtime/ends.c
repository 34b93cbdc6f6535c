/*
 * ends.c - a profile when the process is killed, and snapshots while it
 * runs (doc/snapshots.md).
 *
 * SIGTERM, SIGINT, SIGHUP, SIGXCPU and SIGQUIT end a program that left
 * them at their default action without running its atexit handlers: glibc
 * writes no gmon.out, we no sidecar.  So where the program's disposition is
 * the default, the runtime's handler stands in for it: it writes the
 * profile (snapshot.c), restores the default action and sends the signal
 * again, so the process dies of it as it would have (same status to the
 * parent, same core dump).  A handler the program installs is the kernel's
 * to run, exactly as without the runtime (if it calls exit, the profile is
 * written at exit as usual); signals.c's interposers make ours step aside
 * for it and come back when the program sets the default again, and show
 * the program its own view (SIG_DFL) of a signal we hold.  An ignored
 * signal stays ignored.
 *
 * A handler installed with SA_RESETHAND goes back to the default action
 * in the kernel as it is delivered, without a sigaction() call we could
 * see: so the runtime installs a trampoline of its own in its place (the
 * program's mask and flags but SA_RESETHAND), which does the reset itself
 * (our handler standing in for the default, the program's view SIG_DFL)
 * and then calls the program's handler.  A second delivery that finds it
 * reset gets the default action's stand-in, as the kernel would give the
 * default action.
 *
 * The exit writes the profile too (gmon.out in _mcleanup, the sidecar in
 * the runtime's destructor).  Each of those writes holds the end signals
 * off (cp_end_hold_begin): on the writing thread they are blocked, and
 * our handler on any other thread waits for the write to finish.  One
 * thread at a time writes an end profile (`end_owner`); whoever comes
 * next finds what is written and writes only what is missing.
 *
 * CALLPATH_SNAPSHOT=SECONDS and CALLPATH_SNAPSHOT_SIGNAL=NAME start a
 * thread of the runtime's (own_thread.h: every signal blocked, SIGPROF
 * only through its gate while it writes) that writes a snapshot every
 * SECONDS of wall time and whenever that signal's handler (held as the end
 * signals are: a handler of the program's wins) asks for one, so the
 * program's threads keep running while it is written.
 * CALLPATH_ENDS=0 turns the end handlers off.
 *
 * Nothing starts in a process that is not profiled (profiled.h): a shell
 * or a `sleep` that inherited LD_PRELOAD gets no handler, no thread, no
 * file.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ends.h"
#include "env.h"
#include "own_thread.h"
#include "profiled.h"
#include "utils/banned.h"

#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000	/* the kernel's; glibc sets it and reports it */
#endif

/* A handler waits this long for another thread's end write, at most. */
#define END_WAIT_MS 30000

static const int end_signals[] = { SIGTERM, SIGINT, SIGHUP, SIGXCPU, SIGQUIT };

/* What the kernel has for a managed signal. */
enum {
	KERNEL_PROGRAM,	/* the program's action (or one we never took) */
	KERNEL_STANDIN,	/* our handler, for the program's default action */
	KERNEL_ONESHOT,	/* our trampoline, for a handler with SA_RESETHAND */
};

static struct {
	int managed[NSIG];	/* we stand in for its default action */
	int kernel[NSIG];	/* KERNEL_*: whose action the kernel holds */
	int armed[NSIG];	/* KERNEL_ONESHOT: not yet reset by a delivery */
	struct sigaction view[NSIG];	/* what the program set, as the kernel reports it */
	void (*restorer)(void);	/* glibc's, as sigaction() reports it */
	int snap_sig;		/* CALLPATH_SNAPSHOT_SIGNAL, 0 none */
	double snap_secs;	/* CALLPATH_SNAPSHOT, 0 none */
} ends;

static uint32_t snap_k;		/* snapshots taken so far */
static int ctor_ran;		/* ends_ctor() ran: start once profiled */
static int started;		/* ends_start() ran */
static int stopping;		/* exit began: no more snapshots */
static uint32_t requests;	/* snapshots the handler asked for, a futex word */
static int writer_running;	/* the snapshot writer thread is there */
static struct cp_prof_gate writer_gate = CP_PROF_GATE_INIT;

/* The thread writing an end profile (its tid, a futex word), 0 when none:
 * the exit's writes, or a handler's (which then ends the process). */
static uint32_t end_owner;

static void handler(int sig, siginfo_t *si, void *uc);
static void oneshot(int sig, siginfo_t *si, void *uc);
static void ask_snapshot(void);

static long futex(uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, word, op, val, ts, NULL, FUTEX_BITSET_MATCH_ANY);
}

static uint32_t my_tid(void)
{
	return (uint32_t)syscall(SYS_gettid);
}

/* ---- configuration (normal context) ---- */

static int signal_by_name(const char *s)
{
	unsigned long long v;

	if (strncmp(s, "SIG", 3) == 0)
		s += 3;
	for (int sig = 1; sig < NSIG; sig++) {
		const char *abbrev = sigabbrev_np(sig);

		if (abbrev && strcmp(abbrev, s) == 0)
			return sig;
	}
	if (cp_parse_number(s, strlen(s), &v) == 0 && v > 0 && v < (unsigned long long)NSIG)
		return (int)v;
	return 0;
}

static void read_config(void)
{
	const char *s = getenv("CALLPATH_SNAPSHOT");
	const char *g = getenv("CALLPATH_SNAPSHOT_SIGNAL");
	const char *e = getenv("CALLPATH_ENDS");

	if (s && *s) {
		double v;

		if (cp_parse_decimal(s, strlen(s), &v) != 0 || !(v >= 0.01 && v <= 1e6))
			dprintf(2, "callpath: ignoring CALLPATH_SNAPSHOT='%s': not a number "
				"of seconds in [0.01, 1000000]\n", s);
		else
			ends.snap_secs = v;
	}
	if (g && *g) {
		int sig = signal_by_name(g);

		if (!sig || sig == SIGKILL || sig == SIGSTOP || sig == SIGPROF ||
		    sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
		    sig == SIGABRT || sig == SIGTRAP || sig == SIGSYS || sig == SIGCHLD ||
		    sig == SIGCONT || sig >= SIGRTMIN)
			dprintf(2, "callpath: ignoring CALLPATH_SNAPSHOT_SIGNAL='%s': not a "
				"signal a snapshot can be asked with (USR1, USR2, HUP, ...)\n", g);
		else
			ends.snap_sig = sig;
	}
	if (!e || !*e || strcmp(e, "1") == 0 || strcmp(e, "on") == 0)
		for (size_t i = 0; i < sizeof(end_signals) / sizeof(end_signals[0]); i++)
			ends.managed[end_signals[i]] = 1;
	else if (strcmp(e, "0") && strcmp(e, "off"))
		dprintf(2, "callpath: ignoring CALLPATH_ENDS='%s': not 0, off, 1 or on\n", e);
	if (ends.snap_sig)
		ends.managed[ends.snap_sig] = 1;
}

/* ---- our handler in the kernel, behind the program's view ---- */

/* Our handler stands in for the default action.  Async-signal-safe. */
static int install(int sig)
{
	struct sigaction ours;

	memset(&ours, 0, sizeof(ours));
	ours.sa_sigaction = handler;
	ours.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&ours.sa_mask);
	/* one of ours at a time on a thread */
	for (int s = 1; s < NSIG; s++)
		if (ends.managed[s])
			sigaddset(&ours.sa_mask, s);
	if (cp_real_sigaction(sig, &ours, NULL) != 0)
		return -1;
	if (!ends.restorer && cp_real_sigaction(sig, NULL, &ours) == 0 &&
	    (ours.sa_flags & SA_RESTORER))
		ends.restorer = ours.sa_restorer;	/* what glibc reports */
	__atomic_store_n(&ends.armed[sig], 0, __ATOMIC_RELEASE);
	__atomic_store_n(&ends.kernel[sig], KERNEL_STANDIN, __ATOMIC_RELEASE);
	return 0;
}

/* What the kernel would report for the program's `act` with `handler`. */
static void set_view(int sig, const struct sigaction *act, void (*h)(int))
{
	struct sigaction *v = &ends.view[sig];

	memset(v, 0, sizeof(*v));
	v->sa_handler = h;
	if (act->sa_flags & SA_SIGINFO)
		v->sa_sigaction = act->sa_sigaction;
	v->sa_flags = act->sa_flags | (ends.restorer ? SA_RESTORER : 0);
	v->sa_restorer = ends.restorer;
	memcpy(&v->sa_mask, &act->sa_mask, sizeof(v->sa_mask));
	sigdelset(&v->sa_mask, SIGKILL);
	sigdelset(&v->sa_mask, SIGSTOP);
}

static int is_handler(void (*h)(int))
{
	return h != SIG_DFL && h != SIG_IGN && h != SIG_ERR;
}

/*
 * The program's handler `act`, installed with SA_RESETHAND: our trampoline
 * in its place (the program's mask and flags, SA_RESETHAND done by us).
 * 0, or -1 with errno (the view unchanged).
 */
static int install_oneshot(int sig, const struct sigaction *act, cp_sigaction_fn real,
			   struct sigaction *prev)
{
	struct sigaction k = *act, saved = ends.view[sig];
	int was = __atomic_load_n(&ends.kernel[sig], __ATOMIC_ACQUIRE);

	k.sa_sigaction = oneshot;
	k.sa_flags = (act->sa_flags & ~SA_RESETHAND) | SA_SIGINFO;
	set_view(sig, act, act->sa_handler);
	__atomic_store_n(&ends.armed[sig], 1, __ATOMIC_RELEASE);
	if (real(sig, &k, prev) != 0) {
		ends.view[sig] = saved;
		__atomic_store_n(&ends.armed[sig], was == KERNEL_ONESHOT, __ATOMIC_RELEASE);
		return -1;
	}
	if (!ends.restorer && cp_real_sigaction(sig, NULL, &k) == 0 &&
	    (k.sa_flags & SA_RESTORER)) {
		ends.restorer = k.sa_restorer;
		ends.view[sig].sa_flags |= SA_RESTORER;
		ends.view[sig].sa_restorer = k.sa_restorer;
	}
	__atomic_store_n(&ends.kernel[sig], KERNEL_ONESHOT, __ATOMIC_RELEASE);
	return 0;
}

static int managed(int sig)
{
	return sig > 0 && sig < NSIG && ends.managed[sig];
}

int cp_ends_sigaction(int sig, const struct sigaction *act, struct sigaction *old,
		      cp_sigaction_fn real, int *ret)
{
	struct sigaction prev, cur;
	int k;

	if (!managed(sig))
		return 0;
	k = __atomic_load_n(&ends.kernel[sig], __ATOMIC_ACQUIRE);
	if (k == KERNEL_PROGRAM) {
		if (act && is_handler(act->sa_handler) && (act->sa_flags & SA_RESETHAND)) {
			*ret = install_oneshot(sig, act, real, &prev);
			if (*ret == 0 && old)
				*old = prev;
			return 1;
		}
		*ret = real(sig, act, old);
		if (*ret == 0 && act && act->sa_handler == SIG_DFL &&
		    real(sig, NULL, &prev) == 0 && prev.sa_handler == SIG_DFL) {
			ends.view[sig] = prev;
			install(sig);
		}
		return 1;
	}
	/* ours is in the kernel: the program sees its own action */
	cur = ends.view[sig];
	if (act) {
		if (act->sa_handler == SIG_DFL) {
			set_view(sig, act, SIG_DFL);
			if (k == KERNEL_ONESHOT && install(sig) != 0) {
				ends.view[sig] = cur;
				*ret = -1;
				return 1;
			}
		} else if (is_handler(act->sa_handler) && (act->sa_flags & SA_RESETHAND)) {
			if (install_oneshot(sig, act, real, NULL) != 0) {
				*ret = -1;
				return 1;
			}
		} else {
			if (real(sig, act, NULL) != 0) {
				*ret = -1;
				return 1;
			}
			__atomic_store_n(&ends.armed[sig], 0, __ATOMIC_RELEASE);
			__atomic_store_n(&ends.kernel[sig], KERNEL_PROGRAM, __ATOMIC_RELEASE);
		}
	}
	if (old)
		*old = cur;
	*ret = 0;
	return 1;
}

int cp_ends_signal(int sig, sighandler_t h, cp_signal_fn real, sighandler_t *ret)
{
	struct sigaction prev;
	sighandler_t was;
	int k;

	if (!managed(sig))
		return 0;
	k = __atomic_load_n(&ends.kernel[sig], __ATOMIC_ACQUIRE);
	if (k == KERNEL_PROGRAM) {
		*ret = real(sig, h);
		if (*ret != SIG_ERR && h == SIG_DFL && real != NULL &&
		    cp_real_sigaction(sig, NULL, &prev) == 0 && prev.sa_handler == SIG_DFL) {
			ends.view[sig] = prev;
			install(sig);
		}
		return 1;
	}
	was = ends.view[sig].sa_handler;
	if (h != SIG_DFL) {
		if (real(sig, h) == SIG_ERR) {
			*ret = SIG_ERR;
			return 1;
		}
		__atomic_store_n(&ends.armed[sig], 0, __ATOMIC_RELEASE);
		__atomic_store_n(&ends.kernel[sig], KERNEL_PROGRAM, __ATOMIC_RELEASE);
		*ret = was;
		return 1;
	}
	/* glibc's signal(): SA_RESTART (siginterrupt aside), the signal masked */
	memset(&prev, 0, sizeof(prev));
	prev.sa_flags = SA_RESTART;
	sigemptyset(&prev.sa_mask);
	sigaddset(&prev.sa_mask, sig);
	set_view(sig, &prev, SIG_DFL);
	if (k == KERNEL_ONESHOT && install(sig) != 0) {
		*ret = SIG_ERR;
		return 1;
	}
	*ret = was;
	return 1;
}

/* ---- one end writer at a time ---- */

/*
 * Wait (at most `ms`, or for ever when negative) while another thread
 * writes an end profile; then take it: 1, or 0 when the wait ran out or
 * this thread holds it already.
 */
static int end_take(uint32_t me, int ms)
{
	struct timespec ts = { 0, 10 * 1000000L };

	for (int waited = 0;; waited += ms < 0 ? 0 : 10) {
		uint32_t cur = 0;

		if (__atomic_compare_exchange_n(&end_owner, &cur, me, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return 1;
		if (cur == me || (ms >= 0 && waited >= ms))
			return 0;
		futex(&end_owner, FUTEX_WAIT_PRIVATE, cur, &ts);
	}
}

static void end_give(void)
{
	__atomic_store_n(&end_owner, 0, __ATOMIC_RELEASE);
	futex(&end_owner, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL);
}

void cp_end_hold_begin(struct cp_end_hold *h)
{
	sigset_t hold;
	uint32_t me = my_tid();

	/*
	 * Every asynchronous signal but the profiling timer's (a tick held
	 * past profil()'s end would find SIGPROF's default action: death)
	 * and the real-time ones (the runtime's event counters', queued);
	 * the fault signals are the kernel's to force anyway.
	 */
	sigemptyset(&hold);
	for (int s = 1; s < 32; s++)
		if (s != SIGPROF && s != SIGSEGV && s != SIGBUS && s != SIGFPE &&
		    s != SIGILL && s != SIGTRAP && s != SIGSYS && s != SIGKILL && s != SIGSTOP)
			sigaddset(&hold, s);
	pthread_sigmask(SIG_BLOCK, &hold, &h->old);
	h->depth = 0;
	if (__atomic_load_n(&end_owner, __ATOMIC_ACQUIRE) == me) {
		h->depth = 1;	/* within another hold of this thread's */
		return;
	}
	/* a handler writing the end profile ends the process: wait for that */
	end_take(me, -1);
}

void cp_end_hold_end(struct cp_end_hold *h)
{
	if (!h->depth)
		end_give();
	/* what came meanwhile is delivered now */
	pthread_sigmask(SIG_SETMASK, &h->old, NULL);
}

/* ---- the handler ---- */

static void die_of(int sig)
{
	struct sigaction dfl;
	sigset_t one;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	cp_real_sigaction(sig, &dfl, NULL);
	/* pending while the handler masks it; delivered when unmasked */
	syscall(SYS_tgkill, getpid(), (pid_t)syscall(SYS_gettid), sig);
	sigemptyset(&one);
	sigaddset(&one, sig);
	sigprocmask(SIG_UNBLOCK, &one, NULL);
}

/* The runtime records: gmon.out's arcs on, or off (moncontrol(0), and
 * after _mcleanup: CP_ARCS_OFF), the trees counting either way. */
static int recording(void)
{
	int st = __atomic_load_n(&cp_state, __ATOMIC_ACQUIRE);

	return st == CP_RECORDING || st == CP_ARCS_OFF;
}

static void handler(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;

	(void)si;
	(void)uc;
	if (sig == ends.snap_sig) {
		if (__atomic_load_n(&stopping, __ATOMIC_ACQUIRE) || !recording() ||
		    cp_snap_empty())
			;
		else if (__atomic_load_n(&writer_running, __ATOMIC_ACQUIRE))
			ask_snapshot();		/* the program goes on at once */
		else	/* no writer thread (a fork child): written here */
			cp_snap_write(__atomic_add_fetch(&snap_k, 1, __ATOMIC_ACQ_REL), 100, NULL);
		errno = saved;
		return;
	}
	/*
	 * One end writer at a time: the exit's (gmon.out or the sidecar being
	 * written: wait, then write what it left to do) or another handler's
	 * (it ends the process: wait for that).
	 */
	if (end_take(my_tid(), END_WAIT_MS))
		cp_snap_end(sig);
	die_of(sig);
	errno = saved;
}

/*
 * A handler of the program's installed with SA_RESETHAND: the kernel's
 * reset done here, then the program's handler, as the kernel would call it.
 */
static void oneshot(int sig, siginfo_t *si, void *uc)
{
	struct sigaction prog;
	int saved = errno;

	if (!__atomic_exchange_n(&ends.armed[sig], 0, __ATOMIC_ACQ_REL)) {
		/* reset by a delivery before this one: the default action's */
		handler(sig, si, uc);
		return;
	}
	prog = ends.view[sig];
	ends.view[sig].sa_handler = SIG_DFL;
	install(sig);
	errno = saved;
	if (prog.sa_flags & SA_SIGINFO)
		prog.sa_sigaction(sig, si, uc);
	else if (is_handler(prog.sa_handler))
		prog.sa_handler(sig);
}

/* ---- the snapshot writer thread ---- */

/*
 * Snapshots are written by a thread of the runtime's (all signals
 * blocked), so that the program's threads keep running while it writes:
 * every `snap_secs`, and when the snapshot signal's handler asks
 * (`requests`, a futex: no file descriptor of the program's is taken).
 */

static void ask_snapshot(void)
{
	__atomic_add_fetch(&requests, 1, __ATOMIC_RELEASE);
	futex(&requests, FUTEX_WAKE_PRIVATE, 1, NULL);
}

static int before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static void *writer(void *arg)
{
	struct timespec next, now;
	long step_ns = (long)(ends.snap_secs * 1e9);
	uint32_t seen = __atomic_load_n(&requests, __ATOMIC_ACQUIRE);

	(void)arg;
	/*
	 * The profiling timer's ticks that fall while this thread writes are
	 * this thread's (its pc is outside the program: counted by neither
	 * histogram), not put on a thread of the program's, asleep perhaps:
	 * SIGPROF is open, unless the program's handler has it (own_thread.h).
	 */
	cp_prof_open(&writer_gate);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		if (step_ns) {
			next.tv_nsec += step_ns % 1000000000L;
			next.tv_sec += step_ns / 1000000000L + next.tv_nsec / 1000000000L;
			next.tv_nsec %= 1000000000L;
		}
		for (;;) {	/* until the next period, or a request */
			uint32_t r = __atomic_load_n(&requests, __ATOMIC_ACQUIRE);

			if (r != seen) {
				seen = r;	/* requests meanwhile are one snapshot */
				break;
			}
			futex(&requests, FUTEX_WAIT_BITSET_PRIVATE, r, step_ns ? &next : NULL);
			cp_prof_poll(&writer_gate);
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (step_ns && !before(&now, &next))
				break;
		}
		if (__atomic_load_n(&stopping, __ATOMIC_ACQUIRE) || !recording())
			break;
		if (cp_snap_empty())
			continue;
		cp_offcpu_catch_up();
		cp_snap_write(__atomic_add_fetch(&snap_k, 1, __ATOMIC_ACQ_REL), 1000, &writer_gate);
		if (step_ns) {	/* a period missed while writing is skipped */
			clock_gettime(CLOCK_MONOTONIC, &now);
			while (!before(&now, &next)) {
				next.tv_nsec += step_ns % 1000000000L;
				next.tv_sec += step_ns / 1000000000L + next.tv_nsec / 1000000000L;
				next.tv_nsec %= 1000000000L;
			}
			next.tv_sec -= step_ns / 1000000000L;	/* the loop's top adds it back */
			next.tv_nsec -= step_ns % 1000000000L;
			if (next.tv_nsec < 0) {
				next.tv_nsec += 1000000000L;
				next.tv_sec--;
			}
		}
	}
	cp_prof_done(&writer_gate);
	__atomic_store_n(&writer_running, 0, __ATOMIC_RELEASE);
	return NULL;
}

/* At exit: no snapshot begins, and one being written is finished. */
static void stop_snapshots(void)
{
	__atomic_store_n(&stopping, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 10000 && cp_snap_busy(); i++) {
		struct timespec ts = { 0, 1000000L };

		nanosleep(&ts, NULL);
	}
}

static void in_fork_child(void)
{
	/* its own series, gmon.out.<pid>.snap1 on (snapshot.c) */
	__atomic_store_n(&snap_k, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&end_owner, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&writer_running, 0, __ATOMIC_RELAXED);
	cp_prof_forked();
	cp_snap_forked();
}

/*
 * The handlers and the snapshot thread, once the process is profiled and
 * the runtime's other constructors have run: the header of every file
 * written from here on (cp_snap_init) describes the metrics they started,
 * the off-CPU sampler's (offcpu.c, 104) and the events' (102).
 */
static void ends_start(void)
{
	struct sigaction cur;
	int any = 0;

	if (__atomic_exchange_n(&started, 1, __ATOMIC_ACQ_REL))
		return;
	if (__atomic_load_n(&cp_state, __ATOMIC_ACQUIRE) != CP_RECORDING)
		return;		/* the runtime stepped aside */
	read_config();
	for (int sig = 1; sig < NSIG; sig++)
		any |= ends.managed[sig];
	if (!any && !ends.snap_secs)
		return;
	if (cp_snap_init(ends.snap_secs > 0 || ends.snap_sig) < 0) {
		dprintf(2, "callpath: profiles of killed runs and snapshots are off: "
			"out of memory\n");
		memset(ends.managed, 0, sizeof(ends.managed));
		return;
	}
	pthread_atfork(NULL, NULL, in_fork_child);
	atexit(stop_snapshots);
	for (int sig = 1; sig < NSIG; sig++) {
		if (!ends.managed[sig] || cp_real_sigaction(sig, NULL, &cur) != 0)
			continue;
		/* a default action we stand in for, a one-shot handler we reset;
		 * an ignored signal or another handler is left as it is */
		if (cur.sa_handler == SIG_DFL) {
			ends.view[sig] = cur;
			install(sig);
		} else if (is_handler(cur.sa_handler) && (cur.sa_flags & SA_RESETHAND)) {
			install_oneshot(sig, &cur, cp_real_sigaction, NULL);
			ends.view[sig] = cur;	/* as the kernel reported it */
		}
	}
	if (ends.snap_secs > 0 || ends.snap_sig) {
		int r;

		cp_prof_gate_add(&writer_gate, &requests);
		__atomic_store_n(&writer_running, 1, __ATOMIC_RELEASE);
		r = cp_own_thread_start(writer, NULL, 0);
		if (r) {
			__atomic_store_n(&writer_running, 0, __ATOMIC_RELEASE);
			if (ends.snap_secs > 0)
				dprintf(2, "callpath: CALLPATH_SNAPSHOT: no periodic "
					"snapshots: cannot start their thread\n");
		}
	}
}

void cp_ends_profiled(void)
{
	if (__atomic_load_n(&ctor_ran, __ATOMIC_ACQUIRE))
		ends_start();
}

#ifdef CP_ARCHIVE
/*
 * glibc's sigaction by its internal name (libc.a and libc.so both have
 * it).  Defined here, not with signals.c's interposers: an archive member
 * is linked only when referred to, and signals-a.o refers to names that
 * libc.so lacks (libcallpath.a linked into a dynamic program); it comes
 * in where the program calls signal, sigaction or setitimer.
 */
extern int __sigaction(int, const struct sigaction *, struct sigaction *);

int cp_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	return __sigaction(sig, act, old);
}
#endif

/*
 * After the runtime's other constructors.  A static link's glibc started
 * profiling before them (from the program's _init): marked by now.  A
 * dynamic program marks it later (its _init calls the interposed
 * __monstartup), and starts us then.
 */
__attribute__((constructor(105))) static void ends_ctor(void)
{
	__atomic_store_n(&ctor_ran, 1, __ATOMIC_RELEASE);
	if (cp_profiled())
		ends_start();
}
