/* Callbacks from qsort and bsearch (not instrumented: libc calls them). */
#include <stdio.h>
#include <stdlib.h>

static unsigned long compares;

static int key(const int *p) { return *p % 1000; }

static int cmp(const void *a, const void *b)
{
	compares++;
	return key(a) - key(b);
}

static void fill(int *v, int n)
{
	unsigned x = 12345;

	for (int i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		v[i] = (int)(x >> 8);
	}
}

int main(void)
{
	static int v[20000];
	int probe = 777;

	fill(v, 20000);
	qsort(v, 20000, sizeof(v[0]), cmp);
	printf("%lu %s\n", compares,
	       bsearch(&probe, v, 20000, sizeof(v[0]), cmp) ? "found" : "absent");
	return 0;
}
