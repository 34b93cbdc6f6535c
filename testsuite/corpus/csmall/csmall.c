#include <stdio.h>
#include <stdlib.h>
#include "csmall.h"

/* Kept by `used` but never called: shows up only with -z. */
static unsigned long __attribute__((used))
unused_static(void)
{
	return 42;
}

unsigned long
unused_global(void)
{
	return unused_static() + 1;
}

/* Two loops on separate lines so -l has more than one line to
 * attribute samples to. */
unsigned long
leaf(unsigned long n)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < n * 60000; i++)
		acc += i ^ (acc >> 3);
	for (unsigned long i = 0; i < n * 60000; i++)
		acc -= i & (acc << 1);
	return acc;
}

unsigned long
middle(int k)
{
	unsigned long s = 0;

	for (int i = 0; i < k; i++)
		s = mix(s, leaf((unsigned long)(i % 3) + 1));
	return s;
}

int
main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 1;
	unsigned long s = 0;

	for (int r = 0; r < rounds; r++) {
		s += middle(40);
		s += leaf(300);
	}
	printf("%lu\n", s);
	return 0;
}
