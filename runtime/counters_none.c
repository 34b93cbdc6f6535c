/*
 * counters_none.c - event counts where this build has none: configure
 * found no PAPI (Debian's libpapi-dev), and libcallpath.a always (a static
 * link would need -lpapi and PAPI's own static libraries).  The runtime
 * says so once when CALLPATH_EVENTS asks for events, and records time as
 * usual.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "counters.h"
#include "utils/banned.h"

#ifdef CP_ARCHIVE
#define NO_COUNTERS_WHY "the static libcallpath.a counts no events " \
	"(link with libcallpath.so, or preload it)"
#else
#define NO_COUNTERS_WHY "this libcallpath was built without PAPI " \
	"(install libpapi-dev and configure egprof again)"
#endif

void cp_counters_start(void)
{
	const char *ev = getenv("CALLPATH_EVENTS");

	if (ev && *ev)
		dprintf(2, "callpath: ignoring CALLPATH_EVENTS='%s': %s\n", ev,
			NO_COUNTERS_WHY);
}

void cp_counters_thread_begin(void)
{
}

void cp_counters_thread_end(void)
{
}

void cp_counters_stop(void)
{
}

int cp_counters_describe(struct sidecar *sc)
{
	(void)sc;
	return 0;
}

int cp_counters_add_thread(struct sidecar *sc, const struct cp_thread *t,
			   const uint32_t *map, uint32_t nr)
{
	(void)sc;
	(void)t;
	(void)map;
	(void)nr;
	return 0;
}

int cp_counters_add_retired(struct sidecar *sc)
{
	(void)sc;
	return 0;
}

int cp_counters_read_begin(int wait_ms)
{
	(void)wait_ms;
	return 0;
}

const struct ctr_thread *cp_counters_of(const struct cp_thread *t)
{
	(void)t;
	return NULL;
}

const uint64_t *cp_counters_row(const struct ctr_thread *v, uint32_t i)
{
	(void)v;
	(void)i;
	return NULL;
}

uint32_t cp_counters_kept_nr(void)
{
	return 0;
}

const uint64_t *cp_counters_kept(uint32_t i, struct cp_node *n)
{
	(void)i;
	(void)n;
	return NULL;
}

uint64_t cp_counters_unplaced(uint32_t e)
{
	(void)e;
	return 0;
}

void cp_counters_read_end(void)
{
}

int cp_counters_pause(void)
{
	return 0;
}

void cp_counters_resume(void)
{
}

int cp_counters_reader_wanted(void)
{
	return 0;
}

void cp_counters_read(struct cp_thread *t, uint32_t node)
{
	(void)t;
	(void)node;
}
