/*
 * corrupt.c - a frame chain that lies while the samples come: a function
 * overwrites its own return address (and, in another round, the frame
 * pointer its callers' unwind rules read) with garbage, a pointer to data,
 * or the address of a function's first byte (code, but not after a call),
 * spins on the CPU, puts them back and returns.  Built with frame pointers
 * so that the slots are where the CFI says.  A stack walk there must not
 * crash nor name a caller it read from the garbage; the program's output
 * and status are the same with and without a profiler.
 *
 *   corrupt ROUNDS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;
static unsigned long table[64];

__attribute__((noinline)) static void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i ^ (sink >> 3);
}

__attribute__((noinline)) static void not_a_call_site(void)
{
	sink++;
}

/* Overwrite this frame's return address with `bad` while spinning. */
__attribute__((noinline)) static void lying_return(uintptr_t bad, unsigned long n)
{
	uintptr_t *slot = (uintptr_t *)__builtin_frame_address(0) + 1;
	uintptr_t saved = *slot;

	*(volatile uintptr_t *)slot = bad;
	spin(n);
	*(volatile uintptr_t *)slot = saved;
}

/* Overwrite the caller's saved frame pointer (the CFA of every caller
 * that keeps one) while spinning. */
__attribute__((noinline)) static void lying_frame(uintptr_t bad, unsigned long n)
{
	uintptr_t *slot = (uintptr_t *)__builtin_frame_address(0);
	uintptr_t saved = *slot;

	*(volatile uintptr_t *)slot = bad;
	spin(n);
	*(volatile uintptr_t *)slot = saved;
}

__attribute__((noinline)) static void honest(unsigned long n)
{
	spin(n);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	const uintptr_t bad[] = {
		0x4141414141414141u, (uintptr_t)table, (uintptr_t)not_a_call_site, 8, 0,
	};

	for (int r = 0; r < rounds; r++) {
		uintptr_t b = bad[r % (sizeof(bad) / sizeof(bad[0]))];

		lying_return(b, 10000000);
		lying_frame(b, 10000000);
		honest(10000000);
	}
	printf("%d rounds, sink %lu\n", rounds, sink & 1);
	return 0;
}
