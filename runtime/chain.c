/*
 * chain.c - find glibc's mcount and __fentry__, which our entry points
 * tail-jump to so that glibc keeps writing gmon.out exactly as before.
 *
 * RTLD_NEXT skips the object that defines our entry points: from
 * libcallpath.so (preloaded or linked) and from an executable linked with
 * libcallpath.a it finds libc's.  The constructor runs before any code of the
 * main program (priority 101 orders it first among an executable's own
 * constructors in the static case); calls that arrive earlier start the
 * runtime (runtime.c, cp_start_early).
 *
 * In a statically linked program there is no RTLD_NEXT: libcallpath.a
 * (built with CP_ARCHIVE) names glibc's _mcount, the same function as its
 * mcount, which it does not define itself.  In a static link that brings in
 * libc.a's _mcount.o (its mcount is weak, ours is used); linked dynamically,
 * it is libc.so's.  So gmon.out keeps its arcs in static programs too.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "runtime.h"
#include "utils/banned.h"

void *cp_next_mcount;
void *cp_next_fentry;

#ifdef CP_ARCHIVE
void _mcount(void);	/* glibc's (x86_64 -pg code calls mcount) */
#endif

void cp_chain_init(void)
{
	if (!cp_next_mcount) {
		void *p = dlsym(RTLD_NEXT, "mcount");

		if (!p)
			p = dlsym(RTLD_NEXT, "_mcount");
#ifdef CP_ARCHIVE
		if (!p)
			p = (void *)_mcount;	/* static link */
#endif
		__atomic_store_n(&cp_next_mcount, p, __ATOMIC_RELEASE);
	}
	if (!cp_next_fentry)
		__atomic_store_n(&cp_next_fentry, dlsym(RTLD_NEXT, "__fentry__"),
				 __ATOMIC_RELEASE);
}

__attribute__((constructor(101))) static void chain_constructor(void)
{
	cp_chain_init();
}
