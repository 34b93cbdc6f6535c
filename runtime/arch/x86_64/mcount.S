/*
 * mcount.S - x86_64 entry points of the call-path runtime.
 *
 * gcc -pg calls mcount right after the prologue (push %rbp; mov %rsp,%rbp),
 * -pg -mfentry calls __fentry__ before it.  glibc's versions read their
 * caller's frame (the return address at 0(%rsp) and, for mcount, the parent
 * return address at 8(%rbp)), save rax rcx rdx rsi rdi r8 r9 in a frame of
 * FRAME bytes (0x38 for mcount, 0x40 for __fentry__) and call glibc's
 * counter, __mcount_internal(frompc, selfpc).  We open the same frame, do
 * our work in it, then call *cp_mcount_internal / *cp_fentry_internal with
 * the counter's arguments, restore and return.  That pointer is either
 *   - glibc's counter itself (direct mode: record.c found that cp_next_* is
 *     exactly glibc's code), which spares a second save/restore.  (Our work
 *     after the counter's call, so that the locked instruction it runs on
 *     every call would not wait for it, measured no faster on fib and 10%
 *     slower on bench/callpath/ptrtable.c); or
 *   - cp_chain_* (chained mode, any other mcount, and until record.c has
 *     checked): it closes our frame and tail-jumps to cp_next_*, which sees
 *     the stack and registers exactly as at entry.
 * Either way the caller sees only the registers glibc's version clobbers
 * changed (r11, the flags, and whatever glibc's counter clobbers); r10, the
 * static chain, is preserved by everything of ours.
 *
 * Our work, for the common case (record.c's comment has the whole
 * algorithm, which it runs for every other case):
 *   - the thread is recording and not already inside the runtime: its
 *     shadow-stack top (cp_tls.top) is not NULL.  We set it to NULL while we
 *     work, which is the busy flag: a signal handler's calls meanwhile go to
 *     record.c, which drops and counts them;
 *   - the caller's entry is on the shadow stack with only stale entries
 *     above it, which are dropped (the sentinels under the root end the
 *     search).  mcount: its fp is the saved %rbp; __fentry__: it is the
 *     topmost entry above the new frame.  The top is tried first (where a
 *     frame makes its first call);
 *   - the caller's entry is below cp_tls.limit (stack room, no
 *     CALLPATH_DEPTH cut) and has a node;
 *   - the child: among that node's kids (struct cp_node), else in the
 *     thread's edge cache (struct cp_edge, index cp_edge_index()).
 * Anything else restores cp_tls.top and calls cp_enter_*() in record.c
 * (built -mgeneral-regs-only, calling only mmap/munmap: vector registers
 * are never saved).
 *
 * Layout: the hot path's speed depends on where it lies in 64-byte lines
 * (fib 38 went from 1.26x to 1.5x plain -pg with some paddings of the same
 * code, on an AMD EPYC: branch prediction, most likely), and not on higher
 * address bits.  The entry points are 64-byte aligned so that code added
 * elsewhere does not move it; re-measure (bench/callpath/run.sh) after
 * changing the hot path.
 *
 * Built with -DCP_NOOP this is the no-op trampoline (tail-jump only) used to
 * measure what the interposition itself costs.
 */
#include "../../runtime.h"

	.text

#ifndef CP_NOOP
/* FRAME_OPEN/FRAME_CLOSE: glibc's frame, the seven registers it saves. */
.macro FRAME_OPEN frame
	subq	$\frame, %rsp
	.cfi_adjust_cfa_offset \frame
	movq	%rax, 0(%rsp)
	movq	%rcx, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rsi, 24(%rsp)
	movq	%rdi, 32(%rsp)
	movq	%r8, 40(%rsp)
	movq	%r9, 48(%rsp)
.endm

.macro FRAME_CLOSE frame
	movq	48(%rsp), %r9
	movq	40(%rsp), %r8
	movq	32(%rsp), %rdi
	movq	24(%rsp), %rsi
	movq	16(%rsp), %rdx
	movq	8(%rsp), %rcx
	movq	0(%rsp), %rax
	addq	$\frame, %rsp
	.cfi_adjust_cfa_offset -\frame
.endm

