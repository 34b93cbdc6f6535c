/* The program of shlib.c: calls into the -pg library, which calls back. */
#include <stdio.h>

int lib_work(int n, int (*cb)(int));
int lib_twice(int x);

static int square(int x) { return x * x; }
static int step(int i) { return lib_twice(i) + square(i); }

int main(void)
{
	int s = 0;

	for (int i = 0; i < 30; i++)
		s += step(i);
	printf("%d %d\n", s, lib_work(40, square));
	return 0;
}
