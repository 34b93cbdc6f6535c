/*
 * The MPI test program of testsuite/e2e/t3NN_mpi_*: built with -pg, run
 * with mpirun -np 4.  Like Sweep3D in the eGprof paper, rank 0 alone calls
 * one function (timers); unlike Sweep3D, work grows with the rank, so the
 * ranks are imbalanced on purpose.
 *
 *   ranks SIZE     rank r does SIZE*(r+1) units of work
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

static double timers(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (double)tv.tv_sec + 1e-6 * (double)tv.tv_usec;
}

/* One unit: about 20 ms of arithmetic. */
static __attribute__((noinline)) double work_unit(double x)
{
	volatile double acc = x;
	long i;

	for (i = 0; i < 8000000; i++)
		acc = acc * 1.0000001 + 1e-9;
	return acc;
}

static __attribute__((noinline)) double work(long units)
{
	double s = 0;
	long i;

	for (i = 0; i < units; i++)
		s += work_unit((double)i);
	return s;
}

static __attribute__((noinline)) double exchange(double mine)
{
	double sum = 0;

	MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	return sum;
}

int main(int argc, char **argv)
{
	long size = argc > 1 ? atol(argv[1]) : 1;
	double t0 = 0, total;
	int rank, step;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0)
		t0 = timers();
	for (step = 0; step < 2; step++)
		total = exchange(work(size * (rank + 1)));
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0)
		printf("sum %.3g in %.2f s\n", total, timers() - t0);
	MPI_Finalize();
	return 0;
}
