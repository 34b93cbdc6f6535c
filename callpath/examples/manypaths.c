/*
 * manypaths.c - 2^D distinct call paths (D = argv[1], default 20): p calls
 * itself from one of two call sites chosen by the bits of x, so the tree is
 * a full binary tree of depth D with 2^(D+1) - 1 nodes.
 */
#include <stdlib.h>

volatile int sink;

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

int main(int argc, char **argv)
{
	int d = argc > 1 ? atoi(argv[1]) : 20;

	for (unsigned x = 0; x < (1u << d); x++)
		p(d, x);
	return 0;
}
