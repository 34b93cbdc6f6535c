/*
 * jit.c - code generated at run time, with no object file and no unwind
 * information, as a JIT compiler makes: an executable mapping holding a
 * loop that spins and calls back into the program, and a mapping that is
 * unmapped and mapped again at another address each round.  A stack walk
 * there ends (the frame cannot be unwound without information): it must
 * not crash, nor guess the caller of the generated code; the callback's
 * own frames are still seen.  Output and status are the same with and
 * without a profiler.
 *
 *   jit ROUNDS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void callback(void)
{
	for (int i = 0; i < 200000; i++)
		sink += (unsigned long)i * 3;
}

/*
 * void gen(void (*cb)(void), long n):
 *   push %rbx; push %r12; sub $8,%rsp   (keeps the stack 16-byte aligned)
 *   mov %rdi,%rbx; mov %rsi,%r12
 * 1: mov $2000000,%ecx
 * 2: dec %ecx; jnz 2b                   (spins inside the generated code)
 *   call *%rbx                          (calls back into the program)
 *   dec %r12; jnz 1b
 *   add $8,%rsp; pop %r12; pop %rbx; ret
 */
static const unsigned char code[] = {
	0x53, 0x41, 0x54, 0x48, 0x83, 0xec, 0x08,
	0x48, 0x89, 0xfb, 0x49, 0x89, 0xf4,
	0xb9, 0x80, 0x84, 0x1e, 0x00,
	0xff, 0xc9, 0x75, 0xfc,
	0xff, 0xd3,
	0x49, 0xff, 0xcc, 0x75, 0xf0,
	0x48, 0x83, 0xc4, 0x08, 0x41, 0x5c, 0x5b, 0xc3,
};

__attribute__((noinline)) static void run_generated(int round)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void (*gen)(void (*)(void), long);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	/* a different offset each round: no two rounds' code at one address */
	memcpy((char *)p + 64 * (round % 32), code, sizeof(code));
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC)) {
		perror("mprotect");
		exit(1);
	}
	gen = (void (*)(void (*)(void), long))(uintptr_t)((char *)p + 64 * (round % 32));
	gen(callback, 20);
	munmap(p, 4096);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 10;

	for (int r = 0; r < rounds; r++)
		run_generated(r);
	printf("%d rounds, sink %lu\n", rounds, sink & 1);
	return 0;
}
