#ifndef EGPROF_STRHASH_H
#define EGPROF_STRHASH_H
/*
 * The one string hash of the analysis side (64-bit FNV-1a): indexes of
 * names (utils/array.h's array_index_grow) take it, so that no module
 * grows its own.
 */
#include <stddef.h>
#include <stdint.h>

static inline size_t strhash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (size_t)(h ^ (h >> 29));
}

#endif
