/*
 * mcount.S - x86_64 entry points of the call-path runtime.
 *
 * gcc -pg calls mcount right after the prologue (push %rbp; mov %rsp,%rbp),
 * -pg -mfentry calls __fentry__ before it.  glibc's versions read their
 * caller's frame (the return address at 0(%rsp) and, for mcount, the parent
 * return address at 8(%rbp)), so we leave every register glibc keeps (rax
 * rcx rdx rsi rdi r8 r9, plus r10) and the stack exactly as at entry and
 * tail-jump to them (cp_next_*, found by chain.c).  Like glibc's, we clobber
 * r11 and the flags.
 *
 * Fast path, in assembly, for the common case (record.c's comment has the
 * whole algorithm, which it runs for every other case):
 *   - the thread is recording and not already inside the runtime;
 *   - at most three entries above the caller are stale (CP_FRAME_POPS) (the new frame's
 *     caller is the top after popping them; for __fentry__, the entry under
 *     them lies above the new frame): the pops are counted with adc, without
 *     a branch; the sentinels under the root make the reads safe;
 *   - the edge (parent, call site, callee) is in the thread's edge cache
 *     (struct cp_edge, index cp_edge_index());
 *   - the push stays below cp_tls.limit (stack room, no CALLPATH_DEPTH cut).
 * It uses r11 and five registers it pushes; the busy flag is set around it
 * exactly as record.c does, so a signal handler's calls are dropped and
 * counted.  Anything else goes to the slow path: save every register that
 * may carry an argument (rax for varargs, rdi rsi rdx rcx r8 r9, r10 for
 * the static chain), align the stack and call cp_enter_*() in record.c.
 * Vector registers are never saved: record.c is built -mgeneral-regs-only
 * and calls only mmap/munmap.
 *
 * Built with -DCP_NOOP this is the no-op trampoline (tail-jump only) used to
 * measure what the interposition itself costs.
 */
#include "../../runtime.h"

	.text

#ifndef CP_NOOP
/* SAVE/RESTORE: keep the entry %rsp in %rbx, align, spill 9 registers. */
.macro SAVE
	pushq	%rbx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset rbx, 0
	movq	%rsp, %rbx
	.cfi_def_cfa_register rbx
	andq	$-16, %rsp
	subq	$80, %rsp
	movq	%rax, 0(%rsp)
	movq	%rcx, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rsi, 24(%rsp)
	movq	%rdi, 32(%rsp)
	movq	%r8, 40(%rsp)
	movq	%r9, 48(%rsp)
	movq	%r10, 56(%rsp)
	movq	%r11, 64(%rsp)
.endm

.macro RESTORE
	movq	0(%rsp), %rax
	movq	8(%rsp), %rcx
	movq	16(%rsp), %rdx
	movq	24(%rsp), %rsi
	movq	32(%rsp), %rdi
	movq	40(%rsp), %r8
	movq	48(%rsp), %r9
	movq	56(%rsp), %r10
	movq	64(%rsp), %r11
	movq	%rbx, %rsp
	.cfi_def_cfa_register rsp
	popq	%rbx
	.cfi_adjust_cfa_offset -8
	.cfi_restore rbx
.endm

/*
 * FAST_ENTER slow: the checks before any register is touched but r11, which
 * ends up holding cp_tls's offset from %fs; then set busy and push the five
 * registers the fast path uses (entry %rsp is 40(%rsp) after this).
 */
.macro FAST_ENTER slow
	movq	cp_tls@gottpoff(%rip), %r11
	cmpl	$0, %fs:CP_TLS_BUSY(%r11)
	jne	\slow
	cmpq	$0, %fs:CP_TLS_TOP(%r11)
	je	\slow				/* thread not started */
	cmpl	$CP_STATE_RECORDING, cp_state(%rip)
	jne	\slow
	movl	$1, %fs:CP_TLS_BUSY(%r11)
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	pushq	%rsi
	.cfi_adjust_cfa_offset 8
	pushq	%rdx
	.cfi_adjust_cfa_offset 8
	pushq	%rcx
	.cfi_adjust_cfa_offset 8
	pushq	%r8
	.cfi_adjust_cfa_offset 8
	.cfi_remember_state
.endm

.macro FAST_POPS
	popq	%r8
	.cfi_adjust_cfa_offset -8
	popq	%rcx
	.cfi_adjust_cfa_offset -8
	popq	%rdx
	.cfi_adjust_cfa_offset -8
	popq	%rsi
	.cfi_adjust_cfa_offset -8
	popq	%rdi
	.cfi_adjust_cfa_offset -8
.endm

/*
 * FIND_CALLER: %rdi = new slot; loads %rsi = top and leaves in %rdx the
 * entry under the (at most CP_FRAME_POPS = 3) top entries whose slot is <=
 * the new slot, and in %r8 its node.  Slots decrease towards the top, so
 * those entries are a run at the top.  The candidate nodes are loaded along
 * with the slots and picked with cmov: glibc's mcount runs a locked
 * instruction on every call, so each load that waits for another one here
 * is paid in full.
 */
