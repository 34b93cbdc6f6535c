/*
 * ends.c - a profile when the process is killed, and snapshots while it
 * runs (issue 26; doc/snapshots.md).
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
 * CALLPATH_SNAPSHOT=SECONDS and CALLPATH_SNAPSHOT_SIGNAL=NAME start a
 * thread of the runtime's (all signals blocked) that writes a snapshot
 * every SECONDS of wall time and whenever that signal's handler (held as
 * the end signals are: a handler of the program's wins) asks for one, so
 * the program's threads keep running while it is written.
 * CALLPATH_ENDS=0 turns the end handlers off.
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
#include "utils/banned.h"

#ifndef SA_RESTORER
#define SA_RESTORER 0x04000000	/* the kernel's; glibc sets it and reports it */
#endif

static const int end_signals[] = { SIGTERM, SIGINT, SIGHUP, SIGXCPU, SIGQUIT };

static struct {
	int managed[NSIG];	/* we stand in for its default action */
	int installed[NSIG];	/* our handler is the kernel's now */
	struct sigaction view[NSIG];	/* what the program set (SIG_DFL) */
	void (*restorer)(void);	/* glibc's, as sigaction() reports it */
	int snap_sig;		/* CALLPATH_SNAPSHOT_SIGNAL, 0 none */
	double snap_secs;	/* CALLPATH_SNAPSHOT, 0 none */
} ends;

static uint32_t snap_k;		/* snapshots taken so far */
static int ending;		/* a thread is writing the end profile */
static int stopping;		/* exit began: no more snapshots */
static uint32_t requests;	/* snapshots the handler asked for, a futex word */
static int writer_running;	/* the snapshot writer thread is there */

static void handler(int sig, siginfo_t *si, void *uc);
static void ask_snapshot(void);

/* ---- configuration (normal context) ---- */

