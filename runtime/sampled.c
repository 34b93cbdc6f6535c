/*
 * sampled.c - sampling mode: the call path of every sample, by walking the
 * interrupted stack (sampled.h; unwind.h for the walk).
 *
 * What runs where:
 *   normal context  the mode's choice (runtime.c's start-up), the main
 *                   thread's state and gmon.out's histogram (constructor),
 *                   each thread's state (the pthread_create wrapper),
 *                   __libc_start_main's wrapper around main, the table of
 *                   objects around dlopen and dlclose, the end (runtime.c's
 *                   destructor);
 *   signal context  cp_sampled_credit(): walk, then find or make the path's
 *                   nodes in the thread's own tree (record.c's
 *                   cp_tree_child(), raw mmap), then the sample as a leaf
 *                   (sampler.c's cp_leaf_add()) under the innermost node.
 *
 * A path is the walk's frames from the outermost down: each frame a node
 * (call site: the return address in its caller, 0 outside the program as
 * in every sidecar; callee: the start of its function, from its unwind
 * information), recursion folded as record.c folds calls (a function
 * already on the path goes back to that frame's node, through a folded
 * node for the call site).  A walk that did not reach the root (main or a
 * thread's start routine, whose callers are the runtime's wrappers, or an
 * outermost frame) hangs its frames under the top-level node of callee 0,
 * which readers name `[truncated]`.  The sample itself is the leaf (the
 * interrupted program counter) under the innermost frame's node, as with
 * -pg: the reader names it the frame's own code, or another function.
 *
 * Consecutive samples of a thread mostly share their outer frames: the
 * last path's nodes are kept, and a new path looks up only the frames
 * below the first that differs.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/gmon.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gmon_start.h"
#include "profiled.h"
#include "sampled.h"
#include "sys.h"
#include "unwind.h"
#include "utils/banned.h"

#define CP_EXPORT __attribute__((visibility("default")))
#define MAX CP_UNWIND_MAX_FRAMES

int cp_sampling;
_Static_assert((int)CP_UNWIND_END_NR == (int)SIDECAR_UNWIND_END_NR &&
	       (int)CP_UNWIND_BUSY == (int)SIDECAR_UNWIND_BUSY, "the walks' ends as the sidecar has them");

uintptr_t cp_thread_root(void) CP_HIDDEN;	/* thread.c: the wrapper's entry */
int cp_sample_active(void) CP_HIDDEN;		/* sample.c */
void cp_sample_install(void) CP_HIDDEN;

/* Per thread, mapped in normal context when the thread starts. */
struct sampled_thread {
	unsigned char scratch[CP_UNWIND_SCRATCH] __attribute__((aligned(16)));
	struct cp_unwind_frame frames[MAX];	/* the walk's, innermost first */
	/*
	 * The last path, outermost first: each element's function and
	 * program counter, the node its frame stands for (a folded call's
	 * frame stands for its ancestor's node) and the element before it on
	 * the chain of frames a new call hangs under (index + 1, 0: the
	 * path's base), so that a path sharing its first k elements reuses
	 * their nodes as they are.
	 */
	uintptr_t fn[MAX], pc[MAX];
	uint32_t node[MAX], link[MAX];
	uint32_t n;
	uint32_t base;		/* the path's base: CP_NONE, or the [truncated] node */
	uint32_t busy;		/* a walk is under way (a nested SIGPROF) */
};

static __thread struct sampled_thread *me __attribute__((tls_model("initial-exec")));
static int (*real_main)(int, char **, char **);
static uintptr_t prog_lo, prog_hi;	/* the main program's image */
static uintptr_t text_lo, text_hi;	/* gmon.out's histogram: [__executable_start, etext) */
static uint64_t walked;			/* walks made */
static uint64_t ends[CP_UNWIND_END_NR];	/* how they ended */
static uint64_t no_thread;		/* samples of threads without state */
static int is_root;			/* no ancestor process has the runtime */
/* every shared object the walks' table had, for naming after the run
 * what was unloaded before it (under objects_lock, normal context) */
