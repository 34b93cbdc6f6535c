#ifndef EGPROF_ARRAY_H
#define EGPROF_ARRAY_H
/*
 * Growing arrays (and hash indexes over them), the one place that doubles a capacity and checks the
 * multiplication for overflow (counts can come from input files).
 *
 *   struct thing *v = NULL; size_t n = 0, cap = 0;
 *   if (array_grow(&v, &cap, n + 1, sizeof(*v)) < 0) return error("out of memory");
 *   v[n++] = x;
 *
 * `arrp` is the address of the array pointer (any element type).  The array
 * stays owned by the caller; on failure it and *cap are unchanged.
 */
#include <stddef.h>

/* Make room for at least `need` elements of `elem` bytes: 0, or -1 when out
 * of memory or the size would overflow (nothing is printed). */
int array_grow(void *arrp, size_t *cap, size_t need, size_t elem);

/*
 * A hash index over such an array: open addressing with linear probing,
 * slots[j] is an element's index + 1 (0 = empty), nslots a power of two.
 * Before adding element n, keep the index at most half full:
 *
 *   if (2 * (n + 1) > nslots &&
 *       array_index_grow(&slots, &nslots, n, hash_of, arr) < 0) ...
 *   for (j = hash & (nslots - 1); slots[j]; j = (j + 1) & (nslots - 1))
 *           ... compare with arr[slots[j] - 1] ...
 *   slots[j] = ++n;
 *
 * array_index_grow doubles the index (1024 slots at first) and reinserts
 * elements 0..n-1 by hash_of(ctx, i).  0, or -1 (out of memory, the old
 * index kept).  The caller owns *slots.
 */
int array_index_grow(size_t **slots, size_t *nslots, size_t n,
		     size_t (*hash_of)(const void *ctx, size_t i), const void *ctx);

#endif
