/*
 * churn.c - threads created and joined one after another, each making a
 * few instrumented calls, as thread pools that recreate workers and
 * servers do.
 *
 *   churn N [MAPSFILE]   N threads in turn; prints a checksum; with
 *                        MAPSFILE, writes there the number of mappings the
 *                        process has once they are all joined (a separate
 *                        file: stdout is compared with a run without the
 *                        runtime).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long sums[2];

__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
	return x * 2654435761u % 1000003;
}

__attribute__((noinline)) static unsigned long work(unsigned long k)
{
	return leaf(k) + leaf(k + 1);
}

static void *worker(void *p)
{
	unsigned long k = (unsigned long)p;

	sums[k & 1] += work(k);
	return NULL;
}

static int count_mappings(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	int c, n = 0;

	if (!f)
		return -1;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;

	for (long i = 0; i < n; i++) {
		pthread_t t;
		int e = pthread_create(&t, NULL, worker, (void *)i);

		if (e) {
			printf("pthread_create failed at thread %ld: %d\n", i, e);
			return 1;
		}
		pthread_join(t, NULL);
	}
	printf("churn %ld: %lu %lu\n", n, sums[0], sums[1]);
	if (argc > 2) {
		FILE *f = fopen(argv[2], "w");

		if (!f || fprintf(f, "%d\n", count_mappings()) < 0 || fclose(f))
			return 2;
	}
	return 0;
}
