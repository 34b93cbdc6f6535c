#ifndef EGPROF_FIXED_H
#define EGPROF_FIXED_H
/*
 * Numbers as printf's "%*.*f" writes them, without printf.  Reports of
 * tens of thousands of rows (gprof's columns, our diff and path reports)
 * spend most of their printing in glibc's exact decimal conversion of
 * doubles; these columns have 0 to 3 decimals and small values, where v
 * scaled by 10^prec and rounded to the nearest integer gives the same
 * digits.  A scaled value that lies on a half after the multiplication's
 * rounding is decided by the product's exact remainder (fma), as printf
 * decides on v's exact value: ties to even.  Only where v is not finite or
 * too large (|v| * 10^prec >= 1e15) does printf itself write the number.
 *
 *   char buf[FIXED_MAX];
 *   size_t n = fixed_format(buf, -3.14159, 8, 2);   "   -3.14", n == 8
 *   fixed_print(stdout, 0.005, 6, 2);               printf("%6.2f", 0.005)
 */
#include <stddef.h>
#include <stdio.h>

/* Room fixed_format needs for any width up to FIXED_MAX_WIDTH. */
#define FIXED_MAX_WIDTH 64
#define FIXED_MAX 384

/* printf("%*.*f", width, prec, v) into buf[FIXED_MAX], NUL-terminated;
 * its length.  width is 0..FIXED_MAX_WIDTH, prec 0..3. */
size_t fixed_format(char *buf, double v, int width, int prec);
/* The same written to out; 0, or -1 on a write error. */
int fixed_print(FILE *out, double v, int width, int prec);

#endif
