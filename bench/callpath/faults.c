/*
 * faults.c - a program of page faults, for what one counter overflow costs
 * (bench/callpath/counters.sh): `faults R P` maps P pages, writes a byte to
 * each (one fault per page), unmaps them, R times, inside an instrumented
 * function two frames deep.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

__attribute__((noinline)) long touch(long pages)
{
	char *p = mmap(NULL, pages * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long s = 0;

	if (p == MAP_FAILED)
		exit(2);
	for (long i = 0; i < pages; i++)
		p[i * 4096] = (char)i;
	for (long i = 0; i < pages; i++)
		s += p[i * 4096];
	munmap(p, pages * 4096);
	return s;
}

__attribute__((noinline)) long rounds(long r, long pages)
{
	long s = 0;

	for (long i = 0; i < r; i++)
		s += touch(pages);
	return s;
}

int main(int argc, char **argv)
{
	printf("%ld\n", rounds(argc > 1 ? atol(argv[1]) : 50, argc > 2 ? atol(argv[2]) : 4000));
	return 0;
}