static struct sidecar *seen;
static pthread_mutex_t objects_lock = PTHREAD_MUTEX_INITIALIZER;
int cp_objects_note(struct sidecar *seen) CP_HIDDEN;	/* runtime.c */
static struct timespec started;		/* CLOCK_REALTIME at start-up */

/* ---- the choice of mode (normal context) ---- */

/*
 * Does the main program call mcount, _mcount or __fentry__, that is, was
 * it built with -pg?  Its dynamic symbol table, read from /proc/self/exe:
 * 1, 0, or -1 when it cannot be read.
 */
static int program_instrumented(void)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC), found = -1;
	Elf64_Ehdr eh;
	Elf64_Shdr *sh = NULL;
	char *str = NULL;
	Elf64_Sym *sym = NULL;

	if (fd < 0)
		return -1;
	if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_shentsize != sizeof(Elf64_Shdr) || !eh.e_shnum || eh.e_shnum > 65000)
		goto out;
	sh = malloc((size_t)eh.e_shnum * sizeof(*sh));
	if (!sh || pread(fd, sh, (size_t)eh.e_shnum * sizeof(*sh), (off_t)eh.e_shoff) !=
		   (ssize_t)((size_t)eh.e_shnum * sizeof(*sh)))
		goto out;
	found = 0;
	for (unsigned i = 0; i < eh.e_shnum && found == 0; i++) {
		const Elf64_Shdr *ds = &sh[i], *ss;
		size_t nsym;

		if (ds->sh_type != SHT_DYNSYM || ds->sh_link >= eh.e_shnum ||
		    ds->sh_entsize != sizeof(Elf64_Sym) || ds->sh_size > (64u << 20))
			continue;
		ss = &sh[ds->sh_link];
		if (ss->sh_size > (64u << 20))
			continue;
		nsym = ds->sh_size / sizeof(Elf64_Sym);
		sym = malloc(ds->sh_size + 1);
		str = malloc(ss->sh_size + 1);
		if (!sym || !str ||
		    pread(fd, sym, ds->sh_size, (off_t)ds->sh_offset) != (ssize_t)ds->sh_size ||
		    pread(fd, str, ss->sh_size, (off_t)ss->sh_offset) != (ssize_t)ss->sh_size) {
			found = -1;
			break;
		}
		str[ss->sh_size] = '\0';
		for (size_t k = 0; k < nsym; k++) {
			const char *name;

			if (sym[k].st_shndx != SHN_UNDEF || sym[k].st_name >= ss->sh_size)
				continue;
			name = str + sym[k].st_name;
			if (!strcmp(name, "mcount") || !strcmp(name, "_mcount") ||
			    !strcmp(name, "__fentry__")) {
				found = 1;
				break;
			}
		}
		free(sym);
		free(str);
		sym = NULL;
		str = NULL;
	}
out:
	free(sym);
	free(str);
	free(sh);
	close(fd);
	return found;
}

void cp_mode_choose(void)
{
	const char *s = getenv("CALLPATH_MODE");
	int want = 0;		/* 0 auto, 1 instrument, 2 sample */
	int pg;

	if (s && *s) {
		if (!strcmp(s, "instrument"))
			want = 1;
		else if (!strcmp(s, "sample"))
			want = 2;
		else if (strcmp(s, "auto"))
			dprintf(2, "callpath: ignoring CALLPATH_MODE='%s': not 'auto', "
				"'instrument' or 'sample'\n", s);
	}
	pg = want == 2 ? 0 : program_instrumented();
	if (want == 2 || (want == 0 && pg == 0)) {
		/*
		 * valgrind (its preload in LD_PRELOAD) ends the program with
		 * SIGPROF at its start when it is sampled: step aside, said
		 */
		const char *pre = getenv("LD_PRELOAD");

		if (pre && strstr(pre, "/vgpreload_")) {
			dprintf(2, "callpath: cannot sample a program run under valgrind: "
				"no profile (run it without valgrind, or build it with -pg)\n");
			return;
		}
		cp_sampling = 1;
		return;
	}
	if (want == 0)
		return;	/* -pg, or unreadable: instrument, as before this mode existed */
	if (pg == 0)
		dprintf(2, "callpath: CALLPATH_MODE=instrument, but the program was built "
			"without -pg: no call paths will be recorded (leave CALLPATH_MODE "
			"unset to sample it)\n");
}

