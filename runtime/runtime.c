/*
 * runtime.c - start-up, fork and exit of the call-path runtime.
 *
 * glibc writes the gmon file from _mcleanup (an atexit handler); we write
 * `<gmon file>.callpath` from a destructor, after it, with the retired
 * tree and the live threads' trees summed into one, and the identity of
 * the gmon file glibc wrote (gmonfile.c; doc/dev/sidecar-format.md).  We never
 * replace __monstartup; our _mcleanup only looks before calling glibc's.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>

#include "counters.h"
#include "ends.h"
#include "gmon_arcs.h"
#include "gmonfile.h"
#include "env.h"
#include "runtime.h"
#include "sampled.h"
#include "utils/banned.h"

void cp_thread_init_main(void) CP_HIDDEN;
void cp_thread_fork_prepare(void) CP_HIDDEN;
void cp_thread_fork_done(void) CP_HIDDEN;
extern int __profile_frequency(void);	/* glibc: the profiling timer's rate */

#define DEFAULT_MAX_NODES (1u << 20)
#define DEFAULT_MAX_DEPTH (1u << 18)

struct cp_config cp_config = {
	.depth = 0,
	.max_nodes = DEFAULT_MAX_NODES,
	.max_depth = DEFAULT_MAX_DEPTH,
	.fold = 1,
};
int cp_state = CP_IDLE;
uint32_t cp_failure;
uint64_t cp_dropped_early;
int cp_saw_fentry;

static uint64_t cp_ppid;		/* set in a fork child */
static uint64_t cp_pid_at_fork;

void cp_fail(uint32_t code)
{
	uint32_t none = SIDECAR_FAIL_NONE;

	__atomic_compare_exchange_n(&cp_failure, &none, code, 0,
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	__atomic_store_n(&cp_state, CP_STOPPED, __ATOMIC_RELEASE);
}

/* An unsigned environment value in [lo, hi], or `def` when unset or bad
 * (env.h: the one number parser, the one message). */
static uint32_t env_u32(const char *name, uint32_t def, uint32_t lo, uint32_t hi)
{
	unsigned long long v;

	return cp_env_number(name, lo, hi, 0, &v) == 1 ? (uint32_t)v : def;
}

/*
 * Environment variable `name` naming one of two words: 0 for `first` (the
 * default, also when unset or empty), 1 for `second`; anything else is
 * said once on stderr and taken as `first`.
 */
static int env_choice(const char *name, const char *first, const char *second)
{
	const char *s = getenv(name);

	if (!s || !*s || strcmp(s, first) == 0)
		return 0;
	if (strcmp(s, second) == 0)
		return 1;
	dprintf(2, "callpath: ignoring %s='%s': not '%s' or '%s'\n", name, s, first, second);
	return 0;
}

/* CALLPATH_RECURSION: "folded" (default) or "full". */
static uint32_t recursion_folded(void)
{
	return !env_choice("CALLPATH_RECURSION", "folded", "full");
}

/*
 * CALLPATH_ARCS: "runtime" (default: the runtime counts gmon.out's arcs and
 * glibc's counter is not called) or "glibc" (glibc's counter and gmon.out
 * as without the runtime; the call paths are recorded all the same).
 */
static int arcs_to_glibc(void)
{
	return env_choice("CALLPATH_ARCS", "runtime", "glibc");
}

/*
 * fork: our locks (the registry's, thread.c's pool's) are held across it,
 * so that the child does not inherit one taken by a thread that does not
 * exist there.
 */
static void before_fork(void)
{
	cp_pid_at_fork = (uint64_t)getpid();
	cp_thread_fork_prepare();
	cp_registry_lock();
}

static void after_fork(void)
{
	cp_registry_unlock();
	cp_thread_fork_done();
}

static void in_fork_child(void)
{
	cp_registry_unlock();
	cp_thread_fork_done();
	/* the child inherits the counts so far, as with gmon.out */
	cp_ppid = cp_pid_at_fork;
	__atomic_store_n(&cp_pid, (int)getpid(), __ATOMIC_RELAXED);
	cp_sampler_fork_child(cp_tls.self);	/* timers are not inherited */
}

static void start_once(void)
{
	static int started;

	if (__atomic_exchange_n(&started, 1, __ATOMIC_ACQ_REL))
		return;	/* another caller is starting, or has started, it */
	cp_mode_choose();	/* -pg calls or stack walks (sampled.h) */
	cp_config.depth = env_u32("CALLPATH_DEPTH", 0, 0, 1024);
	cp_config.max_nodes = env_u32("CALLPATH_MAX_NODES", DEFAULT_MAX_NODES,
				      16, (1u << 30));
	cp_config.max_depth = env_u32("CALLPATH_MAX_DEPTH", DEFAULT_MAX_DEPTH,
				      16, (1u << 24));
	cp_config.fold = recursion_folded();
	cp_config.threads = env_u32("CALLPATH_THREADS", SIDECAR_THREADS_DEFAULT, 0,
				    SIDECAR_THREADS_MAX);
	cp_arcs_disabled = arcs_to_glibc();
	cp_chain_init();
	if (!cp_next_mcount && !cp_next_fentry) {
		cp_fail(SIDECAR_FAIL_NO_NEXT_MCOUNT);
		return;
	}
	__atomic_store_n(&cp_pid, (int)getpid(), __ATOMIC_RELAXED);
	cp_thread_init_main();
	cp_gmon_init();
	cp_counters_start();
	pthread_atfork(before_fork, after_fork, in_fork_child);
	__atomic_store_n(&cp_state, CP_RECORDING, __ATOMIC_RELEASE);
}

void cp_start_early(void)
{
	start_once();
}

__attribute__((constructor(102))) static void cp_start(void)
{
	start_once();
}

/* ---- what goes in the header ---- */

struct main_info {
	uint64_t load_address;
	uint64_t start, end;	/* run-time span of the PT_LOAD segments */
	unsigned char build_id[SIDECAR_BUILD_ID_MAX];
	uint32_t build_id_len;
};

static void read_build_id(const struct dl_phdr_info *info, struct main_info *mi)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const unsigned char *p, *end;

		if (ph->p_type != PT_NOTE)
			continue;
		p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		end = p + ph->p_memsz;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
			const unsigned char *name = p + sizeof(*nh);
			const unsigned char *desc =
				name + ((nh->n_namesz + 3) & ~3u);
			const unsigned char *next =
				desc + ((nh->n_descsz + 3) & ~3u);

			if (next > end)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    memcmp(name, "GNU", 4) == 0) {
				uint32_t n = nh->n_descsz;

				if (n > SIDECAR_BUILD_ID_MAX)
					n = SIDECAR_BUILD_ID_MAX;
				memcpy(mi->build_id, desc, n);
				mi->build_id_len = n;
				return;
			}
			p = next;
		}
	}
}

