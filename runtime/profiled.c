/*
 * profiled.c - is this process profiled (profiled.h).
 */
#define _GNU_SOURCE
#include "profiled.h"
#include "ends.h"
#include "utils/banned.h"

static unsigned reasons;

unsigned cp_profiled(void)
{
	return __atomic_load_n(&reasons, __ATOMIC_ACQUIRE);
}

void cp_profiled_mark(unsigned why)
{
	if (__atomic_fetch_or(&reasons, why, __ATOMIC_ACQ_REL) == 0)
		cp_ends_profiled();
}
