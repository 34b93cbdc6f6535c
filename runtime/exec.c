/*
 * exec.c - the exec family as the program calls it: nothing of the
 * runtime's may reach the new program.
 *
 * The calling thread's event counters (CALLPATH_EVENTS) and its CPU-time
 * timer (CALLPATH_HZ) keep running into the execve system call.  A counter
 * that overflows while the kernel builds the new image (its page faults,
 * its cycles) queues PAPI's real-time signal to the thread, and a timer
 * that expires there queues SIGPROF; the new program has the default
 * action for both, which ends it (`nice /bin/true` with perf::PAGE-FAULTS
 * died of real-time signal 2, status 164, every time).  So each exec
 * function stops them first and, if the exec fails, starts them again and
 * returns what glibc's returned, errno included.
 *
 * glibc's execl, execle, execlp, execv, execvp and execvpe call execve by
 * an internal name, so each public function is interposed, and the
 * variadic ones are made into their vector forms as glibc makes them.
 * posix_spawn, system and popen run the exec in a child made by clone,
 * which has neither our counters nor our timers; they are interposed only
 * to tell a sampled process that it started another program (below).  A
 * static link (libcallpath.a) cannot interpose these: doc/counters.md.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "counters.h"
#include "runtime.h"
#include "sampled.h"
#include "sys.h"
#include "utils/banned.h"

#define CP_EXPORT __attribute__((visibility("default")))

struct exec_pause {
	int counters;		/* the thread's counters were stopped */
	int timer;		/* its timer was deleted */
	int itimer;		/* ITIMER_PROF was stopped (sampling mode) */
	struct itimerval prof;	/* its value then */
};

static void pause_all(struct exec_pause *p)
{
	struct cp_thread *t = cp_tls.self;
	int pid = __atomic_load_n(&cp_pid, __ATOMIC_RELAXED);

	memset(p, 0, sizeof(*p));
	/*
	 * A vfork child runs on its parent's memory and thread: the counters,
	 * the timer and the bookkeeping there are the parent's, none of them
	 * the child's (a child inherits no timer).  Stopping them from here
	 * disabled the parent's counters and forgot its live timer, which
	 * then fired after _mcleanup had put SIGPROF's default action back:
	 * the parent died of SIGPROF at its exit.  Nothing of ours runs in
	 * the child: it goes to exec as it is.
	 */
	if (pid && (int)cp_syscall0(SYS_getpid) != pid) {
		/* one thing is the parent's to know: it started a program,
		 * whose gmon.out its own files must not replace */
		cp_sampled_started_other();
		return;
	}
	p->counters = cp_counters_pause();
	p->timer = 0;
	/*
	 * Sampling mode started glibc's histogram, whose ITIMER_PROF outlives
	 * execve: a new program without the runtime (static, or its
	 * environment cleared) would die of its next SIGPROF.  A -pg program
	 * has glibc's timer whatever we do: left as it is.
	 */
	p->itimer = 0;
	if (cp_sampling) {
		static const struct itimerval off;

		p->itimer = cp_syscall6(SYS_setitimer, ITIMER_PROF, (long)&off,
					(long)&p->prof, 0, 0, 0) == 0;
	}
	if (t && t != CP_RETIRED && t->timer_slot) {
		cp_sampler_thread_end(t);
		p->timer = 1;
	}
}

/* The exec failed: the program goes on as before it. */
static void resume_all(const struct exec_pause *p)
{
	struct cp_thread *t = cp_tls.self;
	int saved = errno;

	if (p->counters)
		cp_counters_resume();
	if (p->itimer)
		cp_syscall6(SYS_setitimer, ITIMER_PROF, (long)&p->prof, 0, 0, 0, 0);
	if (p->timer && t && t != CP_RETIRED) {
		t->timer_tried = 0;
		cp_sampler_thread(t);
	}
	errno = saved;
}

static void *next(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f)
		errno = ENOSYS;
	return f;
}

/*
 * An interposer of glibc's `name`, with its parameters `params` (names
 * included) and the arguments `args` that pass them on: glibc's function
 * between pause_all() and resume_all().
 */
