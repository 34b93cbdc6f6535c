#include "cmix.h"

/* Same name as the static helper in stat_b.c: gprof must keep them apart. */
static unsigned long
helper(int n)
{
	return spin(40) + (unsigned long)n;
}

unsigned long
use_a(int n)
{
	unsigned long s = 0;

	for (int i = 0; i < n; i++)
		s += helper(i);
	return s;
}
