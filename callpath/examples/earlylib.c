/*
 * earlylib.c - a library (not built -pg) whose constructor calls into the
 * program before libcallpath's own constructor has run when libcallpath is
 * preloaded: app_hook() (5 calls of leaf) and scale(), whose double
 * arguments live in vector registers the runtime's start must not clobber.
 */
#include <stdio.h>

void app_hook(void);
double scale(double x, double y);

__attribute__((constructor)) static void lib_init(void)
{
	app_hook();
	printf("scale %.2f\n", scale(1.5, 4.0));
}
