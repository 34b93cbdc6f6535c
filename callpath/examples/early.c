/*
 * early.c - the program of earlylib.c: app_hook() calls leaf() 5 times, from
 * the library's constructor and again from main (10 calls of leaf in all).
 */
#include <stdio.h>

static volatile int sink;

__attribute__((noinline)) void leaf(void) { sink++; }

void app_hook(void)
{
	for (int i = 0; i < 5; i++)
		leaf();
}

double scale(double x, double y) { return x * y; }

int main(void)
{
	app_hook();
	printf("sink %d\n", sink);
	return 0;
}
