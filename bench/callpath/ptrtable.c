/* ptrtable.c - tiny functions called through a pointer table, N rounds. */
#include <stdio.h>
#include <stdlib.h>

volatile long sink;

__attribute__((noinline)) void f0(long x) { sink += x; }
__attribute__((noinline)) void f1(long x) { sink -= x; }
__attribute__((noinline)) void f2(long x) { sink ^= x; }
__attribute__((noinline)) void f3(long x) { sink += 2 * x; }

void (*const table[4])(long) = { f0, f1, f2, f3 };

__attribute__((noinline)) void round_(long i)
{
	for (int k = 0; k < 4; k++)
		table[(i + k) & 3](i);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 5000000;

	for (long i = 0; i < n; i++)
		round_(i);
	printf("%ld\n", sink);
	return 0;
}