/* Every loaded object, the main program first (dl_iterate_phdr's order). */
struct objects {
	struct sidecar *sc;
	struct main_info *mi;
	const char *exe;
	int n, failed;
};

static int each_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct objects *o = data;
	struct main_info one = { 0 };
	const char *path = info->dlpi_name;

	(void)size;
	one.load_address = info->dlpi_addr;
	one.start = UINT64_MAX;
	one.end = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uint64_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		if (lo < one.start)
			one.start = lo;
		if (lo + ph->p_memsz > one.end)
			one.end = lo + ph->p_memsz;
	}
	if (one.start >= one.end)
		one.start = one.end = 0;	/* unknown: nothing is canonicalised */
	read_build_id(info, &one);
	if (o->n++ == 0) {
		*o->mi = one;	/* the main program */
		path = o->exe;
	}
	if (!path || !*path)
		path = o->n == 1 ? "" : "[unnamed]";	/* the vDSO has no name */
	if (sidecar_add_object(o->sc, path, one.start, one.end, one.load_address,
			       o->n == 1 ? SIDECAR_OBJECT_MAIN : 0, one.build_id,
			       one.build_id_len) < 0)
		o->failed = 1;
	return 0;
}

/*
 * The shared objects loaded now that `seen` does not list yet (same path
 * and range), added to it: sampling mode keeps every object its walks
 * met, so that frames of a library unloaded before the exit are named
 * (sampled.c).  Normal context.  0, or -1 out of memory.
 */
static int note_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct objects *o = data;
	struct main_info one = { 0 };
	const char *path = info->dlpi_name;

	(void)size;
	if (o->n++ == 0 || !path || !*path)
		return 0;	/* the program, the vDSO: there at exit too */
	one.start = UINT64_MAX;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uint64_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		if (lo < one.start)
			one.start = lo;
		if (lo + ph->p_memsz > one.end)
			one.end = lo + ph->p_memsz;
	}
	if (one.start >= one.end)
		return 0;
	for (uint32_t k = 0; k < o->sc->nr_objects; k++)
		if (o->sc->objects[k].start == one.start && o->sc->objects[k].end == one.end &&
		    !strcmp(o->sc->objects[k].path, path))
			return 0;
	read_build_id(info, &one);
	if (sidecar_add_object(o->sc, path, one.start, one.end, info->dlpi_addr, 0,
			       one.build_id, one.build_id_len) < 0)
		o->failed = 1;
	return 0;
}

