#ifndef EGPROF_LOADER_WATCH_H
#define EGPROF_LOADER_WATCH_H
/*
 * Is a loader stuck?  (doc/dev/reliability.md, issue 12 item 5.)  A loader that
 * dies or stops is seen by waitpid; one that is alive but waits forever
 * (blocked opening a FIFO that a path became after it was checked, on a
 * hung network filesystem) is not.  A slow loader must never be taken for
 * a stuck one, so a loader is stalled only when, for the whole of
 * `seconds` that the front end was waiting for it, none of these moved:
 *   - the bytes it sent (the front end counts them),
 *   - the CPU time of it and its workers (/proc/PID/stat utime + stime,
 *     and cutime + cstime of workers already reaped),
 *   - the bytes they read (/proc/PID/io rchar: a slow disk still reads).
 * The loader marks in memory shared with the front end which file it (or
 * each worker) is reading, so the report names it.
 *
 * Front end:  w = loader_watch_new(nfiles, seconds);  fork;
 *             while waiting: if (loader_watch_stalled(w, pid, bytes)) {
 *                     loader_watch_report(w, pid, binary, files);
 *                     loader_watch_kill(pid); ... }
 *             loader_watch_free(w);
 * Loader:     loader_watch_reading(w, i) ... loader_watch_read(w, i)
 */
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The stall time: EGPROF_LOADER_STALL (seconds, > 0) or 60. */
#define LOADER_WATCH_DEFAULT_SECONDS 60.0
double loader_watch_seconds(void);

struct loader_watch;
/* NULL when out of memory (then nothing is watched; callers go on). */
struct loader_watch *loader_watch_new(size_t nfiles, double seconds);
/* In the front end: only the first nfiles files are the loader's (a watch
 * made for more before the loader knew how many it would read). */
void loader_watch_limit(struct loader_watch *w, size_t nfiles);
void loader_watch_free(struct loader_watch *w);

/* In the loader: gmon file i is being read, or has been.  NULL w: no-op. */
void loader_watch_reading(struct loader_watch *w, size_t i);
void loader_watch_read(struct loader_watch *w, size_t i);

/* In the front end, after each wait for the loader's output (bytes: all it
 * has sent so far): 1 when it is stalled. */
int loader_watch_stalled(struct loader_watch *w, pid_t pid, uint64_t bytes);
/* Reports the stall: the files being read (or the binary, before any) and
 * the state and kernel wait channel of each process. */
void loader_watch_report(const struct loader_watch *w, pid_t pid, const char *binary,
			 char *const *files);
/* SIGKILL to the loader's workers, then to the loader (the caller reaps). */
void loader_watch_kill(pid_t pid);

#endif
