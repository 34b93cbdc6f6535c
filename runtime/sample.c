/*
 * sample.c - time samples per calling context.
 *
 * We chain the SIGPROF handler that glibc's profiling start-up installs
 * (__monstartup -> profil: ITIMER_PROF, 100 Hz) instead of running a timer
 * of our own: every tick that lands in gmon.out's histogram is also seen
 * here, so per-context self samples add up to the histogram's samples in
 * the program (one for one, the unplaced ones aside), the histogram is
 * recorded exactly as before, and no second timer perturbs the run or
 * competes for the signal.  doc/callpath.md says more.
 *
 * glibc installs its handler from the main program's _init, after the
 * constructors of preloaded libraries (ours) have run, so we install
 * lazily: record.c calls cp_sample_install() from its slow path on calls
 * with no live caller (main's first call, a new thread's first call) until
 * the handler is in place.  That code runs under the trampolines, which do
 * not save vector registers: installing uses the raw rt_sigaction system
 * call and nothing of libc, and this file is built -mgeneral-regs-only.
 *
 * The handler credits the sample to the innermost live frame of the
 * interrupted thread's shadow stack, judged from the interrupted stack
 * pointer (a frame whose return-address slot is below it has returned)
 * and record.c's liveness test (the slot still holds the frame's return
 * address).  It only reads the shadow stack and adds one to the thread's
 * own counter: no allocation, no lock, no libc.  A sample it cannot place
 * is counted apart, never guessed: the thread inside the runtime (the
 * shadow stack mid-update) or not started, the program counter outside the
 * main program (where gmon.out's histogram does not count it either), no
 * live recorded frame.
 *
 * If the program or a library replaces the SIGPROF handler or the
 * profiling timer (through sigaction, signal or setitimer, which
 * signals.c interposes), crediting stops and the sidecar says so.
 */
#define _GNU_SOURCE
#include <link.h>
#include <signal.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <ucontext.h>

#include "runtime.h"
#include "sampled.h"
#include "sys.h"
#include "utils/banned.h"

void cp_snap_tick(uintptr_t pc) CP_HIDDEN;	/* snapshot.c */

enum { SAMPLE_IDLE, SAMPLE_ACTIVE, SAMPLE_STOPPED };

/* The kernel's struct sigaction on x86_64 (what rt_sigaction takes). */
struct k_sigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	uint64_t mask;
};

int cp_sample_pending = 1;
static int sample_state = SAMPLE_IDLE;
static int sample_credited;		/* the handler was installed */
static int sample_replaced;		/* the program touched SIGPROF/ITIMER_PROF */
static struct k_sigaction chained;	/* glibc's profiling handler */
static struct k_sigaction installed;	/* ours, with glibc's flags and restorer */
static uintptr_t rt_start, rt_end;	/* the runtime's own code (a shared library) */
static uint64_t unplaced_early;		/* samples on threads not started */
static uint64_t taken;			/* signals credited (each of some weight) */

static long sys_rt_sigaction(int sig, const struct k_sigaction *act,
			     struct k_sigaction *old)
{
	register long r10 __asm__("r10") = 8;	/* sizeof the kernel's sigset */
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long)SYS_rt_sigaction), "D"((long)sig), "S"(act),
			   "d"(old), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}

/* The index of node `n` in thread `t`'s tree (found by its chunk), or CP_NONE. */
static uint32_t index_of(const struct cp_thread *t, const struct cp_node *n)
{
	for (uint32_t c = 0; c < CP_CHUNKS && t->tree.chunk[c]; c++)
		if (n >= t->tree.chunk[c] && n < t->tree.chunk[c] + (CP_CHUNK0 << c))
			return cp_chunk_first(c) + (uint32_t)(n - t->tree.chunk[c]);
	return CP_NONE;
}

/* Is `pc` the runtime's own code (its handler, its slow path)? */
static int in_runtime(uintptr_t pc)
{
	return pc >= rt_start && pc < rt_end;
}

/* Is `p` an entry of thread t's shadow stack, above the root's sentinel? */
static struct cp_frame *stack_entry(const struct cp_thread *t, uintptr_t p)
{
	uintptr_t lo = (uintptr_t)(t->stack + CP_FRAME_POPS);
	uintptr_t hi = (uintptr_t)(t->stack + t->stack_cap);

	if (p < lo || p >= hi || (p - lo) % sizeof(struct cp_frame))
		return NULL;
	return (struct cp_frame *)p;
}

