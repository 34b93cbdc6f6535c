/*
 * unwind.c - leave frames without returning, then check the paths after:
 *
 *   main ─┬─ deep ── deep ... (30 deep) ── longjmp to main   (x5)
 *         ├─ after ── leaf                                   (x5)
 *         ├─ mid ─┬─ deep ... longjmp to mid                 (x3)
 *         │       └─ after ── leaf                           (x3)
 *         ├─ raiser ── [SIGUSR1] handler ── hwork            (x4)
 *         ├─ after ── leaf                                   (after the signals)
 *         └─ storm: SIGALRM every 50us while looping over tiny
 *
 * The storm's handler also calls hwork; a signal that lands inside the
 * runtime is dropped and counted.  The program prints how many ran.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

volatile int sink;
volatile long handled;
static jmp_buf top, middle;

__attribute__((noinline)) void leaf(void) { sink++; }
__attribute__((noinline)) void after(void) { leaf(); sink++; }
__attribute__((noinline)) void tiny(void) { sink++; }
__attribute__((noinline)) void hwork(void) { sink++; }

__attribute__((noinline)) void deep(int n, jmp_buf *to)
{
	if (n == 0)
		longjmp(*to, 1);
	deep(n - 1, to);
	sink++;
}

__attribute__((noinline)) void mid(void)
{
	if (!setjmp(middle))
		deep(30, &middle);
	after();
	sink++;
}

__attribute__((noinline)) void handler(int sig)
{
	(void)sig;
	hwork();
	handled++;
}

__attribute__((noinline)) void raiser(void)
{
	raise(SIGUSR1);
	sink++;
}

__attribute__((noinline)) void storm(void)
{
	struct itimerval it = { { 0, 50 }, { 0, 50 } }, off = { { 0, 0 }, { 0, 0 } };
	struct timeval t0, t;

	setitimer(ITIMER_REAL, &it, NULL);
	gettimeofday(&t0, NULL);
	do {
		for (int i = 0; i < 1000; i++)
			tiny();
		gettimeofday(&t, NULL);
	} while ((t.tv_sec - t0.tv_sec) * 1000000 + (t.tv_usec - t0.tv_usec) < 300000);
	setitimer(ITIMER_REAL, &off, NULL);
}

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);

	for (int i = 0; i < 5; i++) {
		if (!setjmp(top))
			deep(30, &top);
		after();
	}
	for (int i = 0; i < 3; i++)
		mid();
	for (int i = 0; i < 4; i++)
		raiser();
	after();
	storm();
	printf("handled %ld\n", handled);
	return 0;
}