/* ---- start-up (normal context) ---- */

static int program_ranges(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	prog_lo = text_lo = UINTPTR_MAX;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t a = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		if (a < prog_lo)
			prog_lo = text_lo = a;
		if (a + ph->p_memsz > prog_hi)
			prog_hi = a + ph->p_memsz;
		/* gcrt1's etext: the end of the first executable segment */
		if ((ph->p_flags & PF_X) && !text_hi)
			text_hi = a + ph->p_memsz;
	}
	return 1;	/* the main program comes first */
}

/* The calling thread's walk buffers; 0, or -1 (no memory). */
static int thread_buffers(void)
{
	void *p;

	if (me)
		return 0;
	p = mmap(NULL, sizeof(struct sampled_thread), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	((struct sampled_thread *)p)->base = CP_NONE;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	me = p;
	return 0;
}

/*
 * The calling thread's state and timer.  Its shadow stack stays busy
 * (cp_tls.top NULL): a call from -pg code (a -pg shared library) is
 * counted as dropped, never mixed into the sampled tree.
 */
static struct cp_thread *thread_sampled(void)
{
	struct cp_thread *t;

	if (thread_buffers() < 0)
		return NULL;
	t = cp_thread_begin((uintptr_t)__builtin_frame_address(0));
	if (!t)
		return NULL;
	cp_tls.top = NULL;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	cp_sampler_thread(t);
	return t;
}

/*
 * The return address glibc's makecontext() gives a coroutine's function,
 * found by running one: a coroutine's path ends there (unwind.h).
 */
static ucontext_t probe_back, probe_ctx;
static uintptr_t probe_ra;

__attribute__((noinline)) static void probe(void)
{
	probe_ra = (uintptr_t)__builtin_return_address(0);
}

static uintptr_t makecontext_return(void)
{
	static char stack[16384] __attribute__((aligned(16)));

	if (getcontext(&probe_ctx) != 0)
		return 0;
	probe_ctx.uc_stack.ss_sp = stack;
	probe_ctx.uc_stack.ss_size = sizeof(stack);
	probe_ctx.uc_link = &probe_back;
	makecontext(&probe_ctx, probe, 0);
	if (swapcontext(&probe_back, &probe_ctx) != 0)
		return 0;
	return probe_ra;
}

static int sampled_main(int argc, char **argv, char **envp)
{
	int r = real_main(argc, argv, envp);

	/* no tail call: this frame is the root the walks end at */
	__asm__ volatile("" : : : "memory");
	return r;
}

/*
 * Is the parent process profiled too (the runtime in its maps)?  A
 * process started by a profiled one (exec after fork, a shell it ran) is
 * profiled into its own files, as GMON_OUT_PREFIX names them, so that
 * whoever ran it keeps gmon.out.
 */
static int parent_profiled(void)
{
	char path[64], buf[4096];
	size_t have = 0;
	ssize_t n;
	int fd, found = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)getppid());
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while (!found && (n = read(fd, buf + have, sizeof(buf) - 1 - have)) > 0) {
		size_t keep;

		have += (size_t)n;
		buf[have] = '\0';
		found = strstr(buf, "/libcallpath") != NULL;
		/* a name cut at the buffer's end is looked for again */
		keep = have < 32 ? have : 32;
		memmove(buf, buf + have - keep, keep);
		have = keep;
	}
	close(fd);
	return found;
}

/* A fork child is profiled into its own files (gmon.out is its parent's). */
static void fork_child(void)
{
	gmon_own_names = 1;
	is_root = 0;
}

/*
 * A process that started another (a shell, timeout, env, a program that
 * runs helpers) writes its own files from then on (gmon.out.<pid>, its
 * snapshots gmon.out.<pid>.snapK): what it started may be a -pg program,
 * whose gmon.out and gmon.out.snapK its files must not replace.
 */
static void fork_parent(void)
{
	__atomic_store_n(&gmon_own_names, 1, __ATOMIC_RELAXED);
}

