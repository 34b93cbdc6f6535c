/*
 * abort_rank.c - every rank works for a second (leaf under work under
 * main), then rank 1 calls MPI_Abort(5) and the others work on until the
 * launcher ends them (t493).
 */
#include <mpi.h>
#include <stdio.h>
#include <time.h>
volatile unsigned long sink;
__attribute__((noinline)) void leaf(unsigned long i) { sink += i * i; }
__attribute__((noinline)) void work(unsigned long n) { for (unsigned long i = 0; i < n; i++) leaf(i); }
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv)
{
	int rank;
	double t0;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	t0 = now();
	while (now() - t0 < 1.0) work(10000);
	if (rank == 1)
		MPI_Abort(MPI_COMM_WORLD, 5);
	for (;;) work(10000);
	MPI_Finalize();
	return 0;
}
