/*
 * endwrite.c - a program whose exit writes a big profile, to be killed
 * while it does (t800, bench/callpath/exitkill.sh).
 *
 *   endwrite D [T]   2^(D+1) - 1 calling contexts (with
 *                    CALLPATH_RECURSION=full), built by the main thread
 *                    (T = 0, the default) or shared among T threads that
 *                    then sleep on while the program exits; then the file
 *                    "exiting" is made and main returns: gmon.out and its
 *                    sidecar are written by the exit, with every thread
 *                    still there.  Prints the calls made, the same in
 *                    every run.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

volatile unsigned long sink;
static int depth, nthreads;
static int built;	/* threads done building */

/* two call sites chosen by the bits of x: 2^(d+1) - 1 contexts */
__attribute__((noinline)) void p(int d, unsigned x)
{
	if (!d)
		return;
	if (x & 1) {
		p(d - 1, x >> 1);
		sink++;
	} else {
		sink--;
		p(d - 1, x >> 1);
		sink += 2;
	}
}

__attribute__((noinline)) void build(unsigned from, unsigned to)
{
	for (unsigned x = from; x < to; x++)
		p(depth, x);
}

static void *worker(void *arg)
{
	unsigned k = (unsigned)(uintptr_t)arg, n = 1u << depth;
	struct timespec ts = { 0, 10000000L };

	build(n / (unsigned)nthreads * k,
	      k + 1 == (unsigned)nthreads ? n : n / (unsigned)nthreads * (k + 1));
	__atomic_add_fetch(&built, 1, __ATOMIC_RELEASE);
	for (;;)	/* alive while the program exits */
		nanosleep(&ts, NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec ts = { 0, 1000000L };
	FILE *f;

	depth = argc > 1 ? atoi(argv[1]) : 12;
	nthreads = argc > 2 ? atoi(argv[2]) : 0;
	if (depth < 1 || depth > 24 || nthreads < 0 || nthreads > 1000)
		return 2;
	if (!nthreads) {
		build(0, 1u << depth);
	} else {
		for (int i = 0; i < nthreads; i++) {
			pthread_t t;

			if (pthread_create(&t, NULL, worker, (void *)(uintptr_t)i) != 0)
				return 3;
		}
		while (__atomic_load_n(&built, __ATOMIC_ACQUIRE) < nthreads)
			nanosleep(&ts, NULL);
	}
	printf("calls of p: %lu\n", (unsigned long)((1ul << depth) * (unsigned long)(depth + 1)));
	fflush(stdout);
	f = fopen("exiting", "w");
	if (f)
		fclose(f);
	return 0;
}
