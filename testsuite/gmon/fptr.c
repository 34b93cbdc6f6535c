/*
 * Function pointers: one call site calling 16 callees, in an order that
 * changes half way (glibc keeps each bucket's arcs most recent first, so
 * the file's order is not the order of first calls); and straight-line
 * calls that share 16-byte buckets.
 */
#include <stdio.h>

static volatile unsigned sink;

#define F(n) static void f##n(void) { sink += n; }
F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7)
F(8) F(9) F(10) F(11) F(12) F(13) F(14) F(15)

static void (*const table[16])(void) = {
	f0, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10, f11, f12, f13, f14, f15,
};

static void dispatch(int i) { table[i](); }

static void a(void) { sink++; }
static void b(void) { sink += 2; }
static void c(void) { sink += 3; }
static void straight(void) { a(); b(); c(); a(); }

int main(void)
{
	for (int r = 0; r < 50; r++)
		for (int i = 0; i < 16; i++)
			dispatch(i);
	/* the second half: every third callee, backwards */
	for (int r = 0; r < 7; r++)
		for (int i = 15; i >= 0; i -= 3)
			dispatch(i);
	for (int r = 0; r < 10; r++)
		straight();
	c();
	b();
	printf("%u\n", sink);
	return 0;
}
