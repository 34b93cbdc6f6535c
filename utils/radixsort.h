#ifndef EGPROF_RADIXSORT_H
#define EGPROF_RADIXSORT_H
/*
 * Sorting many records by a key of up to 128 bits in linear time.  A
 * report sorting a million rows through qsort spends most of it in the
 * comparison calls and their reads of the rows at random; a key that packs
 * the sort's fields (radix_key_push) is sorted in one pass per byte the key
 * uses, over contiguous memory.
 *
 *   struct radix_item *a = ..., *tmp = ...;    n items each
 *   for (i = 0; i < n; i++) {
 *       struct radix_key k = RADIX_KEY_INIT;
 *       radix_key_push(&k, max_calls - calls[i], calls_bits);  most significant
 *       radix_key_push(&k, rank[i], rank_bits);                least
 *       a[i] = (struct radix_item){ k.lo, k.hi, i };
 *   }
 *   a = radix_sort(a, tmp, n, key_bits);      ascending; a or tmp
 */
#include <stddef.h>
#include <stdint.h>

struct radix_item {
	uint64_t lo, hi;	/* the key: hi's bits above lo's */
	uint32_t value;		/* what the caller sorts */
};

struct radix_key {
	uint64_t lo, hi;
	unsigned bits;		/* used so far */
};

#define RADIX_KEY_INIT { 0, 0, 0 }
#define RADIX_KEY_MAX_BITS 128

/* Bits needed for values up to max: 0 for 0. */
unsigned radix_bits(uint64_t max);
/* Shift the key left by `bits` and put v (< 2^bits) in the low end; the
 * key must stay within RADIX_KEY_MAX_BITS. */
void radix_key_push(struct radix_key *k, uint64_t v, unsigned bits);
/* Sort a[0..n) ascending by key (keys below 2^key_bits, key_bits <= 128)
 * with tmp[0..n) as room; returns the array that holds the result (a or
 * tmp).  Stable. */
struct radix_item *radix_sort(struct radix_item *a, struct radix_item *tmp,
			      size_t n, unsigned key_bits);

#endif
