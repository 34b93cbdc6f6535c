#include "cmix.h"

/* Same name as the static helper in stat_a.c: gprof must keep them apart. */
static unsigned long
helper(int n)
{
	return spin(25) * 3 + (unsigned long)n;
}

unsigned long
use_b(int n)
{
	unsigned long s = 0;

	for (int i = 0; i < n; i++)
		s += helper(i);
	return s;
}
