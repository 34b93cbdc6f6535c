/* csmall: a one-directory C program for annotated-source and
 * line-by-line parity tests. Built with -g so gprof finds lines. */
#ifndef CSMALL_H
#define CSMALL_H

/* Defined in a header so the line table names two files. */
static inline unsigned long
mix(unsigned long a, unsigned long b)
{
	return (a * 31) ^ (b + 7);
}

unsigned long leaf(unsigned long n);
unsigned long middle(int k);
unsigned long unused_global(void);

#endif
