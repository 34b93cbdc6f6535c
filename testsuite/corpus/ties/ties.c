/*
 * Symbols between which BFD's function lookup must choose as GNU gprof's
 * did (issue 15: ours answers from an index, not a scan of the table):
 * three global aliases at one address with one size (work), a static
 * function with a global alias (local_fn), a global entry point with a
 * smaller size nested inside another function (inner in outer), and a
 * label with no size or type (bare).  x86-64 only (the assembly).
 *
 *   main -> outer -> work (x2, once from inside inner), work_alias
 *        -> work_alias2 -> work
 *        -> local_alias / local_fn -> work
 */
#include <stdlib.h>

volatile long sink;

__attribute__((noinline)) void work(int n)
{
	for (long k = 0; k < n * 3000000L; k++)
		sink += k;
}
void work_alias(int n) __attribute__((alias("work")));
void work_alias2(int n) __attribute__((alias("work")));

__attribute__((noinline)) static void local_fn(int n) { work(n); }
void local_alias(int n) __attribute__((alias("local_fn")));

__asm__(".text\n"
	".globl outer\n.type outer,@function\nouter:\n"
	"\tpushq %rbp\n\tmovq %rsp,%rbp\n\tcall mcount@PLT\n"
	"\tmovl $3,%edi\n\tcall work@PLT\n"
	".globl inner\n.type inner,@function\ninner:\n"
	"\tmovl $2,%edi\n\tcall work@PLT\n"
	".size inner, .-inner\n"
	"\tmovl $1,%edi\n\tcall work_alias@PLT\n"
	"\tpopq %rbp\n\tret\n"
	".size outer, .-outer\n"
	".globl bare\nbare:\n\tnop\n\tret\n");
void outer(void);

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1;

	for (int i = 0; i < rounds; i++) {
		outer();
		work_alias2(2);
		local_alias(1);
		local_fn(1);
	}
	return 0;
}
