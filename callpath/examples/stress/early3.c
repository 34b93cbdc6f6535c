/*
 * early3.c - calls into the program before libcallpath's constructor ran,
 * on a stack that is not 16-byte aligned at mcount's entry: GCC does not
 * count the `call mcount` when it sizes a frame, so at -O0 a function with
 * three arguments calls mcount with %rsp = 8 mod 16.
 *
 * Two ways in: a `.preinit_array` function of the program (it runs before
 * every constructor, with libcallpath preloaded or linked), and, built with
 * -DEARLY_LIB as a shared library, a library constructor calling back into
 * the program (with libcallpath preloaded, it runs before ours).
 */
#include <stdio.h>

#ifdef EARLY_LIB
long three(long a, long b, long c);

__attribute__((constructor)) static void lib_init(void)
{
	printf("lib %ld\n", three(1, 2, 3));
}
#else
static volatile long sink;
static long early;	/* what preinit() computed */

__attribute__((noinline)) long three(long a, long b, long c)
{
	sink += a * b + c;
	return sink;
}

/*
 * Called as void (*)(int, char **, char **); declared with three longs so
 * that its own frame is the misaligned one (sub $0x18) at its mcount call.
 * Only the low half of the first is the argument count.
 */
static void preinit(long argc, long argv, long envp)
{
	(void)argv;
	(void)envp;
	early = three((int)argc, 4, 5);
}

__attribute__((section(".preinit_array"), used))
static void (*const preinit_fn)(long, long, long) = preinit;

int main(void)
{
	printf("preinit %ld\n", early);
	printf("main %ld\n", three(2, 3, 4));
	return 0;
}
#endif