int cp_objects_note(struct sidecar *seen)
{
	struct main_info mi = { 0 };
	struct objects objs = { seen, &mi, NULL, 0, 0 };

	dl_iterate_phdr(note_object, &objs);
	return objs.failed ? -1 : 0;
}

static int32_t mpi_rank(void)
{
	static const char *const vars[] = {
		"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID",
	};

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *s = getenv(vars[i]);
		unsigned long long v;

		if (s && *s && cp_parse_number(s, strlen(s), &v) == 0 && v <= INT32_MAX)
			return (int32_t)v;
	}
	return -1;
}

/*
 * The sampled program counters of a tree (sampler.c) as leaf nodes of
 * `sc`, under the nodes `map` gives for the tree's first `nr` nodes (a
 * running thread may have made more since, and sampled them: their
 * samples are left out, as those nodes are).
 */
/* Where the off-CPU nanoseconds go: extra metric `k` (-1: none), in
 * periods of `period` ns (the time metric's). */
struct offcpu_out {
	int k;
	uint64_t period;
};

static int add_leaves(struct sidecar *sc, const struct cp_leaves *lv,
		      const uint32_t *map, uint32_t nr, const struct offcpu_out *off,
		      int view)
{
	uint32_t ntab = __atomic_load_n(&lv->ntab, __ATOMIC_ACQUIRE);

	for (uint32_t k = 0; k < ntab; k++) {
		const struct cp_leaftab *tab = __atomic_load_n(&lv->tab[k], __ATOMIC_ACQUIRE);

		for (uint32_t i = 0; i < tab->cap; i++) {
			const struct cp_leaf *e = &tab->e[i];
			uint32_t kind = __atomic_load_n(&e->kind, __ATOMIC_ACQUIRE), at;
			uint64_t cpu, ns, offcpu = 0;

			if (!kind || (e->node != CP_NONE && e->node >= nr))
				continue;
			cpu = __atomic_load_n(&e->value[CP_LEAF_CPU], __ATOMIC_RELAXED);
			ns = __atomic_load_n(&e->value[CP_LEAF_OFFCPU], __ATOMIC_RELAXED);
			if (off->k >= 0 && off->period)
				offcpu = (ns + off->period / 2) / off->period;
			if (!cpu && !offcpu)
				continue;
			if (sidecar_add_leaf(sc, e->node == CP_NONE ? SIDECAR_ROOT : map[e->node],
					     kind, e->pc, &at) < 0)
				return -1;
			sc->nodes[at].self_samples += cpu;
			if (view >= 0 && sidecar_thread_add(sc, (uint32_t)view, at, 0, cpu) < 0)
				return -1;
			if (offcpu)
				sc->extra_values[(size_t)at * sc->nr_extra + (uint32_t)off->k] += offcpu;
		}
	}
	return 0;
}

/*
 * Add tree `tr` into `sc` (parents precede children).  Call sites outside
 * the program become 0 (sidecar_canonical_site), so that sums of processes
 * that loaded the C library elsewhere line up; two children that differed
 * only by such a call site become one.  `map` is scratch space, grown.
 */
static int add_tree(struct sidecar *sc, const struct cp_tree *tr,
		    const struct cp_leaves *lv, const struct offcpu_out *off,
		    uint32_t **map, size_t *map_len, uint32_t *mapped, int view)
{
	uint32_t nr = __atomic_load_n(&tr->nr_nodes, __ATOMIC_ACQUIRE);

	if (nr > *map_len) {
		uint32_t *m = realloc(*map, (size_t)nr * sizeof(**map));

		if (!m)
			return -1;
		*map = m;
		*map_len = nr;
	}
	for (uint32_t i = 0; i < nr; i++) {
		const struct cp_node *n = cp_tree_node(tr, i);
		uint32_t parent = n->parent == CP_NONE ? SIDECAR_ROOT : (*map)[n->parent];
		uint64_t count = __atomic_load_n(&n->count, __ATOMIC_RELAXED);
		int folded = (n->flags & CP_NODE_FOLDED) != 0;
		uint64_t samples;
		uint32_t at;

		/* a folded node's calls are its parent's recursive calls */
		if (sidecar_add(sc, parent, sidecar_canonical_site(sc, n->call_site),
				n->callee, folded ? 0 : count, &at) < 0)
			return -1;
		(*map)[i] = at;
		if (folded) {
			sc->nodes[at].flags |= SIDECAR_NODE_FOLDED;
			sc->nodes[at].recursive += count;
		}
		samples = __atomic_load_n(cp_tree_samples(tr, i), __ATOMIC_RELAXED);
		sc->nodes[at].self_samples += samples;
		if (view >= 0 && sidecar_thread_add(sc, (uint32_t)view, at, count, samples) < 0)
			return -1;
	}
	*mapped = nr;
	return add_leaves(sc, lv, *map, nr, off, view);
}

