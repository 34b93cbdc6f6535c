/*
 * rbpdata.c - callbacks from a caller that keeps data in %rbp (t418).
 *
 *   rbpdata ROUNDS CALLS
 *
 * Each round, main() hands cb() to walk() directly, after deep() has
 * recursed 24 deep and returned (24 stale shadow-stack entries, more than
 * mcount's fast path steps over), then deep() recurses 24 deep again and
 * hands cb() to walk() at every level (as many live entries under the
 * call).  walk() is not instrumented and, like code built without frame
 * pointers, uses %rbp for data: a value above every frame.  mcount's check
 * of the caller's frame (the saved %rbp) finds no entry for it; each call
 * belongs to the innermost live instrumented frame, main or the deep()
 * that called walk().  With CALLPATH_RECURSION=full every level's deep()
 * has a node of its own with an edge to cb(), so a caller search that
 * stopped on the wrong entry would count cb() under the wrong level.
 * Prints the calls made.
 */
#include <stdio.h>
#include <stdlib.h>

/* walk(cb, n): calls cb n times with %rbp = 0x7ffffffffff0 (above user stacks) */
void walk(void (*cb)(void), long n);
__asm__(".text\n"
	".globl walk\n"
	".type walk, @function\n"
	"walk:\n"
	"	push %rbp\n"
	"	push %rbx\n"
	"	push %r12\n"
	"	mov %rdi, %rbx\n"
	"	mov %rsi, %r12\n"
	"	movabs $0x7ffffffffff0, %rbp\n"
	"1:	test %r12, %r12\n"
	"	jz 2f\n"
	"	call *%rbx\n"
	"	dec %r12\n"
	"	jmp 1b\n"
	"2:	pop %r12\n"
	"	pop %rbx\n"
	"	pop %rbp\n"
	"	ret\n"
	".size walk, .-walk\n");

static volatile long cb_calls, deep_calls;

__attribute__((noinline)) void cb(void)
{
	cb_calls++;
}

__attribute__((noinline)) void deep(int n, long calls)
{
	deep_calls++;
	if (calls)
		walk(cb, calls);
	if (n > 1)
		deep(n - 1, calls);
	__asm__ volatile("" ::: "memory");	/* not a tail call */
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 10;
	long calls = argc > 2 ? atol(argv[2]) : 1000;

	for (long r = 0; r < rounds; r++) {
		deep(24, 0);
		walk(cb, calls);
		deep(24, calls);
	}
	printf("cb %ld deep %ld\n", cb_calls, deep_calls);
	return 0;
}
