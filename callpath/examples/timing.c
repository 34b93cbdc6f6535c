/*
 * timing.c - programs for the time-per-calling-context tests (t46x).
 * Work is counted in loop iterations (CPU time, which is what the
 * profiling timer samples), so the expected shares hold on a loaded
 * machine.  UNIT iterations take roughly 10 ms.
 *
 *   timing mis [K]     c() 100 times from a() with 1 unit, 100 times from
 *                      b() with 9 units (90% of c's time via b); K scales
 *                      b's calls' cost (diff tests: K=2 makes only b->c
 *                      slower)
 *   timing mis K cpu   as mis, and prints the CPU time a() and b() took
 *                      (this thread's clock: the reference for the samples)
 *   timing ret         main calls a() for 5 units, then spins 100 units
 *                      in its own body
 *   timing threads     thread t1 runs f1() for 90 units, t2 runs f2() for 30;
 *                      prints each thread's CPU time in f1/f2 (its own
 *                      CPU-time clock: the reference for the samples)
 *   timing replace     30 units in work(), then installs its own SIGPROF
 *                      handler, then 30 more
 *   timing timer       as replace, but sets ITIMER_PROF again itself
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define UNIT 10000000L

volatile double sink;

__attribute__((noinline)) void burn(long n)
{
	double s = 0;

	for (long i = 0; i < n; i++)
		s += (double)i * 0.5;
	sink = s;
}

__attribute__((noinline)) void c(long n)
{
	double s = 0;

	/* the work in c itself: its self time */
	for (long i = 0; i < n; i++)
		s += (double)i * 0.5;
	sink = s;
}

__attribute__((noinline)) void a(void)
{
	for (int i = 0; i < 100; i++)
		c(UNIT / 10);
}

__attribute__((noinline)) void b(long k)
{
	for (int i = 0; i < 100; i++)
		c(9 * k * UNIT / 10);
}

__attribute__((noinline)) void ret_a(void)
{
	burn(5 * UNIT);
}

__attribute__((noinline)) void f1(void)
{
	double s = 0;

	for (long i = 0; i < 90 * UNIT; i++)
		s += (double)i * 0.5;
	sink = s;
}

__attribute__((noinline)) void f2(void)
{
	double s = 0;

	for (long i = 0; i < 30 * UNIT; i++)
		s += (double)i * 0.5;
	sink = s;
}

static double thread_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_f1, cpu_f2;

__attribute__((noinline)) void *t1(void *arg)
{
	double t0 = thread_cpu();

	f1();
	cpu_f1 = thread_cpu() - t0;
	return arg;
}

__attribute__((noinline)) void *t2(void *arg)
{
	double t0 = thread_cpu();

	f2();
	cpu_f2 = thread_cpu() - t0;
	return arg;
}

static void on_prof(int sig)
{
	(void)sig;
}

__attribute__((noinline)) void work(void)
{
	burn(30 * UNIT);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "mis";

	if (!strcmp(mode, "mis")) {
		double t0 = thread_cpu(), t1;

		a();
		t1 = thread_cpu();
		b(argc > 2 ? atol(argv[2]) : 1);
		if (argc > 3 && !strcmp(argv[3], "cpu"))
			printf("a %.3f\nb %.3f\n", t1 - t0, thread_cpu() - t1);
	} else if (!strcmp(mode, "ret")) {
		double s = 0;

		ret_a();
		/* main's own work, after a() has returned */
		for (long i = 0; i < 100 * UNIT; i++)
			s += (double)i * 0.5;
		sink = s;
	} else if (!strcmp(mode, "threads")) {
		pthread_t x, y;

		if (pthread_create(&x, NULL, t1, NULL) ||
		    pthread_create(&y, NULL, t2, NULL))
			return 1;
		pthread_join(x, NULL);
		pthread_join(y, NULL);
		printf("t1 %.3f\nt2 %.3f\n", cpu_f1, cpu_f2);
	} else if (!strcmp(mode, "replace")) {
		work();
		signal(SIGPROF, on_prof);
		work();
	} else if (!strcmp(mode, "timer")) {
		struct itimerval tv = { { 0, 20000 }, { 0, 20000 } };

		work();
		setitimer(ITIMER_PROF, &tv, NULL);
		work();
	} else {
		fprintf(stderr, "timing: unknown mode '%s'\n", mode);
		return 2;
	}
	return 0;
}
