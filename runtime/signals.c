/*
 * signals.c - signal(), sigaction() and setitimer() as the program calls
 * them, watched for SIGPROF and ITIMER_PROF.
 *
 * sample.c credits glibc's profiling ticks to calling contexts by chaining
 * glibc's SIGPROF handler; a program that installs its own SIGPROF handler
 * or sets ITIMER_PROF replaces that, and the sidecar must say the times
 * cover part of the run.  So we interpose these three and only observe:
 * each forwards to glibc's own function with the caller's arguments and
 * returns what it returned, errno included, so glibc's exact semantics stay
 * (signal()'s BSD behaviour and siginterrupt(), SIG_ERR and bad signal
 * numbers refused with EINVAL, the old action and old timer).  glibc's own
 * calls (profil, siginterrupt, sigset) use its internal names and do not
 * come here.
 *
 * glibc's functions are found with dlsym(RTLD_NEXT) in normal context (our
 * constructor, or the first call if it comes earlier), never in a signal
 * handler; a static link (libcallpath.a, CP_ARCHIVE) names glibc's
 * internal aliases, which libc.a defines beside its weak public names.
 *
 * The signals ends.c stands in for (SIGTERM and the others that end a
 * program without exit, and the snapshot signal) are answered there: our
 * handler steps aside for the program's and the program sees its own
 * SIG_DFL where ours is installed (cp_ends_sigaction, cp_ends_signal).
 *
 * A SIGPROF handler of the program's must never run on a thread of the
 * runtime's (own_thread.h): before one is installed, those threads block
 * SIGPROF (cp_prof_program_handler).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <sys/time.h>

#include "ends.h"
#include "own_thread.h"
#include "runtime.h"
#include "utils/banned.h"

#define CP_EXPORT __attribute__((visibility("default")))

void cp_sample_replaced(void) CP_HIDDEN;

typedef sighandler_t (*signal_fn)(int, sighandler_t);
typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef int (*setitimer_fn)(__itimer_which_t, const struct itimerval *,
			    struct itimerval *);

#ifdef CP_ARCHIVE
extern sighandler_t __bsd_signal(int, sighandler_t);
extern int __sigaction(int, const struct sigaction *, struct sigaction *);
extern int __setitimer(__itimer_which_t, const struct itimerval *, struct itimerval *);

static signal_fn next_signal(void) { return __bsd_signal; }
static sigaction_fn next_sigaction(void) { return __sigaction; }
static setitimer_fn next_setitimer(void) { return __setitimer; }
static void signals_init(void) { }
#else
static signal_fn real_signal;
static sigaction_fn real_sigaction;
static setitimer_fn real_setitimer;

static void signals_init(void)
{
	if (!__atomic_load_n(&real_signal, __ATOMIC_ACQUIRE))
		__atomic_store_n(&real_signal, (signal_fn)dlsym(RTLD_NEXT, "signal"),
				 __ATOMIC_RELEASE);
	if (!__atomic_load_n(&real_sigaction, __ATOMIC_ACQUIRE))
		__atomic_store_n(&real_sigaction,
				 (sigaction_fn)dlsym(RTLD_NEXT, "sigaction"),
				 __ATOMIC_RELEASE);
	if (!__atomic_load_n(&real_setitimer, __ATOMIC_ACQUIRE))
		__atomic_store_n(&real_setitimer,
				 (setitimer_fn)dlsym(RTLD_NEXT, "setitimer"),
				 __ATOMIC_RELEASE);
}

static signal_fn next_signal(void)
{
	signal_fn f = __atomic_load_n(&real_signal, __ATOMIC_ACQUIRE);

	if (!f) {
		signals_init();
		f = __atomic_load_n(&real_signal, __ATOMIC_ACQUIRE);
	}
	return f;
}

static sigaction_fn next_sigaction(void)
{
	sigaction_fn f = __atomic_load_n(&real_sigaction, __ATOMIC_ACQUIRE);

	if (!f) {
		signals_init();
		f = __atomic_load_n(&real_sigaction, __ATOMIC_ACQUIRE);
	}
	return f;
}

static setitimer_fn next_setitimer(void)
{
	setitimer_fn f = __atomic_load_n(&real_setitimer, __ATOMIC_ACQUIRE);

	if (!f) {
		signals_init();
		f = __atomic_load_n(&real_setitimer, __ATOMIC_ACQUIRE);
	}
	return f;
}
#endif

/* A handler of the program's (not the default action, not ignored). */
static int program_handler(sighandler_t h)
{
	return h != SIG_DFL && h != SIG_IGN && h != SIG_ERR;
}

/* Early, so that a signal handler calling these never needs dlsym. */
__attribute__((constructor(102))) static void signals_constructor(void)
{
	signals_init();
}

CP_EXPORT sighandler_t signal(int sig, sighandler_t h)
{
	signal_fn f = next_signal();
	sighandler_t old;

	if (!f) {
		errno = ENOSYS;
		return SIG_ERR;
	}
	if (cp_ends_signal(sig, h, f, &old))
		return old;
	if (sig == SIGPROF && program_handler(h))
		cp_prof_program_handler();
	old = f(sig, h);
	if (sig == SIGPROF && old != SIG_ERR)
		cp_sample_replaced();
	return old;
}

CP_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	sigaction_fn f = next_sigaction();
	int r;

	if (!f) {
		errno = ENOSYS;
		return -1;
	}
	if (cp_ends_sigaction(sig, act, old, f, &r))
		return r;
	if (sig == SIGPROF && act && program_handler(act->sa_handler))
		cp_prof_program_handler();
	r = f(sig, act, old);
	if (sig == SIGPROF && act && r == 0)
		cp_sample_replaced();
	return r;
}

#ifndef CP_ARCHIVE
/* glibc's own, for ends.c's handlers (never our interposer); ends.c has
 * the archive's, so that it does not link this file's interposers */
int cp_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	sigaction_fn f = next_sigaction();

	if (!f) {
		errno = ENOSYS;
		return -1;
	}
	return f(sig, act, old);
}
#endif

CP_EXPORT int setitimer(__itimer_which_t which, const struct itimerval *nv,
			struct itimerval *ov)
{
	setitimer_fn f = next_setitimer();
	int r;

	if (!f) {
		errno = ENOSYS;
		return -1;
	}
	r = f(which, nv, ov);
	if (which == ITIMER_PROF && nv && r == 0)
		cp_sample_replaced();
	return r;
}
