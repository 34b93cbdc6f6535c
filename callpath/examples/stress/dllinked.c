/*
 * dllinked.c - a program linked with a -pg shared library (dl.c built with
 * -DDL_LIB as libdll.so), whose functions call back into the program.
 */
#include <stdio.h>

int lib_entry(int x);

__attribute__((noinline)) int app_square(int x)
{
	return x * x;
}

int main(void)
{
	for (int i = 0; i < 3; i++)
		printf("round %d: %d\n", i, lib_entry(i + 3));
	return 0;
}