void cp_sampled_started_other(void)
{
	if (__atomic_load_n(&cp_sampling, __ATOMIC_RELAXED))
		fork_parent();
}

/* The walks' table rebuilt, and the objects in it noted (normal context). */
static int objects_changed(void)
{
	int r;

	pthread_mutex_lock(&objects_lock);
	r = cp_unwind_refresh();
	if (!seen)
		seen = sidecar_new();
	if (seen)
		cp_objects_note(seen);
	pthread_mutex_unlock(&objects_lock);
	return r;
}

__attribute__((constructor(104))) static void sampled_start(void)
{
	struct cp_thread *t;

	if (!cp_sampling)
		return;
	clock_gettime(CLOCK_REALTIME, &started);
	is_root = !parent_profiled();
	if (!is_root)
		gmon_own_names = 1;
	pthread_atfork(NULL, fork_parent, fork_child);
	if (__atomic_load_n(&cp_state, __ATOMIC_ACQUIRE) != CP_RECORDING) {
		dprintf(2, "callpath: cannot sample this program: the runtime could not "
			"start (%s)\n", sidecar_failure_names[cp_failure < SIDECAR_FAIL_NR ?
							      cp_failure : 0]);
		cp_sampling = 0;
		return;
	}
	cp_profiled_mark(CP_PROFILED_SAMPLED);
	dl_iterate_phdr(program_ranges, NULL);
	if (objects_changed() < 0)
		dprintf(2, "callpath: sampling: cannot map the table of loaded objects: "
			"samples will have no call paths\n");
	cp_unwind_set_roots((uintptr_t)sampled_main, cp_thread_root(), makecontext_return());
	t = thread_sampled();
	/* gmon.out's histogram, as gcrt1.o starts it for a -pg program */
	__monstartup(text_lo, text_hi);
	cp_sample_install();
	if (t)
		cp_sampler_thread(t);
	if (!t || !cp_sample_active())
		dprintf(2, "callpath: cannot sample this program: %s\n",
			!t ? "no memory for the main thread's state"
			   : "the profiling signal (SIGPROF) is not available");
	/* the off-CPU sampler reads shadow stacks, which sampled threads do
	 * not keep: its time has no path */
	if (getenv("CALLPATH_CLOCK") && !strcmp(getenv("CALLPATH_CLOCK"), "wall"))
		dprintf(2, "callpath: CALLPATH_CLOCK=wall: a program without -pg has its "
			"off-CPU time recorded without call paths (at the top level)\n");
}

/*
 * The C library calls main through this, in sampling mode: main's caller
 * is then sampled_main, in the runtime's code, where every walk of the
 * main thread ends (its path starts at main, as a -pg profile's does).
 */
typedef int (*start_main_fn)(int (*)(int, char **, char **), int, char **,
			     void (*)(void), void (*)(void), void (*)(void), void *);

CP_EXPORT int __libc_start_main(int (*main_fn)(int, char **, char **), int argc, char **argv,
				void (*init)(void), void (*fini)(void),
				void (*rtld_fini)(void), void *stack_end)
{
	start_main_fn next = (start_main_fn)dlsym(RTLD_NEXT, "__libc_start_main");

	if (!next) {
		dprintf(2, "callpath: cannot find the C library's __libc_start_main\n");
		_exit(127);	/* not reached: glibc has it */
	}
	if (cp_sampling && main_fn) {
		real_main = main_fn;
		main_fn = sampled_main;
	}
	return next(main_fn, argc, argv, init, fini, rtld_fini, stack_end);
}

void cp_sampled_thread_begin(void)
{
	if (cp_sampling)
		thread_sampled();
}

void cp_sampled_thread_end(void)
{
	struct sampled_thread *s = me;

	if (!s)
		return;
	me = NULL;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	munmap(s, sizeof(*s));
}

/* ---- the sample (signal context) ---- */

static uintptr_t site_of(uintptr_t ra)
{
	return ra >= prog_lo && ra < prog_hi ? ra : 0;
}

