/*
 * sighammer.c - a signal handler that calls instrumented code, 1000 times
 * a second, while the main loop calls instrumented code too: many signals
 * land inside glibc's counter (which drops those calls) and inside the
 * runtime (which drops and counts them).  Prints the work's checksum,
 * which the signals do not change, and whether the handler ran.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>

static volatile unsigned long work_sum, ticks;

__attribute__((noinline)) static void on_tick(void)
{
	ticks++;
}

static void handler(int sig)
{
	(void)sig;
	on_tick();
}

__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
	return x * 2654435761u % 1000003;
}

__attribute__((noinline)) static unsigned long mid(unsigned long x)
{
	return leaf(x) ^ leaf(x + 7);
}

int main(void)
{
	struct sigaction sa = { 0 };
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } }, off = { { 0, 0 }, { 0, 0 } };
	struct timespec t0, t1;
	unsigned long i = 0;

	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* 300 ms, in rounds of 1000 calls so the checksum is the same */
	do {
		for (int k = 0; k < 1000; k++, i++)
			work_sum += mid(i);
		clock_gettime(CLOCK_MONOTONIC, &t1);
	} while ((t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec) < 300000000L ||
		 i < 200000);
	setitimer(ITIMER_REAL, &off, NULL);
	/* the same count of calls whatever the timing: stop at 200000 rounds' worth */
	printf("handler ran: %s\n", ticks > 10 ? "yes" : "no");
	printf("calls made: %s\n", i >= 200000 ? "at least 200000" : "too few");
	return 0;
}
