/*
 * unwind.h - walking an interrupted thread's stack by the call-frame
 * information of the loaded objects (.eh_frame_hdr / .eh_frame), in a
 * signal handler.
 *
 * Sampling mode (runtime/sampled.c) takes the call path of each sample by
 * unwinding the stack the signal interrupted.  This walker is ours rather
 * than libunwind's because libunwind's local unwinding cannot keep the
 * runtime's rules in a signal handler (doc/dev/sampler.md has the
 * evidence): it looks objects up with dl_iterate_phdr, which takes the
 * dynamic loader's lock (the deadlocks gperftools, HPCToolkit and others
 * reported), it checks memory only where built with conservative checks,
 * and never against the stack the thread runs on, and loaded with dlopen
 * its per-thread caches are TLS that glibc allocates with malloc on a
 * thread's first use.
 *
 * What it guarantees:
 *   - no lock, no malloc, no libc: raw system calls only (built
 *     -mgeneral-regs-only, as the other handler code);
 *   - every read is validated before it is made: call-frame information
 *     and code only inside a readable segment of an object of the table
 *     (built in normal context: cp_unwind_refresh(); dlclose waits for the
 *     walks in progress, cp_unwind_pause()), stack words only inside the
 *     stack the walk is on (the thread's own, its alternate signal stack
 *     while on it, or the mapping holding the stack pointer, read through
 *     process_vm_readv: stack.c's cp_stack_find()/cp_stack_read());
 *   - bounded: at most `max` frames, a bounded number of call-frame
 *     instructions and expression operations per frame;
 *   - never a wrong caller: a return address is taken only when it lies in
 *     the executable code of a known object right after a call
 *     instruction, and the stack pointer must grow from frame to frame
 *     (but across a signal frame); anything else ends the walk with the
 *     reason, and the caller records the path so far under `[truncated]`.
 *
 * Signal frames (glibc's __restore_rt, recognised by its code, as gdb and
 * libunwind do) are crossed: the walk goes on from the interrupted
 * context saved on the stack, so a sample in a signal handler of the
 * program (on an alternate signal stack too) has the path of the code it
 * interrupted below the handler's frames.
 */
#ifndef CALLPATH_RUNTIME_UNWIND_H
#define CALLPATH_RUNTIME_UNWIND_H

#include <stdint.h>
#include <ucontext.h>

#include "runtime.h"

/* Why a walk ended (the sidecar's sampled section counts each). */
enum cp_unwind_end {
	CP_UNWIND_COMPLETE,	/* an outermost frame, or the runtime's root wrapper */
	CP_UNWIND_NO_OBJECT,	/* a program counter in no known object (JIT code) */
	CP_UNWIND_NO_CFI,	/* a known object without unwind information there */
	CP_UNWIND_BAD_READ,	/* a word the rules ask for lies outside the stack */
	CP_UNWIND_BAD_RETURN,	/* a return address not right after a call */
	CP_UNWIND_DEPTH,	/* more frames than the bound */
	CP_UNWIND_BAD_CFI,	/* unwind information we cannot follow */
	CP_UNWIND_NO_PROGRESS,	/* the stack pointer did not grow */
	CP_UNWIND_BUSY,		/* objects being unloaded (dlclose) */
	CP_UNWIND_END_NR
};

/*
 * One frame: `pc` is the interrupted program counter (the innermost frame,
 * and the frame a signal interrupted) or a return address; `func` the
 * start of the function holding it, as its unwind information says (0
 * when unknown).
 */
struct cp_unwind_frame {
	uintptr_t pc;
	uintptr_t func;
};

/* The most frames a walk takes (sampled.c's buffer), and its scratch memory. */
#define CP_UNWIND_MAX_FRAMES 512
#define CP_UNWIND_SCRATCH 8192

/*
 * Walk from the registers `g` (a signal's ucontext gregs) of thread `t`
 * (stack.c's state, for the stacks): frames[0] is the interrupted frame,
 * frames[k + 1] its caller.  Stops at `max` frames, at an outermost frame
 * (the return address undefined: _start, clone3, a coroutine's first
 * frame), or at a frame of one of the root functions (the runtime's own
 * wrappers around main and a thread's start routine, cp_unwind_set_roots:
 * the path ends below them, that frame not written).  Returns the frames
 * written; *end says why it stopped.  `scratch` is CP_UNWIND_SCRATCH bytes
 * of the caller's (8-aligned), so that the walk needs little of the
 * interrupted stack.  Async-signal-safe.
 */
uint32_t cp_unwind(struct cp_thread *t, const greg_t *g, void *scratch,
		   struct cp_unwind_frame *frames, uint32_t max, enum cp_unwind_end *end) CP_HIDDEN;

/*
 * The table of objects the walk knows, rebuilt in normal context (start,
 * after dlopen and dlclose).  0, or -1 when it cannot be (no memory: walks
 * then end at the first frame, CP_UNWIND_NO_OBJECT).
 */
int cp_unwind_refresh(void) CP_HIDDEN;
/*
 * Around dlclose (normal context): no walk reads any object from
 * cp_unwind_pause() (which waits for the walks in progress) to
 * cp_unwind_resume() (which rebuilds the table first).
 */
void cp_unwind_pause(void) CP_HIDDEN;
void cp_unwind_resume(void) CP_HIDDEN;

/*
 * The entry points of the root functions, and the return address
 * makecontext() gives a coroutine's function (glibc's __start_context,
 * whose unwind information does not say it is outermost): a walk that
 * reaches one is complete.  0: none.
 */
void cp_unwind_set_roots(uintptr_t main_root, uintptr_t thread_root, uintptr_t ret) CP_HIDDEN;

/* Is `pc` in the runtime's own code (libcallpath.so)? */
int cp_unwind_in_runtime(uintptr_t pc) CP_HIDDEN;

#endif
