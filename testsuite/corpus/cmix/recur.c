#include "cmix.h"

unsigned long fib(int n) /* LINE:fib */
{
	if (n < 2)
		return (unsigned long)n;
	return fib(n - 1) + fib(n - 2);
}

int is_even(unsigned n) /* LINE:is_even */
{
	return n == 0 ? 1 : is_odd(n - 1);
}

int is_odd(unsigned n) /* LINE:is_odd */
{
	return n == 0 ? 0 : is_even(n - 1);
}

unsigned long ring_a(int n) /* LINE:ring_a */
{
	return n <= 0 ? spin(1) : 1 + ring_b(n - 1);
}

unsigned long ring_b(int n)
{
	return n <= 0 ? 0 : 2 + ring_c(n - 1);
}

unsigned long ring_c(int n)
{
	return n <= 0 ? 0 : 3 + ring_a(n - 1);
}