/*
 * The fast path, in macros used by both entry points.  It opens glibc's
 * frame (FRAME_OPEN's layout, so that the slow path and glibc's counter
 * find it as they expect) but saves only the four registers it uses,
 * %rax %rcx %rdx %rsi (SAVE_FAST/RESTORE_FAST); %r11 is scratch (glibc's
 * mcount clobbers it too).  SAVE_REST completes the frame where glibc's
 * counter or the slow path is called.  In a trampoline's frame, with
 * `selfpc` and `site` the memory operands holding them:
 *
 *   WORK_BEGIN slow          %r11 = cp_tls's offset from %fs, %rax =
 *                            cp_tls.top, not NULL, and cp_tls.top = NULL
 *                            (busy); else to `slow` with nothing changed;
 *   MCOUNT_CALLER/FENTRY_CALLER miss
 *                            %rdx = the caller's entry, under stale
 *                            entries only; else to `miss`;
 *   PUSH_ALLOWED miss        to `miss` if no push is allowed from the
 *                            caller's entry;
 *   CALLER_NODE miss (mcount), FENTRY_LIVE miss (__fentry__)
 *                            %rcx = the caller's entry's node; to `miss` if
 *                            it has none (or, __fentry__, is not live);
 *   KID_HIT edge, selfpc, site
 *                            %rcx = the child if it is among the node's
 *                            kids; else to `edge`;
 *   EDGE_HIT miss, selfpc, site
 *                            %rcx = the child if the edge cache has it;
 *                            else to `miss`;
 *   PUSH newfp               count the child (its count and last-call
 *                            stamp), push, and not busy any more;
 *   DONE frame, glibc        return to the instrumented function, or to
 *                            `glibc` when glibc's counter is still called
 *                            (the runtime has not taken gmon.out over).
 *
 * `miss` must restore cp_tls.top from %rax.
 */
.macro SAVE_FAST frame
	subq	$\frame, %rsp
	.cfi_adjust_cfa_offset \frame
	movq	%rax, 0(%rsp)
	movq	%rcx, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rsi, 24(%rsp)
.endm

.macro SAVE_REST
	movq	%rdi, 32(%rsp)
	movq	%r8, 40(%rsp)
	movq	%r9, 48(%rsp)
.endm

.macro WORK_BEGIN slow
	movq	cp_tls@gottpoff(%rip), %r11
	movq	%fs:CP_TLS_TOP(%r11), %rax
	testq	%rax, %rax
	jz	\slow			/* not started, or inside the runtime */
	cmpl	$CP_STATE_RECORDING, cp_state(%rip)
	jne	\slow			/* stopped, or gmon.out's arcs off */
#ifdef CP_ARCHIVE
	/* static links: moncontrol is glibc's; its state above ON/BUSY is off */
	movq	cp_arcs_gate(%rip), %rcx
	cmpq	$1, (%rcx)
	ja	\slow
#endif
	movq	$0, %fs:CP_TLS_TOP(%r11)
.endm

/*
 * In the 0x38-byte frame.  The caller's entry is the topmost whose fp is the
 * caller's frame (saved %rbp), which must lie above the new frame (%rbp), as
 * record.c requires.  The entries above it are stale (frames deeper than a
 * live caller have returned, or were left by longjmp), and their fps are
 * below the caller's: the loop steps down over them until an fp at or above
 * the caller's, which is the caller's entry if equal; anything else (a
 * caller that is not instrumented, frames of another stack) is record.c's.
 * The sentinels under the root (fp UINTPTR_MAX) end the loop, and so does
 * CP_FRAME_STEPS: a saved %rbp that is not a frame (a caller built without
 * frame pointers using %rbp for data) may lie above every entry, live ones
 * included, which record.c keeps; unbounded, each such call would walk the
 * whole stack again.  The top is tried first, where a function makes its
 * first call.  The loop replaced a cmov chain over the three entries under
 * the top: after a deep subtree returns, more are stale (fib's second
 * call), and those calls took the slow path, 4.5% of fib-pure's calls, 7%
 * of its instructions under callgrind.
 */
.macro MCOUNT_CALLER miss
	movq	(%rbp), %rsi			/* the caller's frame */
	cmpq	%rbp, %rsi
	jbe	\miss				/* not above */
	movq	%rax, %rdx
	cmpq	%rsi, CP_FRAME_FP(%rax)
	je	1f
	ja	\miss				/* the top is above the caller */
	subq	$CP_FRAME_SIZE, %rdx		/* two stale ones, unchecked */
	cmpq	%rsi, CP_FRAME_FP(%rdx)
	jae	3f
	subq	$CP_FRAME_SIZE, %rdx
	cmpq	%rsi, CP_FRAME_FP(%rdx)
	jae	3f
	leaq	-CP_FRAME_STEPS*CP_FRAME_SIZE(%rax), %rcx
