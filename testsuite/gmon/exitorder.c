/*
 * exitorder.c - calls at every stage of a program's start and end, for
 * gmon.out's arcs: a .preinit_array function and a constructor before
 * main, an atexit handler and a destructor after it.  glibc's profiling
 * starts in the program's _init (so the .preinit_array call is not
 * counted) and _mcleanup, registered there with atexit, writes gmon.out
 * before the destructors run (so the destructor's call is not counted
 * either).
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int leaf(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int mid(int x)
{
	return leaf(x) + leaf(x + 1);
}

static volatile int sink;

static void pre(int argc, char **argv, char **envp)
{
	(void)argc, (void)argv, (void)envp;
	sink = mid(1);
}
__attribute__((section(".preinit_array"), used)) static void (*preinit)(int, char **, char **) = pre;

__attribute__((constructor)) static void ctor(void)
{
	sink = mid(2);
}

static void at_end(void)
{
	sink = mid(4);
}

__attribute__((destructor)) static void dtor(void)
{
	sink = leaf(5);
}

int main(void)
{
	int s = 0;

	atexit(at_end);
	for (int i = 0; i < 10; i++)
		s += mid(i);
	printf("%d\n", s);
	return 0;
}
