/*
 * ownprof.c - a program with a SIGPROF handler of its own that calls
 * instrumented code, installed while the runtime writes snapshots
 * (CALLPATH_SNAPSHOT=0.01), then storms of SIGPROF it sends itself while
 * its own thread blocks SIGPROF: the kernel gives such a signal to any
 * thread that does not block it, so a thread of the runtime's that took
 * SIGPROF would run the program's handler (which registered it as a
 * thread of the program's, or hung: the handler's call waited for the
 * registry that the thread held while it wrote).  Prints how many times
 * the handler ran on a thread other than main: 0, as without the runtime.
 *
 *   ownprof [ROUNDS]
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pid_t main_tid;
static volatile sig_atomic_t elsewhere;
static volatile unsigned long sink;

__attribute__((noinline)) static void counted(void)
{
	sink++;
}

static void on_prof(int sig)
{
	(void)sig;
	if (gettid() != main_tid)
		elsewhere++;
	counted();
}

/* 2^(d+1) - 1 calling contexts: the snapshots have work to do */
__attribute__((noinline)) static void p(int d, unsigned x)
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

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 200;
	struct timespec ms = { 0, 1000000L };
	struct sigaction sa;
	sigset_t prof;

	main_tid = gettid();
	for (unsigned x = 0; x < (1u << 13); x++)
		p(13, x);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_prof;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPROF, &sa, NULL);
	sigemptyset(&prof);
	sigaddset(&prof, SIGPROF);
	for (int r = 0; r < rounds; r++) {
		p(13, (unsigned)r);
		sigprocmask(SIG_BLOCK, &prof, NULL);
		for (int i = 0; i < 20; i++)
			kill(getpid(), SIGPROF);
		nanosleep(&ms, NULL);
		sigprocmask(SIG_UNBLOCK, &prof, NULL);
	}
	printf("SIGPROF handled on a thread other than main: %d times\n", (int)elsewhere);
	return 0;
}
