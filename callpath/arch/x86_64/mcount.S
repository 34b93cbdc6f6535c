/*
 * mcount.S - x86_64 entry points of the call-path runtime.
 *
 * gcc -pg calls mcount right after the prologue (push %rbp; mov %rsp,%rbp),
 * -pg -mfentry calls __fentry__ before it.  glibc's versions read their
 * caller's frame (the return address at 0(%rsp) and, for mcount, the parent
 * return address at 8(%rbp)), save rax rcx rdx rsi rdi r8 r9 in a frame of
 * FRAME bytes (0x38 for mcount, 0x40 for __fentry__) and call glibc's
 * counter, __mcount_internal(frompc, selfpc).  We open the same frame and
 * then, in one of two modes:
 *   - direct (cp_mcount_internal / cp_fentry_internal set: record.c found
 *     that cp_next_* is exactly glibc's code): do our work in the frame,
 *     call the counter ourselves, restore and return.  This spares a second
 *     save/restore.  (Our work after the counter's call, so that the locked
 *     instruction it runs on every call would not wait for it, measured no
 *     faster on fib and 10% slower on bench/callpath/ptrtable.c);
 *   - chained (any other mcount): do our work, restore and tail-jump to
 *     cp_next_*, which sees the stack and registers exactly as at entry.
 * Either way the caller sees only the registers glibc's version clobbers
 * changed (r11, the flags, and whatever glibc's counter clobbers); r10, the
 * static chain, is preserved by everything of ours.
 *
 * Our work (WORK_MCOUNT, WORK_FENTRY), for the common case (record.c's
 * comment has the whole algorithm, which it runs for every other case):
 *   - the thread is recording and not already inside the runtime: its
 *     shadow-stack top (cp_tls.top) is not NULL.  We set it to NULL while we
 *     work, which is the busy flag: a signal handler's calls meanwhile go to
 *     record.c, which drops and counts them;
 *   - mcount: the caller's entry (slot = saved %rbp + 8) is one of the
 *     CP_FRAME_POPS + 1 entries at the top (found with cmov, no branch; the
 *     sentinels under the root make the reads safe); the entries above it
 *     are dropped.  __fentry__: at most CP_FRAME_POPS entries at the top are
 *     stale (slot <= the new frame's slot; counted with adc), and the one
 *     under them is the caller;
 *   - the edge (parent, call site, callee) is in the thread's edge cache
 *     (struct cp_edge, index cp_edge_index());
 *   - the push stays below cp_tls.limit (stack room, no CALLPATH_DEPTH cut).
 * Anything else restores cp_tls.top and calls cp_enter_*() in record.c
 * (built -mgeneral-regs-only, calling only mmap/munmap: vector registers
 * are never saved).
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
 * The WORK_* macros fall through when they have recorded the call, with
 * %rdi = frompc (the call site) and %rsi = selfpc, the counter's arguments;
 * they go to `slow` before they set busy, to `miss` (WORK_END) after.
 *
 * WORK_BEGIN slow: %r11 = cp_tls's offset from %fs, %r9 = cp_tls.top, not
 * NULL, and cp_tls.top = NULL (busy); else to `slow` with nothing changed.
 */
.macro WORK_BEGIN slow
	movq	cp_tls@gottpoff(%rip), %r11
	movq	%fs:CP_TLS_TOP(%r11), %r9
	testq	%r9, %r9
	jz	\slow			/* not started, or inside the runtime */
	cmpl	$CP_STATE_RECORDING, cp_state(%rip)
	jne	\slow
	movq	$0, %fs:CP_TLS_TOP(%r11)
.endm

/*
 * WORK_END miss, selfpc, site: %rdx = the caller's entry, %r9 the old top.
 * Pushes the child (site, selfpc) of the caller's node if the edge cache
 * has it, and falls through; else goes to `miss`, which must restore
 * cp_tls.top from %r9.  selfpc and site are memory operands; the new
 * entry's fp must be stored by the caller of the macro (%rdx is the entry).
 * The cache index is cp_edge_index() << CP_EDGE_SHIFT (== CP_NODE_SHIFT):
 * the parent's low bits are zero, the mask clears the hash's.  A NULL node
 * (a call not recorded) finds no edge: the zeroed entries have no callee.
 */
.macro WORK_END miss, selfpc, site
	movq	CP_FRAME_NODE(%rdx), %r8
	addq	$CP_FRAME_SIZE, %rdx		/* the new entry */
	cmpq	%fs:CP_TLS_LIMIT(%r11), %rdx
	jae	\miss
	movq	\selfpc, %rsi
	movq	\site, %rdi
	leaq	(%r8,%rdi,8), %rcx		/* cp_edge_index() */
	leaq	(%rcx,%rsi,2), %rcx
	andl	$(((1 << CP_CACHE_BITS) - 1) << CP_EDGE_SHIFT), %ecx
	addq	%fs:CP_TLS_CACHE(%r11), %rcx
	cmpq	%r8, CP_EDGE_PARENT(%rcx)
	jne	\miss
	cmpq	%rsi, CP_EDGE_CALLEE(%rcx)
	jne	\miss
	cmpq	%rdi, CP_EDGE_SITE(%rcx)
	jne	\miss
	movq	CP_EDGE_CHILD(%rcx), %rax
	incq	CP_NODE_COUNT(%rax)
	movq	%rax, CP_FRAME_NODE(%rdx)
.endm

