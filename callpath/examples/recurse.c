/*
 * recurse.c - pure recursion, the worst case for a calling-context tree:
 *   recurse fib N      fib(N), binary recursion (fib(30): 2,692,537 calls)
 *   recurse down N     a linear recursion N deep
 * Built -O2 -fno-optimize-sibling-calls: noinline keeps GCC from inlining
 * the recursion into itself, so every call goes through mcount.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) long down(long n)
{
	return n ? down(n - 1) + 1 : 0;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 30;

	if (argc > 1 && strcmp(argv[1], "down") == 0)
		printf("%ld\n", down(n));
	else
		printf("%ld\n", fib((int)n));
	return 0;
}