#define EXEC_INTERPOSER(name, params, args)                             \
	CP_EXPORT int name params                                       \
	{                                                               \
		int(*f) params = (int(*) params)next(#name);            \
		struct exec_pause p;                                    \
		int r;                                                  \
									\
		if (!f)                                                 \
			return -1;                                      \
		pause_all(&p);                                          \
		r = f args;                                             \
		resume_all(&p);                                         \
		return r;                                               \
	}

EXEC_INTERPOSER(execve, (const char *path, char *const argv[], char *const envp[]),
		(path, argv, envp))
EXEC_INTERPOSER(execv, (const char *path, char *const argv[]), (path, argv))
EXEC_INTERPOSER(execvp, (const char *file, char *const argv[]), (file, argv))
EXEC_INTERPOSER(execvpe, (const char *file, char *const argv[], char *const envp[]),
		(file, argv, envp))
EXEC_INTERPOSER(fexecve, (int fd, char *const argv[], char *const envp[]), (fd, argv, envp))
EXEC_INTERPOSER(execveat, (int dirfd, const char *path, char *const argv[],
			   char *const envp[], int flags),
		(dirfd, path, argv, envp, flags))

/*
 * The variadic forms, as glibc's: arg0 and the arguments after it up to
 * and with the NULL into a vector on the stack (then, for execle, the
 * environment after them), passed to the vector form above; more than
 * INT_MAX arguments are refused with E2BIG, as glibc does.
 */
static size_t count_args(va_list ap)
{
	size_t n;

	for (n = 1; va_arg(ap, const char *); n++)
		if (n == 0x7fffffff) {
			errno = E2BIG;
			return 0;
		}
	return n;
}

#define EXEC_VARIADIC(name, with_env, call)                             \
	CP_EXPORT int name(const char *file, const char *arg0, ...)     \
	{                                                               \
		va_list ap;                                             \
		size_t n;                                               \
									\
		va_start(ap, arg0);                                     \
		n = count_args(ap);                                     \
		va_end(ap);                                             \
		if (!n)                                                 \
			return -1;                                      \
		{                                                       \
			char *argv[n + 1];                              \
			char *const *envp = NULL;                       \
									\
			argv[0] = (char *)arg0;                         \
			va_start(ap, arg0);                             \
			for (size_t i = 1; i <= n; i++)                 \
				argv[i] = va_arg(ap, char *);           \
			if (with_env)                                   \
				envp = va_arg(ap, char *const *);       \
			va_end(ap);                                     \
			(void)envp;                                     \
			return call;                                    \
		}                                                       \
	}

EXEC_VARIADIC(execl, 0, execv(file, argv))
EXEC_VARIADIC(execlp, 0, execvp(file, argv))
EXEC_VARIADIC(execle, 1, execve(file, argv, envp))

/*
 * A sampled process that starts a program writes its files under its pid
 * from then on (sampled.c): the program may be a -pg program, whose
 * gmon.out, written when it ends, would replace the parent's, or be
 * replaced by it.  fork tells it through pthread_atfork and a vfork
 * child's exec above; posix_spawn, system and popen clone a child that
 * runs no fork handler and calls glibc's execve by an internal name, so
 * they tell it here, before the child exists (a spawn that then fails
 * only leaves the files under the pid).
 */
typedef int (*spawn_fn)(pid_t *, const char *, const posix_spawn_file_actions_t *,
			const posix_spawnattr_t *, char *const[], char *const[]);

#define SPAWN_INTERPOSER(name)                                                         \
	CP_EXPORT int name(pid_t *restrict pid, const char *restrict path,                 \
			   const posix_spawn_file_actions_t *actions,                      \
			   const posix_spawnattr_t *restrict attr, char *const argv[restrict], \
			   char *const envp[restrict])                                     \
	{                                                                                  \
		spawn_fn f = (spawn_fn)next(#name);                                        \
										   \
		if (!f)                                                                    \
			return ENOSYS;                                                     \
		cp_sampled_started_other();                                                \
		return f(pid, path, actions, attr, argv, envp);                            \
	}

SPAWN_INTERPOSER(posix_spawn)
SPAWN_INTERPOSER(posix_spawnp)

CP_EXPORT int system(const char *command)
{
	int (*f)(const char *) = (int (*)(const char *))next("system");

	if (!f)
		return -1;
	cp_sampled_started_other();
	return f(command);
}

CP_EXPORT FILE *popen(const char *command, const char *type)
{
	FILE *(*f)(const char *, const char *) =
		(FILE * (*)(const char *, const char *)) next("popen");

	if (!f)
		return NULL;
	cp_sampled_started_other();
	return f(command, type);
}
