/*
 * sample.c - what one SIGPROF sample costs, in cycles (bench/callpath/run.sh).
 *
 *   sample live D N    N signals from inside a recursion D frames deep: the
 *                      innermost frame is live, the handler walks nothing
 *   sample stale D N   N signals from main after a recursion D frames deep
 *                      has returned: the D entries are still on the shadow
 *                      stack (main makes no instrumented call), so the
 *                      handler walks past all of them (its worst case)
 *
 * Each signal is sent with tgkill from an inline `syscall` in the program's
 * own code, so the interrupted program counter is in the program (where the
 * runtime places samples) and the kernel delivers it on the way back.
 * Prints the mean cycles (rdtsc) per signal; run with and without
 * libcallpath, the difference is our handler's cost on top of glibc's.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <x86intrin.h>

static long pid, tid;

static inline __attribute__((always_inline)) void self_signal(void)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"((long)SYS_tgkill), "D"(pid), "S"(tid), "d"((long)SIGPROF)
			 : "rcx", "r11", "memory");
}

static inline __attribute__((always_inline)) unsigned long long burst(long n)
{
	unsigned long long t0 = __rdtsc();

	for (long i = 0; i < n; i++)
		self_signal();
	return __rdtsc() - t0;
}

__attribute__((noinline)) unsigned long long deep(int d, long n)
{
	if (d <= 1)
		return burst(n);
	return deep(d - 1, n) + 1;
}

int main(int argc, char **argv)
{
	int d = argc > 2 ? atoi(argv[2]) : 1;
	long n = argc > 3 ? atol(argv[3]) : 100000;
	unsigned long long cycles;

	pid = getpid();
	tid = syscall(SYS_gettid);
	if (argc > 1 && !strcmp(argv[1], "stale")) {
		deep(d, 0);
		cycles = burst(n);	/* in main: the deep frames have returned */
	} else {
		cycles = deep(d, n);
	}
	printf("%.0f\n", (double)cycles / (double)n);
	return 0;
}
