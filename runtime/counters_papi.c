/*
 * counters_papi.c - event counts per calling context by PAPI overflow
 * sampling (CALLPATH_EVENTS=EV[@PERIOD],...; doc/counters.md).
 *
 * Each thread the runtime knows (the main thread from start-up, others
 * from the pthread_create wrapper) gets its own PAPI event set holding
 * every event asked for, each with an overflow threshold, its period.  At
 * each overflow PAPI calls overflow() on the thread that overflowed, in
 * its signal handler: `period` events are credited to the calling context
 * live there, judged from the interrupted stack pointer as the time
 * sampler judges it (sample.c), into the thread's value table; an overflow
 * no context can take (the thread inside the runtime, no live recorded
 * frame) is counted as unplaced, never guessed.  The handler runs in
 * signal context: raw system calls, the thread's own memory, no libc.
 *
 * Values live beside the thread's tree, not in it: vals[c] holds the
 * events of the nodes of the tree's chunk c (cp_tree_node()), `nev` per
 * node, mapped by the handler the first time an overflow lands in that
 * chunk.  When a thread ends, its values are added, by path, into a tree
 * of our own (`kept`) that holds only the paths with events; at exit the
 * live threads' values are added through the writer's map of their nodes
 * and the kept paths are found in the sidecar by path.
 *
 * Every PAPI call that may allocate is made in normal context.  PAPI
 * mallocs for each thread's event set: a thread that counts events pays
 * glibc's per-thread arena (doc/dev/runtime.md), as under any PAPI tool.
 *
 * libcallpath is not linked with PAPI: a program run without
 * CALLPATH_EVENTS must behave exactly as without the runtime, and libpapi
 * (with libpfm, which it needs) would otherwise be loaded into every
 * profiled program, its constructors run, its memory mapped.  PAPI is
 * dlopen()ed by its soname (CP_PAPI_SONAME, found by configure) only when
 * CALLPATH_EVENTS names events, and the few functions used are called
 * through `papi`, filled by dlsym(); papi.h gives their types and
 * constants only.  When it cannot be loaded, one line says so and the run
 * goes on with time.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <papi.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <ucontext.h>

#include "counters.h"
#include "env.h"
#include "runtime.h"
#include "sampled.h"
#include "sys.h"
#include "format/sidecar.h"
#include "utils/banned.h"

#ifndef CP_PAPI_SONAME
#error "configure sets CP_PAPI_SONAME, PAPI's soname (libpapi.so.N)"
#endif

#define CTR_MAX 8		/* events per run */

/* The PAPI functions used, resolved by papi_load(). */
#define PAPI_FUNCTIONS(X) \
	X(library_init) X(thread_init) X(strerror) X(set_domain) \
	X(create_eventset) X(add_event) X(remove_event) X(overflow) \
	X(start) X(stop) X(cleanup_eventset) X(destroy_eventset) \
	X(event_name_to_code) X(get_overflow_event_index)
static struct {
#define PAPI_POINTER(f) __typeof__(PAPI_##f) *f;
	PAPI_FUNCTIONS(PAPI_POINTER)
#undef PAPI_POINTER
} papi;

/*
 * Load PAPI and resolve `papi`: 0, or -1 after saying why (one line).
 * Normal context, once, at start-up.
 */
