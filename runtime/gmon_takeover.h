/*
 * gmon_takeover.h - the runtime takes gmon.out over from glibc: the arcs
 * become the runtime's, the histogram stays glibc's own, the file is
 * written by gmon_out.h with glibc's rules.
 *
 * Dynamic builds (gmon_interpose.c, in libcallpath.so only): the program's
 * start-up code (gcrt1.o's __gmon_start__, from the executable's _init)
 * calls __monstartup and registers _mcleanup with atexit through the PLT,
 * and the program calls moncontrol itself: all three (and monstartup) are
 * interposed.
 *   __monstartup  asks the runtime (gmon_runtime_take_over(1)); if it says
 *                 yes, runs glibc's profil() into the runtime's buffer with
 *                 glibc's geometry (gmon_start.h) and turns arcs on; if it
 *                 says no, or the buffer cannot be had, everything is
 *                 glibc's from then on: glibc's __monstartup, moncontrol
 *                 and _mcleanup (dlsym RTLD_NEXT), a complete gmon.out.
 *   moncontrol    glibc's meaning: histogram and arcs on or off
 *                 (gmon_runtime_arcs).
 *   _mcleanup     glibc's: stop, write gmon.out (GMON_OUT_PREFIX.pid, else
 *                 gmon.out; glibc's message if neither opens), reset, so a
 *                 later __monstartup starts afresh.
 * glibc's own tables are never allocated while the runtime has taken over:
 * glibc's __mcount_internal finds its state off and returns at once.
 *
 * Static links (gmon_static.c, in libcallpath.a only): libc.a's gmon.o is
 * linked (gcrt1.o needs __monstartup and _mcleanup, and its definitions
 * are strong: they cannot be replaced), so glibc's __monstartup runs and
 * allocates its histogram and arc tables as usual.  _gmonparam, hidden in
 * libc.a but visible to every object of a static link, gives both:
 * gmon_static.c's constructor (which runs after _init registered glibc's
 * _mcleanup with atexit) registers its writer with atexit, so the writer
 * runs first at exit; it writes gmon.out from glibc's histogram, glibc's
 * arc table (calls that reached glibc's counter: glibc's __fentry__, which
 * wins in static -mfentry links, and calls from before the take-over) and
 * the runtime's arcs, then sets glibc's state to GMON_PROF_ERROR, on which
 * glibc's _mcleanup writes nothing and frees its tables.  moncontrol is
 * glibc's: gmon_static_arcs_on() reads its state.
 * libcallpath.a linked into a dynamic program finds no _gmonparam (a weak
 * reference): no take-over, glibc's gmon.out as without the runtime.
 */
#ifndef CALLPATH_GMON_TAKEOVER_H
#define CALLPATH_GMON_TAKEOVER_H

#include <stddef.h>

#include "gmon_out.h"

/*
 * What the runtime provides (normal context, any thread):
 *
 * gmon_runtime_take_over(1): from now on, count every call's arc yourself
 *   and no longer call glibc's __mcount_internal; 1 if the runtime will, 0
 *   if it cannot (not started, failed): then glibc keeps everything.
 *   Arcs start off.  gmon_runtime_take_over(0): give it back (the take-over
 *   could not be completed): call glibc's counter again.
 * gmon_runtime_arcs(on): moncontrol's arcs, on or off (glibc counts an arc
 *   only while its state is GMON_PROF_ON: before __monstartup, after
 *   moncontrol(0) and after _mcleanup it is not).
 * gmon_runtime_arc_sources(srcs, max): fill srcs[0..n) with the sources of
 *   the arcs counted while arcs were on since the last take_over(1) (at
 *   most max), return n (or -1: no arcs can be given; the file is then
 *   written without them).  The sources stay valid until
 *   gmon_runtime_arc_sources_done().  "Since the last take_over(1)": a
 *   program may call _mcleanup itself and monstartup again, and glibc
 *   starts the second file from empty tables; a runtime whose counts
 *   cannot be reset keeps its sums at take-over as a `subtract` source.
 * gmon_runtime_before_write(): _mcleanup is about to write the file (the
 *   runtime notes what was there before, for the sidecar's identity).
 * gmon_runtime_profil_changed(): moncontrol just ran glibc's profil() (off
 *   or on), which sets SIGPROF's action: the runtime's sampler puts its
 *   handler back in front (runtime/sample.c, cp_sample_rechain).
 * gmon_runtime_arcs_gate(state): static links, where moncontrol is
 *   glibc's: arcs are on while *state is GMON_PROF_ON or GMON_PROF_BUSY
 *   (glibc's _gmonparam.state); called before gmon_runtime_take_over(1).
 */
