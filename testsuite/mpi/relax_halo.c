/*
 * A small -pg program whose gmon.out is the template of the generated rank
 * files in testsuite/e2e/t31N_mpi_* (testsuite/mpi/gen_ranks.py): two
 * functions with enough samples for the statistics to mean something.
 */
volatile double sink;

__attribute__((noinline)) void relax(int n)
{
	for (int i = 0; i < n * 20000; i++)
		sink += i * 0.5;
}

__attribute__((noinline)) void halo(int n)
{
	for (int i = 0; i < n * 8000; i++)
		sink += i;
}

int main(void)
{
	for (int k = 0; k < 300; k++) {
		relax(k % 5 + 1);
		halo(k % 3 + 1);
	}
	return 0;
}