.macro FIND_CALLER
	movq	%fs:CP_TLS_TOP(%r11), %rsi
	xorl	%edx, %edx
	movq	CP_FRAME_NODE(%rsi), %r8
	cmpq	CP_FRAME_SLOT(%rsi), %rdi	/* CF: slot < top->slot, keep it */
	cmovae	CP_FRAME_NODE-CP_FRAME_SIZE(%rsi), %r8
	adcq	$0, %rdx
	cmpq	CP_FRAME_SLOT-CP_FRAME_SIZE(%rsi), %rdi
	cmovae	CP_FRAME_NODE-2*CP_FRAME_SIZE(%rsi), %r8
	adcq	$0, %rdx
	cmpq	CP_FRAME_SLOT-2*CP_FRAME_SIZE(%rsi), %rdi
	cmovae	CP_FRAME_NODE-3*CP_FRAME_SIZE(%rsi), %r8
	adcq	$0, %rdx
	shlq	$4, %rdx			/* CP_FRAME_SIZE == 16 */
	leaq	-CP_FRAME_POPS*CP_FRAME_SIZE(%rsi,%rdx), %rdx
.endm

/*
 * EDGE_HASH selfpc, site: %rcx = the site/callee half of cp_edge_index(),
 * already shifted to a byte offset: (h >> 24) << CP_EDGE_SHIFT, whose low
 * bits the mask in FAST_PUSH clears.
 */
.macro EDGE_HASH selfpc, site
	movq	\selfpc, %rcx
	shlq	$7, %rcx
	xorq	\site, %rcx
	imulq	$CP_HASH_MUL, %rcx, %rcx
	shrq	$24-CP_EDGE_SHIFT, %rcx
.endm

/*
 * FAST_PUSH miss, selfpc, site, slot: %rdx = the caller's entry, %r8 its
 * node, %rcx = EDGE_HASH; selfpc, site and slot are operands (memory /
 * address).  Finds the edge in the cache, counts it, pushes, clears busy.
 * ((h' ^ parent) & (mask << 5)) is cp_edge_index() << 5 (CP_NODE_SHIFT ==
 * CP_EDGE_SHIFT == 5).
 */
.macro FAST_PUSH miss, selfpc, site, slot
	leaq	CP_FRAME_SIZE(%rdx), %rsi	/* the new entry */
	cmpq	%fs:CP_TLS_LIMIT(%r11), %rsi
	jae	\miss
	testq	%r8, %r8
	jz	\miss				/* under a call not recorded */
	movq	%r8, %rdi
	xorq	%rcx, %rdi
	andl	$(((1 << CP_CACHE_BITS) - 1) << CP_EDGE_SHIFT), %edi
	addq	%fs:CP_TLS_CACHE(%r11), %rdi
	cmpq	%r8, CP_EDGE_PARENT(%rdi)
	jne	\miss
	movq	\selfpc, %rcx
	cmpq	%rcx, CP_EDGE_CALLEE(%rdi)
	jne	\miss
	movq	\site, %rcx
	cmpq	%rcx, CP_EDGE_SITE(%rdi)
	jne	\miss
	movq	CP_EDGE_CHILD(%rdi), %rdx
	incq	CP_NODE_COUNT(%rdx)
	leaq	\slot, %rdi
	movq	%rdi, CP_FRAME_SLOT(%rsi)
	movq	%rdx, CP_FRAME_NODE(%rsi)
	movq	%rsi, %fs:CP_TLS_TOP(%r11)
	movl	$0, %fs:CP_TLS_BUSY(%r11)
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
	FAST_ENTER .Lm_slow
	/* entry %rsp = 40(%rsp): selfpc at 40(%rsp); new slot = 8(%rbp) */
	cmpq	%rbp, (%rbp)
	jbe	.Lm_miss			/* the caller's frame is not above */
	leaq	8(%rbp), %rdi
	FIND_CALLER
	EDGE_HASH 40(%rsp), 8(%rbp)
	movq	(%rbp), %rdi
	addq	$8, %rdi			/* the caller's slot */
	cmpq	%rdi, CP_FRAME_SLOT(%rdx)
	jne	.Lm_miss			/* caller not on top */
	FAST_PUSH .Lm_miss, 40(%rsp), 8(%rbp), 8(%rbp)
	FAST_POPS
	jmp	.Lm_next
.Lm_miss:
	.cfi_restore_state
	movl	$0, %fs:CP_TLS_BUSY(%r11)
	FAST_POPS
.Lm_slow:
	SAVE
	movq	%rbp, %rdi		/* the instrumented function's frame */
	movq	8(%rbx), %rsi		/* selfpc: our return address */
	leaq	8(%rbx), %rdx		/* %rsp at entry */
	call	cp_enter_mcount
	RESTORE
.Lm_next:
#endif
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
	cmpl	$0, cp_saw_fentry(%rip)
	je	.Lf_slow			/* record.c sets it */
	FAST_ENTER .Lf_slow
	/* entry %rsp = 40(%rsp): selfpc at 40(%rsp), new slot 48(%rsp) */
	leaq	48(%rsp), %rdi
	FIND_CALLER
	EDGE_HASH 40(%rsp), 48(%rsp)
	cmpq	%rdi, CP_FRAME_SLOT(%rdx)
	jbe	.Lf_miss			/* more entries to pop */
	FAST_PUSH .Lf_miss, 40(%rsp), 48(%rsp), 48(%rsp)
	FAST_POPS
	jmp	.Lf_next
.Lf_miss:
	.cfi_restore_state
	movl	$0, %fs:CP_TLS_BUSY(%r11)
	FAST_POPS
.Lf_slow:
	SAVE
	leaq	16(%rbx), %rdi		/* the instrumented function's return-address slot */
	movq	8(%rbx), %rsi		/* selfpc */
	call	cp_enter_fentry
	RESTORE
.Lf_next:
#endif
	cmpq	$0, cp_next_fentry(%rip)
	je	1f
	jmp	*cp_next_fentry(%rip)
1:	ret
	.cfi_endproc
	.size	__fentry__, .-__fentry__

	.section .note.GNU-stack,"",@progbits
