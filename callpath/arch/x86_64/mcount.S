/*
 * mcount.S - x86_64 entry points of the call-path runtime.
 *
 * gcc -pg calls mcount right after the prologue (push %rbp; mov %rsp,%rbp),
 * -pg -mfentry calls __fentry__ before it.  glibc's versions read their
 * caller's frame (the return address at 0(%rsp) and, for mcount, the parent
 * return address at 8(%rbp)), so we leave every register and the stack
 * exactly as at entry and tail-jump to them (cp_next_*, found by chain.c).
 *
 * Saved around the C call: every register that may carry an argument or the
 * static chain (rax for varargs, rdi rsi rdx rcx r8 r9, r10) plus r11.
 * Vector registers are not saved: record.c is built -mgeneral-regs-only and
 * calls only mmap/munmap.
 *
 * Built with -DCP_NOOP this is the no-op trampoline (tail-jump only) used to
 * measure what the interposition itself costs.
 */
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
	SAVE
	movq	%rbp, %rdi		/* the instrumented function's frame */
	movq	8(%rbx), %rsi		/* selfpc: our return address */
	leaq	8(%rbx), %rdx		/* %rsp at entry */
	call	cp_enter_mcount
	RESTORE
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
	SAVE
	leaq	16(%rbx), %rdi		/* the instrumented function's return-address slot */
	movq	8(%rbx), %rsi		/* selfpc */
	call	cp_enter_fentry
	RESTORE
#endif
	cmpq	$0, cp_next_fentry(%rip)
	je	1f
	jmp	*cp_next_fentry(%rip)
1:	ret
	.cfi_endproc
	.size	__fentry__, .-__fentry__

	.section .note.GNU-stack,"",@progbits
