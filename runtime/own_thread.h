/*
 * own_thread.h - threads the runtime starts for itself (the snapshot
 * writer: ends.c), which no handler of the program's may ever run on.
 *
 * cp_own_thread_start() blocks every signal before pthread_create (glibc's,
 * not the wrapper thread.c gives the program), so the thread inherits the
 * mask from its first instruction, and marks it as no thread of the
 * program's (cp_tls.self = CP_RETIRED: a call made on it would be counted
 * as dropped, never registered; registering takes the registry lock, which
 * such a thread may hold).
 *
 * SIGPROF is the one exception, through a gate: the profiling timer
 * (glibc's ITIMER_PROF) counts the whole process's CPU time, so the
 * thread's own work makes it expire, and the kernel gives that tick to the
 * thread that is running if it takes SIGPROF; blocked there, it goes to a
 * thread of the program's, asleep perhaps, whose nanosleep or poll then
 * returns EINTR (a program asleep in nanosleep while snapshots were
 * written: 25 to 32 of 100 sleeps cut short with SIGPROF blocked on the
 * writer, none with it open).  So a thread of ours takes SIGPROF while
 * SIGPROF's action is the runtime's or glibc's:
 *
 *   static struct cp_prof_gate g = CP_PROF_GATE_INIT;
 *   cp_prof_gate_add(&g, &word);   before the thread starts; `word` is the
 *                                  futex word it sleeps on, woken to poll
 *   cp_prof_open(&g);              on the thread: SIGPROF unblocked
 *   cp_prof_poll(&g);              at every wake-up and often while it
 *                                  works (a load, mostly)
 *   cp_prof_done(&g);              as it ends
 *
 * Before the program installs a SIGPROF handler of its own, signals.c
 * calls cp_prof_program_handler(), which shuts every gate for good: it
 * wakes the thread and waits until it has blocked SIGPROF at its next
 * poll, so that the program's handler never runs on our thread.  From then
 * on the ticks our work causes go to the program's threads
 * (doc/snapshots.md).
 */
#ifndef CALLPATH_RUNTIME_OWN_THREAD_H
#define CALLPATH_RUNTIME_OWN_THREAD_H

#include <stddef.h>
#include <stdint.h>

#include "runtime.h"

/*
 * Start fn(arg) on a detached thread of the runtime's (stack bytes, or 0
 * for glibc's default): every signal blocked, never a profiled thread.
 * 0, or the error number pthread_create returned.  Normal context.
 */
int cp_own_thread_start(void *(*fn)(void *), void *arg, size_t stack) CP_HIDDEN;

struct cp_prof_gate {
	uint32_t state;		/* futex word: enum in own_thread.c */
	uint32_t *wake;		/* the word its thread sleeps on */
};

#define CP_PROF_GATE_INIT { 0, 0 }

/* A gate the program's SIGPROF handler must wait for (at most 4). */
void cp_prof_gate_add(struct cp_prof_gate *g, uint32_t *wake) CP_HIDDEN;
void cp_prof_open(struct cp_prof_gate *g) CP_HIDDEN;
void cp_prof_poll(struct cp_prof_gate *g) CP_HIDDEN;
/* The thread is leaving: SIGPROF blocked, nobody waits for it any more. */
void cp_prof_done(struct cp_prof_gate *g) CP_HIDDEN;
/*
 * signals.c: the program is about to install a SIGPROF handler of its
 * own.  Shuts every gate for good, waiting (2 s at most per gate) until
 * the threads behind them block SIGPROF.  Any context.
 */
void cp_prof_program_handler(void) CP_HIDDEN;
/* A fork child: the gates' threads are not there. */
void cp_prof_forked(void) CP_HIDDEN;

#endif