2:	subq	$CP_FRAME_SIZE, %rdx
	cmpq	%rsi, CP_FRAME_FP(%rdx)
	jae	3f
	cmpq	%rcx, %rdx
	ja	2b				/* stale */
	jmp	\miss				/* too many: record.c's */
3:	jne	\miss				/* not on the stack */
1:
.endm

/*
 * In the 0x40-byte frame (selfpc at 0x40(%rsp), the instrumented function's
 * return-address slot at 0x48(%rsp), so its frame is 0x40(%rsp)): the
 * caller's entry is the topmost whose fp is above the new frame; the
 * entries above it are stale, stepped over as in MCOUNT_CALLER.
 */
.macro FENTRY_CALLER miss
	leaq	0x40(%rsp), %rsi		/* the new frame */
	movq	%rax, %rdx
	cmpq	%rsi, CP_FRAME_FP(%rax)
	ja	1f
2:	subq	$CP_FRAME_SIZE, %rdx
	cmpq	%rsi, CP_FRAME_FP(%rdx)
	jbe	2b				/* stale */
1:
.endm

/*
 * __fentry__ only, after PUSH_ALLOWED: %rcx = the caller's entry's node, and
 * the entry (%rdx) must still be live, its frame's return-address slot
 * holding its node's call site (stack.c's cp_slot_live(): with slots alone,
 * a callback that qsort calls from deeper than its last call would find the
 * last one's entry still above it).  An entry without a node is record.c's,
 * as in CALLER_NODE; the root's sentinel is taken as live.  The
 * slot is read here only when it lies on the thread's own stack (one
 * compare: cp_tls.stack_lo/stack_span), which is mapped while the thread
 * lives; a frame on any other stack (a coroutine's, perhaps freed) is for
 * record.c.  mcount needs no such check: it matched the caller's own frame.
 */
.macro FENTRY_LIVE miss
	movq	CP_FRAME_NODE(%rdx), %rcx
	testq	%rcx, %rcx
	jz	\miss
	movq	CP_FRAME_FP(%rdx), %rsi
	cmpq	$-1, %rsi
	je	2f
	subq	%fs:CP_TLS_STACK_LO(%r11), %rsi
	cmpq	%fs:CP_TLS_STACK_SPAN(%r11), %rsi
	jae	\miss				/* not on our own stack */
	movq	CP_FRAME_FP(%rdx), %rsi
	movq	8(%rsi), %rsi
	cmpq	%rsi, CP_NODE_SITE(%rcx)
	jne	\miss
2:
.endm

/* No push from a caller's entry at or above cp_tls.limit. */
.macro PUSH_ALLOWED miss
	cmpq	%fs:CP_TLS_LIMIT(%r11), %rdx
	jae	\miss
.endm

/* mcount: %rcx = the caller's entry's node; a NULL one (a call not
 * recorded) is record.c's. */
.macro CALLER_NODE miss
	movq	CP_FRAME_NODE(%rdx), %rcx
	testq	%rcx, %rcx
	jz	\miss
.endm

/*
 * The child among the kids of the caller's node (%rcx, struct cp_node),
 * the most recent first: a frame calling one or two children over and over
 * (a loop, a recursion's two calls) finds it here with no hash and no
 * parent compare.  Each kid's own call site and callee are compared with
 * the call's: one call site calls many callees through a pointer, and one
 * callee has many call sites.  Empty kids are cp_no_kid, which matches
 * nothing.  CP_KIDS is 2 here.
 */
.macro KID_HIT edge, selfpc, site
	movq	CP_NODE_KIDS(%rcx), %rcx	/* the most recent kid */
	movq	\site, %rsi
	cmpq	%rsi, CP_NODE_SITE(%rcx)
	jne	1f
	movq	\selfpc, %rsi
	cmpq	%rsi, CP_NODE_CALLEE(%rcx)
	je	2f
1:	movq	CP_FRAME_NODE(%rdx), %rcx
	movq	CP_NODE_KIDS+8(%rcx), %rcx	/* the other */
	movq	\site, %rsi
	cmpq	%rsi, CP_NODE_SITE(%rcx)
	jne	\edge
	movq	\selfpc, %rsi
	cmpq	%rsi, CP_NODE_CALLEE(%rcx)
	jne	\edge
