/* OpenMP with 2 threads: each thread calls work() from the outlined body. */
#include <omp.h>
#include <stdio.h>

int leaf(int v) { return v * 3; }

int work(int i)
{
	int s = 0;

	for (int k = 0; k < 4; k++)
		s += leaf(i + k);
	return s;
}

int main(void)
{
	long sum = 0;

#pragma omp parallel for num_threads(2) schedule(static) reduction(+:sum)
	for (int i = 0; i < 10; i++)
		sum += work(i);
	printf("%ld\n", sum);
	return 0;
}
