/*
 * own_thread.c - threads the runtime starts for itself, and the SIGPROF
 * gate in front of them (own_thread.h).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "own_thread.h"
#include "utils/banned.h"

#define MAX_THREADS 4
#define MAX_GATES 4
#define SHUT_WAIT_MS 2000

/* A gate's state. */
enum {
	GATE_IDLE,	/* SIGPROF blocked, not opened yet */
	GATE_OPEN,	/* SIGPROF unblocked (or about to be) on its thread */
	GATE_SHUTTING,	/* the program is installing a handler: block, then SHUT */
	GATE_SHUT,	/* blocked for good: SIGPROF is the program's */
};

static struct cp_prof_gate *gates[MAX_GATES];
static int ngates;
static int program_handler;	/* the program installed a SIGPROF handler */

/* What a new thread runs: slots never reused, so the thread frees nothing
 * (a thread's first free gives it a malloc arena of its own: thread.c). */
struct own_start {
	void *(*fn)(void *);
	void *arg;
};

static struct own_start starts[MAX_THREADS];
static int nstarts;

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

static void *own_start(void *p)
{
	const struct own_start *s = p;

	/* not the program's: a call here is dropped, never registered */
	cp_tls.self = CP_RETIRED;
	return s->fn(s->arg);
}

int cp_own_thread_start(void *(*fn)(void *), void *arg, size_t stack)
{
	int slot = __atomic_fetch_add(&nstarts, 1, __ATOMIC_ACQ_REL), r;
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t t;
	create_fn create;

	if (slot >= MAX_THREADS)
		return EAGAIN;
#ifdef CP_ARCHIVE
	create = pthread_create;	/* a static link has no wrapper */
#else
	/* glibc's, not thread.c's wrapper: this thread is not the program's */
	create = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
	if (!create)
		return ENOSYS;
#endif
	starts[slot].fn = fn;
	starts[slot].arg = arg;
	if (pthread_attr_init(&attr) != 0)
		return EAGAIN;
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (stack)
		pthread_attr_setstacksize(&attr, stack);
	/* inherited by the new thread from its first instruction */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r = create(&t, &attr, own_start, &starts[slot]);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return r;
}

/* ---- the SIGPROF gate ---- */

static long futex(uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, word, op, val, ts, NULL, 0);
}

static void prof_mask(int how)
{
	sigset_t prof;

	sigemptyset(&prof);
	sigaddset(&prof, SIGPROF);
	pthread_sigmask(how, &prof, NULL);
}

/*
 * The gate published, then the program's handler looked for; the handler's
 * side sets its flag, then looks at the gates (both sequentially
 * consistent): one of the two sees the other.
 */
void cp_prof_gate_add(struct cp_prof_gate *g, uint32_t *wake)
{
	int i = __atomic_fetch_add(&ngates, 1, __ATOMIC_SEQ_CST);

	g->wake = wake;
	if (i < MAX_GATES)
		__atomic_store_n(&gates[i], g, __ATOMIC_SEQ_CST);
	else	/* not waited for: never opened */
		__atomic_store_n(&g->state, GATE_SHUT, __ATOMIC_RELEASE);
	if (__atomic_load_n(&program_handler, __ATOMIC_SEQ_CST))
		__atomic_store_n(&g->state, GATE_SHUT, __ATOMIC_RELEASE);
}

void cp_prof_open(struct cp_prof_gate *g)
{
	uint32_t idle = GATE_IDLE;

	if (__atomic_compare_exchange_n(&g->state, &idle, GATE_OPEN, 0, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		prof_mask(SIG_UNBLOCK);
}

static void shut(struct cp_prof_gate *g)
{
	prof_mask(SIG_BLOCK);
	__atomic_store_n(&g->state, GATE_SHUT, __ATOMIC_RELEASE);
	futex(&g->state, FUTEX_WAKE_PRIVATE, 1, NULL);
}

void cp_prof_done(struct cp_prof_gate *g)
{
	shut(g);
}

void cp_prof_poll(struct cp_prof_gate *g)
{
	if (__atomic_load_n(&g->state, __ATOMIC_ACQUIRE) == GATE_SHUTTING)
		shut(g);
}

/* Until g is shut, SHUT_WAIT_MS at most: its thread polls when woken and
 * while it works. */
static void wait_shut(struct cp_prof_gate *g)
{
	struct timespec ts = { 0, 10 * 1000000L };

	for (int ms = 0; ms < SHUT_WAIT_MS; ms += 10) {
		uint32_t v = __atomic_load_n(&g->state, __ATOMIC_ACQUIRE);

		if (v == GATE_SHUT)
			return;
		futex(&g->state, FUTEX_WAIT_PRIVATE, v, &ts);
	}
}

void cp_prof_program_handler(void)
{
	int n;

	__atomic_store_n(&program_handler, 1, __ATOMIC_SEQ_CST);
	n = __atomic_load_n(&ngates, __ATOMIC_SEQ_CST);
	for (int i = 0; i < n && i < MAX_GATES; i++) {
		struct cp_prof_gate *g = __atomic_load_n(&gates[i], __ATOMIC_SEQ_CST);
		uint32_t v;

		if (!g)
			continue;
		for (;;) {
			v = __atomic_load_n(&g->state, __ATOMIC_ACQUIRE);
			if (v == GATE_SHUT)
				break;
			if (v == GATE_IDLE) {
				/* blocked now, and never opened again */
				if (__atomic_compare_exchange_n(&g->state, &v, GATE_SHUT, 0,
								__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
					break;
				continue;
			}
			if (v == GATE_OPEN &&
			    !__atomic_compare_exchange_n(&g->state, &v, GATE_SHUTTING, 0,
							 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
				continue;
			/* asleep: woken, it polls */
			if (g->wake)
				futex(g->wake, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL);
			wait_shut(g);
			break;
		}
	}
}

void cp_prof_forked(void)
{
	int n = __atomic_load_n(&ngates, __ATOMIC_ACQUIRE);

	for (int i = 0; i < n && i < MAX_GATES; i++)
		if (gates[i])
			__atomic_store_n(&gates[i]->state, GATE_SHUT, __ATOMIC_RELEASE);
}