2:
.endm

/*
 * After KID_HIT (the limit checked, the node not NULL): the set is
 * cp_edge_index() << CP_SET_SHIFT, masked by the cache's size, which grows
 * (cp_tls.cache_mask, record.c); its two entries are tried in turn, each
 * by its parent, then its child's callee and call site.  (An entry whose
 * parent matches but whose child is another call's goes to record.c,
 * which finds the other entry: rare, and only slower.)
 */
.macro EDGE_HIT miss, selfpc, site
	movq	CP_FRAME_NODE(%rdx), %rcx	/* cp_edge_index() */
	shlq	$CP_EDGE_PARENT_SHIFT, %rcx
	addq	\site, %rcx
	movq	\selfpc, %rsi
	leaq	(%rcx,%rsi,2), %rcx
	movabsq	$CP_EDGE_MUL, %rsi
	imulq	%rsi, %rcx
	shrq	$(CP_EDGE_HASH_SHIFT - CP_SET_SHIFT), %rcx
	andq	%fs:CP_TLS_CACHE_MASK(%r11), %rcx
	addq	%fs:CP_TLS_CACHE(%r11), %rcx
	movq	CP_FRAME_NODE(%rdx), %rsi
	cmpq	%rsi, CP_EDGE_PARENT(%rcx)
	je	5f
	addq	$(1 << CP_EDGE_SHIFT), %rcx	/* the second way */
	cmpq	%rsi, CP_EDGE_PARENT(%rcx)
	jne	\miss				/* empty entries too */
5:	movq	CP_EDGE_CHILD(%rcx), %rcx	/* its call site and callee */
	movq	\selfpc, %rsi
	cmpq	%rsi, CP_NODE_CALLEE(%rcx)
	jne	\miss
	movq	\site, %rsi
	cmpq	%rsi, CP_NODE_SITE(%rcx)
	jne	\miss
.endm

/* newfp: an instruction putting the new frame in %rax */
.macro PUSH newfp:vararg
	incq	CP_NODE_COUNT(%rcx)
	incq	%fs:CP_TLS_CLOCK(%r11)		/* the node's last-call stamp */
	movq	%fs:CP_TLS_CLOCK(%r11), %rax
	movq	%rax, CP_NODE_STAMP(%rcx)
	\newfp
	movq	%rcx, CP_FRAME_SIZE+CP_FRAME_NODE(%rdx)
	movq	%rax, CP_FRAME_SIZE+CP_FRAME_FP(%rdx)
	addq	$CP_FRAME_SIZE, %rdx		/* the new entry */
	movq	%rdx, %fs:CP_TLS_TOP(%r11)	/* and no longer busy */
.endm

.macro DONE frame, glibc
	cmpb	$0, cp_counter_off(%rip)
	je	\glibc
	movq	24(%rsp), %rsi
	movq	16(%rsp), %rdx
	movq	8(%rsp), %rcx
	movq	0(%rsp), %rax
	addq	$\frame, %rsp
	.cfi_adjust_cfa_offset -\frame
	ret
	.cfi_adjust_cfa_offset \frame
.endm

/*
 * CFA_AT off, frame: the canonical frame address is the value saved at
 * off(%rsp) plus frame + 8 (the trampoline's frame and the return
 * address), for the stretches where %rsp was aligned by `and`:
 * DW_CFA_def_cfa_expression, DW_OP_breg7 (rsp) off, DW_OP_deref,
 * DW_OP_plus_uconst frame + 8 (both offsets below 64, one byte each).
 */
.macro CFA_AT off, frame
	.cfi_escape 0x0f, 0x05, 0x77, \off, 0x06, 0x23, \frame + 8
.endm

/*
 * EARLY_START frame: before the slow path, when the runtime has not
 * started yet (a library's constructor or a .preinit_array function calls
 * into the program before our constructor ran), start it (cp_start_early,
 * C library code: the argument vector registers are saved around it; the
 * general ones are in the trampoline's frame).  The stack is aligned to 16
 * bytes first: GCC does not count the `call mcount` when it sizes a frame
 * (at -O0 a function with three arguments calls it with %rsp = 8 mod 16),
 * and the C library's code may use aligned vector moves on the stack.
 * %r11 is scratch here (glibc's mcount clobbers it too).
 */
