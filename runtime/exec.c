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
 * which has neither our counters nor our timers.  A static link
 * (libcallpath.a) cannot interpose these: doc/counters.md.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <unistd.h>

#include "counters.h"
#include "runtime.h"
#include "utils/banned.h"

#define CP_EXPORT __attribute__((visibility("default")))

struct exec_pause {
	int counters;		/* the thread's counters were stopped */
	int timer;		/* its timer was deleted */
};

static void pause_all(struct exec_pause *p)
{
	struct cp_thread *t = cp_tls.self;

	p->counters = cp_counters_pause();
	p->timer = 0;
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

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execv_fn)(const char *, char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef int (*execveat_fn)(int, const char *, char *const[], char *const[], int);

CP_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	execve_fn f = (execve_fn)next("execve");
	struct exec_pause p;
	int r;

	if (!f)
		return -1;
	pause_all(&p);
	r = f(path, argv, envp);
	resume_all(&p);
	return r;
}

CP_EXPORT int execv(const char *path, char *const argv[])
{
	execv_fn f = (execv_fn)next("execv");
	struct exec_pause p;
	int r;

	if (!f)
		return -1;
	pause_all(&p);
	r = f(path, argv);
	resume_all(&p);
	return r;
}

CP_EXPORT int execvp(const char *file, char *const argv[])
{
	execv_fn f = (execv_fn)next("execvp");
	struct exec_pause p;
	int r;

	if (!f)
		return -1;
	pause_all(&p);
	r = f(file, argv);
	resume_all(&p);
	return r;
}

CP_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	execve_fn f = (execve_fn)next("execvpe");
	struct exec_pause p;
	int r;

	if (!f)
		return -1;
	pause_all(&p);
	r = f(file, argv, envp);
	resume_all(&p);
	return r;
}

CP_EXPORT int fexecve(int fd, char *const argv[], char *const envp[])
{
	fexecve_fn f = (fexecve_fn)next("fexecve");
	struct exec_pause p;
	int r;

	if (!f)
		return -1;
	pause_all(&p);
	r = f(fd, argv, envp);
	resume_all(&p);
	return r;
}

CP_EXPORT int execveat(int dirfd, const char *path, char *const argv[], char *const envp[],
		       int flags)
{
	execveat_fn f = (execveat_fn)next("execveat");
	struct exec_pause p;
	int r;

	if (!f)
		return -1;
	pause_all(&p);
	r = f(dirfd, path, argv, envp, flags);
	resume_all(&p);
	return r;
}

/*
 * The variadic forms, as glibc's: the arguments after arg0 up to and with
 * the NULL (then, for execle, the environment) into a vector on the stack;
 * more than INT_MAX arguments are refused with E2BIG, as glibc does.
 */
static int count_args(va_list ap, size_t *n)
{
	for (*n = 1; va_arg(ap, const char *); (*n)++)
		if (*n == 0x7fffffff) {
			errno = E2BIG;
			return -1;
		}
	return 0;
}

static void fill_args(char **argv, const char *arg0, va_list ap, size_t n)
{
	argv[0] = (char *)arg0;
	for (size_t i = 1; i <= n; i++)
		argv[i] = va_arg(ap, char *);
}

CP_EXPORT int execl(const char *path, const char *arg0, ...)
{
	va_list ap;
	size_t n;
	int r;

	va_start(ap, arg0);
	r = count_args(ap, &n);
	va_end(ap);
	if (r < 0)
		return -1;
	{
		char *argv[n + 1];

		va_start(ap, arg0);
		fill_args(argv, arg0, ap, n);
		va_end(ap);
		return execv(path, argv);
	}
}

CP_EXPORT int execlp(const char *file, const char *arg0, ...)
{
	va_list ap;
	size_t n;
	int r;

	va_start(ap, arg0);
	r = count_args(ap, &n);
	va_end(ap);
	if (r < 0)
		return -1;
	{
		char *argv[n + 1];

		va_start(ap, arg0);
		fill_args(argv, arg0, ap, n);
		va_end(ap);
		return execvp(file, argv);
	}
}

CP_EXPORT int execle(const char *path, const char *arg0, ...)
{
	va_list ap;
	size_t n;
	int r;

	va_start(ap, arg0);
	r = count_args(ap, &n);
	va_end(ap);
	if (r < 0)
		return -1;
	{
		char *argv[n + 1];
		char *const *envp;

		va_start(ap, arg0);
		fill_args(argv, arg0, ap, n);
		envp = va_arg(ap, char *const *);
		va_end(ap);
		return execve(path, argv, envp);
	}
}