/*
 * The ended threads kept apart (record.c's cp_kept), each an entry of
 * `sc`'s per-thread values, through the retired tree's `map`.
 */
static int add_kept(struct sidecar *sc, const uint32_t *map, uint32_t nr)
{
	for (uint32_t k = 0; k < cp_kept_nr; k++) {
		const struct cp_kept_thread *kt = &cp_kept[k];
		int view = sidecar_thread_new(sc, kt->tid, 0, 1, kt->name);

		if (view < 0)
			return -1;
		for (uint64_t i = 0; i < kt->n; i++) {
			const struct cp_kept_value *v = &kt->v[i];
			uint32_t at;

			if (v->node != CP_NONE && v->node >= nr)
				continue;
			at = v->node == CP_NONE ? SIDECAR_ROOT : map[v->node];
			/* a leaf is found where add_leaves() put the tree's */
			if (v->kind)
				at = sidecar_find(sc, at, v->kind, v->pc);
			if (at != SIDECAR_ROOT &&
			    sidecar_thread_add(sc, (uint32_t)view, at, v->calls, v->samples) < 0)
				return -1;
		}
	}
	return 0;
}

/* A live thread's id (0: unknown: it never started its sampler). */
static uint64_t live_tid(const struct cp_thread *t)
{
	if (!t->tid && t == cp_tls.self)
		return (uint64_t)syscall(SYS_gettid);
	return t->tid;
}

/* A live thread's entry of the per-thread values (its name from /proc). */
static int live_view(struct sidecar *sc, const struct cp_thread *t)
{
	char path[64], name[32] = "";
	uint64_t tid = live_tid(t);
	int fd;
	snprintf(path, sizeof(path), "/proc/self/task/%llu/comm", (unsigned long long)tid);
	fd = tid ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd >= 0) {
		ssize_t n = read(fd, name, sizeof(name) - 1);

		name[n > 0 ? n : 0] = 0;
		name[strcspn(name, "\n")] = 0;
		close(fd);
	}
	return sidecar_thread_new(sc, tid, tid == (uint64_t)getpid() ? SIDECAR_THREAD_MAIN : 0,
				  1, name);
}

/*
 * The retired tree and every live thread's, summed into `sc`, under the
 * registry's lock (threads ending meanwhile wait; after this they no
 * longer merge into the retired tree).
 */
static int add_threads(struct sidecar *sc, const struct offcpu_out *off)
{
	uint32_t *map = NULL, nr, main_live = 0;
	size_t map_len = 0;
	int ret = -1;

	cp_registry_lock();
	if (add_tree(sc, &cp_retired, &cp_retired_leaves, off, &map, &map_len, &nr, -1) < 0 ||
	    add_kept(sc, map, nr) < 0)
		goto out;
	for (int d = 0; d < SIDECAR_DROP_NR; d++)
		sc->dropped[d] += cp_retired_dropped[d];
	sc->unplaced_samples += cp_retired_unplaced;
	sc->threads += cp_retired_threads;
	for (struct cp_thread *t = cp_threads; t; t = t->next)
		if (live_tid(t) == (uint64_t)getpid())
			main_live = 1;
	for (struct cp_thread *t = cp_threads; t; t = t->next) {
		/* the main thread always kept apart, the others while there is room */
		int is_main = live_tid(t) == (uint64_t)getpid(), view = -1;

		if (cp_config.threads &&
		    (is_main || sc->nr_thread_views + main_live < cp_config.threads) &&
		    (view = live_view(sc, t)) < 0)
			goto out;
		if (is_main)
			main_live = 0;
		/* the events of its nodes through the same map */
		if (add_tree(sc, &t->tree, &t->leaves, off, &map, &map_len, &nr, view) < 0 ||
		    cp_counters_add_thread(sc, t, map, nr) < 0)
			goto out;
		sc->unplaced_samples += __atomic_load_n(&t->unplaced, __ATOMIC_RELAXED);
		for (int d = 0; d < SIDECAR_DROP_NR; d++)
			sc->dropped[d] += t->dropped[d];
		sc->threads++;
	}
	ret = cp_counters_add_retired(sc);
	if (ret == 0 && cp_config.threads) {
		uint32_t kept = sc->nr_thread_views;

		sc->thread_limit = cp_config.threads;
		if (sidecar_threads_finish(sc, sc->threads > kept ? sc->threads - kept : 0))
			dprintf(2, "callpath: the per-thread values are left out of the "
				"call paths (they did not add up to the process's)\n");
	}
out:
	cp_exit_summed = 1;
	cp_registry_unlock();
	free(map);
	return ret;
}