.macro EARLY_START frame
	cmpl	$CP_STATE_IDLE, cp_state(%rip)
	jne	3f
	movq	%rsp, %r11
	andq	$-16, %rsp
	subq	$160, %rsp
	movq	%r11, 144(%rsp)
	.cfi_escape 0x0f, 0x06, 0x77, 0x90, 0x01, 0x06, 0x23, \frame + 8
	movdqu	%xmm0, 0(%rsp)
	movdqu	%xmm1, 16(%rsp)
	movdqu	%xmm2, 32(%rsp)
	movdqu	%xmm3, 48(%rsp)
	movdqu	%xmm4, 64(%rsp)
	movdqu	%xmm5, 80(%rsp)
	movdqu	%xmm6, 96(%rsp)
	movdqu	%xmm7, 112(%rsp)
	movq	%r10, 128(%rsp)
	call	cp_start_early
	movq	128(%rsp), %r10
	movdqu	112(%rsp), %xmm7
	movdqu	96(%rsp), %xmm6
	movdqu	80(%rsp), %xmm5
	movdqu	64(%rsp), %xmm4
	movdqu	48(%rsp), %xmm3
	movdqu	32(%rsp), %xmm2
	movdqu	16(%rsp), %xmm1
	movdqu	0(%rsp), %xmm0
	movq	144(%rsp), %rsp
	.cfi_def_cfa rsp, \frame + 8
3:
.endm

/*
 * CALL_C fn, frame: call record.c's fn with r10 kept and the stack aligned
 * (for the same reason as EARLY_START; record.c uses no vector registers,
 * but the C ABI is the C ABI).
 */
.macro CALL_C fn, frame
	movq	%rsp, %r11
	andq	$-16, %rsp
	pushq	%r11
	CFA_AT	0, \frame
	pushq	%r10
	CFA_AT	8, \frame
	call	\fn
	popq	%r10
	CFA_AT	0, \frame
	popq	%rsp
	.cfi_def_cfa rsp, \frame + 8
.endm
#endif

/*
 * libcallpath.a (CP_ARCHIVE) leaves _mcount to glibc and defines __fentry__
 * weak: in a static link, chain.c's reference to glibc's _mcount brings in
 * libc.a's _mcount.o, which also defines mcount (weak: ours wins) and
 * __fentry__ (strong: glibc's wins, -mfentry calls are counted in gmon.out
 * but not recorded).  See chain.c.
 */
	.globl	mcount
	.type	mcount, @function
#ifndef CP_ARCHIVE
	.globl	_mcount
	.type	_mcount, @function
#endif
	.p2align 6			/* see "Layout" above */
	.globl	cp_trampolines_start
	.hidden	cp_trampolines_start
cp_trampolines_start:
mcount:
#ifndef CP_ARCHIVE
_mcount:
#endif
	.cfi_startproc
#ifndef CP_NOOP
	/* not a -pg prologue: keep out (as cp_enter_mcount does) */
	cmpq	%rsp, %rbp
	jbe	.Lm_next
	testb	$7, %bpl
	jnz	.Lm_next
	SAVE_FAST 0x38
	WORK_BEGIN .Lm_slow
	MCOUNT_CALLER .Lm_miss
	PUSH_ALLOWED .Lm_miss
	CALLER_NODE .Lm_miss
	KID_HIT	.Lm_edge, 0x38(%rsp), 8(%rbp)
.Lm_push:
	PUSH	movq %rbp, %rax
	DONE	0x38, .Lm_glibc
.Lm_edge:
	EDGE_HIT .Lm_miss, 0x38(%rsp), 8(%rbp)
	jmp	.Lm_push
.Lm_glibc:
	SAVE_REST
	movq	0x38(%rsp), %rsi		/* selfpc */
	movq	8(%rbp), %rdi			/* frompc */
.Lm_count:
	call	*cp_mcount_internal(%rip)	/* or cp_chain_mcount */
	FRAME_CLOSE 0x38
	ret
	.cfi_adjust_cfa_offset 0x38
.Lm_miss:
	movq	%rax, %fs:CP_TLS_TOP(%r11)	/* not busy any more */
