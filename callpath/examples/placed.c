/*
 * placed.c - where the time goes outside the program's own code (issue 22).
 *
 *   ./placed [SCALE]      three functions of about 0.4 s each (SCALE 1):
 *                         use_libm calls exp/sin/log in libm, use_memcpy
 *                         copies with memcpy (libc), arith is plain
 *                         arithmetic; each prints the CPU time it took,
 *                         measured with CLOCK_THREAD_CPUTIME_ID:
 *                         "use_libm 0.412345"
 *   ./placed threads      two threads: t1 (thread_one) runs arith for 0.6
 *                         s, t2 (thread_two) for 0.2 s; "t1 0.6..." lines
 *   ./placed worker       one thread, t1 (thread_one), runs arith for 0.6
 *                         s while main waits in pthread_join
 *   ./placed calls        calls_tiny calls tiny (an empty function) in a
 *                         loop for 0.5 s: most of the time is the
 *                         instrumentation's, on calls_tiny's path
 *   ./placed wall         CALLPATH_CLOCK=wall's case: sleeper sleeps 1.0 s
 *                         in ten nanosleeps, reader blocks 0.5 s on a pipe,
 *                         arith computes 0.3 s; prints each sleep's error
 *                         and any EINTR
 *   ./placed only F SECS  only function F (use_libm, use_memcpy, arith)
 *   ./placed entry        long_entry: a function whose entry sequence
 *                         (before its mcount call) is long, called in a
 *                         loop by its caller
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;
static char src[1 << 16], dst[1 << 16];

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) void use_libm(double secs)
{
	double t0 = cpu_now(), x = 0.5;

	while (cpu_now() - t0 < secs)
		for (int i = 0; i < 20000; i++)
			x += exp(x * 1e-9) + sin(x) + log(x + 2.0);
	sink = x;
}

__attribute__((noinline)) void use_memcpy(double secs)
{
	double t0 = cpu_now();

	while (cpu_now() - t0 < secs)
		for (int i = 0; i < 200; i++) {
			memcpy(dst, src, sizeof(src));
			src[i] = dst[sizeof(dst) - 1 - i];
		}
	sink = dst[7];
}

__attribute__((noinline)) void arith(double secs)
{
	double t0 = cpu_now();
	unsigned long x = 1;

	while (cpu_now() - t0 < secs)
		for (int i = 0; i < 200000; i++)
			x = x * 6364136223846793005ul + 1442695040888963407ul;
	sink = (double)x;
}

/* The threads' start routines: their trees' roots tell them apart. */
void *thread_one(void *arg)
{
	double t0 = cpu_now();

	arith(*(double *)arg);
	printf("t1 %.6f\n", cpu_now() - t0);
	return NULL;
}

void *thread_two(void *arg)
{
	double t0 = cpu_now();

	arith(*(double *)arg);
	printf("t2 %.6f\n", cpu_now() - t0);
	return NULL;
}

__attribute__((noinline)) void sleeper(void)
{
	for (int i = 0; i < 10; i++) {
		struct timespec req = { 0, 100000000 }, rem;
		double w0 = wall_now();

		while (nanosleep(&req, &rem) != 0) {
			if (errno == EINTR)
				printf("EINTR nanosleep\n");
			req = rem;
		}
		printf("sleep_error_ms %.3f\n", (wall_now() - w0 - 0.1) * 1e3);
	}
}

static int pipefd[2];

static void *writer(void *arg)
{
	(void)arg;
	usleep(500000);
	if (write(pipefd[1], "x", 1) != 1)
		perror("write");
	return NULL;
}

__attribute__((noinline)) void reader(void)
{
	char c;
	ssize_t n;

	while ((n = read(pipefd[0], &c, 1)) < 0 && errno == EINTR)
		printf("EINTR read\n");
}

