/*
 * coro.c - ucontext coroutines whose stacks are freed once they finish.
 *
 *   coro main N      N rounds, in the main thread: coroutine A runs and
 *                    finishes, its stack is freed, then B runs (a stack
 *                    the allocator places elsewhere);
 *   coro thread N    the same in a worker thread;
 *   coro spin N      in a worker thread, B spins without any call while
 *                    the profiling timer ticks;
 *   coro keep N      A and B suspended and resumed in turn (stacks live);
 *   coro cold N      as `thread`, but the thread's own code is not
 *                    instrumented (a task runtime's worker): its first
 *                    instrumented call is made on coroutine A's stack.
 * Prints a checksum of the work, the same with or without the runtime.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>

#define STACK (256 * 1024)

static ucontext_t main_ctx, a_ctx, b_ctx;
static unsigned long sum;
static volatile unsigned long spin_sink;

__attribute__((noinline)) static unsigned long leaf(unsigned long x)
{
	return x * 2654435761u % 1000003;
}

__attribute__((noinline)) static unsigned long mid(unsigned long x)
{
	return leaf(x) + leaf(x + 1);
}

static void run_a(void)
{
	for (int i = 0; i < 50; i++)
		sum += mid((unsigned long)i);
}

static void run_b(void)
{
	for (int i = 0; i < 50; i++)
		sum += leaf((unsigned long)i);
}

static void run_spin(void)
{
	struct timespec t0, t1;

	/* no call of instrumented code: only the timer's ticks see B */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			spin_sink += (unsigned long)i;
		clock_gettime(CLOCK_MONOTONIC, &t1);
	} while ((t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec) < 30000000L);
}

__attribute__((no_instrument_function)) static void *prepare(ucontext_t *ctx, void (*fn)(void))
{
	/* mapped and unmapped as coroutine libraries do (Boost.Context) */
	void *stack = mmap(NULL, STACK, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (stack == MAP_FAILED)
		exit(2);
	memset(stack, 0x5a, STACK);
	getcontext(ctx);
	ctx->uc_stack.ss_sp = stack;
	ctx->uc_stack.ss_size = STACK;
	ctx->uc_link = &main_ctx;
	makecontext(ctx, fn, 0);
	return stack;
}

/* Both stacks exist before A runs, so B's lies elsewhere than A's did. */
#define ROUNDS_BODY \
	for (int r = 0; r < n; r++) { \
		void *sa = prepare(&a_ctx, run_a); \
		void *sb = prepare(&b_ctx, spin ? run_spin : run_b); \
		swapcontext(&main_ctx, &a_ctx); \
		munmap(sa, STACK);	/* A's frames are gone with its stack */ \
		swapcontext(&main_ctx, &b_ctx); \
		munmap(sb, STACK); \
		sum += r; \
	}

/* A task runtime's worker loop: not instrumented (nor what it calls here). */
__attribute__((no_instrument_function, noinline)) static void rounds_cold(int n, int spin)
{
	ROUNDS_BODY
}

__attribute__((noinline)) static void rounds(int n, int spin)
{
	for (int r = 0; r < n; r++) {
		void *sa = prepare(&a_ctx, run_a);
		void *sb = prepare(&b_ctx, spin ? run_spin : run_b);

		swapcontext(&main_ctx, &a_ctx);
		munmap(sa, STACK);	/* A's frames are gone with its stack */
		swapcontext(&main_ctx, &b_ctx);
		munmap(sb, STACK);
		sum += mid((unsigned long)r);
	}
}

static int turns;

static void run_keep_a(void)
{
	for (;;) {
		sum += mid((unsigned long)turns);
		swapcontext(&a_ctx, &main_ctx);
	}
}

static void run_keep_b(void)
{
	for (;;) {
		sum += leaf((unsigned long)turns);
		swapcontext(&b_ctx, &main_ctx);
	}
}

__attribute__((noinline)) static void keep(int n)
{
	static char sa[STACK], sb[STACK];

	getcontext(&a_ctx);
	a_ctx.uc_stack.ss_sp = sa;
	a_ctx.uc_stack.ss_size = sizeof(sa);
	makecontext(&a_ctx, run_keep_a, 0);
	getcontext(&b_ctx);
	b_ctx.uc_stack.ss_sp = sb;
	b_ctx.uc_stack.ss_size = sizeof(sb);
	makecontext(&b_ctx, run_keep_b, 0);
	for (turns = 0; turns < n; turns++) {
		swapcontext(&main_ctx, &a_ctx);
		swapcontext(&main_ctx, &b_ctx);
	}
}

struct job {
	int n, spin, cold;
};

__attribute__((no_instrument_function)) static void *worker(void *p)
{
	struct job *j = p;

	if (j->cold)
		rounds_cold(j->n, j->spin);
	else
		rounds(j->n, j->spin);
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "main";
	int n = argc > 2 ? atoi(argv[2]) : 20;

	if (strcmp(mode, "main") == 0) {
		rounds(n, 0);
	} else if (strcmp(mode, "keep") == 0) {
		keep(n);
	} else {
		struct job j = { n, strcmp(mode, "spin") == 0, strcmp(mode, "cold") == 0 };
		pthread_t t;

		if (pthread_create(&t, NULL, worker, &j) || pthread_join(t, NULL))
			return 2;
	}
	printf("%s %d: %lu\n", mode, n, sum);
	return 0;
}
