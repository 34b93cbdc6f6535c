/*
 * busy.c - N calls of a function that burns about 1 ms of CPU each, under
 * two callers: runs with different N have different gmon files (arc
 * counts), whatever the timer's samples.
 *
 *   busy N
 */
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

__attribute__((noinline)) static void burn(void)
{
	for (int i = 0; i < 300000; i++)
		sink += i * 0.5;
}

__attribute__((noinline)) static void left(int n)
{
	for (int i = 0; i < n; i++)
		burn();
}

__attribute__((noinline)) static void right(int n)
{
	for (int i = 0; i < n; i++)
		burn();
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 50;

	left(n);
	right(n / 2);
	printf("busy %d\n", n);
	return 0;
}
