/* cmix: a small C program for gprof parity tests.
 *
 * Call graph (per round of main's loop):
 *
 *   main -> fib (direct recursion)
 *        -> is_even <-> is_odd            (two-function cycle)
 *        -> ring_a -> ring_b -> ring_c -> ring_a   (three-function cycle)
 *        -> apply_all -> op_add / op_mul / op_xor (through function pointers)
 *        -> sort_keys -> qsort -> cmp_keys (a callback from an unprofiled library)
 *        -> use_a -> helper (static, stat_a.c)
 *        -> use_b -> helper (static, stat_b.c)
 *        -> spin   (the leaf that burns most of the samples)
 *   never_called is linked in but never called (for -z).
 */
#ifndef CMIX_H
#define CMIX_H

unsigned long spin(unsigned long units);
unsigned long fib(int n);
int is_even(unsigned n);
int is_odd(unsigned n);
unsigned long ring_a(int n);
unsigned long ring_b(int n);
unsigned long ring_c(int n);
unsigned long apply_all(int rounds);
unsigned long sort_keys(int n);
unsigned long use_a(int n);
unsigned long use_b(int n);
unsigned long never_called(void);

#endif
