/*
 * snapshot.c - the profile written while the program runs (snapshots) or
 * as it is killed (ends.c), from any context: no malloc, no stdio, no lock
 * the interrupted code may hold (doc/snapshots.md).
 *
 * The sidecar is streamed from the trees in place: one node table for the
 * retired tree and one per live thread (sidecar_stream.h), read under the
 * registry's lock, which a signal handler only tries for a bounded time.
 * The gmon file of a snapshot is written by gmon_out.h's writer with arcs
 * summed from the same trees (every node is a call from its call site to
 * its callee: gmon_out keeps glibc's rules) and a histogram counted at
 * glibc's geometry from the very ticks glibc's histogram counts
 * (cp_snap_tick, from sample.c's SIGPROF handler).  At a killed process's
 * end the gmon file is glibc's own, written by glibc's _mcleanup
 * (end_gmon()): until the runtime keeps gmon.out itself (issue 23), glibc's
 * histogram and arcs are reachable only there.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "counters.h"
#include "ends.h"
#include "gmon_out.h"
#include "gmon_start.h"
#include "gmon_takeover.h"
#include "gmonfile.h"
#include "own_thread.h"
#include "sampled.h"
#include "sidecar_stream.h"
#include "utils/banned.h"

uint32_t cp_sample_state(void) CP_HIDDEN;
#ifdef CP_ARCHIVE
extern void _mcleanup(void);	/* glibc's: libc.a's cannot be replaced */
#endif

#define OUT_BUF (64u << 10)	/* the sidecar's output buffer */
#define NAME_MAX_LEN 4096

static struct {
	int ready;
	struct sidecar *head;	/* built in normal context, fields refreshed */
	int off;		/* the head's extra metric of off-CPU time, or -1 */
	uint32_t ev0, nev;	/* the head's extra metrics of events: ev0... */
	unsigned char *buf;	/* OUT_BUF bytes, mmap'ed */
	char prefix[NAME_MAX_LEN];	/* GMON_OUT_PREFIX (secure), "" if none */
	int has_prefix;
	/* the histogram of snapshots: glibc's geometry, counted by cp_snap_tick */
	struct gmon_geometry geom;
	uint16_t *kcount;
	uint64_t load_address;
	int32_t prof_rate;
	void (*glibc_mcleanup)(void);
	int abort;		/* the process is ending: a snapshot being written stops */
	uint64_t said[4];	/* error numbers a failed snapshot was reported for */
} snap;

static int writing;	/* one writer at a time */

/* ---- strings without stdio ---- */

static int cat(char *buf, size_t len, size_t *n, const char *s)
{
	size_t k = strlen(s);

	if (*n + k + 1 > len)
		return -1;
	memcpy(buf + *n, s, k + 1);
	*n += k;
	return 0;
}

