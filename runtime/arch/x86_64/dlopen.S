/*
 * dlopen.S - the runtime's dlopen, for sampling mode (runtime/sampled.c).
 *
 * A stack walk reads the unwind information of the objects of its table
 * (runtime/unwind.c), which is rebuilt after each dlopen.  glibc's dlopen
 * looks at its caller: its return address chooses the namespace and, for a
 * name without '/', whose RUNPATH is searched.  So this entry asks
 * cp_dlopen_ours(file, mode, return address) first: where the caller
 * cannot matter (sampling mode, a path with '/' and no '$', a caller in
 * the base namespace) the C wrapper opens the object and rebuilds the
 * table; otherwise it jumps to glibc's dlopen with the stack and the
 * registers as they were at entry, so that glibc sees the program's own
 * caller (the table is then rebuilt at the next dlopen or dlclose).
 */
	.text
	.globl	dlopen
	.type	dlopen, @function
	.p2align 4
dlopen:
	.cfi_startproc
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	pushq	%rsi
	.cfi_adjust_cfa_offset 8
	subq	$8, %rsp		/* 16-byte aligned for the call */
	.cfi_adjust_cfa_offset 8
	movq	24(%rsp), %rdx		/* the caller's return address */
	call	cp_dlopen_ours
	addq	$8, %rsp
	.cfi_adjust_cfa_offset -8
	popq	%rsi
	.cfi_adjust_cfa_offset -8
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	testl	%eax, %eax
	jnz	1f
	jmp	*cp_next_dlopen(%rip)
1:	jmp	cp_dlopen_refreshing
	.cfi_endproc
	.size	dlopen, .-dlopen

	.section .note.GNU-stack,"",@progbits