/*
 * long_entry: a -pg function whose entry sequence, before its `call
 * mcount`, is long (a loop of 3000 iterations, as a big frame's stack
 * probes would be), and whose body after it is short: nearly all its time
 * is in its first bytes, where its own frame is not live yet.  Written in
 * assembly because no compiler option makes the sequence that long.
 */
long long_entry(long n);
__asm__(".text\n"
	".globl long_entry\n"
	".type long_entry, @function\n"
	"long_entry:\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"	push %rdi\n"
	"	mov $3000, %ecx\n"
	"1:	dec %ecx\n"
	"	jnz 1b\n"
	"	pop %rdi\n"
	"	call *mcount@GOTPCREL(%rip)\n"
	"	lea 1(%rdi), %rax\n"
	"	pop %rbp\n"
	"	ret\n"
	".size long_entry, .-long_entry\n");

/* Called after long_entry from another call site, so that the shadow
 * stack's top is never a stale long_entry frame that looks live. */
__attribute__((noinline)) long tiny(long i)
{
	return i ^ 1;
}

__attribute__((noinline)) void entry_caller(double secs)
{
	double t0 = cpu_now();
	long s = 0;

	while (cpu_now() - t0 < secs)
		for (long i = 0; i < 1000; i++)
			s += long_entry(i) + tiny(i);
	sink = (double)s;
}

/* A call-heavy loop: the trampolines' time, made for calls_tiny's path. */
__attribute__((noinline)) void calls_tiny(double secs)
{
	double t0 = cpu_now();
	long s = 0;

	while (cpu_now() - t0 < secs)
		for (long i = 0; i < 100000; i++)
			s += tiny(i);
	sink = (double)s;
}

int main(int argc, char **argv)
{
	double scale = 1.0, t;

	if (argc > 1 && !strcmp(argv[1], "threads")) {
		pthread_t a, b;
		double s1 = 0.6, s2 = 0.2;

		pthread_create(&a, NULL, thread_one, &s1);
		pthread_create(&b, NULL, thread_two, &s2);
		pthread_join(a, NULL);
		pthread_join(b, NULL);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "calls")) {
		calls_tiny(0.5);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "worker")) {
		pthread_t a;
		double s1 = 0.6;

		pthread_create(&a, NULL, thread_one, &s1);
		pthread_join(a, NULL);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "wall")) {
		pthread_t w;
		double w0;

		if (pipe(pipefd) != 0)
			return 1;
		w0 = wall_now();
		sleeper();
		printf("sleeper_wall %.6f\n", wall_now() - w0);
		pthread_create(&w, NULL, writer, NULL);
		w0 = wall_now();
		reader();
		printf("reader_wall %.6f\n", wall_now() - w0);
		pthread_join(w, NULL);
		t = cpu_now();
		w0 = wall_now();
		arith(0.3);
		printf("arith %.6f\narith_wall %.6f\n", cpu_now() - t, wall_now() - w0);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "entry")) {
		t = cpu_now();
		entry_caller(0.5);
		printf("entry_caller %.6f\n", cpu_now() - t);
		return 0;
	}
	if (argc > 3 && !strcmp(argv[1], "only")) {
		double secs = atof(argv[3]);

		t = cpu_now();
		if (!strcmp(argv[2], "use_libm"))
			use_libm(secs);
		else if (!strcmp(argv[2], "use_memcpy"))
			use_memcpy(secs);
		else
			arith(secs);
		printf("%s %.6f\n", argv[2], cpu_now() - t);
		return 0;
	}
	if (argc > 1)
		scale = atof(argv[1]);
	memset(src, 1, sizeof(src));
	t = cpu_now();
	use_libm(0.4 * scale);
	printf("use_libm %.6f\n", cpu_now() - t);
	t = cpu_now();
	use_memcpy(0.4 * scale);
	printf("use_memcpy %.6f\n", cpu_now() - t);
	t = cpu_now();
	arith(0.4 * scale);
	printf("arith %.6f\n", cpu_now() - t);
	return 0;
}
