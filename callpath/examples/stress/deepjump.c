/*
 * deepjump.c - frames left without returning, deep: a recursion 20,000
 * deep left by longjmp, 50 times, and one 200 deep left by siglongjmp from
 * a signal handler; after each, calls from the landing frame.  Prints what
 * it computed.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

static jmp_buf out;
static sigjmp_buf sigout;
static volatile unsigned long sink;

__attribute__((noinline)) static void after(int k)
{
	sink += (unsigned long)k;
}

__attribute__((noinline)) static void down(int n)
{
	sink++;
	if (n == 0)
		longjmp(out, 1);
	down(n - 1);
	sink++;		/* never reached */
}

static void handler(int sig)
{
	(void)sig;
	siglongjmp(sigout, 1);
}

__attribute__((noinline)) static void down_sig(int n)
{
	sink++;
	if (n == 0)
		raise(SIGUSR1);
	else
		down_sig(n - 1);
}

int main(void)
{
	signal(SIGUSR1, handler);
	for (int r = 0; r < 50; r++) {
		if (!setjmp(out))
			down(20000);
		after(r);
	}
	if (!sigsetjmp(sigout, 1))
		down_sig(200);
	after(1000);
	printf("deepjump: %lu\n", sink);
	return 0;
}
