/*
 * moncontrol.c - profiling turned off and on again by the program: glibc
 * counts no call while it is off; the runtime records them all.
 */
#include <stdio.h>
#include <sys/gmon.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void counted(int n)
{
	for (int i = 0; i < n; i++)
		sink += (unsigned long)i;
}

__attribute__((noinline)) static void hidden(int n)
{
	counted(n);
}

int main(void)
{
	for (int i = 0; i < 10; i++)
		counted(100);
	moncontrol(0);
	for (int i = 0; i < 10; i++)
		hidden(100);
	moncontrol(1);
	counted(1);
	printf("sink %lu\n", sink);
	return 0;
}
