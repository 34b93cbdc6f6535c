#include <stdlib.h>
#include "cmix.h"

typedef unsigned long (*op_fn)(unsigned long, unsigned long);

static unsigned long op_add(unsigned long a, unsigned long b) { return a + b + (spin(3) & 1); }
static unsigned long op_mul(unsigned long a, unsigned long b) { return a * (b | 1); }
static unsigned long op_xor(unsigned long a, unsigned long b) { return a ^ (b + spin(2)); }

/* volatile so -O2 cannot turn the indirect calls into direct ones */
static op_fn volatile ops[] = { op_add, op_mul, op_xor, op_add };

unsigned long
apply_all(int rounds)
{
	unsigned long acc = 1;

	for (int r = 0; r < rounds; r++)
		for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++)
			acc = ops[i](acc, (unsigned long)r + i);
	return acc;
}

static int
cmp_keys(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

unsigned long
sort_keys(int n)
{
	unsigned keys[256];
	unsigned long sum = 0;

	if (n > 256)
		n = 256;
	for (int i = 0; i < n; i++)
		keys[i] = (unsigned)(i * 2654435761u) >> 7;
	qsort(keys, (size_t)n, sizeof keys[0], cmp_keys);
	for (int i = 0; i < n; i++)
		sum = sum * 31 + keys[i];
	return sum;
}