/*
 * The runtime's own frames (its dlopen and dlclose, a thread's start) are
 * no frames of the program: left out of the path.  A sample whose program
 * counter is the runtime's is the instrumentation's leaf.
 */
static uint32_t drop_runtime_frames(struct cp_unwind_frame *f, uint32_t n)
{
	uint32_t m = 0;

	for (uint32_t i = 0; i < n; i++)
		if (!f[i].func || !cp_unwind_in_runtime(f[i].func))
			f[m++] = f[i];
	return m;
}

/*
 * The nodes of the path in s->frames[0, n) (innermost first) under `base`:
 * *node is the node the innermost frame stands for (`base` when no frame
 * has a function).  0, or -1 at the node bound.  Only the walk's last
 * frame may lack a function (the walk ended in unknown code): it has no
 * node.
 */
static int path_nodes(struct cp_thread *t, struct sampled_thread *s, uint32_t n,
		      uint32_t base, uint32_t *node)
{
	struct cp_tree *tr = &t->tree;
	uint32_t m = n && !s->frames[n - 1].func ? n - 1 : n, k0 = 0;
#define EL(k) (&s->frames[m - 1 - (k)])

	if (base == s->base) {
		while (k0 < m && k0 < s->n && s->fn[k0] == EL(k0)->func &&
		       s->pc[k0] == EL(k0)->pc)
			k0++;
		/* an element's node needs its function and its caller's pc only */
		if (k0 < m && k0 < s->n && s->fn[k0] == EL(k0)->func) {
			s->pc[k0] = EL(k0)->pc;
			k0++;
		}
	}
	s->base = base;
	for (uint32_t k = k0; k < m; k++) {
		const struct cp_unwind_frame *f = EL(k);
		uintptr_t site = k ? site_of(s->pc[k - 1]) : 0;
		uint32_t anc = 0, got;

		s->fn[k] = f->func;
		s->pc[k] = f->pc;
		if (cp_config.fold)
			for (anc = k; anc && s->fn[anc - 1] != f->func; anc = s->link[anc - 1])
				;
		if (anc) {
			/* recursion: the frame stands for its ancestor's node */
			got = cp_tree_child(tr, s->node[anc - 1], site, f->func, CP_NODE_FOLDED);
			s->node[k] = s->node[anc - 1];
			s->link[k] = s->link[anc - 1];
		} else {
			got = cp_tree_child(tr, k ? s->node[k - 1] : base, site, f->func, 0);
			s->node[k] = got;
			s->link[k] = k;
		}
		if (got == CP_NONE) {
			s->n = k;
			return -1;
		}
	}
	/* elements past m are stale: the prefix test stops at s->n */
	s->n = m;
	*node = m ? s->node[m - 1] : base;
	return 0;
#undef EL
}

/*
 * Walk the calling thread's stack from `g` and find or make its path's
 * nodes: *node the innermost frame's (CP_NONE: the node bound, no memory),
 * the walk's end returned.  The caller holds s->busy.
 */
static enum cp_unwind_end walk_path(struct cp_thread *t, struct sampled_thread *s,
				    const greg_t *g, uint32_t *node)
{
	enum cp_unwind_end end;
	uint32_t n, base = CP_NONE;

	n = cp_unwind(t, g, s->scratch, s->frames, MAX, &end);
	n = drop_runtime_frames(s->frames, n);
	__atomic_fetch_add(&walked, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&ends[end], 1, __ATOMIC_RELAXED);
	*node = CP_NONE;
	if (end != CP_UNWIND_COMPLETE)
		base = cp_tree_child(&t->tree, CP_NONE, 0, 0, 0);	/* [truncated] */
	if ((end != CP_UNWIND_COMPLETE && base == CP_NONE) ||
	    path_nodes(t, s, n, base, node) < 0) {
		*node = CP_NONE;
		s->n = 0;
	}
	return end;
}

