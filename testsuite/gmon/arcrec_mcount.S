/*
 * arcrec_mcount.S - the test fixture's mcount (x86_64): glibc's frame and
 * arguments (sysdeps/x86_64/_mcount.S: the seven argument registers saved,
 * selfpc = our return address, frompc = 8(%rbp)), then arcrec_mcount(),
 * which counts the arc itself (taken over) or, in the static build, calls
 * glibc's __mcount_internal.  Dynamic build, not taken over: it returns 1
 * and we tail-jump to glibc's mcount, which sees the stack as at entry.
 *
 * The static build defines mcount only: libc.a's _mcount.o also defines
 * __fentry__, and static -mfentry links bring it in with its strong _mcount.
 */
	.text
	.globl	mcount
	.type	mcount, @function
#ifndef ARCREC_STATIC
	.globl	_mcount
	.type	_mcount, @function
#endif
	.p2align 4
mcount:
#ifndef ARCREC_STATIC
_mcount:
#endif
	.cfi_startproc
	subq	$56, %rsp
	.cfi_adjust_cfa_offset 56
	movq	%rax, 0(%rsp)
	movq	%rcx, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rsi, 24(%rsp)
	movq	%rdi, 32(%rsp)
	movq	%r8, 40(%rsp)
	movq	%r9, 48(%rsp)
	movq	56(%rsp), %rsi
	movq	8(%rbp), %rdi
	call	arcrec_mcount
	movq	%rax, %r11
	movq	48(%rsp), %r9
	movq	40(%rsp), %r8
	movq	32(%rsp), %rdi
	movq	24(%rsp), %rsi
	movq	16(%rsp), %rdx
	movq	8(%rsp), %rcx
	movq	0(%rsp), %rax
	addq	$56, %rsp
	.cfi_adjust_cfa_offset -56
	testq	%r11, %r11
	jnz	1f
	ret
1:	jmp	*arcrec_next_mcount(%rip)
	.cfi_endproc
	.size	mcount, .-mcount

	.section .note.GNU-stack,"",@progbits
