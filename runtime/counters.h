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
 * Calling sequence, and the context each runs in (doc/dev/runtime.md):
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
 *
 * A snapshot, or the profile of a killed run (snapshot.c), reads the
 * values in place, from any context (a signal handler included): no
 * malloc, no lock waited on longer than asked, nothing changed.  The
 * head's metrics are described once in normal context with
 * cp_counters_describe(); then, for each file:
 *   cp_counters_read_begin(wait_ms)  take the counters' lock, tried for
 *                               wait_ms milliseconds: 1, or 0 when it is
 *                               busy (the file then has no events) or
 *                               nothing is counted;
 *   cp_counters_of(t)           the values of live thread t's tree, or NULL;
 *   cp_counters_row(v, i)       its values of node i (one per event), or
 *                               NULL where none landed;
 *   cp_counters_kept_nr()       the paths kept of the threads that ended,
 *   cp_counters_kept(i, n)      path i's node (parent an index of an
 *                               earlier path, or CP_NONE) and its values;
 *   cp_counters_unplaced(e)     event e's events no context took;
 *   cp_counters_read_end()      the lock given back (after a 1 only).
 * The values are those the exit's writer would sum: the live threads' by
 * their node indices, the ended threads' by path.
 */
#ifndef CALLPATH_RUNTIME_COUNTERS_H
#define CALLPATH_RUNTIME_COUNTERS_H

#include <stdint.h>

#include "runtime.h"

struct sidecar;
struct ctr_thread;

void cp_counters_start(void) CP_HIDDEN;
void cp_counters_thread_begin(void) CP_HIDDEN;
void cp_counters_thread_end(void) CP_HIDDEN;
void cp_counters_stop(void) CP_HIDDEN;
/* exec.c: the calling thread's counting stopped before an exec (1: it
 * was counting) and started again if the exec failed. */
int cp_counters_pause(void) CP_HIDDEN;
void cp_counters_resume(void) CP_HIDDEN;
int cp_counters_describe(struct sidecar *sc) CP_HIDDEN;
/*
 * Events that would overflow while their thread sleeps (context switches)
 * are counted by reading, never by a signal: the reader thread (offcpu.c)
 * runs when cp_counters_reader_wanted() (known once cp_counters_start()
 * ran), and every few milliseconds calls cp_counters_read(t, node) for
 * each registered thread under the registry lock, `node` being the
 * context it found the thread in (CP_NONE: unknown).
 */
int cp_counters_reader_wanted(void) CP_HIDDEN;
void cp_counters_read(struct cp_thread *t, uint32_t node) CP_HIDDEN;
int cp_counters_add_thread(struct sidecar *sc, const struct cp_thread *t,
			   const uint32_t *map, uint32_t nr) CP_HIDDEN;
int cp_counters_add_retired(struct sidecar *sc) CP_HIDDEN;

int cp_counters_read_begin(int wait_ms) CP_HIDDEN;
const struct ctr_thread *cp_counters_of(const struct cp_thread *t) CP_HIDDEN;
const uint64_t *cp_counters_row(const struct ctr_thread *v, uint32_t i) CP_HIDDEN;
uint32_t cp_counters_kept_nr(void) CP_HIDDEN;
const uint64_t *cp_counters_kept(uint32_t i, struct cp_node *n) CP_HIDDEN;
uint64_t cp_counters_unplaced(uint32_t e) CP_HIDDEN;
void cp_counters_read_end(void) CP_HIDDEN;

#endif
