/*
 * thread.c - threads' start and end, in normal context.
 *
 * record.c maps a thread's state on its first call, in the trampolines,
 * where nothing of the C library may run.  What needs the C library
 * happens here, on the thread itself, where it may:
 *
 *   - the main thread's own stack's bounds (pthread_getattr_np), which
 *     stack.c needs to tell a live frame from one of a stack that is
 *     gone (other threads' come from stack.c itself, see below);
 *   - its end: the wrapper sets a thread-specific key whose destructor
 *     merges the thread's tree into the retired tree and unmaps its state
 *     (record.c's cp_thread_retire()).  A key destructor runs however the
 *     thread ends (return, pthread_exit, cancellation), and after the C++
 *     thread_local destructors, whose calls are then recorded.  It asks
 *     for a second round, so that other keys' destructors calling the
 *     program are recorded too; calls after that are counted as dropped.
 *
 * The wrapper changes nothing the program sees: pthread_create's result
 * and the thread's return value are the program's.  Nothing here mallocs
 * or frees on the new thread: glibc gives a thread that does its first
 * malloc or free an arena of its own, 64 MiB of address space, which a
 * program under `ulimit -v` whose threads never allocate cannot afford
 * (32 threads: 2 GiB).  So the wrapper's record comes from a pool of our
 * own, and the thread's stack bounds from stack.c (the mapping of
 * /proc/self/maps that holds the wrapper's frame, read with raw system
 * calls) rather than pthread_getattr_np(), which mallocs.  If the
 * record cannot be had, the program's start routine is passed as it is
 * (that thread's state is then kept until exit, as threads we are not
 * told about are: glibc's own helper threads, and every thread of a
 * static link, where libcallpath.a cannot interpose pthread_create).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <sys/mman.h>

#include "counters.h"
#include "runtime.h"
#include "sampled.h"
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
	cp_counters_thread_end();
	cp_thread_retire();
	cp_sampled_thread_end();
}

/* The calling thread's own stack, for stack.c (the main thread: it mallocs). */
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

/* What the wrapper needs, from a pool of pages never given back. */
struct start {
	void *(*fn)(void *);
	void *arg;
	struct start *next;
};

static struct start *pool;
static int pool_lock;

static void pool_take_lock(void)
{
	while (__atomic_exchange_n(&pool_lock, 1, __ATOMIC_ACQUIRE))
		sched_yield();
}

static struct start *start_get(void)
{
	struct start *s;

	pool_take_lock();
	if (!pool) {
		struct start *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (page != MAP_FAILED)
			for (size_t i = 0; i < 4096 / sizeof(*page); i++) {
				page[i].next = pool;
				pool = &page[i];
			}
	}
	s = pool;
	if (s)
		pool = s->next;
	__atomic_store_n(&pool_lock, 0, __ATOMIC_RELEASE);
	return s;
}

/* fork: the pool's lock is held across it (runtime.c's atfork handlers) */
void cp_thread_fork_prepare(void)
{
	pool_take_lock();
}

void cp_thread_fork_done(void)
{
	__atomic_store_n(&pool_lock, 0, __ATOMIC_RELEASE);
}

static void start_put(struct start *s)
{
	pool_take_lock();
	s->next = pool;
	pool = s;
	__atomic_store_n(&pool_lock, 0, __ATOMIC_RELEASE);
}

static void *wrapped_start(void *p)
{
	struct start s = *(struct start *)p;
	void *r;

	start_put(p);
	/* on the thread's own stack still: whatever it switches to later */
	cp_stack_own_here();
	pthread_setspecific(retire_key, KEY_FIRST);
	cp_counters_thread_begin();
	cp_sampled_thread_begin();
	r = s.fn(s.arg);
	/* no tail call: a sampled thread's stack walks end at this frame */
	__asm__ volatile("" : : : "memory");
	return r;
}

/* Where a sampled thread's walks end: its start routine's caller. */
uintptr_t cp_thread_root(void) CP_HIDDEN;
uintptr_t cp_thread_root(void)
{
	return (uintptr_t)wrapped_start;
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
	if (!__atomic_load_n(&retire_key_ok, __ATOMIC_ACQUIRE) || !(s = start_get()))
		return f(thread, attr, fn, arg);
	s->fn = fn;
	s->arg = arg;
	r = f(thread, attr, wrapped_start, s);
	if (r)
		start_put(s);
	return r;
}
#else
void cp_thread_fork_prepare(void)
{
}

void cp_thread_fork_done(void)
{
}
#endif