static int papi_load(void)
{
	void *h = dlopen(CP_PAPI_SONAME, RTLD_NOW | RTLD_LOCAL);
	const char *missing = NULL;

	if (!h) {
		const char *why = dlerror();

		dprintf(2, "callpath: ignoring CALLPATH_EVENTS: cannot load PAPI "
			"(%s); the run goes on with time only\n",
			why ? why : CP_PAPI_SONAME);
		return -1;
	}
#define PAPI_RESOLVE(f) \
	if (!missing && !(*(void **)&papi.f = dlsym(h, "PAPI_" #f))) \
		missing = "PAPI_" #f;
	PAPI_FUNCTIONS(PAPI_RESOLVE)
#undef PAPI_RESOLVE
	if (missing) {
		dprintf(2, "callpath: ignoring CALLPATH_EVENTS: %s has no %s (a "
			"different PAPI); the run goes on with time only\n",
			CP_PAPI_SONAME, missing);
		memset(&papi, 0, sizeof(papi));
		dlclose(h);
		return -1;
	}
	return 0;
}
#define CTR_NAME_MAX 128

struct ctr_event {
	char name[CTR_NAME_MAX];
	int code;
	long long period;
	int asleep;	/* overflows_asleep(): counted by reading, never by overflow */
};

/* The events counted (those every check passed), set once at start-up. */
static struct ctr_event events[CTR_MAX];
static uint32_t nev;
static int counting;		/* nev > 0 and PAPI started */
/*
 * User and kernel mode where the system lets us: a context switch happens
 * in the kernel, and counted in user mode only there would be none (so is
 * a fault's kernel work).  Else user mode alone, said once.
 */
static int domain = PAPI_DOM_USER | PAPI_DOM_KERNEL;
static int user_only;	/* the system forbids kernel mode: said once */

/* One counting thread's state, mapped in normal context. */
struct ctr_thread {
	struct ctr_thread *next, *prev;	/* `threads`, under ctr_lock */
	int set;			/* its PAPI event set, PAPI_NULL when none */
	int ev_of[CTR_MAX];		/* event-set index -> events[] index */
	struct cp_thread *owner;	/* the tree the handler credited */
	uint64_t unplaced[CTR_MAX];
	uint64_t *vals[CP_CHUNKS];	/* chunk c: (CP_CHUNK0 << c) * nev values */
	/*
	 * Events counted by reading (struct ctr_event's asleep): the thread's
	 * perf_event counter of each (-1: none), its value when last read,
	 * and the node the last reading went to (CP_NONE: none yet).
	 */
	uint32_t tid;
	int sw_fd[CTR_MAX];
	uint64_t sw_seen[CTR_MAX];
	uint32_t sw_node;
};

static __thread struct ctr_thread *ctr_self
	__attribute__((tls_model("initial-exec")));
static struct ctr_thread *threads;
static int ctr_lock_word;

/* The ended threads' events, by path: a tree of the paths that have some. */
struct kept_node {
	uint32_t parent;	/* CP_NONE for a top-level node */
	uint32_t flags;
	uint64_t call_site, callee;
};
static struct kept_node *kept;
static uint64_t *kept_vals;	/* nev per kept node */
static uint32_t kept_nr, kept_cap;
static uint32_t *kept_hash;	/* open addressing, CP_NONE when free */
static uint32_t kept_mask;
static uint64_t kept_unplaced[CTR_MAX];

static void ctr_lock(void)
{
	while (__atomic_exchange_n(&ctr_lock_word, 1, __ATOMIC_ACQUIRE))
		sched_yield();
}

static void ctr_unlock(void)
{
	__atomic_store_n(&ctr_lock_word, 0, __ATOMIC_RELEASE);
}

static size_t chunk_vals_bytes(uint32_t c)
{
	return ((size_t)(CP_CHUNK0 << c) * nev * sizeof(uint64_t) + 4095) & ~(size_t)4095;
}

/* ---- the overflow handler (signal context) ---- */

/*
 * The values row of the node live at the interrupted (pc, sp) on this
 * thread, or NULL.  The walk is sample.c's credit()'s.
 * TODO(issue 22): use the sampler's placement (innermost live frame and
 * the leaf below it) once sample.c exports it; until then events in a
 * library or uninstrumented code go to the instrumented frame that called
 * it.
 */
/*
 * The values row of node `idx` of the thread's tree, its chunk's array
 * mapped on first use (raw mmap: the overflow handler and the reader
 * thread both come here, so the first mapping wins and a second is
 * unmapped), or NULL.
 */
static uint64_t *row_at(struct ctr_thread *ct, uint32_t idx)
{
	uint32_t c = cp_chunk_of(idx);
	uint64_t *v = __atomic_load_n(&ct->vals[c], __ATOMIC_ACQUIRE), *none = NULL;

	if (!v) {
		void *p = cp_mmap(NULL, chunk_vals_bytes(c), PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		if (p == (void *)-1)
			return NULL;
		if (__atomic_compare_exchange_n(&ct->vals[c], &none, (uint64_t *)p, 0,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			v = p;
		else {
			cp_munmap(p, chunk_vals_bytes(c));
			v = none;
		}
	}
	return v + (size_t)(idx - cp_chunk_first(c)) * nev;
}

static uint64_t *place(struct ctr_thread *ct, const greg_t *g)
{
	struct cp_thread *t = cp_tls.self;
	struct cp_frame *top = cp_tls.top, *base, *f;
	struct cp_stack_range cur = { 0, 0, CP_STACK_UNKNOWN };
	const struct cp_node *n;
	uint64_t *row = NULL;
	uint32_t idx = CP_NONE;
	uintptr_t sp = (uintptr_t)g[REG_RSP];

	/* no -pg: the path is the stack's, walked as a time sample's */
	if (cp_sampling && t && t != CP_RETIRED) {
		idx = cp_sampled_place(g);
		top = NULL;
		goto row;
	}
	if (!t || t == CP_RETIRED || !top)
		return NULL;
	cp_tls.top = NULL;	/* busy while we look, as the sampler */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	base = t->stack + CP_FRAME_POPS;
	for (f = top; f != base && (f->fp + 8 < sp || !cp_slot_live(t, f, sp, &cur)); f--)
		;
	if (f == base || !f->node)
		goto out;
	n = f->node;
	if (n->flags & CP_NODE_FOLDED) {
		idx = n->parent;
	} else {
		for (uint32_t c = 0; c < CP_CHUNKS && t->tree.chunk[c]; c++)
			if (n >= t->tree.chunk[c] && n < t->tree.chunk[c] + (CP_CHUNK0 << c)) {
				idx = cp_chunk_first(c) + (uint32_t)(n - t->tree.chunk[c]);
				break;
			}
	}
row:
	if (idx != CP_NONE && (row = row_at(ct, idx)))
		ct->owner = t;
out:
	if (!top)
		return row;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	cp_tls.top = top;
	return row;
}

static void overflow(int set, void *address, long long vector, void *context)
{
	struct ctr_thread *ct = ctr_self;
	const ucontext_t *uc = context;
	int which[CTR_MAX], n = CTR_MAX;
	uint64_t *row;

	(void)address;
	if (!ct || !uc || set != ct->set ||
	    papi.get_overflow_event_index(set, vector, which, &n) != PAPI_OK)
		return;
	row = place(ct, uc->uc_mcontext.gregs);
	for (int i = 0; i < n; i++) {
		uint32_t e;

		if (which[i] < 0 || which[i] >= CTR_MAX)
			continue;
		e = (uint32_t)ct->ev_of[which[i]];
		if (e >= nev)
			continue;
		if (row)
			__atomic_fetch_add(&row[e], (uint64_t)events[e].period, __ATOMIC_RELAXED);
		else
			__atomic_fetch_add(&ct->unplaced[e], (uint64_t)events[e].period,
					   __ATOMIC_RELAXED);
	}
}

/* ---- start-up: which events ---- */

/*
 * Events per overflow unless EV@PERIOD says.  Every one for the software
 * events that count what the program does one by one (context switches,
 * migrations), so that their counts are exact.  Faults: 10, and never 1.
 * The kernel counts a fault before handling it, and a fault that has to
 * wait (a file's page, a special mapping such as the vDSO's) is abandoned
 * when a signal is pending and taken again after the handler: with a
 * period of 1 its every retry overflows and sends the signal that
 * abandons it, for ever; with 2 or more the retry completes (it may be
 * counted twice, as the count of any fault a signal interrupts).  About
 * 100 overflows a second at full speed for cycles, instructions and the
 * clocks; 10^5 for other events (cache misses and the like).
 */
static int is_fault_event(const char *name)
{
	const char *f = strstr(name, "FAULTS");

	return !strncmp(name, "perf::", 6) && f && (!f[6] || f[6] == ':');
}

/*
 * An event that overflows while its thread sleeps: a context switch is
 * counted as the thread leaves the CPU, in the system call that blocks it,
 * and an overflow's signal then ends that call early (nanosleep, poll,
 * select, sleep return EINTR whatever SA_RESTART says: 20 of 20 sleeps).
 * Such an event is never sampled by overflow: each thread's counter is
 * read, without any signal, by the runtime's reader thread (offcpu.c)
 * every few milliseconds, and what it counted since is credited to the
 * context the thread is in then (blocked: the call it blocks in, as
 * CALLPATH_CLOCK=wall places its time); what it counted after the last
 * reading, at its end.  Every other event counts only while its thread
 * runs, and its overflow interrupts nothing that sleeps.
 */
static int overflows_asleep(const char *name)
{
	static const char *const asleep[] = {
		"CONTEXT-SWITCHES", "CONTEXT_SWITCHES", "CS", "PERF_COUNT_SW_CONTEXT_SWITCHES",
	};

	if (strncasecmp(name, "perf::", 6))
		return 0;
	for (size_t i = 0; i < sizeof(asleep) / sizeof(asleep[0]); i++) {
		size_t n = strlen(asleep[i]);

		if (!strncasecmp(name + 6, asleep[i], n) && (!name[6 + n] || name[6 + n] == ':'))
			return 1;
	}
	return 0;
}

/* The calling thread's counter of context switches (counting, no
 * overflow), or -1 with errno. */
static int asleep_open(void)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	a.exclude_kernel = user_only;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static int asleep_events;	/* some event is counted by reading */
static int forked;		/* a fork child: its counters are the parent's threads' */

static long long default_period(const char *name)
{
	static const char *const one_by_one[] = {
		"CONTEXT-SWITCHES", "CS", "CPU-MIGRATIONS", "MIGRATIONS",
	};
	static const char *const busy[] = { "CYC", "INS", "CLOCK" };

	if (is_fault_event(name))
		return 10;
	if (!strncmp(name, "perf::", 6))
		for (size_t i = 0; i < sizeof(one_by_one) / sizeof(one_by_one[0]); i++)
			if (!strncmp(name + 6, one_by_one[i], strlen(one_by_one[i])) &&
			    (!name[6 + strlen(one_by_one[i])] ||
			     name[6 + strlen(one_by_one[i])] == ':'))
				return 1;
	for (size_t i = 0; i < sizeof(busy) / sizeof(busy[0]); i++)
		if (strstr(name, busy[i]))
			return 10000000;
	return 100000;
}

static void say_cannot(const char *name, const char *why)
{
	dprintf(2, "callpath: cannot count '%s': %s; the run goes on without it\n",
		name, why);
}

/* Why PAPI refused an event, in words a user can act on. */
static const char *refusal(int rc)
{
	switch (rc) {
	case PAPI_ENOEVNT:
		return "this machine has no counter for it (virtual machines "
		       "usually count only perf:: software events; papi_avail "
		       "lists what is here)";
	case PAPI_ECNFLCT:
		return "no counter is left for it beside the events before it "
		       "(overflow sampling cannot multiplex)";
	case PAPI_EPERM:
		return "not permitted (see /proc/sys/kernel/perf_event_paranoid)";
	default:
		return papi.strerror(rc);
	}
}

/*
 * Parse CALLPATH_EVENTS into `want` (names and periods); a malformed entry
 * is said and skipped.  The number of entries kept.
 */
static uint32_t parse_events(const char *s, struct ctr_event *want)
{
	uint32_t n = 0;

	while (*s) {
		const char *end = strchr(s, ',');
		size_t len = end ? (size_t)(end - s) : strlen(s);
		const char *at = memchr(s, '@', len);
		size_t nlen = at ? (size_t)(at - s) : len;

		if (nlen == 0 || nlen >= CTR_NAME_MAX) {
			dprintf(2, "callpath: ignoring '%.*s' in CALLPATH_EVENTS: %s\n",
				(int)len, s, nlen ? "name too long" : "no event name");
		} else if (n == CTR_MAX) {
			dprintf(2, "callpath: ignoring '%.*s' in CALLPATH_EVENTS: at "
				"most %d events\n", (int)len, s, CTR_MAX);
		} else {
			struct ctr_event *e = &want[n];
			int ok = 1;

			memcpy(e->name, s, nlen);
			e->name[nlen] = '\0';
			e->period = default_period(e->name);
			if (at) {
				size_t plen = len - nlen - 1;
				unsigned long long v = 0;

				/* env.h's numbers: digits only */
				ok = cp_parse_number(at + 1, plen, &v) == 0 && v >= 1 &&
				     v <= INT_MAX;
				if (!ok)
					dprintf(2, "callpath: ignoring '%.*s' in CALLPATH_EVENTS: "
						"the period is not a number in [1, %d]\n",
						(int)len, s, INT_MAX);
				e->period = (long long)v;
				if (ok && v == 1 && is_fault_event(e->name)) {
					dprintf(2, "callpath: counting '%s' every 2 events, "
						"not 1: a fault the overflow signal interrupts "
						"is taken again, and with 1 it would overflow "
						"again for ever\n", e->name);
					e->period = 2;
				}
			}
			if (ok)
				n++;
		}
		if (!end)
			break;
		s = end + 1;
	}
	return n;
}

static unsigned long thread_id(void)
{
	return (unsigned long)pthread_self();
}

/*
 * Can events be counted in kernel mode too (PAPI's default domain for the
 * event sets made from now on)?  Else user mode only, said once and
 * recorded with each metric (SIDECAR_METRIC_USER_ONLY).  PAPI refuses the
 * kernel's domain itself where perf_event_paranoid forbids it to a user
 * (PAPI_ENOSUPP from PAPI_set_domain: it read the setting at its start);
 * a kernel that refuses it only when a counter opens gives PAPI_EPERM,
 * PAPI_EINVAL or PAPI_ESYS there.  Either way the event sets then count
 * in user mode, where a context switch is never seen: silent, that read
 * as "no context switches".
 */
static void choose_domain(void)
{
	int set = PAPI_NULL, rc;

	rc = papi.set_domain(domain);
	if (rc != PAPI_OK)
		rc = PAPI_EPERM;
	else if ((rc = papi.create_eventset(&set)) == PAPI_OK) {
		rc = papi.add_event(set, events[0].code);
		if (rc == PAPI_OK)
			rc = papi.start(set);
		if (rc == PAPI_OK) {
			long long v[CTR_MAX];

			papi.stop(set, v);
		}
		papi.cleanup_eventset(set);
		papi.destroy_eventset(&set);
	}
	if (rc == PAPI_EPERM || rc == PAPI_EINVAL || rc == PAPI_ESYS) {
		domain = PAPI_DOM_USER;
		papi.set_domain(domain);
		user_only = 1;
		dprintf(2, "callpath: counting events in user mode only (the system "
			"forbids kernel mode: /proc/sys/kernel/perf_event_paranoid): "
			"context switches, and the kernel's share of other events, "
			"are not seen\n");
	}
}

/*
 * The calling thread's event set with every counted event; on a check run
 * (`probe`, start-up) an event PAPI refuses is said and dropped from
 * `events`, on a thread's start it is left out of that thread's set.
 * 0, or -1 when the thread counts nothing.
 */
static int thread_set(struct ctr_thread *ct, int probe)
{
	int rc = PAPI_OK, k = 0, read = 0;

	ct->set = PAPI_NULL;
	if (papi.create_eventset(&ct->set) != PAPI_OK)
		return -1;
	for (uint32_t e = 0; e < nev; e++) {
		if (events[e].asleep) {
			ct->sw_fd[e] = asleep_open();
			if (ct->sw_fd[e] >= 0) {
				read++;
				continue;
			}
			if (probe) {
				say_cannot(events[e].name, errno == EACCES || errno == EPERM
					   ? "not permitted (see /proc/sys/kernel/perf_event_paranoid)"
					   : strerror(errno));
				memmove(&events[e], &events[e + 1],
					(nev - e - 1) * sizeof(events[0]));
				nev--;
				e--;
			}
			continue;
		}
		rc = papi.add_event(ct->set, events[e].code);
		if (rc == PAPI_OK) {
			rc = papi.overflow(ct->set, events[e].code, (int)events[e].period, 0,
					   overflow);
			if (rc != PAPI_OK)
				papi.remove_event(ct->set, events[e].code);
		}
		if (rc != PAPI_OK) {
			if (probe) {
				say_cannot(events[e].name, refusal(rc));
				memmove(&events[e], &events[e + 1],
					(nev - e - 1) * sizeof(events[0]));
				nev--;
				e--;
			}
			continue;
		}
		ct->ev_of[k++] = (int)e;
	}
	if (k == 0 || (rc = papi.start(ct->set)) != PAPI_OK) {
		if (k && probe)
			dprintf(2, "callpath: cannot count events: PAPI_start: %s; the "
				"run goes on with time only\n", papi.strerror(rc));
		papi.cleanup_eventset(ct->set);
		papi.destroy_eventset(&ct->set);
		ct->set = PAPI_NULL;
		if (k)
			read = 0;	/* nothing counts on this thread, as before */
	}
	if (!read && ct->set == PAPI_NULL) {
		for (uint32_t e = 0; e < CTR_MAX; e++)
			if (ct->sw_fd[e] >= 0)
				close(ct->sw_fd[e]);
		return -1;
	}
	return 0;
}

static struct ctr_thread *thread_new(void)
{
	struct ctr_thread *ct;
	void *p = mmap(NULL, sizeof(struct ctr_thread), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0, sizeof(struct ctr_thread));
	ct = p;
	ct->tid = (uint32_t)syscall(SYS_gettid);
	ct->sw_node = CP_NONE;
	for (uint32_t e = 0; e < CTR_MAX; e++)
		ct->sw_fd[e] = -1;
	return ct;
}

static void thread_unmap(struct ctr_thread *ct)
{
	for (uint32_t c = 0; c < CP_CHUNKS; c++)
		if (ct->vals[c])
			munmap(ct->vals[c], chunk_vals_bytes(c));
	munmap(ct, sizeof(*ct));
}

static void thread_register(struct ctr_thread *ct)
{
	ctr_lock();
	ct->next = threads;
	if (threads)
		threads->prev = ct;
	threads = ct;
	ctr_unlock();
	__atomic_store_n(&ctr_self, ct, __ATOMIC_RELEASE);
}

/*
 * Under ctr_lock: what thread ct's counters of the events counted by
 * reading (asleep) counted since they were last read goes to node `node`
 * of tree `t` (the context the thread is in, CP_NONE: unknown, then the
 * one the last reading went to), else to its unplaced events.  Never in a
 * fork child: the counters it inherited are its parent's threads'.
 */
static void read_asleep(struct ctr_thread *ct, struct cp_thread *t, uint32_t node)
{
	if (forked)
		return;
	if (node == CP_NONE)
		node = ct->sw_node;
	for (uint32_t e = 0; e < nev; e++) {
		uint64_t v, d, *row;

		if (!events[e].asleep || ct->sw_fd[e] < 0 ||
		    read(ct->sw_fd[e], &v, sizeof(v)) != (ssize_t)sizeof(v) || v <= ct->sw_seen[e])
			continue;
		d = v - ct->sw_seen[e];
		ct->sw_seen[e] = v;
		row = node != CP_NONE && t && (!ct->owner || ct->owner == t) ? row_at(ct, node)
									  : NULL;
		if (row) {
			ct->owner = t;
			__atomic_fetch_add(&row[e], d, __ATOMIC_RELAXED);
		} else
			__atomic_fetch_add(&ct->unplaced[e], d, __ATOMIC_RELAXED);
	}
	if (node != CP_NONE)
		ct->sw_node = node;
}

static void close_asleep(struct ctr_thread *ct)
{
	for (uint32_t e = 0; e < CTR_MAX; e++)
		if (ct->sw_fd[e] >= 0) {
			close(ct->sw_fd[e]);
			ct->sw_fd[e] = -1;
		}
}

int cp_counters_reader_wanted(void)
{
	return __atomic_load_n(&asleep_events, __ATOMIC_ACQUIRE);
}

void cp_counters_read(struct cp_thread *t, uint32_t node)
{
	if (!__atomic_load_n(&asleep_events, __ATOMIC_ACQUIRE) || !t->tid)
		return;
	ctr_lock();
	for (struct ctr_thread *ct = threads; ct; ct = ct->next)
		if (ct->tid == t->tid) {
			read_asleep(ct, t, node);
			break;
		}
	ctr_unlock();
}

/* fork: the child must not inherit the lock held by a thread it lacks */
static void fork_prepare(void)
{
	ctr_lock();
}

static void fork_done(void)
{
	ctr_unlock();
}

static void fork_child(void)
{
	forked = 1;
	ctr_unlock();
}

void cp_counters_start(void)
{
	const char *env = getenv("CALLPATH_EVENTS");
	struct ctr_event want[CTR_MAX];
	struct ctr_thread *ct;
	uint32_t n;
	int rc;

	if (!env || !*env || !(n = parse_events(env, want)) || papi_load() < 0)
		return;
	rc = papi.library_init(PAPI_VER_CURRENT);
	if (rc != PAPI_VER_CURRENT) {
		dprintf(2, "callpath: ignoring CALLPATH_EVENTS: PAPI cannot start "
			"(%s); the run goes on with time only\n",
			rc > 0 ? "a different PAPI version" : papi.strerror(rc));
		return;
	}
	if ((rc = papi.thread_init(thread_id)) != PAPI_OK) {
		dprintf(2, "callpath: ignoring CALLPATH_EVENTS: PAPI cannot count "
			"per thread (%s); the run goes on with time only\n",
			papi.strerror(rc));
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		int dup = 0;

		for (uint32_t j = 0; j < nev; j++)
			dup |= !strcmp(events[j].name, want[i].name);
		if (dup) {
			dprintf(2, "callpath: ignoring '%s' in CALLPATH_EVENTS: named "
				"twice\n", want[i].name);
			continue;
		}
		want[i].asleep = overflows_asleep(want[i].name);
		if (want[i].asleep)
			want[i].period = 1;	/* read: every one counted */
		rc = papi.event_name_to_code(want[i].name, &want[i].code);
		if (rc != PAPI_OK) {
			say_cannot(want[i].name, rc == PAPI_ENOEVNT
				   ? "no such event here (papi_avail and "
				     "papi_native_avail list this machine's events)"
				   : refusal(rc));
			continue;
		}
		events[nev++] = want[i];
	}
	if (!nev || !(ct = thread_new()))
		return;
	choose_domain();
	if (thread_set(ct, 1) < 0) {
		munmap(ct, sizeof(*ct));
		nev = 0;
		return;
	}
	pthread_atfork(fork_prepare, fork_done, fork_child);
	for (uint32_t e = 0; e < nev; e++)
		if (events[e].asleep)
			__atomic_store_n(&asleep_events, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&counting, 1, __ATOMIC_RELEASE);
	thread_register(ct);
}

void cp_counters_thread_begin(void)
{
	struct ctr_thread *ct;

	if (!__atomic_load_n(&counting, __ATOMIC_ACQUIRE) || !(ct = thread_new()))
		return;
	if (thread_set(ct, 0) < 0) {
		munmap(ct, sizeof(*ct));
		return;
	}
	thread_register(ct);
}

static void thread_stop(struct ctr_thread *ct)
{
	long long v[CTR_MAX];

	if (ct->set == PAPI_NULL)
		return;
	papi.stop(ct->set, v);
	papi.cleanup_eventset(ct->set);
	papi.destroy_eventset(&ct->set);
	ct->set = PAPI_NULL;
}

void cp_counters_stop(void)
{
	struct ctr_thread *ct = ctr_self;

	if (ct && ct->set != PAPI_NULL) {
		long long v[CTR_MAX];

		papi.stop(ct->set, v);
	}
	/* every live thread's switches since the reader last looked */
	if (__atomic_load_n(&asleep_events, __ATOMIC_ACQUIRE)) {
		ctr_lock();
		for (struct ctr_thread *c = threads; c; c = c->next)
			read_asleep(c, c->owner, CP_NONE);
		ctr_unlock();
	}
}

/*
 * Before an exec (exec.c): a counter overflowing while the kernel builds
 * the new image (its own page faults) queues PAPI's signal to the thread,
 * and the new program, where that signal's action is the default, dies of
 * it (status 164 for `nice /bin/true` with perf::PAGE-FAULTS).  Stopped
 * here, the counter raises nothing more; an overflow signal raised by the
 * stop itself is delivered, to PAPI's handler, when PAPI_stop's system
 * calls return.
 */
int cp_counters_pause(void)
{
	struct ctr_thread *ct = ctr_self;
	long long v[CTR_MAX];

	if (!ct || ct->set == PAPI_NULL || !__atomic_load_n(&counting, __ATOMIC_ACQUIRE))
		return 0;
	return papi.stop(ct->set, v) == PAPI_OK;
}

/* The exec failed: this thread counts again. */
void cp_counters_resume(void)
{
	struct ctr_thread *ct = ctr_self;

	if (ct && ct->set != PAPI_NULL)
		papi.start(ct->set);
}

/* ---- the ended threads' events, by path ---- */

static uint32_t kept_hash_of(uint32_t parent, uint64_t site, uint64_t callee)
{
	uint64_t h = (site ^ (callee << 17) ^ (callee >> 13) ^ ((uint64_t)parent << 40)) *
		     0x9e3779b97f4a7c15ull;

	return (uint32_t)(h >> 32);
}

static int kept_grow(void)
{
	uint32_t cap = kept_cap ? kept_cap * 2 : 1024, mask = cap * 2 - 1;
	struct kept_node *k = realloc(kept, (size_t)cap * sizeof(*k));
	uint64_t *v;
	uint32_t *h;

	if (!k)
		return -1;
	kept = k;
	v = realloc(kept_vals, (size_t)cap * nev * sizeof(*v));
	if (!v)
		return -1;
	kept_vals = v;
	h = malloc(((size_t)mask + 1) * sizeof(*h));
	if (!h)
		return -1;
	memset(h, 0xff, ((size_t)mask + 1) * sizeof(*h));
	for (uint32_t i = 0; i < kept_nr; i++) {
		uint32_t s = kept_hash_of(kept[i].parent, kept[i].call_site,
					  kept[i].callee) & mask;

		while (h[s] != CP_NONE)
			s = (s + 1) & mask;
		h[s] = i;
	}
	free(kept_hash);
	kept_hash = h;
	kept_mask = mask;
	kept_cap = cap;
	return 0;
}

/* The kept node (parent, n's key), added when missing; CP_NONE: no memory. */
static uint32_t kept_child(uint32_t parent, const struct cp_node *n)
{
	uint32_t s;

	if (kept_nr == kept_cap && kept_grow() < 0)
		return CP_NONE;
	s = kept_hash_of(parent, n->call_site, n->callee) & kept_mask;
	for (; kept_hash[s] != CP_NONE; s = (s + 1) & kept_mask) {
		const struct kept_node *k = &kept[kept_hash[s]];

		if (k->parent == parent && k->call_site == n->call_site &&
		    k->callee == n->callee && k->flags == n->flags)
			return kept_hash[s];
	}
	kept[kept_nr] = (struct kept_node){ parent, n->flags, n->call_site, n->callee };
	memset(kept_vals + (size_t)kept_nr * nev, 0, nev * sizeof(*kept_vals));
	kept_hash[s] = kept_nr;
	return kept_nr++;
}

static const uint64_t *thread_row(const struct ctr_thread *ct, uint32_t i)
{
	uint32_t c = cp_chunk_of(i);
	const uint64_t *v = __atomic_load_n(&ct->vals[c], __ATOMIC_ACQUIRE);

	return v ? v + (size_t)(i - cp_chunk_first(c)) * nev : NULL;
}

static int row_nonzero(const uint64_t *row)
{
	for (uint32_t e = 0; row && e < nev; e++)
		if (row[e])
			return 1;
	return 0;
}

/*
 * Add the events of `ct`, whose tree is `tr`, to the kept paths: the nodes
 * with events and their ancestors.  Under ctr_lock, in normal context.
 */
static void keep_thread(const struct ctr_thread *ct, const struct cp_tree *tr)
{
	uint32_t nr = __atomic_load_n(&tr->nr_nodes, __ATOMIC_ACQUIRE);
	uint32_t *ix = nr ? malloc((size_t)nr * sizeof(*ix)) : NULL;

	for (uint32_t e = 0; e < nev; e++)
		kept_unplaced[e] += ct->unplaced[e];
	if (nr && !ix) {
		for (uint32_t i = 0; i < nr; i++)
			for (uint32_t e = 0; thread_row(ct, i) && e < nev; e++)
				kept_unplaced[e] += thread_row(ct, i)[e];
		return;
	}
	/* needed: CP_NONE - 1 marks the nodes to keep, children before parents */
	for (uint32_t i = 0; i < nr; i++)
		ix[i] = row_nonzero(thread_row(ct, i)) ? CP_NONE - 1 : CP_NONE;
	for (uint32_t i = nr; i-- > 0;) {
		const struct cp_node *n = cp_tree_node(tr, i);

		if (ix[i] != CP_NONE && n->parent != CP_NONE)
			ix[n->parent] = CP_NONE - 1;
	}
	for (uint32_t i = 0; i < nr; i++) {
		const struct cp_node *n = cp_tree_node(tr, i);
		const uint64_t *row = thread_row(ct, i);
		uint32_t parent = n->parent == CP_NONE ? CP_NONE : ix[n->parent];

		if (ix[i] == CP_NONE)
			continue;
		ix[i] = (n->parent != CP_NONE && parent == CP_NONE) ? CP_NONE
			: kept_child(parent, n);
		for (uint32_t e = 0; row && e < nev; e++) {
			if (ix[i] == CP_NONE)
				kept_unplaced[e] += row[e];
			else
				kept_vals[(size_t)ix[i] * nev + e] += row[e];
		}
	}
	free(ix);
}

void cp_counters_thread_end(void)
{
	struct ctr_thread *ct = ctr_self;
	struct cp_thread *t = cp_tls.self;

	if (!ct)
		return;
	thread_stop(ct);
	__atomic_store_n(&ctr_self, NULL, __ATOMIC_RELEASE);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	ctr_lock();
	/* its switches since the reader last looked: where it was then */
	read_asleep(ct, t && t != CP_RETIRED ? t : NULL, CP_NONE);
	close_asleep(ct);
	keep_thread(ct, t && t != CP_RETIRED && ct->owner == t ? &t->tree
							       : &(struct cp_tree){ 0 });
	if (ct->prev)
		ct->prev->next = ct->next;
	else
		threads = ct->next;
	if (ct->next)
		ct->next->prev = ct->prev;
	ctr_unlock();
	thread_unmap(ct);
}

/* ---- at exit: into the sidecar ---- */

static uint32_t metric0;	/* sc's extra-metric index of events[0] */

int cp_counters_describe(struct sidecar *sc)
{
	for (uint32_t e = 0; e < nev && counting; e++) {
		int m = sidecar_add_metric(sc, events[e].name, "events",
					   SIDECAR_METRIC_EVENTS,
					   (events[e].period > 1 ? SIDECAR_METRIC_ESTIMATED : 0) |
					   (user_only ? SIDECAR_METRIC_USER_ONLY : 0),
					   (uint64_t)events[e].period);

		if (m < 0)
			return -1;
		if (e == 0)
			metric0 = (uint32_t)m;
	}
	return 0;
}

static void add_row(struct sidecar *sc, uint32_t at, const uint64_t *row)
{
	for (uint32_t e = 0; e < nev; e++) {
		if (at == SIDECAR_ROOT || at >= sc->nr_nodes)
			sc->extra_metrics[metric0 + e].unplaced += row[e];
		else
			sc->extra_values[(size_t)at * sc->nr_extra + metric0 + e] += row[e];
	}
}

int cp_counters_add_thread(struct sidecar *sc, const struct cp_thread *t,
			   const uint32_t *map, uint32_t nr)
{
	if (!__atomic_load_n(&counting, __ATOMIC_ACQUIRE))
		return 0;
	ctr_lock();
	for (struct ctr_thread *ct = threads; ct; ct = ct->next) {
		if (ct->owner != t)
			continue;
		for (uint32_t i = 0; i < nr; i++) {
			const uint64_t *row = thread_row(ct, i);

			if (row)
				add_row(sc, map[i], row);
		}
		ct->owner = NULL;	/* added: the unplaced pass skips its values */
		add_row(sc, SIDECAR_ROOT, ct->unplaced);
		memset(ct->unplaced, 0, sizeof(ct->unplaced));
		for (uint32_t c = 0; c < CP_CHUNKS; c++)
			__atomic_store_n(&ct->vals[c], NULL, __ATOMIC_RELEASE);
	}
	ctr_unlock();
	return 0;
}

int cp_counters_add_retired(struct sidecar *sc)
{
	uint32_t *at;

	if (!__atomic_load_n(&counting, __ATOMIC_ACQUIRE))
		return 0;
	ctr_lock();
	/* threads whose values no live tree took: no context for them */
	for (struct ctr_thread *ct = threads; ct; ct = ct->next)
		add_row(sc, SIDECAR_ROOT, ct->unplaced);
	add_row(sc, SIDECAR_ROOT, kept_unplaced);
	at = kept_nr ? malloc((size_t)kept_nr * sizeof(*at)) : NULL;
	if (kept_nr && !at) {
		ctr_unlock();
		return -1;
	}
	for (uint32_t i = 0; i < kept_nr; i++) {
		const struct kept_node *k = &kept[i];
		uint32_t parent = k->parent == CP_NONE ? SIDECAR_ROOT : at[k->parent];

		at[i] = k->parent != CP_NONE && parent == SIDECAR_ROOT
			? SIDECAR_ROOT
			: sidecar_find(sc, parent, sidecar_canonical_site(sc, k->call_site),
				       k->callee);
		add_row(sc, at[i], kept_vals + (size_t)i * nev);
	}
	ctr_unlock();
	free(at);
	return 0;
}

/* ---- read in place: snapshots and killed runs (any context) ---- */

int cp_counters_read_begin(int wait_ms)
{
	struct timespec ms = { 0, 1000000L };

	if (!__atomic_load_n(&counting, __ATOMIC_ACQUIRE))
		return 0;
	/* a signal handler may have interrupted the holder: never spin on it */
	for (int i = 0; __atomic_exchange_n(&ctr_lock_word, 1, __ATOMIC_ACQUIRE); i++) {
		if (i >= wait_ms)
			return 0;
		nanosleep(&ms, NULL);
	}
	return 1;
}

void cp_counters_read_end(void)
{
	ctr_unlock();
}

/* Under the lock taken: the counting thread whose rows are t's nodes. */
const struct ctr_thread *cp_counters_of(const struct cp_thread *t)
{
	for (const struct ctr_thread *ct = threads; ct; ct = ct->next)
		if (ct->owner == t)
			return ct;
	return NULL;
}

const uint64_t *cp_counters_row(const struct ctr_thread *v, uint32_t i)
{
	return thread_row(v, i);
}

uint32_t cp_counters_kept_nr(void)
{
	return kept_nr;
}

const uint64_t *cp_counters_kept(uint32_t i, struct cp_node *n)
{
	memset(n, 0, sizeof(*n));
	n->parent = kept[i].parent;
	n->flags = kept[i].flags;
	n->call_site = kept[i].call_site;
	n->callee = kept[i].callee;
	return kept_vals + (size_t)i * nev;
}

/* as cp_counters_add_thread() and cp_counters_add_retired() sum them */
uint64_t cp_counters_unplaced(uint32_t e)
{
	uint64_t n = kept_unplaced[e];

	for (const struct ctr_thread *ct = threads; ct; ct = ct->next)
		n += __atomic_load_n(&ct->unplaced[e], __ATOMIC_RELAXED);
	return n;
}
