/*
 * The demo program: a toy stencil solver, in a baseline and a changed
 * version (-DCHANGED).  The change makes smoothing cheaper, checks the
 * residual twice as often, drops the `legacy_norm` pass and adds
 * `fast_norm`, so the differential profile has something of each kind:
 * less time, more time, more calls, a function only in each version.
 */
#include <stdio.h>
#include <stdlib.h>

#define N 16384

static double grid[N], next[N];

void setup(int n)
{
	for (int i = 0; i < n; i++)
		grid[i] = (double)(i % 17) / 17.0;
}

void smooth(int n, int sweeps)
{
	for (int s = 0; s < sweeps; s++) {
		for (int i = 1; i < n - 1; i++)
			next[i] = 0.25 * grid[i - 1] + 0.5 * grid[i] + 0.25 * grid[i + 1];
		for (int i = 1; i < n - 1; i++)
			grid[i] = next[i];
	}
}

double residual(int n)
{
	double r = 0;

	for (int i = 1; i < n - 1; i++) {
		double d = grid[i - 1] - 2 * grid[i] + grid[i + 1];
		r += d * d;
	}
	return r;
}

#ifndef CHANGED
double legacy_norm(int n)
{
	double s = 0;

	for (int k = 0; k < 8; k++)
		for (int i = 0; i < n; i++)
			s += grid[i] * grid[i] / (k + 1);
	return s;
}
#else
double fast_norm(int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += grid[i] * grid[i];
	return s;
}
#endif

int main(int argc, char **argv)
{
	int steps = argc > 1 ? atoi(argv[1]) : 4000;
	double r = 0, norm = 0;

	setup(N);
	for (int t = 0; t < steps; t++) {
#ifndef CHANGED
		smooth(N, 8);
		if (t % 2 == 0)
			r = residual(N);
		norm += legacy_norm(N);
#else
		smooth(N, 5);
		r = residual(N);
		norm += fast_norm(N);
#endif
	}
	printf("residual %.6g norm %.6g\n", r, norm);
	return 0;
}
