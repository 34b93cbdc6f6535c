#ifndef EGPROF_BIGALLOC_H
#define EGPROF_BIGALLOC_H
/*
 * malloc() for tables of tens of megabytes that are read at random (a
 * million-node sidecar, its index, a call-path model): the block is
 * marked for transparent huge pages where the kernel offers them only on
 * request (/sys/kernel/mm/transparent_hugepage/enabled = madvise, Debian's
 * default).  With 4 KiB pages nearly every random access to such a table
 * misses the TLB as well as the cache: a million-node report spends a
 * fifth of its time on it.  Only a hint (errors ignored, nothing changes
 * elsewhere); free() as usual.  Header-only: the runtime and the analysis
 * both read sidecars.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define BIGALLOC_HUGE_PAGE ((size_t)2 << 20)

static inline void *bigalloc(size_t size)
{
	void *p = malloc(size);

#ifdef MADV_HUGEPAGE
	if (p && size >= 2 * BIGALLOC_HUGE_PAGE) {
		/* the whole huge pages inside the block */
		uintptr_t lo = ((uintptr_t)p + BIGALLOC_HUGE_PAGE - 1) &
			       ~(uintptr_t)(BIGALLOC_HUGE_PAGE - 1);
		uintptr_t hi = ((uintptr_t)p + size) &
			       ~(uintptr_t)(BIGALLOC_HUGE_PAGE - 1);

		if (hi > lo)
			(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	}
#endif
	return p;
}

#endif
