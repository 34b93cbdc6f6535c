/*
 * sampled.h - sampling mode: call paths of a program built without -pg,
 * taken by walking the stack at each sample (doc/dev/runtime.md, "Sampling
 * mode"; doc/modes.md for users).
 *
 * runtime.c chooses the mode once, at start-up (cp_mode_choose):
 * CALLPATH_MODE=instrument, sample or auto (the default: sample when the
 * main program makes no -pg call, that is imports none of mcount, _mcount,
 * __fentry__).  In sampling mode the same machinery runs as with -pg but
 * for what calls did: each thread's state is made in normal context (the
 * constructor for the main thread, the pthread_create wrapper for the
 * others) and its tree is filled by its own SIGPROF handler, one path per
 * sample from unwind.h's walk, with no call counts; gmon.out gets glibc's
 * histogram (profil() at glibc's rate, through the take-over of
 * gmon_interpose.c) and no arc; the sidecar says the counts were not
 * measured (its sampled section, doc/dev/sidecar-format.md).
 *
 * libcallpath.a (static links) has the stub, sampled_none.c: always
 * instrument.
 */
#ifndef CALLPATH_RUNTIME_SAMPLED_H
#define CALLPATH_RUNTIME_SAMPLED_H

#include <stdint.h>
#include <ucontext.h>

#include "runtime.h"

/* 1 in sampling mode (set once at start-up, before any thread is made). */
extern int cp_sampling CP_HIDDEN;

/*
 * Start-up (start_once, normal context, before recording starts): read
 * CALLPATH_MODE and the program, set cp_sampling, say on stderr (once)
 * why nothing will be recorded when that is so.
 */
void cp_mode_choose(void) CP_HIDDEN;

/*
 * The SIGPROF handler's sample (sample.c's credit(), in sampling mode):
 * `weight` periods of `metric` at the interrupted registers `g`, on the
 * calling thread.  `timer`: one of our CPU-time timers' (sampler.c keeps
 * its tail).
 */
void cp_sampled_credit(const greg_t *g, uint64_t weight, uint32_t metric, int timer) CP_HIDDEN;

/*
 * An event counter's overflow in sampling mode (counters_papi.c): the
 * node index of the calling thread's path at the interrupted registers
 * `g` (walked, made when new), CP_NONE when it has none.  Signal context.
 */
uint32_t cp_sampled_place(const greg_t *g) CP_HIDDEN;

/* thread.c: a thread starts (the pthread_create wrapper) and has retired. */
void cp_sampled_thread_begin(void) CP_HIDDEN;
void cp_sampled_thread_end(void) CP_HIDDEN;

/*
 * runtime.c's exit writer: stop sampling and write gmon.out (the
 * runtime's _mcleanup), before the sidecar: 1, or 0 when no profile is to
 * be written (not one sample was taken: said on stderr for the process
 * the user ran, not for a wrapper that ran children); then describe the
 * sampled paths in `sc` (flags, the walks' ends, samples of no thread).
 * In instrumenting mode 1, and nothing done.
 */
int cp_sampled_finish(void) CP_HIDDEN;

/*
 * The process is starting another program (posix_spawn, system, popen, a
 * vfork child's exec, which runs on the parent's memory): a sampled
 * process writes its files under its pid from then on.  Async-signal-safe.
 */
void cp_sampled_started_other(void) CP_HIDDEN;
/*
 * The process is being killed before its first sample (ends.c's end
 * handler): nothing is written, and the process the user ran (not a
 * wrapper that ran children) says so in one line, as at exit.  Signal
 * context.
 */
void cp_sampled_killed_empty(void) CP_HIDDEN;
struct sidecar;
void cp_sampled_describe(struct sidecar *sc) CP_HIDDEN;

#endif
