/* Two threads calling the same functions many times (issue 11 item 2).
 * Usage: threadcalls FACTOR seq|par.  Each thread calls batch() FACTOR * CALLS
 * / 2 times, each doing 1/FACTOR of the work (equal time, calls x FACTOR),
 * and steady() CALLS / 2 times whatever FACTOR is.  seq runs the threads
 * one after the other, par at the same time: glibc's mcount drops the
 * calls that arrive while another thread is inside it, so par's gmon
 * counts fall short of the calls made. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define CALLS 2000000
static volatile double sink;
static int factor = 1;

__attribute__((noinline)) static void work(int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += i * 0.5;
	sink += s;
}

__attribute__((noinline)) void batch(int n)
{
	work(n);
}

__attribute__((noinline)) void steady(void)
{
	work(4);
}

static void *run(void *arg)
{
	(void)arg;
	for (int i = 0; i < CALLS / 2; i++) {
		steady();
		for (int k = 0; k < factor; k++)
			batch(8 / factor);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	int seq = argc > 2 && argv[2][0] == 's';

	factor = argc > 1 ? atoi(argv[1]) : 1;
	if (factor < 1)
		factor = 1;
	for (int i = 0; i < 2; i++) {
		if (pthread_create(&t[i], NULL, run, NULL))
			return 1;
		if (seq)
			pthread_join(t[i], NULL);
	}
	for (int i = 0; !seq && i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%g\n", sink);
	return 0;
}
