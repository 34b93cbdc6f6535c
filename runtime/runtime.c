/*
 * runtime.c - start-up, fork and exit of the call-path runtime.
 *
 * glibc writes gmon.out from _mcleanup (an atexit handler); we write
 * `<gmon file>.callpath` from a destructor, independently of it, with the
 * per-thread trees summed into one (see doc/sidecar-format.md).  We never
 * replace __monstartup or _mcleanup.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime.h"
#include "utils/banned.h"

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

/* An unsigned environment value in [lo, hi], or `def` when unset or bad. */
static uint32_t env_u32(const char *name, uint32_t def, uint32_t lo, uint32_t hi)
{
	const char *s = getenv(name);
	unsigned long v;
	char *end;

	if (!s || !*s)
		return def;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < lo || v > hi) {
		dprintf(2, "callpath: ignoring %s='%s': not a number in [%u, %u]\n",
			name, s, lo, hi);
		return def;
	}
	return (uint32_t)v;
}

/* CALLPATH_RECURSION: "folded" (default) or "full". */
static uint32_t recursion_folded(void)
{
	const char *s = getenv("CALLPATH_RECURSION");

	if (!s || !*s || strcmp(s, "folded") == 0)
		return 1;
	if (strcmp(s, "full") == 0)
		return 0;
	dprintf(2, "callpath: ignoring CALLPATH_RECURSION='%s': not 'folded' or 'full'\n", s);
	return 1;
}

static void before_fork(void)
{
	cp_pid_at_fork = (uint64_t)getpid();
}

static void in_fork_child(void)
{
	/* the child inherits the counts so far, as with gmon.out */
	cp_ppid = cp_pid_at_fork;
}

static void start_once(void)
{
	static int started;

	if (__atomic_exchange_n(&started, 1, __ATOMIC_ACQ_REL))
		return;	/* another caller is starting, or has started, it */
	cp_config.depth = env_u32("CALLPATH_DEPTH", 0, 0, 1024);
	cp_config.max_nodes = env_u32("CALLPATH_MAX_NODES", DEFAULT_MAX_NODES,
				      16, (1u << 30));
	cp_config.max_depth = env_u32("CALLPATH_MAX_DEPTH", DEFAULT_MAX_DEPTH,
				      16, (1u << 24));
	cp_config.fold = recursion_folded();
	cp_chain_init();
	if (!cp_next_mcount && !cp_next_fentry) {
		cp_fail(SIDECAR_FAIL_NO_NEXT_MCOUNT);
		return;
	}
	pthread_atfork(before_fork, NULL, in_fork_child);
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

static int main_program(struct dl_phdr_info *info, size_t size, void *data)
{
	struct main_info *mi = data;

	(void)size;
	/* the first object reported is the main program */
	mi->load_address = info->dlpi_addr;
	mi->start = UINT64_MAX;
	mi->end = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uint64_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		if (lo < mi->start)
			mi->start = lo;
		if (lo + ph->p_memsz > mi->end)
			mi->end = lo + ph->p_memsz;
	}
	if (mi->start >= mi->end)
		mi->start = mi->end = 0;	/* unknown: nothing is canonicalised */
	read_build_id(info, mi);
	return 1;
}

static int32_t mpi_rank(void)
{
	static const char *const vars[] = {
		"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID",
	};

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *s = getenv(vars[i]);
		char *end;
		long v;

		if (!s || !*s)
			continue;
		errno = 0;
		v = strtol(s, &end, 10);
		if (!errno && !*end && v >= 0 && v <= INT32_MAX)
			return (int32_t)v;
	}
	return -1;
}

/* glibc's gmon file name: "$GMON_OUT_PREFIX.<pid>" or "gmon.out". */
static int sidecar_path_now(char *buf, size_t len)
{
	const char *prefix = secure_getenv("GMON_OUT_PREFIX");
	char gmon[PATH_MAX];

	if (prefix) {
		int n = snprintf(gmon, sizeof(gmon), "%s.%u", prefix,
				 (unsigned)getpid());

		if (n < 0 || (size_t)n >= sizeof(gmon))
			return -1;
	} else {
		snprintf(gmon, sizeof(gmon), "gmon.out");
	}
	return sidecar_name_for(gmon, buf, len) < 0 ? -1 : 0;
}

