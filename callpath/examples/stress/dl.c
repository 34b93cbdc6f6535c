/*
 * dl.c - a -pg shared library opened and closed twice at run time; its
 * functions call back into the program.  Built with -DDL_LIB, this file is
 * the library (dllib.so).
 *
 *   dl LIBPATH
 */
#include <stdio.h>

#ifdef DL_LIB
int app_square(int x);

__attribute__((noinline)) int lib_twice(int x)
{
	return 2 * app_square(x);
}

int lib_entry(int x)
{
	return lib_twice(x) + lib_twice(x + 1);
}
#else
#include <dlfcn.h>

__attribute__((noinline)) int app_square(int x)
{
	return x * x;
}

int main(int argc, char **argv)
{
	for (int round = 0; round < 2; round++) {
		void *h = dlopen(argc > 1 ? argv[1] : "./dllib.so", RTLD_NOW);
		int (*entry)(int);

		if (!h) {
			printf("dlopen failed\n");
			return 1;
		}
		*(void **)&entry = dlsym(h, "lib_entry");
		printf("round %d: %d\n", round, entry ? entry(round + 3) : -1);
		dlclose(h);
	}
	return 0;
}
#endif
