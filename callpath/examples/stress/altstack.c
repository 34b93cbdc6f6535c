/*
 * altstack.c - signal handlers on an alternate stack (sigaltstack) that
 * call instrumented code, in a worker thread whose alternate stack is
 * unmapped once it is done with it, and in the main thread.
 *
 *   altstack N   N rounds: each maps an alternate stack (before the thread
 *                is created, so it lies above the thread's stack), the
 *                thread's handler runs on it and calls work(), the stack is
 *                disabled and unmapped, and the thread calls work() again.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define ALT (64 * 1024)

static volatile unsigned long sum;

__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
	return x * 2654435761u % 1000003;
}

__attribute__((noinline)) static void work(int k)
{
	for (int i = 0; i < 10; i++)
		sum += leaf((unsigned long)(i + k));
}

static void handler(int sig)
{
	(void)sig;
	work(7);
}

static void *alt_mem;

__attribute__((noinline)) static void on_alt(void)
{
	stack_t ss = { .ss_sp = alt_mem, .ss_size = ALT, .ss_flags = 0 };
	stack_t off = { .ss_flags = SS_DISABLE };

	if (sigaltstack(&ss, NULL) != 0)
		exit(2);
	raise(SIGUSR1);		/* handler() runs on alt_mem */
	if (sigaltstack(&off, NULL) != 0)
		exit(2);
	munmap(alt_mem, ALT);	/* the handler's frames are gone */
	work(1);		/* a call from below where they were */
}

static void *worker(void *p)
{
	(void)p;
	on_alt();
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	struct sigaction sa = { 0 };

	sa.sa_handler = handler;
	sa.sa_flags = SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) != 0)
		return 2;
	for (int r = 0; r < n; r++) {
		pthread_t t;

		alt_mem = mmap(NULL, ALT, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (alt_mem == MAP_FAILED)
			return 2;
		if (pthread_create(&t, NULL, worker, NULL) || pthread_join(t, NULL))
			return 2;
	}
	/* and in the main thread, whose stack is above everything */
	alt_mem = mmap(NULL, ALT, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (alt_mem == MAP_FAILED)
		return 2;
	on_alt();
	printf("altstack %d: %lu\n", n, sum);
	return 0;
}