/*
 * The top a thread inside the runtime works from (cp_tls.top is NULL
 * then): in the trampolines' fast path %rax holds it (WORK_BEGIN) and %rdx
 * the caller's entry (once found; at the end, the new entry); record.c's
 * slow path leaves it in cp_tls.busy_top.  A register is taken only if it
 * points at an entry of the thread's shadow stack; the walk in credit()
 * then keeps the innermost live frame at or under it.  NULL: not known.
 */
static struct cp_frame *busy_top(const struct cp_thread *t, uintptr_t pc, const greg_t *g)
{
	struct cp_frame *f;

	if (pc >= (uintptr_t)cp_trampolines_start && pc < (uintptr_t)cp_trampolines_end) {
		f = stack_entry(t, (uintptr_t)g[REG_RAX]);
		return f ? f : stack_entry(t, (uintptr_t)g[REG_RDX]);
	}
	return stack_entry(t, (uintptr_t)__atomic_load_n(&cp_tls.busy_top, __ATOMIC_RELAXED));
}

/*
 * Place one sample of `weight` periods of `metric` taken at `pc` with the
 * stack pointer at `sp` (the interrupted registers `g`): a leaf (node,
 * kind, pc) under the innermost live recorded frame, or at the top level
 * when the thread has none.
 */
static void credit(uintptr_t pc, uintptr_t sp, const greg_t *g, uint64_t weight,
		   uint32_t metric, int timer)
{
	struct cp_thread *t = cp_tls.self;
	struct cp_frame *top = cp_tls.top, *base, *f, *from = top;
	struct cp_stack_range cur = { 0, 0, CP_STACK_UNKNOWN };
	uint32_t node = CP_NONE, kind = SIDECAR_LEAF_PC;
	struct cp_leaf *last = NULL;

	__atomic_fetch_add(&taken, 1, __ATOMIC_RELAXED);
	if (cp_sampling) {
		/* no -pg: the path is the stack's, walked (sampled.c) */
		cp_sampled_credit(g, weight, metric, timer);
		return;
	}
	if (!t || t == CP_RETIRED) {
		__atomic_fetch_add(&unplaced_early, weight, __ATOMIC_RELAXED);
		return;
	}
	/*
	 * top is NULL while the thread is inside the runtime (the shadow
	 * stack mid-update): the instrumentation's time, under the path the
	 * runtime works for where it is known (issue 22: overhead per path),
	 * else at the top level.
	 */
	if (!top) {
		struct cp_leaf *e = NULL;

		from = busy_top(t, pc, g);
		if (!from) {
			if (cp_leaf_add(&t->leaves, CP_NONE, SIDECAR_LEAF_OVERHEAD, pc, metric,
					weight, &e) < 0)
				t->unplaced += weight;
			if (timer)
				cp_sampler_credited(t, e, weight);
			return;
		}
	}
	/* busy while we look: a handler interrupting us has its calls dropped */
	cp_tls.top = NULL;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	base = t->stack + CP_FRAME_POPS;	/* the root's sentinel */
	/*
	 * A frame is live while the stack pointer is at or below its
	 * return-address slot (fp + 8; `ret` moves it above); one that
	 * returned to uninstrumented code that went deeper again is caught
	 * by its slot no longer holding its return address, read only where
	 * stack.c says it may be (a coroutine's freed stack is not read).  A
	 * frame whose call was not recorded (bounds) gives its samples to the
	 * recorded frame under it, the program counter saying what ran.
	 */
	for (f = from; f != base && (f->fp + 8 < sp || !f->node ||
				    !cp_slot_live(t, f, sp, &cur)); f--)
		;
	if (f != base) {
		const struct cp_node *n = f->node;

		/* a recursive call's frame stands for the ancestor it was folded into */
		node = n->flags & CP_NODE_FOLDED ? n->parent : index_of(t, n);
	}
	if (!top || in_runtime(pc))
		kind = SIDECAR_LEAF_OVERHEAD;
	if (cp_leaf_add(&t->leaves, node, kind, pc, metric, weight, &last) < 0) {
		/* no table could take it: the context's own, its pc unknown */
		if (node != CP_NONE && metric == CP_LEAF_CPU)
			*cp_tree_samples(&t->tree, node) += weight;
		else
			t->unplaced += weight;
	}
	if (timer)
		cp_sampler_credited(t, last, weight);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	cp_tls.top = top;
}