static int signal_by_name(const char *s)
{
	char *end;
	long v;

	if (strncmp(s, "SIG", 3) == 0)
		s += 3;
	for (int sig = 1; sig < NSIG; sig++) {
		const char *abbrev = sigabbrev_np(sig);

		if (abbrev && strcmp(abbrev, s) == 0)
			return sig;
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (!errno && !*end && *s && v > 0 && v < NSIG)
		return (int)v;
	return 0;
}

static void read_config(void)
{
	const char *s = getenv("CALLPATH_SNAPSHOT");
	const char *g = getenv("CALLPATH_SNAPSHOT_SIGNAL");
	const char *e = getenv("CALLPATH_ENDS");

	if (s && *s) {
		char *end;
		double v;

		errno = 0;
		v = strtod(s, &end);
		if (errno || *end || !(v >= 0.01 && v <= 1e6))
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
	__atomic_store_n(&ends.installed[sig], 1, __ATOMIC_RELEASE);
	return 0;
}

/* What the kernel would report for the program's own SIG_DFL action. */
static void set_view(int sig, const struct sigaction *act)
{
	struct sigaction *v = &ends.view[sig];

	memset(v, 0, sizeof(*v));
	v->sa_handler = SIG_DFL;
	v->sa_flags = act->sa_flags | (ends.restorer ? SA_RESTORER : 0);
	v->sa_restorer = ends.restorer;
	memcpy(&v->sa_mask, &act->sa_mask, sizeof(v->sa_mask));
	sigdelset(&v->sa_mask, SIGKILL);
	sigdelset(&v->sa_mask, SIGSTOP);
}

static int managed(int sig)
{
	return sig > 0 && sig < NSIG && ends.managed[sig];
}

int cp_ends_sigaction(int sig, const struct sigaction *act, struct sigaction *old,
		      cp_sigaction_fn real, int *ret)
{
	struct sigaction prev;

	if (!managed(sig))
		return 0;
	if (!__atomic_load_n(&ends.installed[sig], __ATOMIC_ACQUIRE)) {
		*ret = real(sig, act, old);
		if (*ret == 0 && act && act->sa_handler == SIG_DFL &&
		    real(sig, NULL, &prev) == 0 && prev.sa_handler == SIG_DFL) {
			ends.view[sig] = prev;
			install(sig);
		}
		return 1;
	}
	if (act && act->sa_handler != SIG_DFL) {
		*ret = real(sig, act, &prev);
		if (*ret == 0) {
			__atomic_store_n(&ends.installed[sig], 0, __ATOMIC_RELEASE);
			if (old)
				*old = ends.view[sig];
		}
		return 1;
	}
	if (old)
		*old = ends.view[sig];
	if (act)
		set_view(sig, act);
	*ret = 0;
	return 1;
}

int cp_ends_signal(int sig, sighandler_t h, cp_signal_fn real, sighandler_t *ret)
{
	struct sigaction prev;

	if (!managed(sig))
		return 0;
	if (!__atomic_load_n(&ends.installed[sig], __ATOMIC_ACQUIRE)) {
		*ret = real(sig, h);
		if (*ret != SIG_ERR && h == SIG_DFL && real != NULL &&
		    cp_real_sigaction(sig, NULL, &prev) == 0 && prev.sa_handler == SIG_DFL) {
			ends.view[sig] = prev;
			install(sig);
		}
		return 1;
	}
	if (h != SIG_DFL) {
		*ret = real(sig, h) == SIG_ERR ? SIG_ERR : SIG_DFL;
		if (*ret != SIG_ERR)
			__atomic_store_n(&ends.installed[sig], 0, __ATOMIC_RELEASE);
		return 1;
	}
	/* glibc's signal(): SA_RESTART (siginterrupt aside), the signal masked */
	memset(&prev, 0, sizeof(prev));
	prev.sa_flags = SA_RESTART;
	sigemptyset(&prev.sa_mask);
	sigaddset(&prev.sa_mask, sig);
	set_view(sig, &prev);
	*ret = SIG_DFL;
	return 1;
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
		if (__atomic_load_n(&stopping, __ATOMIC_ACQUIRE) || !recording())
			;
		else if (__atomic_load_n(&writer_running, __ATOMIC_ACQUIRE))
			ask_snapshot();		/* the program goes on at once */
		else	/* no writer thread (a fork child): written here */
			cp_snap_write(__atomic_add_fetch(&snap_k, 1, __ATOMIC_ACQ_REL), 100);
		errno = saved;
		return;
	}
	if (__atomic_exchange_n(&ending, 1, __ATOMIC_ACQ_REL)) {
		/* another thread writes the profile, then the process dies */
		for (int i = 0; i < 100; i++) {
			struct timespec ts = { 0, 100000000L };

			nanosleep(&ts, NULL);
		}
	} else {
		cp_snap_end(sig);
	}
	die_of(sig);
	errno = saved;
}

/* ---- the snapshot writer thread ---- */

/*
 * Snapshots are written by a thread of the runtime's (all signals
 * blocked), so that the program's threads keep running while it writes:
 * every `snap_secs`, and when the snapshot signal's handler asks
 * (`requests`, a futex: no file descriptor of the program's is taken).
 */

static long futex(uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, word, op, val, ts, NULL, FUTEX_BITSET_MATCH_ANY);
}

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
	sigset_t prof;

	(void)arg;
	/*
	 * The profiling timer's ticks that fall while this thread writes are
	 * this thread's (its pc is outside the program: counted by neither
	 * histogram), not put on a program thread the kernel would pick
	 * instead if this one blocked SIGPROF.
	 */
	sigemptyset(&prof);
	sigaddset(&prof, SIGPROF);
	pthread_sigmask(SIG_UNBLOCK, &prof, NULL);
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
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (step_ns && !before(&now, &next))
				break;
		}
		if (__atomic_load_n(&stopping, __ATOMIC_ACQUIRE) || !recording())
			break;
		cp_snap_write(__atomic_add_fetch(&snap_k, 1, __ATOMIC_ACQ_REL), 1000);
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
	__atomic_store_n(&ending, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&writer_running, 0, __ATOMIC_RELAXED);
	cp_snap_forked();
}

/*
 * After the runtime's other constructors: the header of every file written
 * from here on (cp_snap_init) describes the metrics they started, the
 * off-CPU sampler's (offcpu.c, 104) and the events' (102).
 */
__attribute__((constructor(105))) static void ends_start(void)
{
	struct sigaction cur;
	int any = 0;

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
		/* a default action we stand in for; an ignored signal or an
		 * inherited handler is left as it is */
		if (cur.sa_handler == SIG_DFL) {
			ends.view[sig] = cur;
			install(sig);
		}
	}
	if (ends.snap_secs > 0 || ends.snap_sig) {
		sigset_t all, prev;
		pthread_t t;

		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &prev);
		__atomic_store_n(&writer_running, 1, __ATOMIC_RELEASE);
		if (pthread_create(&t, NULL, writer, NULL) == 0) {
			pthread_detach(t);
		} else {
			__atomic_store_n(&writer_running, 0, __ATOMIC_RELEASE);
			if (ends.snap_secs > 0)
				dprintf(2, "callpath: CALLPATH_SNAPSHOT: no periodic "
					"snapshots: cannot start their thread\n");
		}
		pthread_sigmask(SIG_SETMASK, &prev, NULL);
	}
}
