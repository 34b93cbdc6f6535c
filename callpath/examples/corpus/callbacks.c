/*
 * Callbacks from code that is not instrumented: qsort and bsearch
 * comparison functions, a pthread_once routine, an atexit handler, and
 * calls through a table of function pointers.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int compared;

int leaf(int v) { return v + 1; }

int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	compared++;
	return (x > y) - (x < y);
}

void once_init(void) { leaf(1); }
void at_end(void) { leaf(2); leaf(3); }

int op_add(int v) { return leaf(v); }
int op_neg(int v) { return -v; }

void sorter(int *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
}

int main(void)
{
	static int v[1000];
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	int (*ops[])(int) = { op_add, op_neg, op_add };
	int found = 0, acc = 0;

	srand(7);
	for (int i = 0; i < 1000; i++)
		v[i] = rand() % 100000;
	sorter(v, 1000);
	for (int i = 0; i < 100; i++)
		found += bsearch(&v[i * 7], v, 1000, sizeof(int), cmp) != NULL;
	pthread_once(&once, once_init);
	pthread_once(&once, once_init);
	for (int i = 0; i < 9; i++)
		acc += ops[i % 3](i);
	atexit(at_end);
	printf("%d %d %d\n", found, acc, compared > 0);
	return 0;
}