.Lm_slow:
	SAVE_REST
	EARLY_START 0x38
	movq	%rbp, %rdi			/* the instrumented function's frame */
	movq	0x38(%rsp), %rsi		/* selfpc */
	leaq	0x38(%rsp), %rdx		/* %rsp at entry */
	CALL_C	cp_enter_mcount, 0x38
	movq	0x38(%rsp), %rsi		/* selfpc */
	movq	8(%rbp), %rdi			/* frompc */
	jmp	.Lm_count
	.cfi_adjust_cfa_offset -0x38
#endif
.Lm_next:
	cmpq	$0, cp_next_mcount(%rip)
	je	1f
	jmp	*cp_next_mcount(%rip)
1:	ret
	.cfi_endproc
	.size	mcount, .-mcount
#ifndef CP_ARCHIVE
	.size	_mcount, .-_mcount
#endif

#ifdef CP_ARCHIVE
	.weak	__fentry__
#else
	.globl	__fentry__
#endif
	.type	__fentry__, @function
	.p2align 6
__fentry__:
	.cfi_startproc
#ifndef CP_NOOP
	SAVE_FAST 0x40
	WORK_BEGIN .Lf_slow
	FENTRY_CALLER .Lf_miss
	PUSH_ALLOWED .Lf_miss
	FENTRY_LIVE .Lf_miss
	KID_HIT	.Lf_edge, 0x40(%rsp), 0x48(%rsp)
.Lf_push:
	PUSH	leaq 0x40(%rsp), %rax
	DONE	0x40, .Lf_glibc
.Lf_edge:
	EDGE_HIT .Lf_miss, 0x40(%rsp), 0x48(%rsp)
	jmp	.Lf_push
.Lf_glibc:
	SAVE_REST
	movq	0x40(%rsp), %rsi		/* selfpc */
	movq	0x48(%rsp), %rdi		/* frompc */
.Lf_count:
	call	*cp_fentry_internal(%rip)	/* or cp_chain_fentry */
	FRAME_CLOSE 0x40
	ret
	.cfi_adjust_cfa_offset 0x40
.Lf_miss:
	movq	%rax, %fs:CP_TLS_TOP(%r11)	/* not busy any more */
.Lf_slow:
	SAVE_REST
	EARLY_START 0x40
	leaq	0x48(%rsp), %rdi		/* the instrumented function's slot */
	movq	0x40(%rsp), %rsi		/* selfpc */
	CALL_C	cp_enter_fentry, 0x40
	movq	0x40(%rsp), %rsi		/* selfpc */
	movq	0x48(%rsp), %rdi		/* frompc */
	jmp	.Lf_count
	.cfi_adjust_cfa_offset -0x40
#endif
.Lf_next:
	cmpq	$0, cp_next_fentry(%rip)
	je	1f
	jmp	*cp_next_fentry(%rip)
1:	ret
	.cfi_endproc
	.size	__fentry__, .-__fentry__
	/* the end of the code where a busy thread's top is in %rax (sample.c) */
	.globl	cp_trampolines_end
	.hidden	cp_trampolines_end
cp_trampolines_end:

#ifndef CP_NOOP
/*
 * Chained mode: what the trampolines call instead of glibc's counter when
 * they do not know glibc's function.  Called with the trampoline's frame
 * right above the return address: drop the return address, close that
 * frame and tail-jump to glibc's function, which then sees the stack and
 * registers exactly as at the trampoline's entry and returns to the
 * instrumented function.
 */
	.globl	cp_chain_mcount
	.hidden	cp_chain_mcount
	.type	cp_chain_mcount, @function
	.p2align 4
cp_chain_mcount:
	.cfi_startproc
	addq	$8, %rsp
	.cfi_def_cfa_offset 0x40
	FRAME_CLOSE 0x38
	jmp	.Lm_next
	.cfi_endproc
	.size	cp_chain_mcount, .-cp_chain_mcount

	.globl	cp_count_none
	.hidden	cp_count_none
	.type	cp_count_none, @function
	.p2align 4
cp_count_none:
	.cfi_startproc
	ret
	.cfi_endproc
	.size	cp_count_none, .-cp_count_none

	.globl	cp_chain_fentry
	.hidden	cp_chain_fentry
	.type	cp_chain_fentry, @function
	.p2align 4
cp_chain_fentry:
	.cfi_startproc
	addq	$8, %rsp
	.cfi_def_cfa_offset 0x48
	FRAME_CLOSE 0x40
	jmp	.Lf_next
	.cfi_endproc
	.size	cp_chain_fentry, .-cp_chain_fentry
#endif

	.section .note.GNU-stack,"",@progbits