/*
 * Sum the thread trees into `sc`; parents precede children in each pool.
 * Call sites outside the program become 0 (sidecar_canonical_site), so
 * that sums of processes that loaded the C library elsewhere line up; two
 * children that differed only by such a call site become one.
 */
static int add_threads(struct sidecar *sc)
{
	uint32_t *map = NULL;
	size_t map_len = 0;
	int ret = -1;

	for (struct cp_thread *t = __atomic_load_n(&cp_threads, __ATOMIC_ACQUIRE);
	     t; t = t->next) {
		uint32_t nr = __atomic_load_n(&t->nr_nodes, __ATOMIC_ACQUIRE);

		if (nr > map_len) {
			uint32_t *m = realloc(map, (size_t)nr * sizeof(*map));

			if (!m)
				goto out;
			map = m;
			map_len = nr;
		}
		for (uint32_t i = 0; i < nr; i++) {
			const struct cp_node *n = &t->nodes[i];
			uint32_t parent = n->parent == CP_NONE ? SIDECAR_ROOT
							       : map[n->parent];
			uint64_t count = __atomic_load_n(&n->count, __ATOMIC_RELAXED);
			int folded = (n->flags & CP_NODE_FOLDED) != 0;

			/* a folded node's calls are its parent's recursive calls */
			if (sidecar_add(sc, parent,
					sidecar_canonical_site(sc, n->call_site), n->callee,
					folded ? 0 : count, &map[i]) < 0)
				goto out;
			if (folded) {
				sc->nodes[map[i]].flags |= SIDECAR_NODE_FOLDED;
				sc->nodes[map[i]].recursive += count;
			}
			if (t->samples)
				sc->nodes[map[i]].self_samples +=
					__atomic_load_n(&t->samples[i], __ATOMIC_RELAXED);
		}
		sc->unplaced_samples += __atomic_load_n(&t->unplaced, __ATOMIC_RELAXED);
		for (int d = 0; d < SIDECAR_DROP_NR; d++)
			sc->dropped[d] += t->dropped[d];
		sc->threads++;
	}
	ret = 0;
out:
	free(map);
	return ret;
}

__attribute__((destructor)) static void cp_finish(void)
{
	struct main_info mi = { 0 };
	struct sidecar *sc;
	char host[256] = "", exe[PATH_MAX] = "", path[PATH_MAX], err[PATH_MAX + 128];
	ssize_t n;

	if (__atomic_exchange_n(&cp_state, CP_STOPPED, __ATOMIC_ACQ_REL) ==
	    CP_IDLE && !cp_failure)
		return;
	if (!__atomic_load_n(&cp_threads, __ATOMIC_ACQUIRE) && !cp_failure &&
	    !cp_dropped_early)
		return;		/* nothing instrumented ran */

	sc = sidecar_new();
	if (!sc) {
		dprintf(2, "callpath: cannot write the call-path sidecar: out of memory\n");
		return;
	}
	gethostname(host, sizeof(host) - 1);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	dl_iterate_phdr(main_program, &mi);
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
	sc->dropped[SIDECAR_DROP_STOPPED] += cp_dropped_early;
	if (sidecar_set_strings(sc, host, exe) < 0 || add_threads(sc) < 0) {
		dprintf(2, "callpath: cannot write the call-path sidecar: out of memory\n");
		goto out;
	}
	sc->failure = __atomic_load_n(&cp_failure, __ATOMIC_RELAXED);
	sc->sampling = cp_sample_state();
	sc->unplaced_samples += cp_sample_unplaced_early();
	if (sidecar_path_now(path, sizeof(path)) < 0) {
		dprintf(2, "callpath: cannot write the call-path sidecar: name too long\n");
		goto out;
	}
	if (sidecar_write_atomic(sc, path, err, sizeof(err)) < 0)
		dprintf(2, "callpath: %s\n", err);
out:
	sidecar_free(sc);
}