static void handler(int sig, siginfo_t *si, void *ucv);

/*
 * The context a signal interrupted when that signal was delivered on top
 * of another of this handler's signals before its first instruction ran:
 * the context the outer signal interrupted, else `uc` itself.
 *
 * Why: our timer's SIGPROF (thread-directed) and glibc's tick
 * (process-directed) fall due at the same scheduler tick, and the kernel
 * delivers the thread's own signal first.  Were SIGPROF blocked in the
 * timer's handler (glibc's action blocks every signal), the kernel would
 * hand the pending tick to another thread, often one asleep in
 * pthread_join or a lock, and glibc counted it at a libc address, outside
 * gmon.out's histogram (a worker thread's histogram came out 0.01 to
 * 0.18 s for 0.3 to 0.4 s of CPU, main waiting in pthread_join).  So the
 * handler runs with SIGPROF unblocked when our timers may run
 * (cp_sample_install), and the tick is delivered
 * at once in a frame above the timer's, whose interrupted program counter
 * is this handler's first byte.  The outer frame's ucontext is then the
 * third argument the kernel put in %rdx, 8 bytes above the stack pointer
 * (the rt_sigframe: the restorer's address, then the ucontext), which is
 * checked without reading memory: nothing else interrupted at our first
 * byte has %rdx pointing there.
 */
static ucontext_t *interrupted(ucontext_t *uc)
{
	const greg_t *g = uc->uc_mcontext.gregs;

	if ((uintptr_t)g[REG_RIP] == (uintptr_t)handler &&
	    (uintptr_t)g[REG_RDX] == (uintptr_t)g[REG_RSP] + 8)
		return (ucontext_t *)(uintptr_t)g[REG_RDX];
	return uc;
}

static void handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv, *at = interrupted(uc);
	uintptr_t pc = (uintptr_t)at->uc_mcontext.gregs[REG_RIP];
	uintptr_t sp = (uintptr_t)at->uc_mcontext.gregs[REG_RSP];
	int active = __atomic_load_n(&sample_state, __ATOMIC_RELAXED) == SAMPLE_ACTIVE;
	greg_t rip;

	if (cp_sampler_is_ours(si)) {
		/* our per-thread CPU-time timer: 1 + the periods it missed */
		if (active)
			credit(pc, sp, at->uc_mcontext.gregs,
			       1 + (uint64_t)(si->si_overrun > 0 ? si->si_overrun : 0),
			       CP_LEAF_CPU, 1);
		return;
	}
	/* glibc's tick: the time samples only where no timer of ours runs */
	if (active && !cp_sampler_timers())
		credit(pc, sp, at->uc_mcontext.gregs, 1, CP_LEAF_CPU, 0);
	/*
	 * Profiling turned off (moncontrol(0): profil(NULL) put back the
	 * action it found, the default): a SIGPROF of someone else's gets
	 * what it would have got without us: ignored, or the default action
	 * (terminate), delivered once this handler returns and unblocks it.
	 */
	if (chained.handler == (void *)SIG_IGN)
		return;
	if (chained.handler == (void *)SIG_DFL) {
		sys_rt_sigaction(SIGPROF, &chained, NULL);
		cp_syscall6(SYS_tgkill, cp_syscall0(SYS_getpid), cp_syscall0(SYS_gettid), sig,
			    0, 0, 0);
		return;
	}
	/*
	 * glibc's handler, with the three arguments the kernel passes on
	 * x86_64 whatever its SA_SIGINFO (a one-argument handler ignores the
	 * other two): it reads the program counter from the context.  The
	 * tick it counts in the histogram is counted for snapshots too
	 * (ends.h).
	 */
	cp_snap_tick(pc);
	/* glibc counts the program counter of the context it is given */
	rip = uc->uc_mcontext.gregs[REG_RIP];
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)pc;
	((void (*)(int, siginfo_t *, void *))chained.handler)(sig, si, ucv);
	uc->uc_mcontext.gregs[REG_RIP] = rip;
}

int cp_sample_active(void) CP_HIDDEN;
int cp_sample_active(void)
{
	return __atomic_load_n(&sample_state, __ATOMIC_ACQUIRE) == SAMPLE_ACTIVE;
}

