/* moncontrol: arcs and histogram off, then on again, then off to the end. */
#include <stdio.h>
#include <sys/gmon.h>

void moncontrol(int mode);

static volatile unsigned sink;
static void counted(void) { sink++; }
static void hidden(void) { sink += 2; }
static void both(void) { sink += 3; }

int main(void)
{
	for (int i = 0; i < 10; i++)
		counted();
	both();
	moncontrol(0);
	for (int i = 0; i < 20; i++)
		hidden();
	both();
	moncontrol(1);
	for (int i = 0; i < 5; i++)
		counted();
	both();
	moncontrol(0);
	hidden();
	printf("%u\n", sink);
	return 0;
}