void cp_sampled_credit(const greg_t *g, uint64_t weight, uint32_t metric, int timer)
{
	struct cp_thread *t = cp_tls.self;
	struct sampled_thread *s = me;
	uintptr_t pc = (uintptr_t)g[REG_RIP];
	struct cp_leaf *last = NULL;
	uint32_t node, kind;

	if (!t || t == CP_RETIRED || !s) {
		__atomic_fetch_add(&no_thread, weight, __ATOMIC_RELAXED);
		return;
	}
	if (__atomic_exchange_n(&s->busy, 1, __ATOMIC_ACQUIRE)) {
		/* a SIGPROF in our own handler (SA_NODEFER): the runtime's time */
		if (cp_leaf_add(&t->leaves, CP_NONE, SIDECAR_LEAF_OVERHEAD, pc, metric, weight,
				&last) < 0)
			t->unplaced += weight;
		if (timer)
			cp_sampler_credited(t, last, weight);
		return;
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	kind = cp_unwind_in_runtime(pc) ? SIDECAR_LEAF_OVERHEAD : SIDECAR_LEAF_PC;
	walk_path(t, s, g, &node);
	if (node == CP_NONE) {
		t->unplaced += weight;	/* the node bound: no context to hold it */
	} else if (cp_leaf_add(&t->leaves, node, kind, pc, metric, weight, &last) < 0) {
		if (metric == CP_LEAF_CPU)
			*cp_tree_samples(&t->tree, node) += weight;
		else
			t->unplaced += weight;
	}
	if (timer)
		cp_sampler_credited(t, last, weight);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
}

uint32_t cp_sampled_place(const greg_t *g)
{
	struct cp_thread *t = cp_tls.self;
	struct sampled_thread *s = me;
	uint32_t node = CP_NONE;

	if (!t || t == CP_RETIRED || !s || __atomic_exchange_n(&s->busy, 1, __ATOMIC_ACQUIRE))
		return CP_NONE;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	walk_path(t, s, g, &node);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&s->busy, 0, __ATOMIC_RELEASE);
	return node;
}

/* ---- the end (normal context) ---- */

/*
 * Threads' CPU time without a signal beyond which a run without a sample
 * is not called too brief: two ticks of a kernel at 100 Hz (a few threads
 * starting and ending take milliseconds in the kernel and the C library).
 */
#define UNSIGNALLED_MS 20

/* Did this process wait for children (a wrapper: timeout, env, a shell)? */
static int had_children(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_CHILDREN, &ru) == 0 &&
	       (ru.ru_maxrss || ru.ru_utime.tv_sec || ru.ru_utime.tv_usec ||
		ru.ru_stime.tv_sec || ru.ru_stime.tv_usec);
}

/* Was gmon.out written by another process since this one started? */
static int gmon_taken(void)
{
	struct stat st;

	if (gmon_prefix() || stat("gmon.out", &st) < 0)
		return 0;
	return st.st_mtim.tv_sec > started.tv_sec ||
	       (st.st_mtim.tv_sec == started.tv_sec && st.st_mtim.tv_nsec >= started.tv_nsec);
}

int cp_sampled_finish(void)
{
	if (!cp_sampling)
		return 1;
	cp_sampler_stop();
	if (!cp_sample_taken()) {
		/*
		 * Not one sample: nothing to say about where the time went.
		 * A process that ran children (timeout, env, a shell, a
		 * launcher) stays quiet: they were profiled themselves.
		 */
		uint64_t missed_ms = cp_sampler_unsignalled() * 1000u / cp_sampler_hz();

		if (is_root && !had_children() && missed_ms >= UNSIGNALLED_MS)
			/*
			 * Its threads ran that long and no signal reached
			 * them: they block SIGPROF, or each ran between two of
			 * the kernel's ticks, the only moments it checks
			 * CPU-time timers (threads shorter than a tick, run
			 * one at a time: a loaded machine's scheduler can line
			 * them up so every time).  Not "too brief".
			 */
			dprintf(2, "callpath: no profile written: no timer signal reached the "
				"program in %llu ms of its threads' CPU time (threads that block "
				"SIGPROF, or that each ran between two of the kernel's ticks, "
				"when it checks CPU-time timers)\n",
				(unsigned long long)missed_ms);
		else if (is_root && !had_children())
			dprintf(2, "callpath: no profile written: the program ran too briefly "
				"to be sampled (one sample per %u us of CPU time)\n",
				1000000u / cp_sampler_hz());
		return 0;
	}
	/* a -pg program this one ran wrote gmon.out: ours goes beside it */
	if (gmon_taken())
		gmon_own_names = 1;
	_mcleanup();
	return 1;
}