/* A random run id (the kernel's), else one made of the time and pid. */
static uint64_t run_id(void)
{
	uint64_t id = 0;
	struct timespec ts;

	if (getrandom(&id, sizeof(id), GRND_NONBLOCK) == (ssize_t)sizeof(id) && id)
		return id;
	clock_gettime(CLOCK_REALTIME, &ts);
	id = ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^
	     ((uint64_t)getpid() << 40);
	return id * 0x9e3779b97f4a7c15ull;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * Write `sc` beside the gmon file; a run that cannot must not leave an
 * earlier run's sidecar there (a reader would pair it with the new gmon
 * file), so a regular file at that name is removed.
 */
static void write_sidecar(const struct sidecar *sc, const char *path)
{
	char err[PATH_MAX + 256];
	struct stat st;

	if (sidecar_write_atomic(sc, path, err, sizeof(err)) == 0)
		return;
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && unlink(path) == 0)
		dprintf(2, "callpath: %s; removed '%s' of an earlier run\n", err, path);
	else
		dprintf(2, "callpath: %s\n", err);
}

__attribute__((destructor)) static void cp_finish(void)
{
	/* the sidecar's write held against the end signals, as gmon.out's */
	struct cp_end_hold hold __attribute__((cleanup(cp_end_hold_end)));
	struct main_info mi = { 0 };
	struct objects objs = { NULL, &mi, NULL, 0, 0 };
	struct offcpu_out off = { -1, 0 };
	struct cp_gmon gmon;
	struct sidecar *sc;
	char host[256] = "", exe[PATH_MAX] = "", path[PATH_MAX];
	ssize_t n;
	int freq;

	cp_end_hold_begin(&hold);
	if (__atomic_exchange_n(&cp_state, CP_STOPPED, __ATOMIC_ACQ_REL) ==
	    CP_IDLE && !cp_failure)
		return;
	if (!__atomic_load_n(&cp_threads, __ATOMIC_ACQUIRE) &&
	    !__atomic_load_n(&cp_retired_threads, __ATOMIC_ACQUIRE) && !cp_failure &&
	    !cp_dropped_early)
		return;		/* nothing instrumented ran */

	/* sampling mode: no more samples, and gmon.out as glibc's _mcleanup writes it */
	if (!cp_sampled_finish())
		return;
	cp_counters_stop();
	if (cp_gmon_written(&gmon) < 0) {
		dprintf(2, "callpath: not writing call paths: this run wrote no gmon "
			"file ('%s'%s)\n", cp_gmon_expected(),
			strcmp(cp_gmon_expected(), "gmon.out") ? " or 'gmon.out'" : "");
		return;
	}
	if (sidecar_name_for(gmon.name, path, sizeof(path)) < 0) {
		dprintf(2, "callpath: cannot write the call-path sidecar of '%s': "
			"name too long\n", gmon.name);
		return;
	}
	sc = sidecar_new();
	if (!sc) {
		dprintf(2, "callpath: cannot write '%s': out of memory\n", path);
		return;
	}
	gethostname(host, sizeof(host) - 1);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	objs.sc = sc;
	objs.exe = exe;
	dl_iterate_phdr(each_object, &objs);
	sc->pid = (uint64_t)getpid();
	sc->ppid = cp_ppid;
	sc->rank = mpi_rank();
	sc->depth = cp_config.depth;
	if (cp_config.depth)
		sc->flags |= SIDECAR_F_DEPTH_LIMITED;
	if (cp_saw_fentry)
		sc->flags |= SIDECAR_F_FENTRY;
	if (!cp_config.fold)
		sc->flags |= SIDECAR_F_RECURSION_FULL;
	sc->load_address = mi.load_address;
	sc->program_start = mi.start;
	sc->program_end = mi.end;
	memcpy(sc->build_id, mi.build_id, mi.build_id_len);
	sc->build_id_len = mi.build_id_len;
	sc->dropped[SIDECAR_DROP_STOPPED] += cp_dropped_early +
		__atomic_load_n(&cp_dropped_late, __ATOMIC_RELAXED);
	if (cp_sampler_timers()) {
		/* each thread's own CPU time at CALLPATH_HZ (sampler.c) */
		sc->time_period = 1000000000u / cp_sampler_hz();
	} else {
		/* glibc's profiling ticks, process-wide (no timer of ours ran) */
		freq = __profile_frequency();
		sc->time_period = freq > 0 ? 1000000000u / (unsigned)freq : 0;
		if (sidecar_set_time_name(sc, "prof-timer") < 0)
			objs.failed = 1;
	}
	/* CALLPATH_CLOCK=wall: the off-CPU time, in the time metric's periods */
	off.period = sc->time_period;
	if (cp_offcpu_on() && off.period &&
	    (off.k = sidecar_add_metric(sc, SIDECAR_OFFCPU_METRIC_NAME, "samples",
					SIDECAR_METRIC_WALL_SAMPLES, 0, off.period)) < 0)
		objs.failed = 1;
	if (objs.failed || sidecar_set_strings(sc, host, exe) < 0 ||
	    sidecar_set_gmon_name(sc, gmon.name) < 0 || cp_counters_describe(sc) < 0 ||
	    add_threads(sc, &off) < 0) {
		dprintf(2, "callpath: cannot write '%s': out of memory\n", path);
		goto out;
	}
	sc->failure = __atomic_load_n(&cp_failure, __ATOMIC_RELAXED);
	cp_sampled_describe(sc);
	sc->sampling = cp_sample_state();
	sc->unplaced_samples += cp_sample_unplaced_early();
	sc->time_taken = cp_sample_taken();
	/* what the samples could cover (the readers' coverage line) */
	if (sc->time_period &&
	    cp_sampler_process_cpu(&sc->process_cpu.user_ns, &sc->process_cpu.sys_ns) == 0)
		sc->process_cpu.valid = 1;
	sc->id.flags = gmon.hashed ? SIDECAR_ID_HASHED : 0;
	sc->id.gmon_size = gmon.size;
	sc->id.gmon_hash = gmon.hash;
	sc->id.run_id = run_id();
	sc->id.time_ns = now_ns();
	write_sidecar(sc, path);
out:
	sidecar_free(sc);
}

