/*
 * thread.c - threads' start and end, in normal context.
 *
 * record.c maps a thread's state on its first call, in the trampolines,
 * where nothing of the C library may run.  What needs the C library
 * happens here, on the thread itself, where it may:
 *
 *   - its own stack's bounds (pthread_getattr_np), which stack.c needs to
 *     tell a live frame from one of a stack that is gone: for the main
 *     thread from our constructor, for every other thread from the start
 *     routine wrapper that our pthread_create installs;
 *   - its end: the wrapper sets a thread-specific key whose destructor
 *     merges the thread's tree into the retired tree and unmaps its state
 *     (record.c's cp_thread_retire()).  A key destructor runs however the
 *     thread ends (return, pthread_exit, cancellation), and after the C++
 *     thread_local destructors, whose calls are then recorded.  It asks
 *     for a second round, so that other keys' destructors calling the
 *     program are recorded too; calls after that are counted as dropped.
 *
 * The wrapper changes nothing the program sees: pthread_create's result
 * and the thread's return value are the program's; if the wrapper cannot
 * be allocated, the program's start routine is passed as it is (that
 * thread's state is then kept until exit, as threads we are not told
 * about are: glibc's own helper threads, and every thread of a static
 * link, where libcallpath.a cannot interpose pthread_create).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "runtime.h"
#include "utils/banned.h"

#define CP_EXPORT __attribute__((visibility("default")))

static pthread_key_t retire_key;
static int retire_key_ok;

/* Round 1 of the destructors: come back after the other keys' (round 2). */
#define KEY_FIRST ((void *)1)
#define KEY_AGAIN ((void *)2)

static void retire_destructor(void *v)
{
	if (v == KEY_FIRST && pthread_setspecific(retire_key, KEY_AGAIN) == 0)
		return;
	cp_thread_retire();
}

/* The calling thread's own stack, for stack.c. */
static void own_stack(void)
{
	pthread_attr_t a;
	void *addr;
	size_t size;

	if (pthread_getattr_np(pthread_self(), &a) != 0)
		return;
	if (pthread_attr_getstack(&a, &addr, &size) == 0)
		cp_stack_set_own((uintptr_t)addr, (uintptr_t)addr + size);
	pthread_attr_destroy(&a);
}

void cp_thread_init_main(void)
{
	own_stack();
	if (pthread_key_create(&retire_key, retire_destructor) == 0)
		__atomic_store_n(&retire_key_ok, 1, __ATOMIC_RELEASE);
}

#ifndef CP_ARCHIVE
typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

struct start {
	void *(*fn)(void *);
	void *arg;
};

static void *wrapped_start(void *p)
{
	struct start s = *(struct start *)p;

	free(p);
	own_stack();
	pthread_setspecific(retire_key, KEY_FIRST);
	return s.fn(s.arg);
}

CP_EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
			     void *(*fn)(void *), void *arg)
{
	static create_fn next;
	create_fn f = __atomic_load_n(&next, __ATOMIC_ACQUIRE);
	struct start *s;
	int r;

	if (!f) {
		f = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
		if (!f)
			return EAGAIN;	/* not reached: glibc has it */
		__atomic_store_n(&next, f, __ATOMIC_RELEASE);
	}
	if (!__atomic_load_n(&retire_key_ok, __ATOMIC_ACQUIRE) ||
	    !(s = malloc(sizeof(*s))))
		return f(thread, attr, fn, arg);
	s->fn = fn;
	s->arg = arg;
	r = f(thread, attr, wrapped_start, s);
	if (r)
		free(s);
	return r;
}
#endif
