/* The program of the 5 shared libraries (shlib.c): callbacks come back here. */
#include <stdio.h>

int lib1_run(int (*cb)(int), int n);
int lib2_run(int (*cb)(int), int n);
int lib3_run(int (*cb)(int), int n);
int lib4_run(int (*cb)(int), int n);
int lib5_run(int (*cb)(int), int n);

int leaf(int v) { return v + 1; }
int cb_a(int v) { return leaf(v); }
int cb_b(int v) { return v * 2; }

void driver(void)
{
	lib1_run(cb_a, 3);
	lib2_run(cb_b, 4);
	lib3_run(cb_a, 5);
	lib5_run(cb_b, 6);
}

int main(void)
{
	driver();
	printf("%d\n", lib4_run(cb_a, 1));
	return 0;
}
