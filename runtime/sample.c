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
static uintptr_t text_start, text_end;	/* the main program's code */
static uint64_t unplaced_early;		/* samples on threads not started */

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

/* The time samples of node `n` of thread `t` (found by its chunk). */
static uint64_t *samples_of(struct cp_thread *t, const struct cp_node *n)
{
	for (uint32_t c = 0; c < CP_CHUNKS && t->tree.chunk[c]; c++)
		if (n >= t->tree.chunk[c] && n < t->tree.chunk[c] + (CP_CHUNK0 << c))
			return cp_tree_samples(&t->tree, cp_chunk_first(c) +
						(uint32_t)(n - t->tree.chunk[c]));
	return NULL;
}

static void credit(uintptr_t pc, uintptr_t sp)
{
	struct cp_thread *t = cp_tls.self;
	struct cp_frame *top = cp_tls.top, *base, *f;
	struct cp_stack_range cur = { 0, 0, CP_STACK_UNKNOWN };
	const struct cp_node *n;
	uint64_t *slot;

	if (!t || t == CP_RETIRED) {
		__atomic_fetch_add(&unplaced_early, 1, __ATOMIC_RELAXED);
		return;
	}
	/* top is NULL while the thread is inside the runtime: mid-update */
	if (!top || pc < text_start || pc >= text_end) {
		t->unplaced++;
		return;
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
	 * stack.c says it may be (a coroutine's freed stack is not read).
	 */
	for (f = top; f != base && (f->fp + 8 < sp || !cp_slot_live(t, f, sp, &cur)); f--)
		;
	if (f == base || !f->node) {
		t->unplaced++;
		goto out;
	}
	/* a recursive call's frame stands for the ancestor it was folded into */
	n = f->node;
	slot = n->flags & CP_NODE_FOLDED ? cp_tree_samples(&t->tree, n->parent)
					 : samples_of(t, n);
	if (slot)
		(*slot)++;
	else
		t->unplaced++;
out:
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	cp_tls.top = top;
}

static void handler(int sig, siginfo_t *si, void *ucv)
{
	const ucontext_t *uc = ucv;

	if (__atomic_load_n(&sample_state, __ATOMIC_RELAXED) == SAMPLE_ACTIVE)
		credit((uintptr_t)uc->uc_mcontext.gregs[REG_RIP],
		       (uintptr_t)uc->uc_mcontext.gregs[REG_RSP]);
	/* the tick glibc's histogram counts, counted for snapshots too (ends.h) */
	cp_snap_tick((uintptr_t)uc->uc_mcontext.gregs[REG_RIP]);
	/*
	 * glibc's handler, with the three arguments the kernel passes on
	 * x86_64 whatever its SA_SIGINFO (a one-argument handler ignores the
	 * other two): it reads the program counter from the context.
	 */
	((void (*)(int, siginfo_t *, void *))chained.handler)(sig, si, ucv);
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
	__atomic_store_n(&sample_state, SAMPLE_ACTIVE, __ATOMIC_RELEASE);
	if (sys_rt_sigaction(SIGPROF, &ours, NULL) != 0) {
		__atomic_store_n(&sample_state, SAMPLE_IDLE, __ATOMIC_RELEASE);
		return;
	}
	__atomic_store_n(&sample_credited, 1, __ATOMIC_RELAXED);
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

uint64_t cp_sample_unplaced_early(void)
{
	return __atomic_load_n(&unplaced_early, __ATOMIC_RELAXED);
}

/* ---- the main program's code range, where the histogram counts ---- */

static int main_text(struct dl_phdr_info *info, size_t size, void *data)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0;

	(void)size;
	(void)data;
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
	if (lo < hi) {
		text_start = lo;
		text_end = hi;
	}
	return 1;	/* the first object is the main program */
}

__attribute__((constructor(103))) static void sample_start(void)
{
	dl_iterate_phdr(main_text, NULL);
}

/* ---- the program replacing the handler or the timer ---- */

/* signals.c's interposers: the program set SIGPROF or ITIMER_PROF. */
void cp_sample_replaced(void)
{
	__atomic_store_n(&sample_replaced, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&sample_state, SAMPLE_STOPPED, __ATOMIC_RELEASE);
	__atomic_store_n(&cp_sample_pending, 0, __ATOMIC_RELAXED);
}
