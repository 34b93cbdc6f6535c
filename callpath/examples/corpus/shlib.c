/*
 * A library (built 5 times, as lib1 to lib5, without -pg) that calls back
 * into the program: LIBFN(n) calls cb n times, and lib3 also calls lib4.
 */
#ifndef LIBNO
#error define LIBNO
#endif
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define LIBFN CAT(lib, CAT(LIBNO, _run))

int lib4_run(int (*cb)(int), int n);

int LIBFN(int (*cb)(int), int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += cb(i);
#if LIBNO == 3
	s += lib4_run(cb, 2);
#endif
	return s;
}
