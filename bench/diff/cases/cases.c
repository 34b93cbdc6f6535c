/*
 * Case studies for --diff (bench/diff/cases.sh): each is a realistic change
 * between a baseline and a second run, with unchanged "background" work
 * around it so that rows within noise exist.
 *
 *   cases CASE VARIANT      VARIANT 0: baseline, 1: the change
 *
 * Build-level changes use macros: -DREPLACED (the sort is replaced),
 * and the inline case is built with and without -DNO_INLINE at -O2.
 * Every function but lj_pair is noinline so that -pg sees it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noipa)) /* no clones (issue 11 item 6), no pure-call hoisting */
static volatile double sink;

/* Unchanged work in every case: three functions of different weights. */
NOINLINE static void background_a(long n)
{
	double s = 0;
	for (long i = 0; i < n; i++)
		s += (double)(i % 7) * 0.5;
	sink = s;
}

NOINLINE static void background_b(long n)
{
	double s = 1;
	for (long i = 0; i < n; i++)
		s = s * 1.0000001 + (double)(i & 3);
	sink = s;
}

NOINLINE static void background_c(long n)
{
	unsigned x = 1;
	for (long i = 0; i < n; i++)
		x = x * 1103515245u + 12345u;
	sink = x;
}

NOINLINE static void background(long scale)
{
	background_a(120000000L * scale);
	background_b(60000000L * scale);
	background_c(100000000L * scale);
}

/* 1. A loop made cache-unfriendly: row-major becomes column-major. */
#define N 2048
static double *matrix;

NOINLINE static double sum_matrix(int column_major)
{
	double s = 0;
	for (int rep = 0; rep < 12; rep++)
		for (int i = 0; i < N; i++)
			for (int j = 0; j < N; j++)
				s += column_major ? matrix[(size_t)j * N + i] : matrix[(size_t)i * N + j];
	return s;
}

NOINLINE static void init_matrix(void)
{
	matrix = malloc(sizeof(double) * N * N);
	for (size_t i = 0; i < (size_t)N * N; i++)
		matrix[i] = (double)(i % 13);
}

/* 2. An inlining flag: lj_pair inlined into compute_forces or not. */
#ifdef NO_INLINE
NOINLINE
#else
static inline
#endif
double lj_pair(double r2)
{
	double s6 = 1.0 / (r2 * r2 * r2);
	return 24.0 * s6 * (2.0 * s6 - 1.0) / r2;
}

NOINLINE static double compute_forces(long n)
{
	double f = 0;
	for (long i = 0; i < n; i++)
		f += lj_pair(1.0 + (double)(i % 1000) * 1e-3);
	return f;
}

/* 3. A batch-size change: more calls of the per-batch function, the same
 * per-item work. */
NOINLINE static double process_item(long i)
{
	double s = 0;
	for (int k = 0; k < 60; k++)
		s += (double)((i + k) % 11);
	return s;
}

NOINLINE static void flush_batch(double *acc, const double *items, int n)
{
	for (int i = 0; i < n; i++)
		*acc += items[i];
}

static void run_batches(long nitems, int batch)
{
	double items[256], acc = 0;
	int fill = 0;

	for (long i = 0; i < nitems; i++) {
		items[fill++] = process_item(i);
		if (fill == batch) {
			flush_batch(&acc, items, fill);
			fill = 0;
		}
	}
	flush_batch(&acc, items, fill);
	sink = acc;
}

/* 4. A function replaced: insertion sort by shell sort. */
#ifndef REPLACED
NOINLINE static void sort_insertion(int *a, int n)
{
	for (int i = 1; i < n; i++) {
		int v = a[i], j = i - 1;
		while (j >= 0 && a[j] > v) {
			a[j + 1] = a[j];
			j--;
		}
		a[j + 1] = v;
	}
}
#define SORT sort_insertion
#else
NOINLINE static void sort_shell(int *a, int n)
{
	for (int gap = n / 2; gap > 0; gap /= 2)
		for (int i = gap; i < n; i++) {
			int v = a[i], j = i;
			while (j >= gap && a[j - gap] > v) {
				a[j] = a[j - gap];
				j -= gap;
			}
			a[j] = v;
		}
}
#define SORT sort_shell
#endif

NOINLINE static void sort_blocks(int reps)
{
	int a[3000];
	for (int r = 0; r < reps; r++) {
		for (int i = 0; i < 3000; i++)
			a[i] = (i * 7919 + r) % 3001;
		SORT(a, 3000);
	}
}

/* 5. A path-specific change: lookup gets longer keys from path_b only. */
NOINLINE static unsigned lookup(const char *key, int len)
{
	unsigned h = 5381;
	for (int r = 0; r < 8; r++)
		for (int i = 0; i < len; i++)
			h = h * 33 + (unsigned char)key[i];
	return h;
}

NOINLINE static void path_a(long n, const char *key)
{
	unsigned s = 0;
	for (long i = 0; i < n; i++)
		s += lookup(key, 16);
	sink = s;
}

NOINLINE static void path_b(long n, const char *key, int len)
{
	unsigned s = 0;
	for (long i = 0; i < n; i++)
		s += lookup(key, len);
	sink = s;
}

/* 7. A small change measured over repeated runs: 15% more work, long
 * enough (about 2 s) for its sampling noise to be small. */
NOINLINE static void small_kernel(long n)
{
	double s = 0;
	for (long i = 0; i < n; i++)
		s += (double)(i % 5) * 1.5;
	sink = s;
}

/* 8. A busy-wait replaced by batching: one wait per 32 items. */
static volatile long ready;

NOINLINE static void wait_ready(void)
{
	for (long spin = 0; spin < 4000; spin++)
		ready = ready + 1;
}

NOINLINE static void handle(long i)
{
	sink = (double)(i * 3 % 17);
}

static void consume(long nitems, int batched)
{
	for (long i = 0; i < nitems; i++) {
		if (!batched || i % 32 == 0)
			wait_ready();
		handle(i);
	}
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";
	int v = argc > 2 ? atoi(argv[2]) : 0;
	char key[256];

	memset(key, 'k', sizeof(key));
	if (!strcmp(c, "cache")) {
		init_matrix();
		sink = sum_matrix(v);
		background(1);
	} else if (!strcmp(c, "inline")) {
		sink = compute_forces(150000000L);
		background(1);
	} else if (!strcmp(c, "batch")) {
		run_batches(6000000L, v ? 4 : 64);
		background(1);
	} else if (!strcmp(c, "replaced")) {
		sort_blocks(150);
		background(1);
	} else if (!strcmp(c, "path")) {
		path_a(2000000L, key);
		path_b(2000000L, key, v ? 48 : 16);
		background(1);
	} else if (!strcmp(c, "small")) {
		small_kernel(v ? 920000000L : 800000000L);
		background(1);
	} else if (!strcmp(c, "busywait")) {
		consume(100000L, v);
		background(1);
	} else {
		fprintf(stderr, "usage: cases cache|inline|batch|replaced|path|small|busywait 0|1\n");
		return 2;
	}
	return 0;
}
