#ifndef EGPROF_ARRAY_H
#define EGPROF_ARRAY_H
/*
 * Growing arrays, the one place that doubles a capacity and checks the
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

#endif
