/*
 * counters.h - hardware and software event counts per calling context
 * (CALLPATH_EVENTS=EV[@PERIOD],...; doc/counters.md).
 *
 * Two modules implement it, chosen by configure: counters_papi.c (PAPI
 * found: libpapi-dev) samples each event by overflow, per thread, and
 * credits `period` events to the calling context live at each overflow;
 * counters_none.c (no PAPI, and libcallpath.a) says once, when
 * CALLPATH_EVENTS is set, that this build counts no events, and does
 * nothing else.  Callers never test which one they have.
 *
 * Calling sequence, and the context each runs in (doc/runtime.md):
 *   cp_counters_start()         normal context, once (start-up, after the
 *                               thread key exists): reads CALLPATH_EVENTS,
 *                               says once per event it cannot count, and
 *                               starts counting on the calling thread;
 *   cp_counters_thread_begin()  normal context, on a new thread (the
 *                               pthread_create wrapper) before the start
 *                               routine: counting starts on it;
 *   cp_counters_thread_end()    normal context, on an ending thread, before
 *                               cp_thread_retire(): counting stops and its
 *                               counts are kept by path until exit;
 *   cp_counters_stop()          the exit writer, before it sums: counting
 *                               stops on the calling thread;
 *   cp_counters_describe(sc)    then, before any node is added: one metric
 *                               per event counted (sidecar extra metrics);
 *   cp_counters_add_thread(sc, t, map, nr)  for each live thread's tree added
 *                               (map: its node index -> sc's), under the
 *                               registry lock;
 *   cp_counters_add_retired(sc) once, for the threads that ended.
 * All return 0, or -1 when out of memory (the writer then says so).
 */
#ifndef CALLPATH_RUNTIME_COUNTERS_H
#define CALLPATH_RUNTIME_COUNTERS_H

#include <stdint.h>

#include "runtime.h"

struct sidecar;

void cp_counters_start(void) CP_HIDDEN;
void cp_counters_thread_begin(void) CP_HIDDEN;
void cp_counters_thread_end(void) CP_HIDDEN;
void cp_counters_stop(void) CP_HIDDEN;
int cp_counters_describe(struct sidecar *sc) CP_HIDDEN;
int cp_counters_add_thread(struct sidecar *sc, const struct cp_thread *t,
			   const uint32_t *map, uint32_t nr) CP_HIDDEN;
int cp_counters_add_retired(struct sidecar *sc) CP_HIDDEN;

#endif