void cp_sampled_killed_empty(void)
{
	static const char msg[] = "callpath: no profile written: the program was killed "
				  "before its first sample\n";

	if (cp_sampling && is_root && !had_children())
		(void)!write(2, msg, sizeof(msg) - 1);
}

void cp_sampled_describe(struct sidecar *sc)
{
	if (!cp_sampling)
		return;
	sc->flags |= SIDECAR_F_SAMPLED;
	sc->unwind.max_frames = MAX;
	sc->unwind.walked = __atomic_load_n(&walked, __ATOMIC_RELAXED);
	for (int i = 0; i < CP_UNWIND_END_NR && i < SIDECAR_UNWIND_END_NR; i++)
		sc->unwind.ends[i] = __atomic_load_n(&ends[i], __ATOMIC_RELAXED);
	sc->unplaced_samples += __atomic_load_n(&no_thread, __ATOMIC_RELAXED);
	/* libraries unloaded before the exit, which the walks met */
	pthread_mutex_lock(&objects_lock);
	for (uint32_t k = 0; seen && k < seen->nr_objects; k++) {
		const struct sidecar_object *o = &seen->objects[k];
		uint32_t j;

		for (j = 0; j < sc->nr_objects; j++)
			if (sc->objects[j].start == o->start && sc->objects[j].end == o->end &&
			    !strcmp(sc->objects[j].path, o->path))
				break;
		if (j == sc->nr_objects)
			sidecar_add_object(sc, o->path, o->start, o->end, o->bias, o->flags,
					   o->build_id, o->build_id_len);
	}
	pthread_mutex_unlock(&objects_lock);
}

/* ---- objects loaded and unloaded (normal context) ---- */

/* glibc's dlopen, for arch/x86_64/dlopen.S's jump */
void *(*cp_next_dlopen)(const char *, int) CP_HIDDEN;
int cp_dlopen_ours(const char *file, int mode, void *caller) CP_HIDDEN;
void *cp_dlopen_refreshing(const char *file, int mode) CP_HIDDEN;

/*
 * Whether dlopen.S may call glibc's dlopen from here (1) and rebuild the
 * walk's table after it, or must jump to it as if called by `caller` (0):
 * glibc's dlopen gives the new object its caller's namespace, and searches
 * its caller's RUNPATH for a name without '/'.
 */
int cp_dlopen_ours(const char *file, int mode, void *caller)
{
	struct link_map *lm = NULL;
	Dl_info info;
	Lmid_t ns = LM_ID_BASE;

	(void)mode;
	if (!__atomic_load_n(&cp_next_dlopen, __ATOMIC_ACQUIRE))
		__atomic_store_n(&cp_next_dlopen,
				 (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen"),
				 __ATOMIC_RELEASE);
	if (!cp_sampling || !file || !strchr(file, '/') || strchr(file, '$'))
		return 0;
	if (!dladdr1(caller, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm ||
	    dlinfo(lm, RTLD_DI_LMID, &ns) != 0 || ns != LM_ID_BASE)
		return 0;
	return 1;
}

void *cp_dlopen_refreshing(const char *file, int mode)
{
	void *h = cp_next_dlopen(file, mode);

	objects_changed();
	return h;
}

CP_EXPORT int dlclose(void *handle)
{
	static int (*next)(void *);
	int (*f)(void *) = __atomic_load_n(&next, __ATOMIC_ACQUIRE);
	int r;

	if (!f) {
		f = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");
		__atomic_store_n(&next, f, __ATOMIC_RELEASE);
	}
	if (!cp_sampling)
		return f(handle);
	/* no walk reads an object's unwind information while it may go */
	pthread_mutex_lock(&objects_lock);
	cp_unwind_pause();
	r = f(handle);
	cp_unwind_resume();
	if (seen)
		cp_objects_note(seen);
	pthread_mutex_unlock(&objects_lock);
	return r;
}
