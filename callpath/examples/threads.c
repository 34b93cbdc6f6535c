/*
 * threads.c - T threads (argv[1], default 2) hammer two tiny functions:
 *
 *   worker ── small ── tiny      ITERS calls of small and of tiny per thread
 *
 * Every call is counted exactly in the sidecar; glibc's mcount drops arcs
 * when threads collide, so gmon.out usually shows fewer.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ITERS 300000

volatile int sink;

__attribute__((noinline)) void tiny(void) { sink++; }
__attribute__((noinline)) void small(void) { tiny(); sink++; }

__attribute__((noinline)) void *worker(void *arg)
{
	for (int i = 0; i < ITERS; i++)
		small();
	return arg;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	pthread_t *t = calloc((size_t)n, sizeof(*t));

	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("expected %d\n", n * ITERS);
	free(t);
	return 0;
}
