/*
 * An imbalanced MPI job for the model's rank tests: every rank computes
 * `units` steps of arithmetic (rank 2 three times as many), then all meet
 * in MPI_Allreduce, where the fast ranks wait for the slow one: the wait
 * runs in the MPI library, time that only the call-path sidecars see.
 *
 *   imbalance UNITS      about UNITS x 10 ms of work per rank (x3 on rank 2)
 *   imbalance UNITS N    rank N does the triple instead (-1: none)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

static __attribute__((noinline)) void compute(long units)
{
	for (long u = 0; u < units; u++)
		for (long i = 0; i < 4000000; i++)
			sink += (double)(i & 15) * 1e-9;
}

int main(int argc, char **argv)
{
	long units = argc > 1 ? atol(argv[1]) : 10;
	int slow = argc > 2 ? atoi(argv[2]) : 2, rank;
	double x = 1, y = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	compute(rank == slow ? 3 * units : units);
	MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	MPI_Finalize();
	return y > 0 ? 0 : 1;
}
