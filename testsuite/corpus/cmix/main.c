#include <stdio.h>
#include <stdlib.h>
#include "cmix.h"

/* Usage: cmix [rounds]. Output depends on rounds only, never on timing. */
int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1;
	unsigned long sum = 0;

	for (int i = 0; i < rounds; i++) {
		sum += fib(16);
		sum += is_even(101 + i) + is_odd(200);
		sum += ring_a(31);
		sum += apply_all(4);
		sum += sort_keys(64);
		sum += use_a(5) + use_b(7);
		sum += spin(2000);
	}
	if (rounds > 2)
		sum += spin(1000);
	printf("%lu\n", sum);
	return 0;
}