void cp_sample_install(void)
{
	struct k_sigaction cur, ours;
	int one = 1;

	if (sys_rt_sigaction(SIGPROF, NULL, &cur) != 0)
		return;
	/* glibc has not started profiling yet (or never will): try later */
	if (cur.handler == (void *)SIG_DFL || cur.handler == (void *)SIG_IGN ||
	    cur.handler == (void *)handler)
		return;
	if (!__atomic_compare_exchange_n(&cp_sample_pending, &one, 0, 0,
					 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
		return;		/* another thread does it */
	if (__atomic_load_n(&sample_replaced, __ATOMIC_RELAXED))
		return;		/* the program's handler, not glibc's */
	chained = cur;
	ours = cur;		/* same mask, flags and restorer as glibc's */
	ours.handler = (void *)handler;
	ours.flags |= SA_SIGINFO;
	if (cp_sampler_wanted()) {
		/* glibc's ticks beside our timers (interrupted()): SIGPROF is
		 * not blocked in the handler, where glibc's own action blocks
		 * it with every other signal (profil's sigfillset) */
		ours.flags |= SA_NODEFER;
		ours.mask &= ~(1ull << (SIGPROF - 1));
	}
	installed = ours;
	__atomic_store_n(&sample_state, SAMPLE_ACTIVE, __ATOMIC_RELEASE);
	if (sys_rt_sigaction(SIGPROF, &ours, NULL) != 0) {
		__atomic_store_n(&sample_state, SAMPLE_IDLE, __ATOMIC_RELEASE);
		return;
	}
	__atomic_store_n(&sample_credited, 1, __ATOMIC_RELAXED);
}

/*
 * After glibc's profil() turned the histogram off or on again (moncontrol):
 * profil(NULL) puts back the SIGPROF action it found when profiling
 * started (the default: our CALLPATH_HZ timers' next signal killed the
 * program, status 155), and profil() on again puts its own handler in front
 * of ours.  Ours goes back in front, chaining whatever is there now: glibc's
 * handler, or the default for a SIGPROF not of ours.  Normal context
 * (moncontrol's); nothing if the program set SIGPROF itself.
 */
void cp_sample_rechain(void)
{
	struct k_sigaction cur;

	if (__atomic_load_n(&sample_state, __ATOMIC_ACQUIRE) != SAMPLE_ACTIVE ||
	    __atomic_load_n(&sample_replaced, __ATOMIC_RELAXED))
		return;
	if (sys_rt_sigaction(SIGPROF, NULL, &cur) != 0 || cur.handler == (void *)handler)
		return;
	chained = cur;
	sys_rt_sigaction(SIGPROF, &installed, NULL);
}

uint32_t cp_sample_state(void)
{
	uint32_t s = 0;

	if (__atomic_load_n(&sample_credited, __ATOMIC_RELAXED))
		s |= SIDECAR_SAMPLING_SELF;
	if (__atomic_load_n(&sample_replaced, __ATOMIC_RELAXED))
		s |= SIDECAR_SAMPLING_STOPPED;
	return s;
}

uint64_t cp_sample_taken(void)
{
	return __atomic_load_n(&taken, __ATOMIC_RELAXED);
}

uint64_t cp_sample_unplaced_early(void)
{
	return __atomic_load_n(&unplaced_early, __ATOMIC_RELAXED);
}

/* ---- the runtime's own code, where samples are overhead ---- */

static int runtime_text(struct dl_phdr_info *info, size_t size, void *data)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0, self = (uintptr_t)data;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t a = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (a < lo)
			lo = a;
		if (a + ph->p_memsz > hi)
			hi = a + ph->p_memsz;
	}
	if (self < lo || self >= hi)
		return 0;
	/*
	 * The object holding this code: libcallpath.so, all of it ours.  In a
	 * static link it is the program itself: the reader tells the
	 * runtime's functions there by their names.
	 */
	if (info->dlpi_name && info->dlpi_name[0]) {
		rt_start = lo;
		rt_end = hi;
	}
	return 1;
}

__attribute__((constructor(103))) static void sample_start(void)
{
	dl_iterate_phdr(runtime_text, (void *)(uintptr_t)&credit);
}

/* ---- the program replacing the handler or the timer ---- */

/* signals.c's interposers: the program set SIGPROF or ITIMER_PROF. */
void cp_sample_replaced(void)
{
	__atomic_store_n(&sample_replaced, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&sample_state, SAMPLE_STOPPED, __ATOMIC_RELEASE);
	__atomic_store_n(&cp_sample_pending, 0, __ATOMIC_RELAXED);
	/* our timers would deliver SIGPROF to the program's handler */
	cp_sampler_stop();
}
