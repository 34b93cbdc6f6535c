/*
 * sampled_none.c - sampling mode where it cannot be: libcallpath.a, whose
 * static links have neither LD_PRELOAD nor interposition of the C
 * library's start, threads and dynamic loading (sampled.h).  The runtime
 * instruments, as before sampling mode existed.
 */
#include "sampled.h"
#include "utils/banned.h"

int cp_sampling;

void cp_mode_choose(void)
{
}

void cp_sampled_credit(const greg_t *g, uint64_t weight, uint32_t metric, int timer)
{
	(void)g;
	(void)weight;
	(void)metric;
	(void)timer;
}

uint32_t cp_sampled_place(const greg_t *g)
{
	(void)g;
	return CP_NONE;
}

void cp_sampled_thread_begin(void)
{
}

void cp_sampled_thread_end(void)
{
}

int cp_sampled_finish(void)
{
	return 1;
}

void cp_sampled_killed_empty(void)
{
}

void cp_sampled_describe(struct sidecar *sc)
{
	(void)sc;
}