int gmon_runtime_take_over(int on);
void gmon_runtime_before_write(void);
void gmon_runtime_profil_changed(void);
void gmon_runtime_arcs_gate(const long *state);
void gmon_runtime_arcs(int on);
int gmon_runtime_arc_sources(struct gmon_arc_source **srcs, size_t max);
void gmon_runtime_arc_sources_done(void);
/*
 * gmon_runtime_arc_sources_signal: the same from a signal handler
 * (async-signal-safe, bounded wait): n, or -ENOTSUP (not taken over),
 * -EDEADLK (the handler interrupted the code holding what it needs).
 */
int gmon_runtime_arc_sources_signal(struct gmon_arc_source **srcs, size_t max);

/*
 * Writing gmon.out now, from anywhere (issue 26: fatal signals, snapshots).
 * Defined by gmon_interpose.c in libcallpath.so and by gmon_static.c in
 * libcallpath.a, so one name serves both:
 *
 * int cp_gmon_write_fd(int fd, unsigned flags);
 *   Write this process's gmon.out as it stands now into `fd` at its
 *   offset: the header, glibc's histogram (the runtime's profil() buffer,
 *   or _gmonparam.kcount in a static link) and every arc counted so far
 *   (every thread's tree, live and retired, the flat table, less the calls
 *   made while moncontrol had arcs off; in a static link glibc's own arc
 *   table as well), with the rules and order of the exit-time file.
 *   Async-signal-safe: no malloc, stdio or locks the program may hold; the
 *   runtime's registry lock is taken with a bounded wait when `flags` has
 *   CP_GMON_FROM_SIGNAL (a handler that interrupted its holder gets
 *   -EDEADLK and nothing is written), and waited for otherwise.  The load
 *   address was computed at take-over.  errno is kept.  Returns 0, or:
 *     -ENOTSUP  the runtime has not taken gmon.out over (glibc counts the
 *               arcs in its own hidden tables: glibc's _mcleanup or
 *               write_profiling() can write them, in normal context);
 *     -ENODATA  profiling is not running (before __monstartup, after
 *               _mcleanup): glibc would write nothing either;
 *     -E2BIG, -ENOMEM, -EIO...: gmon_out_write's errors (the file may be
 *               partly written: a snapshot's caller aborts it).
 *   Counting goes on: the program keeps running and the exit-time file
 *   still has every call.
 *
 * int cp_gmon_write_named(unsigned flags);
 *   The same into the file glibc's _mcleanup would write (gmon_open's
 *   rules: $GMON_OUT_PREFIX.<pid>, else gmon.out; an open failure reported
 *   as glibc does, in the C locale's words with CP_GMON_FROM_SIGNAL).
 *   For a process about to die of a signal; a process that goes on to exit
 *   normally writes the file again at exit.
 * Snapshots: fd = gmon_snapshot_open(final, tmp, len);
 *   cp_gmon_write_fd(fd, CP_GMON_FROM_SIGNAL); close(fd);
 *   gmon_snapshot_commit(tmp, final) (or gmon_snapshot_abort(tmp)).
 */
#define CP_GMON_FROM_SIGNAL 1u
int cp_gmon_write_fd(int fd, unsigned flags);
int cp_gmon_write_named(unsigned flags);

/*
 * gmon_static.c: 1 once its writer is registered to run before glibc's
 * _mcleanup (static link, glibc's profiling started, the runtime took
 * over); the runtime stops calling glibc's counter from then on.
 * gmon_static_arcs_on: glibc's state is on (moncontrol).
 */
int gmon_static_taken_over(void);
int gmon_static_arcs_on(void);
/*
 * gmon_static.c, at exit just before glibc's _mcleanup, when it was not
 * taken over: glibc's _mcleanup run now, its write held against the end
 * signals (ends.h); nothing left for its own turn.
 */
void gmon_static_exit_glibc(void);

#endif