static int cat_uint(char *buf, size_t len, size_t *n, uint64_t v)
{
	char d[24];
	int i = (int)sizeof(d) - 1;

	d[i] = '\0';
	do {
		d[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return cat(buf, len, n, d + i);
}

/* "callpath: " and the seven parts (NULL ones left out), "\n" on
 * standard error, in one write */
static void say3(const char *a, const char *b, const char *c, const char *d,
		 const char *e, const char *f, const char *g)
{
	const char *part[] = { "callpath: ", a, b, c, d, e, f, g, "\n" };
	char msg[NAME_MAX_LEN + 512];
	size_t n = 0;
	int saved = errno;

	for (size_t i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		if (part[i] && cat(msg, sizeof(msg), &n, part[i]) < 0)
			return;
	(void)!write(2, msg, n);
	errno = saved;
}

static void say(const char *a, const char *b, const char *c)
{
	say3(a, b, c, NULL, NULL, NULL, NULL);
}

/*
 * Snapshot k not written, for error number `err` (`why` its words, or
 * NULL for the C locale's): said once for each error number, on the first
 * snapshot it stops; a full disk or a folder the process may not write in
 * does not fill standard error at every period.
 */
static void snap_failed(uint32_t k, const char *file, int err, const char *why)
{
	char num[24];
	size_t n = 0;
	unsigned e = (unsigned)err;

	if (!why)
		why = strerrordesc_np(err);
	if (e < 256) {
		uint64_t bit = 1ull << (e % 64);

		if (__atomic_fetch_or(&snap.said[e / 64], bit, __ATOMIC_RELAXED) & bit)
			return;
	}
	if (cat_uint(num, sizeof(num), &n, k) < 0)
		num[0] = '\0';
	say3("snapshot ", num, " not written: ", file, ": ",
	     why ? why : "unknown error",
	     " (not said again for this reason)");
}

/*
 * The time metric's period, as the exit's writer gives it (runtime.c):
 * each thread's CPU time at CALLPATH_HZ, or glibc's ticks.
 */
static uint32_t time_period(void)
{
	if (cp_sampler_timers())
		return 1000000000u / cp_sampler_hz();
	return snap.prof_rate > 0 ? 1000000000u / (unsigned)snap.prof_rate : 0;
}

/* ---- set-up, normal context ---- */

static int main_text(struct dl_phdr_info *info, size_t size, void *data)
{
	uint64_t *range = data;	/* [__executable_start, etext) */

	(void)size;
	range[0] = UINT64_MAX;
	range[1] = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uint64_t a = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		if (a < range[0])
			range[0] = a;
		/* gcrt1's etext: the end of the first executable segment */
		if ((ph->p_flags & PF_X) && !range[1])
			range[1] = a + ph->p_memsz;
	}
	return 1;	/* the main program comes first */
}

int cp_snap_init(int histogram)
{
	const char *prefix = gmon_prefix();
	void *p;

	if (snap.ready)
		return 0;
	snap.head = sidecar_new();
	if (!snap.head || cp_fill_head(snap.head) < 0)
		return -1;
	snap.prof_rate = __profile_frequency();
	/*
	 * The extra metrics as the exit's writer describes them (runtime.c
	 * cp_finish): off-CPU time (CALLPATH_CLOCK=wall, its sampler thread
	 * started by now: ends.c's constructor runs after offcpu.c's), then
	 * the events counted (CALLPATH_EVENTS).
	 */
	snap.off = -1;
	if (cp_offcpu_on() && time_period() &&
	    (snap.off = sidecar_add_metric(snap.head, SIDECAR_OFFCPU_METRIC_NAME, "samples",
					   SIDECAR_METRIC_WALL_SAMPLES, 0, time_period())) < 0)
		return -1;
	snap.ev0 = snap.head->nr_extra;
	if (cp_counters_describe(snap.head) < 0)
		return -1;
	snap.nev = snap.head->nr_extra - snap.ev0;
	p = mmap(NULL, OUT_BUF, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	snap.buf = p;
	if (prefix && strlen(prefix) < sizeof(snap.prefix)) {
		memcpy(snap.prefix, prefix, strlen(prefix) + 1);
		snap.has_prefix = 1;
	}
#ifdef CP_ARCHIVE
	snap.load_address = 0;	/* glibc subtracts nothing in a static link */
	snap.glibc_mcleanup = _mcleanup;
#else
	snap.load_address = gmon_load_address();
	snap.glibc_mcleanup = (void (*)(void))dlsym(RTLD_NEXT, "_mcleanup");
#endif
	if (histogram) {
		uint64_t range[2] = { 0, 0 };

		dl_iterate_phdr(main_text, range);
		if (range[0] < range[1]) {
			gmon_geometry_compute(range[0], range[1], &snap.geom);
			p = mmap(NULL, snap.geom.kcountsize ? snap.geom.kcountsize : 1,
				 PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (p != MAP_FAILED)
				__atomic_store_n(&snap.kcount, (uint16_t *)p, __ATOMIC_RELEASE);
		}
	}
	snap.ready = 1;
	return 0;
}

/* glibc's profil_count (sysdeps/posix/profil.c) on 64-bit size_t */
void cp_snap_tick(uintptr_t pc)
{
	uint16_t *k = __atomic_load_n(&snap.kcount, __ATOMIC_ACQUIRE);
	uint64_t i, scale;

	if (!k || pc < snap.geom.lowpc)
		return;
	i = (pc - snap.geom.lowpc) / 2;
	scale = (uint64_t)snap.geom.s_scale;
	i = i / 65536 * scale + i % 65536 * scale / 65536;
	if (i < snap.geom.kcountsize / 2)
		__atomic_fetch_add(&k[i], 1, __ATOMIC_RELAXED);
}

/* ---- the trees, read in place ---- */

struct trees;

struct tree_src {
	const struct trees *tr;		/* the set it belongs to */
	const struct cp_tree *tree;
	const struct cp_leaves *leaves;	/* its sampled program counters (sampler.c) */
	const struct cp_thread *thread;	/* a live thread's, else NULL */
	const struct ctr_thread *events;	/* its nodes' event counts, or NULL */
	uint32_t count;			/* its nodes, then nleaf leaves */
	uint32_t nleaf;
	const struct cp_leaf **leaf;
};

struct trees {
	struct tree_src *t;	/* the retired tree first, then the live threads */
	struct sidecar_stream_table *tables;	/* theirs, then the ended threads' events */
	size_t n, ntables, mapped;
	int events;		/* the counters' values are held (counters.h) */
	const struct cp_leaf **leaf;	/* every tree's leaves, listed at take */
	size_t leaf_mapped;
	int locked;
	int snapshot;			/* for a snapshot: stops when the process ends */
	struct cp_prof_gate *gate;	/* the writer thread's, polled; or NULL */
};

/*
 * A snapshot's write goes on?  0, or 1 when it is to stop (the process is
 * being ended: its handler needs the registry and the trees).  Polls the
 * writer thread's SIGPROF gate: called for every record.
 */
static int snapshot_stops(const struct trees *tr)
{
	if (!tr->snapshot)
		return 0;
	if (tr->gate)
		cp_prof_poll(tr->gate);
	return __atomic_load_n(&snap.abort, __ATOMIC_ACQUIRE);
}

/* A leaf's off-CPU time in the time metric's periods, rounded as the
 * exit's writer rounds it (runtime.c add_leaves); 0 without the metric. */
static uint64_t leaf_offcpu(const struct cp_leaf *e)
{
	uint64_t period = snap.off >= 0 ? time_period() : 0;

	if (!period)
		return 0;
	return (__atomic_load_n(&e->value[CP_LEAF_OFFCPU], __ATOMIC_RELAXED) + period / 2) /
	       period;
}

/*
 * Record i of a tree's table: its nodes, then its leaves (the program
 * counters its samples landed on, as the exit's writer adds them:
 * runtime.c add_leaves), each under the node it was sampled in, with its
 * off-CPU time.  A live thread's nodes carry their event counts
 * (counters.h), the exit's cp_counters_add_thread()'s; events never land
 * on leaves.
 */
static int node_get(void *ctx, uint64_t i, struct sidecar_node *out, uint64_t *extra)
{
	const struct tree_src *s = ctx;
	const struct cp_node *n;
	const uint64_t *row;
	uint64_t count;
	int folded;

	if (snapshot_stops(s->tr))
		return -1;
	memset(extra, 0, 8 * (size_t)snap.head->nr_extra);
	if (i >= s->count) {
		const struct cp_leaf *e = s->leaf[i - s->count];

		out->parent = e->node;	/* CP_NONE == SIDECAR_ROOT */
		out->flags = SIDECAR_NODE_LEAF;
		out->call_site = __atomic_load_n(&e->kind, __ATOMIC_RELAXED);
		out->callee = e->pc;
		out->count = 0;
		out->recursive = 0;
		out->self_samples = __atomic_load_n(&e->value[CP_LEAF_CPU], __ATOMIC_RELAXED);
		if (snap.off >= 0)
			extra[snap.off] = leaf_offcpu(e);
		return 0;
	}
	n = cp_tree_node(s->tree, (uint32_t)i);
	count = __atomic_load_n(&n->count, __ATOMIC_RELAXED);
	folded = (n->flags & CP_NODE_FOLDED) != 0;
	out->parent = n->parent;	/* CP_NONE == SIDECAR_ROOT */
	out->flags = folded ? SIDECAR_NODE_FOLDED : 0;
	out->call_site = sidecar_canonical_site(snap.head, n->call_site);
	out->callee = n->callee;
	out->count = folded ? 0 : count;
	out->recursive = folded ? count : 0;
	out->self_samples = __atomic_load_n(cp_tree_samples(s->tree, (uint32_t)i),
					    __ATOMIC_RELAXED);
	row = s->events ? cp_counters_row(s->events, (uint32_t)i) : NULL;
	for (uint32_t e = 0; row && e < snap.nev; e++)
		extra[snap.ev0 + e] = __atomic_load_n(&row[e], __ATOMIC_RELAXED);
	return 0;
}

/*
 * Record i of the ended threads' events: the paths the counters module
 * keeps (cp_counters_add_retired() finds them in the exit's sum; a reader
 * sums this table's paths into the others' the same way), no calls, no
 * samples.
 */
static int kept_get(void *ctx, uint64_t i, struct sidecar_node *out, uint64_t *extra)
{
	struct cp_node n;
	const uint64_t *row;

	if (snapshot_stops(ctx))
		return -1;
	row = cp_counters_kept((uint32_t)i, &n);
	memset(extra, 0, 8 * (size_t)snap.head->nr_extra);
	out->parent = n.parent;	/* CP_NONE == SIDECAR_ROOT */
	out->flags = (n.flags & CP_NODE_FOLDED) ? SIDECAR_NODE_FOLDED : 0;
	out->call_site = sidecar_canonical_site(snap.head, n.call_site);
	out->callee = n.callee;
	out->count = out->recursive = out->self_samples = 0;
	for (uint32_t e = 0; row && e < snap.nev; e++)
		extra[snap.ev0 + e] = row[e];
	return 0;
}

static void sleep_ms(int ms)
{
	struct timespec ts = { 0, (long)ms * 1000000L };

	nanosleep(&ts, NULL);
}

/* A leaf of tree s the file can hold: sampled, under a node listed. */
static int leaf_kept(const struct tree_src *s, const struct cp_leaf *e)
{
	uint32_t kind = __atomic_load_n(&e->kind, __ATOMIC_ACQUIRE);

	return kind && (e->node == CP_NONE || e->node < s->count) &&
	       (__atomic_load_n(&e->value[CP_LEAF_CPU], __ATOMIC_RELAXED) || leaf_offcpu(e));
}

/* Visit tree s's leaves that leaf_kept() takes: their count, and each into
 * out[] when out is not NULL (at most max). */
static uint32_t leaves_visit(const struct tree_src *s, const struct cp_leaf **out,
			     uint32_t max)
{
	uint32_t n = 0, ntab = __atomic_load_n(&s->leaves->ntab, __ATOMIC_ACQUIRE);

	for (uint32_t k = 0; k < ntab; k++) {
		const struct cp_leaftab *tab = __atomic_load_n(&s->leaves->tab[k], __ATOMIC_ACQUIRE);

		for (uint32_t i = 0; tab && i < tab->cap; i++)
			if (leaf_kept(s, &tab->e[i])) {
				if (out && n >= max)
					return n;
				if (out)
					out[n] = &tab->e[i];
				n++;
			}
	}
	return n;
}

/*
 * List every tree's leaves once, so that a table's count and its records
 * agree however many samples land while the file is written (a leaf that
 * appears later waits for the next file; one listed keeps counting).
 * Without memory for the list, the trees go without their leaves.
 */
static void leaves_list(struct trees *tr)
{
	size_t total = 0, at = 0;
	void *p;

	for (size_t i = 0; i < tr->n; i++)
		total += leaves_visit(&tr->t[i], NULL, 0);
	if (!total)
		return;
	tr->leaf_mapped = total * sizeof(*tr->leaf);
	p = mmap(NULL, tr->leaf_mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED) {
		tr->leaf_mapped = 0;
		return;
	}
	tr->leaf = p;
	for (size_t i = 0; i < tr->n; i++) {
		tr->t[i].leaf = tr->leaf + at;
		tr->t[i].nleaf = leaves_visit(&tr->t[i], tr->t[i].leaf, (uint32_t)(total - at));
		at += tr->t[i].nleaf;
	}
}

/*
 * The event counts (CALLPATH_EVENTS) of the trees listed, held until
 * trees_give(): the live threads' beside their nodes, the ended threads'
 * in a table of their own (their paths, a count each table fixes now:
 * threads that end meanwhile wait for the lock).  Without the counters'
 * lock (for `wait_ms` at most), a file without events.
 */
static void events_take(struct trees *tr, int wait_ms)
{
	struct sidecar_stream_table *k = &tr->tables[tr->ntables];

	tr->events = cp_counters_read_begin(wait_ms);
	if (!tr->events) {
		say("a profile without event counts: the counters are busy", "", "");
		return;
	}
	for (size_t i = 0; i < tr->n; i++)
		if (tr->t[i].thread)
			tr->t[i].events = cp_counters_of(tr->t[i].thread);
	memset(k, 0, sizeof(*k));
	k->kind = SIDECAR_NODES_RETIRED;
	k->count = cp_counters_kept_nr();
	k->get = kept_get;
	k->ctx = tr;
	if (k->count)
		tr->ntables++;
}

/*
 * Other threads than the caller are registered (read without the lock:
 * the list's head, and our own entry's link, which stays mapped while we
 * live).
 */
static int others_registered(const struct cp_thread *self)
{
	const struct cp_thread *head = __atomic_load_n(&cp_threads, __ATOMIC_ACQUIRE);

	if (!self || self == CP_RETIRED)
		return head != NULL;
	return head != self || __atomic_load_n(&self->next, __ATOMIC_ACQUIRE) != NULL;
}

/*
 * Take the registry (for `wait_ms` at most) and list the trees; without
 * it, the retired tree (append-only) and the calling thread's own.
 * `snapshot`, `gate`: see struct trees.
 */
static int trees_take(struct trees *tr, int wait_ms, int snapshot, struct cp_prof_gate *gate)
{
	size_t want = 3;	/* the retired tree, ours, the ended threads' events */
	struct cp_thread *self = cp_tls.self;
	void *p;

	memset(tr, 0, sizeof(*tr));
	tr->snapshot = snapshot;
	tr->gate = gate;
	for (int i = 0; !(tr->locked = cp_registry_trylock(0) == 0) && i < wait_ms; i++) {
		if (snapshot_stops(tr))
			return -ECANCELED;
		sleep_ms(1);
	}
	if (tr->locked)
		for (struct cp_thread *t = cp_threads; t; t = t->next)
			want++;
	tr->mapped = want * (sizeof(*tr->t) + sizeof(*tr->tables));
	p = mmap(NULL, tr->mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED) {
		if (tr->locked)
			cp_registry_unlock();
		return -ENOMEM;
	}
	tr->t = p;
	tr->tables = (struct sidecar_stream_table *)(tr->t + want);
	for (size_t i = 0; i < want; i++)
		tr->t[i].tr = tr;
	tr->t[tr->n].tree = &cp_retired;
	tr->t[tr->n].leaves = &cp_retired_leaves;
	tr->tables[tr->n].kind = SIDECAR_NODES_RETIRED;
	tr->tables[tr->n].threads = cp_retired_threads;
	tr->n++;
	if (tr->locked) {
		for (struct cp_thread *t = cp_threads; t; t = t->next, tr->n++) {
			tr->t[tr->n].tree = &t->tree;
			tr->t[tr->n].leaves = &t->leaves;
			tr->t[tr->n].thread = t;
			tr->tables[tr->n].kind = SIDECAR_NODES_THREAD;
			tr->tables[tr->n].threads = 1;
			tr->tables[tr->n].tid = t->tid;
		}
	} else if (self && self != CP_RETIRED) {
		tr->t[tr->n].tree = &self->tree;
		tr->t[tr->n].leaves = &self->leaves;
		tr->t[tr->n].thread = self;
		tr->tables[tr->n].kind = SIDECAR_NODES_THREAD;
		tr->tables[tr->n].threads = 1;
		tr->tables[tr->n].tid = self->tid;
		tr->n++;
		if (others_registered(self))
			say("a profile without the other threads' trees: their registry "
			    "is busy", "", "");
	}
	for (size_t i = 0; i < tr->n; i++)
		tr->t[i].count = __atomic_load_n(&tr->t[i].tree->nr_nodes, __ATOMIC_ACQUIRE);
	leaves_list(tr);
	for (size_t i = 0; i < tr->n; i++) {
		tr->tables[i].count = (uint64_t)tr->t[i].count + tr->t[i].nleaf;
		tr->tables[i].get = node_get;
		tr->tables[i].ctx = &tr->t[i];
	}
	tr->ntables = tr->n;
	if (snap.nev)
		events_take(tr, wait_ms);
	return 0;
}

static void trees_give(struct trees *tr)
{
	if (tr->events)
		cp_counters_read_end();
	tr->events = 0;
	if (tr->locked)
		cp_registry_unlock();
	if (tr->t)
		munmap(tr->t, tr->mapped);
	if (tr->leaf)
		munmap(tr->leaf, tr->leaf_mapped);
	tr->t = NULL;
	tr->leaf = NULL;
}

/* The counters of the header, as cp_finish() sums them. */
static void head_counters(const struct trees *tr)
{
	struct sidecar *h = snap.head;

	h->pid = (uint64_t)getpid();
	h->ppid = cp_parent_pid();
	h->failure = __atomic_load_n(&cp_failure, __ATOMIC_RELAXED);
	h->sampling = cp_sample_state();
	if (cp_saw_fentry)
		h->flags |= SIDECAR_F_FENTRY;
	h->threads = 0;
	for (size_t i = 0; i < tr->n; i++)
		h->threads += tr->tables[i].threads;
	/* each event's: what cp_counters_add_retired() leaves unplaced */
	for (uint32_t e = 0; e < snap.nev; e++)
		h->extra_metrics[snap.ev0 + e].unplaced = tr->events ? cp_counters_unplaced(e) : 0;
	for (int d = 0; d < SIDECAR_DROP_NR; d++)
		h->dropped[d] = cp_retired_dropped[d];
	h->dropped[SIDECAR_DROP_STOPPED] += cp_dropped_early +
		__atomic_load_n(&cp_dropped_late, __ATOMIC_RELAXED);
	/* the time metric as the exit's writer describes it (runtime.c) */
	h->time_period = time_period();
	if (snap.off >= 0)
		h->extra_metrics[snap.off].period = h->time_period;
	if (cp_sampler_timers())
		memcpy(h->time_name, SIDECAR_TIME_METRIC_NAME, sizeof(SIDECAR_TIME_METRIC_NAME));
	else
		memcpy(h->time_name, "prof-timer", sizeof("prof-timer"));
	h->time_taken = cp_sample_taken();
	h->unplaced_samples = cp_retired_unplaced + cp_sample_unplaced_early();
	/* what the samples could cover so far (the readers' coverage line) */
	h->process_cpu.valid = h->time_period &&
		cp_sampler_process_cpu_now(&h->process_cpu.user_ns, &h->process_cpu.sys_ns) == 0;
	if (tr->locked)
		for (struct cp_thread *t = cp_threads; t; t = t->next) {
			for (int d = 0; d < SIDECAR_DROP_NR; d++)
				h->dropped[d] += t->dropped[d];
			h->unplaced_samples += __atomic_load_n(&t->unplaced, __ATOMIC_RELAXED);
		}
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The sidecar of `gmon` into `fd`.  The identity is the gmon file's as it
 * is now (hashed when regular).
 */
static int sidecar_into(int fd, const char *gmon, uint32_t k, const struct trees *tr)
{
	static char name[NAME_MAX_LEN];
	struct sidecar *h = snap.head;
	uint64_t size, hash;

	memcpy(name, gmon, strlen(gmon) + 1);
	h->id.gmon_name = name;	/* never freed: the head lives as long as we do */
	h->id.snapshot = k;
	h->id.flags = 0;
	h->id.gmon_size = h->id.gmon_hash = 0;
	if (sidecar_hash_file(gmon, &size, &hash) == 0) {
		h->id.flags = SIDECAR_ID_HASHED;
		h->id.gmon_size = size;
		h->id.gmon_hash = hash;
	}
	h->id.time_ns = now_ns();
	head_counters(tr);
	return sidecar_stream_write(fd, h, tr->tables, tr->ntables, snap.buf, OUT_BUF);
}

/* ---- the gmon file of a snapshot ---- */

struct arc_iter {
	const struct trees *tr;
	size_t k;
	uint32_t i;
	int stopped;	/* snapshot_stops(): the file is not to be written */
};

static int arc_next(void *ctx, struct gmon_arc *arc)
{
	struct arc_iter *it = ctx;

	if (snapshot_stops(it->tr)) {
		it->stopped = 1;
		return 0;
	}
	while (it->k < it->tr->n) {
		const struct tree_src *s = &it->tr->t[it->k];

		if (it->i < s->count) {
			const struct cp_node *n = cp_tree_node(s->tree, it->i);

			arc->frompc = n->call_site;
			arc->selfpc = n->callee;
			arc->count = __atomic_load_n(&n->count, __ATOMIC_RELAXED);
			/* creation order: a lower bound of the last call
			 * (doc/dev/runtime.md, "Differences from glibc's own file") */
			arc->stamp = it->i++;
			return 1;
		}
		it->k++;
		it->i = 0;
	}
	return 0;
}

/*
 * The one place that knows how a snapshot's gmon file is made: switch
 * here to the runtime's own histogram and arcs once it keeps gmon.out
 * (issue 23, doc/dev/runtime.md step 6).
 */
static int snap_gmon_write(int fd, const struct trees *tr)
{
	struct arc_iter it = { tr, 0, 0, 0 };
	struct gmon_arc_source src = { arc_next, &it, 0, 0 };
	struct gmon_arc_source *srcs[1] = { &src };
	struct gmon_out_opts o;
	int r;

	for (size_t i = 0; i < tr->n; i++)
		src.max_arcs += tr->t[i].count;
	memset(&o, 0, sizeof(o));
	o.geom = &snap.geom;
	o.load_address = snap.load_address;
	o.kcount = snap.kcount;
	o.prof_rate = snap.prof_rate;
	o.parts = GMON_OUT_ALL;
	if (!snap.kcount)
		return -EINVAL;
	o.sources = srcs;
	o.nsources = 1;
	r = gmon_out_write(fd, &o);
	/* stopped: fewer arcs than the run's, the file is not to be kept */
	return it.stopped ? -ECANCELED : r;
}

/*
 * "<gmon name>.snap<k>" for this process (glibc's name rules:
 * $GMON_OUT_PREFIX.<pid>, else gmon.out).  A fork child's carry its pid
 * (gmon.out.<pid>.snap<k>): the parent writes gmon.out.snap<k> meanwhile.
 */
static int snap_name(char *buf, size_t len, int with_prefix, uint32_t k)
{
	size_t n = 0;

	if (with_prefix) {
		if (cat(buf, len, &n, snap.prefix) < 0 || cat(buf, len, &n, ".") < 0 ||
		    cat_uint(buf, len, &n, (uint64_t)getpid()) < 0)
			return -1;
	} else if (cat(buf, len, &n, "gmon.out") < 0 ||
		   ((cp_parent_pid() || __atomic_load_n(&gmon_own_names, __ATOMIC_RELAXED)) &&
		    (cat(buf, len, &n, ".") < 0 ||
					cat_uint(buf, len, &n, (uint64_t)getpid()) < 0))) {
		return -1;
	}
	if (cat(buf, len, &n, ".snap") < 0 || cat_uint(buf, len, &n, k) < 0)
		return -1;
	return 0;
}

/*
 * `final` written through a temporary file and a rename: the gmon file
 * (`gmon`), or the sidecar of gmon file `gmon_name`.  0, or -errno.
 */
static int write_file_atomic(const char *final, int gmon, const char *gmon_name,
			     uint32_t k, const struct trees *tr)
{
	char tmp[NAME_MAX_LEN + 32];
	int fd = gmon_snapshot_open(final, tmp, sizeof(tmp)), r;

	if (fd < 0)
		return fd;
	r = gmon ? snap_gmon_write(fd, tr) : sidecar_into(fd, gmon_name, k, tr);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0) {
		gmon_snapshot_abort(tmp);
		return r;
	}
	return gmon_snapshot_commit(tmp, final);
}

int cp_snap_write(uint32_t k, int wait_ms, struct cp_prof_gate *gate)
{
	char gmon[NAME_MAX_LEN], side[NAME_MAX_LEN + 16];
	const char *bad = gmon;	/* the file a failure is about */
	struct trees tr;
	int r, saved = errno;

	if (!snap.ready || !snap.kcount)
		return -EINVAL;
	if (__atomic_exchange_n(&writing, 1, __ATOMIC_ACQUIRE))
		return -EBUSY;
	r = trees_take(&tr, wait_ms, 1, gate);
	if (r < 0)
		goto out;
	/* glibc's rule: the prefixed name, else gmon.out */
	r = -ENAMETOOLONG;
	if (snap.has_prefix && snap_name(gmon, sizeof(gmon), 1, k) == 0)
		r = write_file_atomic(gmon, 1, NULL, k, &tr);
	if (r < 0 && r != -ECANCELED && snap_name(gmon, sizeof(gmon), 0, k) == 0)
		r = write_file_atomic(gmon, 1, NULL, k, &tr);
	if (r == 0) {
		struct stat st;

		/* a snapshot is a pair or nothing: not its gmon file alone, nor
		 * beside an earlier run's sidecar */
		if (sidecar_name_for(gmon, side, sizeof(side)) < 0) {
			r = -ENAMETOOLONG;
			unlink(gmon);
		} else if ((r = write_file_atomic(side, 0, gmon, k, &tr)) < 0) {
			bad = side;
			unlink(gmon);
			if (lstat(side, &st) == 0 && S_ISREG(st.st_mode))
				unlink(side);
		}
	}
	trees_give(&tr);
	/* the process ends meanwhile: not a failure to report */
	if (r < 0 && r != -ECANCELED && !__atomic_load_n(&snap.abort, __ATOMIC_ACQUIRE))
		snap_failed(k, bad, -r,
			    r == -EEXIST ? "not a regular file, left as it is" : NULL);
out:
	__atomic_store_n(&writing, 0, __ATOMIC_RELEASE);
	errno = saved;
	return r;
}

int cp_snap_empty(void)
{
	return cp_sampling && !cp_sample_taken();
}

int cp_snap_busy(void)
{
	return __atomic_load_n(&writing, __ATOMIC_ACQUIRE);
}

void cp_snap_forked(void)
{
	__atomic_store_n(&writing, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&snap.abort, 0, __ATOMIC_RELAXED);
}

/* ---- the end of a killed process ---- */

/*
 * The gmon file at a killed process's end, as _mcleanup would write it at
 * exit (gmonfile.c notes the candidates first, so the sidecar finds the
 * file): the runtime's async-signal-safe writer when the runtime keeps
 * gmon.out (issue 23, gmon_takeover.h); glibc's own _mcleanup where glibc
 * kept it (CALLPATH_ARCS=glibc, a take-over refused): that one opens,
 * writes and closes with raw calls, but takes the loader's (recursive)
 * lock in dl_iterate_phdr and frees its tables.
 */
static int end_gmon(void)
{
	int r;

	cp_gmon_before_write();
	r = cp_gmon_write_named(CP_GMON_FROM_SIGNAL);
	if (r != -ENOTSUP)
		return r;
	if (snap.glibc_mcleanup)
		snap.glibc_mcleanup();
	return 0;
}

void cp_snap_end(int sig)
{
	struct cp_gmon g;
	char side[NAME_MAX_LEN + 16];
	struct trees tr;
	struct stat st;
	int fd, exit_began, state;

	(void)sig;
	if (!snap.ready)
		return;
	if (cp_snap_empty()) {
		cp_sampled_killed_empty();
		return;
	}
	/* a snapshot being written (another thread) stops, without a file */
	__atomic_store_n(&snap.abort, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 5000 && __atomic_exchange_n(&writing, 1, __ATOMIC_ACQUIRE); i++)
		sleep_ms(1);
	/*
	 * The exit's writes are held against us (ends.c): here the exit has
	 * not begun, or has written gmon.out (or tried), or the sidecar too.
	 * Once begun, _mcleanup must not run again (glibc's frees its
	 * tables).  If the runtime's destructor wrote the sidecar (recording
	 * stopped), that one stands; else the sidecar is written here, for
	 * the gmon file the exit wrote.
	 */
	exit_began = cp_gmon_exit_began();
	/* recording: arcs on, or off (CP_ARCS_OFF: moncontrol(0), or the
	 * runtime's _mcleanup turned them off before writing gmon.out) */
	state = __atomic_exchange_n(&cp_state, CP_STOPPED, __ATOMIC_ACQ_REL);
	if (state != CP_RECORDING && state != CP_ARCS_OFF && exit_began)
		return;
	if (!__atomic_load_n(&cp_threads, __ATOMIC_ACQUIRE) &&
	    !__atomic_load_n(&cp_retired_threads, __ATOMIC_ACQUIRE))
		return;		/* nothing instrumented ran: glibc would write nothing */
	/*
	 * A gmon file the writer could not finish (a full disk) has no
	 * sidecar: an earlier run's is removed.  Nothing written (the
	 * registry busy in the interrupted code, profiling not running)
	 * leaves the earlier pair as it was.
	 */
	if (!exit_began) {
		int r = end_gmon();

		if (r < 0 && r != -EDEADLK && r != -ENODATA) {
			if (cp_gmon_written(&g) == 0 &&
			    sidecar_name_for(g.name, side, sizeof(side)) == 0 &&
			    lstat(side, &st) == 0 && S_ISREG(st.st_mode))
				unlink(side);
			return;
		}
	}
	if (cp_gmon_written(&g) < 0 || sidecar_name_for(g.name, side, sizeof(side)) < 0)
		return;
	if (trees_take(&tr, 200, 0, NULL) < 0) {
		say("call paths not written: out of memory", "", "");
		return;
	}
	if (lstat(side, &st) == 0 && S_ISLNK(st.st_mode)) {
		say(side, ": not written: it is a symbolic link", "");
	} else if (lstat(side, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* a FIFO or a device: written into, never replaced */
		fd = open(side, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
		if (fd >= 0) {
			sidecar_into(fd, g.name, 0, &tr);
			close(fd);
		}
	} else if (write_file_atomic(side, 0, g.name, 0, &tr) < 0 &&
		   lstat(side, &st) == 0 && S_ISREG(st.st_mode) && unlink(side) == 0) {
		say("removed '", side, "' of an earlier run");
	}
	trees_give(&tr);
}
