/*
 * ptrtable.c - tiny functions called through a pointer table, N rounds.
 *
 * Each round starts one entry further, so the indirect call's target is
 * hard to predict: plain -pg spends most of its time in mispredictions, and
 * a runtime whose branches happen to tell the predictor where it is can run
 * faster than plain -pg.  Built with -DFIXED_ORDER every round calls f0..f3
 * in order, which measures the runtime's own cost per call.
 */
#include <stdio.h>
#include <stdlib.h>

#ifdef FIXED_ORDER
#define PICK(i, k) (k)
#else
#define PICK(i, k) (((i) + (k)) & 3)
#endif

volatile long sink;

__attribute__((noinline)) void f0(long x) { sink += x; }
__attribute__((noinline)) void f1(long x) { sink -= x; }
__attribute__((noinline)) void f2(long x) { sink ^= x; }
__attribute__((noinline)) void f3(long x) { sink += 2 * x; }

void (*const table[4])(long) = { f0, f1, f2, f3 };

__attribute__((noinline)) void round_(long i)
{
	for (int k = 0; k < 4; k++)
		table[PICK(i, k)](i);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 5000000;

	for (long i = 0; i < n; i++)
		round_(i);
	printf("%ld\n", sink);
	return 0;
}
