/*
 * sampstress.c - the stack walk's hard cases, each with CPU time in it so
 * that samples land there (the rest of this corpus tests calls, and runs
 * too briefly to be sampled).  Built without -pg for sampling mode.
 *
 *   sampstress coro N      two ucontext coroutines on stacks of their own
 *                          burn CPU in nested calls and switch N times; the
 *                          second's stack is unmapped and mapped again
 *                          elsewhere each round;
 *   sampstress altstack N  N signals whose handler runs on an alternate
 *                          stack and burns CPU there (a walk crosses the
 *                          signal frame back to the interrupted stack);
 *   sampstress dlchurn N   a thread burns CPU in a library while the main
 *                          thread loads and unloads another copy N times;
 *   sampstress fork N      N children burn CPU and exit with status k;
 *   sampstress longjmp N   N times: recursion 200 deep burns CPU at the
 *                          bottom and longjmps out;
 *   sampstress threads N   N threads, one after the other, burn 2 ms each;
 *   sampstress deep N      recursion N deep (beyond the walk's bound of 512
 *                          frames) burns CPU at the bottom.
 * Prints a checksum, the same with or without a profiler.
 *
 * Built with -DSAMPSTRESS_LIB -shared: the library of dlchurn
 * (lib_burn()).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

static volatile unsigned long sink;

#ifdef SAMPSTRESS_LIB
__attribute__((noinline)) static void lib_inner(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7 ^ (sink >> 2);
}

void lib_burn(unsigned long n)
{
	lib_inner(n);
	__asm__ volatile("" : : : "memory");
}
#else

__attribute__((noinline)) static void burn(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i ^ (sink >> 3);
}

__attribute__((noinline)) static void burn_nested(unsigned long n)
{
	burn(n);
	__asm__ volatile("" : : : "memory");
}

/* ---- coro ---- */

#define STACK (128 * 1024)
static ucontext_t main_ctx, a_ctx, b_ctx;

static void coro_a(void)
{
	for (;;) {
		burn_nested(3000000);
		swapcontext(&a_ctx, &main_ctx);
	}
}

static void coro_b(void)
{
	burn_nested(3000000);
}

static void coro(int n)
{
	void *sa = mmap(NULL, STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	getcontext(&a_ctx);
	a_ctx.uc_stack.ss_sp = sa;
	a_ctx.uc_stack.ss_size = STACK;
	a_ctx.uc_link = &main_ctx;
	makecontext(&a_ctx, coro_a, 0);
	for (int r = 0; r < n; r++) {
		void *sb = mmap(NULL, STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);

		swapcontext(&main_ctx, &a_ctx);
		getcontext(&b_ctx);
		b_ctx.uc_stack.ss_sp = sb;
		b_ctx.uc_stack.ss_size = STACK;
		b_ctx.uc_link = &main_ctx;
		makecontext(&b_ctx, coro_b, 0);
		swapcontext(&main_ctx, &b_ctx);
		munmap(sb, STACK);
	}
	munmap(sa, STACK);
}

/* ---- altstack ---- */

static void on_usr1(int sig)
{
	(void)sig;
	burn_nested(2000000);
}

static void altstack(int n)
{
	stack_t ss = { .ss_sp = malloc(64 * 1024), .ss_size = 64 * 1024, .ss_flags = 0 };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_ONSTACK;
	sigaltstack(&ss, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	for (int i = 0; i < n; i++)
		raise(SIGUSR1);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	free(ss.ss_sp);
}

/* ---- dlchurn ---- */

static const char *lib_path;
static volatile int stop;

static void *lib_user(void *arg)
{
	void (*f)(unsigned long) = (void (*)(unsigned long))(uintptr_t)arg;

	while (!stop)
		f(300000);
	return NULL;
}

static void dlchurn(int n)
{
	void *h = dlopen(lib_path, RTLD_NOW);
	pthread_t t;
	void *f;

	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		exit(1);
	}
	f = dlsym(h, "lib_burn");
	pthread_create(&t, NULL, lib_user, f);
	for (int i = 0; i < n; i++) {
		/* a copy under another name: a new object each time */
		char copy[256];
		void *h2;

		snprintf(copy, sizeof(copy), "%s.copy", lib_path);
		h2 = dlopen(copy, RTLD_NOW | RTLD_LOCAL);
		if (h2) {
			((void (*)(unsigned long))(uintptr_t)dlsym(h2, "lib_burn"))(200000);
			dlclose(h2);
		}
		burn(200000);
	}
	stop = 1;
	pthread_join(t, NULL);
	dlclose(h);
}

/* ---- fork ---- */

static void forks(int n)
{
	int sum = 0;

	for (int k = 0; k < n; k++) {
		pid_t p = fork();
		int st;

		if (p == 0) {
			burn_nested(20000000);
			exit(k);	/* exit, not _exit: the profile is written at exit */
		}
		waitpid(p, &st, 0);
		sum += WEXITSTATUS(st);
	}
	printf("children's statuses %d\n", sum);
}

/* ---- longjmp ---- */

static jmp_buf jb;

__attribute__((noinline)) static void down(int d)
{
	if (d == 0) {
		burn(2000000);
		longjmp(jb, 1);
	}
	down(d - 1);
	__asm__ volatile("" : : : "memory");
}

static void jumps(int n)
{
	for (int i = 0; i < n; i++)
		if (!setjmp(jb))
			down(200);
}

/* ---- threads ---- */

static void *thread_burn(void *arg)
{
	(void)arg;
	burn_nested(2000000);
	return NULL;
}

static void threads(int n)
{
	for (int i = 0; i < n; i++) {
		pthread_t t;

		pthread_create(&t, NULL, thread_burn, NULL);
		pthread_join(t, NULL);
	}
}

/* ---- deep ---- */

__attribute__((noinline)) static void deeper(int d)
{
	if (d == 0)
		burn(50000000);
	else
		deeper(d - 1);
	__asm__ volatile("" : : : "memory");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "coro";
	int n = argc > 2 ? atoi(argv[2]) : 10;

	lib_path = argc > 3 ? argv[3] : "./sampstress.so";
	if (!strcmp(mode, "coro"))
		coro(n);
	else if (!strcmp(mode, "altstack"))
		altstack(n);
	else if (!strcmp(mode, "dlchurn"))
		dlchurn(n);
	else if (!strcmp(mode, "fork"))
		forks(n);
	else if (!strcmp(mode, "longjmp"))
		jumps(n);
	else if (!strcmp(mode, "threads"))
		threads(n);
	else if (!strcmp(mode, "deep"))
		deeper(n);
	else
		return 2;
	printf("%s %d: %lu\n", mode, n, sink & 1);
	return 0;
}
#endif
