/*
 * inlined.c - at -O2, the first code after updateLinkCells's mcount call is
 * emptyHaloCells, inlined: debug info names that line after emptyHaloCells.
 * gprof -l must still name the callee updateLinkCells, and give its call
 * sites as file:line.
 */
#include <stdio.h>

static int cells[64];

static inline void emptyHaloCells(int *p)
{
	p[0] = 0;
	p[1] = 0;
	p[2] = 0;
}

__attribute__((noinline)) void updateLinkCells(int *p, int n)
{
	emptyHaloCells(p);
	for (int i = 3; i < n; i++)
		p[i] += i;
}

__attribute__((noinline)) void step(int k)
{
	updateLinkCells(cells, 20 + k);
}

int main(void)
{
	for (int k = 0; k < 3; k++)
		updateLinkCells(cells, 10 + k);
	step(1);
	printf("%d\n", cells[3]);
	return 0;
}
