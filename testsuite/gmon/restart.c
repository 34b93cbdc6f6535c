/*
 * _mcleanup called by the program (gmon.out written, profiling reset),
 * calls that are then not counted, and a second monstartup: the file at
 * exit holds the second session only.  A second monstartup while running
 * is ignored, as glibc ignores it.
 */
#include <stdio.h>
#include <sys/gmon.h>

extern char __executable_start[], etext[];

static volatile unsigned sink;
static void first(void) { sink++; }
static void between(void) { sink += 2; }
static void second(void) { sink += 3; }

int main(void)
{
	for (int i = 0; i < 3; i++)
		first();
	monstartup((unsigned long)__executable_start, (unsigned long)etext);
	_mcleanup();
	for (int i = 0; i < 2; i++)
		between();
	monstartup((unsigned long)__executable_start, (unsigned long)etext);
	for (int i = 0; i < 4; i++)
		second();
	printf("%u\n", sink);
	return 0;
}