/*
 * The header of a sidecar written while the program runs or as it is
 * killed (ends.c): everything cp_finish() fills but the nodes, the counters
 * and the identity, gathered in normal context (dl_iterate_phdr takes the
 * loader's lock; the handler may not).  0, or -1 out of memory.
 */
int cp_fill_head(struct sidecar *sc)
{
	struct main_info mi = { 0 };
	struct objects objs = { sc, &mi, NULL, 0, 0 };
	char host[256] = "", exe[PATH_MAX] = "";
	ssize_t n;
	int freq;

	gethostname(host, sizeof(host) - 1);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	objs.exe = exe;
	dl_iterate_phdr(each_object, &objs);
	sc->pid = (uint64_t)getpid();
	sc->ppid = cp_ppid;
	sc->rank = mpi_rank();
	sc->depth = cp_config.depth;
	if (cp_config.depth)
		sc->flags |= SIDECAR_F_DEPTH_LIMITED;
	if (!cp_config.fold)
		sc->flags |= SIDECAR_F_RECURSION_FULL;
	cp_sampled_describe(sc);	/* sampling mode: its walks so far */
	sc->load_address = mi.load_address;
	sc->program_start = mi.start;
	sc->program_end = mi.end;
	memcpy(sc->build_id, mi.build_id, mi.build_id_len);
	sc->build_id_len = mi.build_id_len;
	freq = __profile_frequency();
	sc->time_period = freq > 0 ? 1000000000u / (unsigned)freq : 0;
	sc->id.run_id = run_id();
	/* the longer of the time metric's two names, so that a signal handler
	 * can write either in place (snapshot.c head_counters) */
	if (objs.failed || sidecar_set_strings(sc, host, exe) < 0 ||
	    sidecar_set_time_name(sc, "prof-timer") < 0)
		return -1;
	return 0;
}

/* ppid of a fork child (the header of its snapshots) */
uint64_t cp_parent_pid(void)
{
	return cp_ppid;
}
