/*
 * clones.c - a function GCC splits at -O2 (partial inlining: its cheap test
 * inlined into the callers, its cold part in a `check.part.0` clone that
 * the callers call), as real optimised code is full of: gprof has no
 * symbol for `.part` clones.
 *
 *   clones N   N rounds; the cold part runs on 1 in 8 and 1 in 5
 */
#include <stdio.h>
#include <stdlib.h>

static volatile int sink;

__attribute__((noinline)) int fill(int x)
{
	return x * 7 % 4096;
}

static void check(int c, int x)
{
	if (!c) {
		for (int i = 0; i < 64; i++) {
			sink += fill(x + i);
			if (sink % 17 == 3)
				sink ^= x;
		}
		fputs("", stdout);	/* a call: the part GCC splits off is not trivial */
	}
}

__attribute__((noinline)) int user_a(int x)
{
	check(x % 8, x);
	return x + 1;
}

__attribute__((noinline)) int user_b(int x)
{
	check(x % 5, x);
	return x * 2;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000, s = 0;

	for (long i = 0; i < n; i++)
		s += user_a((int)i) + user_b((int)i);
	printf("clones %ld: %ld\n", n, s);
	return 0;
}
