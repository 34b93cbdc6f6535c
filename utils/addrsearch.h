#ifndef UTILS_ADDRSEARCH_H
#define UTILS_ADDRSEARCH_H
/*
 * addrsearch.h - binary search of a table sorted by address, the lookup
 * behind every "which symbol holds this address" (call-path reports,
 * cpdump, ELF symbols).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * The number of the `n` entries of `size` bytes at `base`, sorted by the
 * uint64_t address at byte `off` of each, whose address is <= addr: the
 * entry holding addr, if any, is the one before that index (0: none).
 */
static inline size_t addr_search(const void *base, size_t n, size_t size,
				 size_t off, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint64_t a;

		memcpy(&a, (const char *)base + mid * size + off, sizeof(a));
		if (a <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

#endif
