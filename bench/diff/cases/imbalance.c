/*
 * Case study 6 for --diff (bench/diff/cases.sh): an imbalance injected on
 * one MPI rank.  Every rank relaxes its rows and exchanges a halo; with
 * VARIANT 1, rank 2 relaxes its rows twice.
 *
 *   mpirun -np 4 imbalance VARIANT
 */
#include <mpi.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noipa)) /* no clones (issue 11 item 6), no pure-call hoisting */
static volatile double sink;

NOINLINE static void relax_rows(long n)
{
	double s = 0;
	for (long i = 0; i < n; i++)
		s += (double)(i % 9) * 0.25;
	sink = s;
}

NOINLINE static void pack_halo(long n)
{
	unsigned x = 7;
	for (long i = 0; i < n; i++)
		x = x * 69069u + 1u;
	sink = x;
}

NOINLINE static void residual(long n)
{
	double s = 1;
	for (long i = 0; i < n; i++)
		s = s * 0.9999999 + 1e-7;
	sink = s;
}

NOINLINE static void smooth(long n)
{
	double s = 0;
	for (long i = 0; i < n; i++)
		s += (double)(i & 15) * 0.125;
	sink = s;
}

NOINLINE static void norm2(long n)
{
	unsigned x = 3;
	for (long i = 0; i < n; i++)
		x ^= x << 5, x ^= x >> 7;
	sink = x;
}

int main(int argc, char **argv)
{
	int rank, v = argc > 1 ? atoi(argv[1]) : 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	relax_rows(v && rank == 2 ? 400000000L : 200000000L);
	pack_halo(100000000L);
	residual(60000000L);
	smooth(150000000L);
	norm2(100000000L);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
