/* Recursion: direct (fib), mutual (is_even/is_odd), nested (ack). */
#include <stdio.h>
#include <stdlib.h>

static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static long ack(long m, long n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20;

	printf("%ld %d %ld\n", fib(n), is_even((unsigned)n * 7), ack(2, n));
	return 0;
}
