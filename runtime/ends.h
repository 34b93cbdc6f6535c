/*
 * ends.h - profiles written when the process is killed, and snapshots
 * while it runs (issue 26; doc/snapshots.md).
 *
 * ends.c: the runtime's handler for SIGTERM, SIGINT, SIGHUP, SIGXCPU,
 * SIGQUIT (and CALLPATH_SNAPSHOT_SIGNAL), installed only where the
 * program's disposition is the default: a handler of the program's is the
 * kernel's to run, as without the runtime.  signals.c's interposers keep
 * the program's view: sigaction()/signal() of a managed signal go through
 * cp_ends_sigaction()/cp_ends_signal().
 * snapshot.c: the writer both use, async-signal-safe: the gmon file and
 * its sidecar, from the trees read in place (sidecar_stream.h).
 */
#ifndef CALLPATH_RUNTIME_ENDS_H
#define CALLPATH_RUNTIME_ENDS_H

#include <signal.h>
#include <stdint.h>

#include "runtime.h"

struct cp_prof_gate;

typedef int (*cp_sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef sighandler_t (*cp_signal_fn)(int, sighandler_t);

/*
 * signals.c: 1 when `sig` is managed here and the call was answered (its
 * result in *ret, errno set by `real` when it failed), 0 to go on as usual.
 */
int cp_ends_sigaction(int sig, const struct sigaction *act, struct sigaction *old,
		      cp_sigaction_fn real, int *ret) CP_HIDDEN;
int cp_ends_signal(int sig, sighandler_t h, cp_signal_fn real,
		   sighandler_t *ret) CP_HIDDEN;
/*
 * profiled.c: the process is profiled now (profiled.h): the end handlers
 * and the snapshot thread start, unless ends.c's constructor is still to
 * come (it starts them then).  Normal context.
 */
void cp_ends_profiled(void) CP_HIDDEN;

/*
 * The exit's writes of the profile (gmon.out in _mcleanup, the sidecar in
 * the runtime's destructor), each made whole against the signals that end
 * a process: the calling thread holds every asynchronous signal but
 * SIGPROF (delivered when the write is done, as they would have been a
 * moment later), and a handler of the runtime's on another thread waits
 * for the write to finish before it writes what is missing and ends the
 * process.  Normal context; `h` on the caller's stack.
 *   struct cp_end_hold h;
 *   cp_end_hold_begin(&h); ... write ...; cp_end_hold_end(&h);
 */
struct cp_end_hold {
	sigset_t old;
	int depth;
};
void cp_end_hold_begin(struct cp_end_hold *h) CP_HIDDEN;
void cp_end_hold_end(struct cp_end_hold *h) CP_HIDDEN;

/* glibc's sigaction, found by signals.c in normal context */
int cp_real_sigaction(int sig, const struct sigaction *act,
		      struct sigaction *old) CP_HIDDEN;

/* ---- snapshot.c ---- */

/* Normal context, once: the header, buffers, the histogram.  0 or -1. */
int cp_snap_init(int histogram) CP_HIDDEN;
/*
 * Write snapshot k: "<gmon name>.snap<k>" (the gmon file's name for this
 * process: $GMON_OUT_PREFIX.<pid>, else gmon.out; a fork child's carries
 * its pid, gmon.out.<pid>) and its sidecar, each through a temporary file
 * and a rename.  `wait_ms`: how long to wait for the thread registry.
 * `gate`: the writer thread's SIGPROF gate (own_thread.h), polled while it
 * writes; NULL in a signal handler.  A write that fails says so on
 * stderr, once for each reason.  0, or -errno.  Async-signal-safe.
 */
int cp_snap_write(uint32_t k, int wait_ms, struct cp_prof_gate *gate) CP_HIDDEN;
/*
 * The process is being killed: the gmon file as at exit, and its sidecar.
 * Async-signal-safe but for the gmon file's writer (cp_snap_end_gmon).
 */
void cp_snap_end(int sig) CP_HIDDEN;
/* sample.c's SIGPROF handler: glibc's histogram tick, counted again for
 * snapshots at glibc's geometry. */
void cp_snap_tick(uintptr_t pc) CP_HIDDEN;
/* a snapshot is being written (exit waits for it) */
int cp_snap_busy(void) CP_HIDDEN;
/*
 * Nothing to write yet: a sampled process (no -pg) that has taken no
 * sample holds no profile, so it writes no snapshot (its numbers stay
 * consecutive) and no profile when killed, as at exit: a wrapper that
 * only waits (a shell, timeout, sleep) leaves no file.  Any context.
 */
int cp_snap_empty(void) CP_HIDDEN;
/* fork child: no writer runs here */
void cp_snap_forked(void) CP_HIDDEN;
/* runtime.c */
int cp_fill_head(struct sidecar *sc) CP_HIDDEN;
uint64_t cp_parent_pid(void) CP_HIDDEN;

#endif
