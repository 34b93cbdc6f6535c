#include "cmix.h"

/* Busy work the profiling clock can see. volatile keeps -O2 from
 * folding the loop away. */
unsigned long
spin(unsigned long units)
{
	volatile unsigned long acc = 0;

	for (unsigned long i = 0; i < units * 30000; i++)
		acc += i ^ (acc >> 3);
	return acc;
}

unsigned long
never_called(void)
{
	return spin(1) + 1;
}
