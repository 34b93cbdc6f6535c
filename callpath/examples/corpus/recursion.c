/*
 * Recursion: direct (fib), mutual (is_even/is_odd) and linear (down)
 * recursion, and a recursion through a callback (walk called back by
 * apply, itself called by walk).
 */
#include <stdio.h>
#include <stdlib.h>

long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int is_odd(int n);
int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }

long down(int n) { return n ? down(n - 1) + 1 : 0; }

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 15;
	long r = fib(n);

	for (int i = 0; i < 5; i++)
		r += is_even(20 + i);
	r += down(argc > 2 ? atoi(argv[2]) : 50);
	printf("%ld\n", r);
	return 0;
}
