/*
 * chain.c - find glibc's mcount and __fentry__, which our entry points
 * tail-jump to so that glibc keeps writing gmon.out exactly as before.
 *
 * RTLD_NEXT skips the object that defines our entry points: from
 * libcallpath.so (preloaded or linked) and from an executable linked with
 * libcallpath.a it finds libc's.  The constructor runs before any code of the
 * main program (priority 101 orders it first among an executable's own
 * constructors in the static case); calls that arrive earlier only return.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

#include "runtime.h"
#include "utils/banned.h"

void *cp_next_mcount;
void *cp_next_fentry;

void cp_chain_init(void)
{
	if (!cp_next_mcount) {
		void *p = dlsym(RTLD_NEXT, "mcount");

		if (!p)
			p = dlsym(RTLD_NEXT, "_mcount");
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