/*
 * WORK_MCOUNT miss, slow: in the 0x38-byte frame (selfpc at 0x38(%rsp)).
 * The caller's entry is the one among the CP_FRAME_POPS + 1 at the top whose
 * fp is the caller's frame (saved %rbp), if any; it must lie above the new
 * frame (%rbp), as record.c requires.  Frames are unique on the shadow
 * stack, so at most one matches.
 */
.macro WORK_MCOUNT miss, slow
	WORK_BEGIN \slow
	movq	(%rbp), %rdi			/* the caller's frame */
	cmpq	%rbp, %rdi
	jbe	\miss				/* not above */
	movq	%r9, %rdx
	leaq	-CP_FRAME_SIZE(%r9), %rcx
	cmpq	%rdi, CP_FRAME_FP-CP_FRAME_SIZE(%r9)
	cmove	%rcx, %rdx
	leaq	-2*CP_FRAME_SIZE(%r9), %rcx
	cmpq	%rdi, CP_FRAME_FP-2*CP_FRAME_SIZE(%r9)
	cmove	%rcx, %rdx
	leaq	-3*CP_FRAME_SIZE(%r9), %rcx
	cmpq	%rdi, CP_FRAME_FP-3*CP_FRAME_SIZE(%r9)
	cmove	%rcx, %rdx
	cmpq	%rdi, CP_FRAME_FP(%rdx)
	jne	\miss				/* not among them */
	WORK_END \miss, 0x38(%rsp), 8(%rbp)
	movq	%rbp, CP_FRAME_FP(%rdx)
	movq	%rdx, %fs:CP_TLS_TOP(%r11)	/* and no longer busy */
.endm

/*
 * WORK_FENTRY miss, slow: in the 0x40-byte frame (selfpc at 0x40(%rsp), the
 * instrumented function's return-address slot at 0x48(%rsp), so its frame
 * is 0x40(%rsp)).  Entries under the top CP_FRAME_POPS whose frame is above
 * the new one are kept (counted in %rdx with adc); the caller's entry is
 * under what is popped.
 */
.macro WORK_FENTRY miss, slow
	WORK_BEGIN \slow
	leaq	0x40(%rsp), %rdi		/* the new frame */
	xorl	%edx, %edx
	cmpq	CP_FRAME_FP(%r9), %rdi		/* CF: fp < top->fp, keep it */
	adcq	$0, %rdx
	cmpq	CP_FRAME_FP-CP_FRAME_SIZE(%r9), %rdi
	adcq	$0, %rdx
	cmpq	CP_FRAME_FP-2*CP_FRAME_SIZE(%r9), %rdi
	adcq	$0, %rdx
	shlq	$4, %rdx			/* CP_FRAME_SIZE == 16 */
	leaq	-CP_FRAME_POPS*CP_FRAME_SIZE(%r9,%rdx), %rdx
	cmpq	%rdi, CP_FRAME_FP(%rdx)
	jbe	\miss				/* more entries to pop */
	WORK_END \miss, 0x40(%rsp), 0x48(%rsp)
	leaq	0x40(%rsp), %rcx
	movq	%rcx, CP_FRAME_FP(%rdx)
	movq	%rdx, %fs:CP_TLS_TOP(%r11)	/* and no longer busy */
.endm

/* CALL_C fn: call record.c's fn with r10 kept and the stack aligned. */
.macro CALL_C fn
	pushq	%r10
	.cfi_adjust_cfa_offset 8
	pushq	%r10
	.cfi_adjust_cfa_offset 8
	call	\fn
	popq	%r10
	.cfi_adjust_cfa_offset -8
	popq	%r10
	.cfi_adjust_cfa_offset -8
.endm
#endif

	.globl	mcount
	.type	mcount, @function
	.globl	_mcount
	.type	_mcount, @function
	.p2align 4
mcount:
_mcount:
	.cfi_startproc
#ifndef CP_NOOP
	/* not a -pg prologue: keep out (as cp_enter_mcount does) */
	cmpq	%rsp, %rbp
	jbe	.Lm_next
	testb	$7, %bpl
	jnz	.Lm_next
	FRAME_OPEN 0x38
	WORK_MCOUNT .Lm_miss, .Lm_slow
.Lm_count:
	call	*cp_mcount_internal(%rip)	/* or cp_chain_mcount */
	FRAME_CLOSE 0x38
	ret
	.cfi_adjust_cfa_offset 0x38
.Lm_miss:
	movq	%r9, %fs:CP_TLS_TOP(%r11)	/* not busy any more */
.Lm_slow:
	movq	%rbp, %rdi			/* the instrumented function's frame */
	movq	0x38(%rsp), %rsi		/* selfpc */
	leaq	0x38(%rsp), %rdx		/* %rsp at entry */
	CALL_C	cp_enter_mcount
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
	.size	_mcount, .-_mcount

	.globl	__fentry__
	.type	__fentry__, @function
	.p2align 4
__fentry__:
	.cfi_startproc
#ifndef CP_NOOP
	FRAME_OPEN 0x40
	WORK_FENTRY .Lf_miss, .Lf_slow
.Lf_count:
	call	*cp_fentry_internal(%rip)	/* or cp_chain_fentry */
	FRAME_CLOSE 0x40
	ret
	.cfi_adjust_cfa_offset 0x40
.Lf_miss:
	movq	%r9, %fs:CP_TLS_TOP(%r11)	/* not busy any more */
.Lf_slow:
	leaq	0x48(%rsp), %rdi		/* the instrumented function's slot */
	movq	0x40(%rsp), %rsi		/* selfpc */
	CALL_C	cp_enter_fentry
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
