/*
 * ends.c - programs that end abnormally or are watched while they run
 * (issue 26: t490, t491, t492; bench/callpath/ends.sh).
 *
 *   ends loop           create "started", then call work() for ever
 *   ends handler        the same, with a SIGTERM handler of its own that
 *                       prints "handler ran" and calls exit(3)
 *   ends view           print what sigaction() and signal() report for
 *                       SIGTERM through a sequence of changes (the same
 *                       with and without the runtime)
 *   ends phases A B     phase1() until A seconds, then phase2() until B
 *   ends exit-term      work a little, return from main, and raise
 *                       SIGTERM from a destructor (after glibc's
 *                       _mcleanup wrote gmon.out)
 *   ends until-stop     work until a file "stop" exists, print a fixed
 *                       result, exit 7
 *   ends nodes D        2^(D+1) - 1 calling contexts (with
 *                       CALLPATH_RECURSION=full), then, until "stop",
 *                       time a loop of calls and print the 64 longest
 *                       gaps in microseconds of the thread's CPU time
 *                       (its pauses: work done on it, such as a snapshot
 *                       written by a handler, not time others ran)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

volatile unsigned long sink;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* the thread's CPU time: a pause of the thread's own (a handler's work),
 * not the scheduler's (other programs on a shared machine) */
static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void touch(const char *name)
{
	FILE *f = fopen(name, "w");

	if (f)
		fclose(f);
}

__attribute__((noinline)) void leaf(unsigned long i)
{
	sink += i * i;
}

__attribute__((noinline)) void work(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		leaf(i);
}

__attribute__((noinline)) void first_leaf(unsigned long i)
{
	sink += i * i;
}

__attribute__((noinline)) void second_leaf(unsigned long i)
{
	sink += i ^ (i >> 3);
}

__attribute__((noinline)) void phase1(void)
{
	for (unsigned long i = 0; i < 10000; i++)
		first_leaf(i);
}

__attribute__((noinline)) void phase2(void)
{
	for (unsigned long i = 0; i < 10000; i++)
		second_leaf(i);
}

/* manypaths.c's tree: two call sites chosen by the bits of x */
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

static int term_at_exit;

__attribute__((destructor)) static void raise_at_exit(void)
{
	if (term_at_exit)
		raise(SIGTERM);
}

static void on_term(int sig)
{
	(void)sig;
	printf("handler ran\n");
	fflush(stdout);
	exit(3);
}

static void show(const char *what)
{
	struct sigaction sa;

	memset(&sa, 0xa5, sizeof(sa));
	if (sigaction(SIGTERM, NULL, &sa) != 0) {
		printf("%s: sigaction failed\n", what);
		return;
	}
	printf("%s: %s flags %#x mask %#lx\n", what,
	       sa.sa_handler == SIG_DFL ? "SIG_DFL" :
	       sa.sa_handler == SIG_IGN ? "SIG_IGN" :
	       sa.sa_handler == on_term ? "on_term" : "other",
	       (unsigned)sa.sa_flags, *(unsigned long *)&sa.sa_mask);
}

static void view(void)
{
	struct sigaction sa;
	void (*old)(int);

	show("start");
	old = signal(SIGTERM, on_term);
	printf("signal(on_term) returned %s\n", old == SIG_DFL ? "SIG_DFL" : "other");
	show("after signal(on_term)");
	old = signal(SIGTERM, SIG_DFL);
	printf("signal(SIG_DFL) returned %s\n", old == on_term ? "on_term" : "other");
	show("after signal(SIG_DFL)");
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sa.sa_flags = SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR1);
	printf("sigaction(SIG_DFL, SA_NODEFER, {USR1}) returned %d\n",
	       sigaction(SIGTERM, &sa, NULL));
	show("after sigaction");
	old = signal(SIGTERM, SIG_IGN);
	printf("signal(SIG_IGN) returned %s\n", old == SIG_DFL ? "SIG_DFL" : "other");
	show("after signal(SIG_IGN)");
	printf("signal(99) returned %s\n", signal(99, SIG_DFL) == SIG_ERR ? "SIG_ERR" : "other");
}

static void nodes(int d)
{
	double gaps[64] = { 0 }, last;

	for (unsigned x = 0; x < (1u << d); x++)
		p(d, x);
	touch("started");
	last = cpu_now();
	while (access("stop", F_OK) != 0) {
		for (int k = 0; k < 1000; k++) {
			double t = cpu_now(), g = t - last;

			last = t;
			leaf((unsigned long)k);
			if (g > gaps[0]) {	/* keep the 64 largest, smallest first */
				int i = 0;

				while (i + 1 < 64 && gaps[i + 1] < g) {
					gaps[i] = gaps[i + 1];
					i++;
				}
				gaps[i] = g;
			}
		}
	}
	for (int i = 63; i >= 0; i--)
		printf("%.1f\n", gaps[i] * 1e6);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "loop";
	double t0 = now();

	if (strcmp(mode, "view") == 0) {
		view();
		return 0;
	}
	if (strcmp(mode, "phases") == 0 && argc > 3) {
		double a = atof(argv[2]), b = atof(argv[3]);

		while (now() - t0 < a)
			phase1();
		while (now() - t0 < b)
			phase2();
		return 0;
	}
	if (strcmp(mode, "nodes") == 0 && argc > 2) {
		nodes(atoi(argv[2]));
		return 0;
	}
	if (strcmp(mode, "exit-term") == 0) {
		work(1000000);
		term_at_exit = 1;
		return 0;
	}
	if (strcmp(mode, "until-stop") == 0) {
		touch("started");
		while (access("stop", F_OK) != 0)
			work(100000);
		printf("result 42\n");
		return 7;
	}
	if (strcmp(mode, "handler") == 0)
		signal(SIGTERM, on_term);
	touch("started");
	for (;;)
		work(100000);
}
