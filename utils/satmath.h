#ifndef EGPROF_SATMATH_H
#define EGPROF_SATMATH_H
/*
 * Saturating sums of counts.  Call counts, samples and drops are 64-bit
 * and a sum of files (or of a file's nodes) can pass 2^64 - 1 only on
 * forged or corrupt input; wrapping would turn two counts of 2^63 into 0
 * and make "1 call" of 2^64 - 1 and 2.  A saturated sum stays at
 * UINT64_MAX ("at least that"), and the caller that can name the input
 * says so (sat_add_u64_flag).  Header-only: the runtime's copy of the
 * sidecar module includes it too.
 */
#include <stdint.h>

static inline uint64_t sat_add_u64(uint64_t a, uint64_t b)
{
	uint64_t s;

	return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

/* *a += b, saturating; sets *saturated (when not NULL) if it did. */
static inline void sat_add_u64_flag(uint64_t *a, uint64_t b, int *saturated)
{
	if (__builtin_add_overflow(*a, b, a)) {
		*a = UINT64_MAX;
		if (saturated)
			*saturated = 1;
	}
}

#endif
