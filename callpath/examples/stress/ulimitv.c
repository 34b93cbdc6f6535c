/*
 * ulimitv.c - 32 threads that call instrumented code and wait, while the
 * main thread allocates and touches 1000 MB: under `ulimit -v 1600000`
 * (batch systems set such limits) this fits without the runtime, and must
 * with it.  Prints whether the allocation succeeded.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 32

static pthread_barrier_t ready, done;
static volatile unsigned long sink;

__attribute__((noinline)) static void work(unsigned long k)
{
	sink += k;
}

static void *worker(void *p)
{
	work((unsigned long)p);
	pthread_barrier_wait(&ready);
	pthread_barrier_wait(&done);
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	size_t len = (size_t)1000 << 20;
	char *big;

	pthread_barrier_init(&ready, NULL, THREADS + 1);
	pthread_barrier_init(&done, NULL, THREADS + 1);
	for (long i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i) != 0) {
			printf("pthread_create failed\n");
			return 1;
		}
	pthread_barrier_wait(&ready);
	big = malloc(len);
	printf("malloc(1000 MB) with %d threads: %s\n", THREADS, big ? "ok" : "NULL");
	if (big)
		memset(big, 1, len);
	pthread_barrier_wait(&done);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	free(big);
	return 0;
}
