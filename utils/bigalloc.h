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

/*
 * A block of at least 2 MiB that starts on a huge page, so that each of its
 * whole huge pages can be one (bigalloc only finds them inside blocks of
 * 4 MiB or more, whose start is wherever malloc puts it).  For arrays of a
 * few megabytes filled once, where 4 KiB pages cost a fault each: a
 * profile's symbols, a frame read whole.  Smaller blocks are malloc's.
 * free() as usual; NULL when out of memory.
 */
static inline void *bigalloc_aligned(size_t size)
{
	void *p = NULL;
	size_t tail = size & (BIGALLOC_HUGE_PAGE - 1);

	if (size < BIGALLOC_HUGE_PAGE)
		return malloc(size);
	/* A tail of half a huge page or more is one more huge page: its 256
	 * to 511 faults of 4 KiB cost more than zeroing the rest of 2 MiB
	 * (a 20,000-function diff's tables: a thousand faults), for at most
	 * 1 MiB of memory more. */
	if (tail >= BIGALLOC_HUGE_PAGE / 2 && size - tail <= SIZE_MAX - BIGALLOC_HUGE_PAGE)
		size += BIGALLOC_HUGE_PAGE - tail;
	if (posix_memalign(&p, BIGALLOC_HUGE_PAGE, size) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	(void)madvise(p, size & ~(BIGALLOC_HUGE_PAGE - 1), MADV_HUGEPAGE);
#endif
	return p;
}

#endif
