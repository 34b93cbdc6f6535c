/*
 * profiled.h - is this process profiled: the one answer every part of the
 * runtime asks before it does anything a profile needs (handlers of the
 * end signals, the snapshot thread, files).
 *
 * LD_PRELOAD and the CALLPATH_* variables reach every process of a script
 * (the shell, `sleep`, the program), but only some are profiled.  A
 * process is profiled once a reason below has been marked; until then the
 * runtime installs nothing and writes nothing for it, and a process never
 * marked ends as if the runtime were not there.
 *
 *   CP_PROFILED_GMON   glibc's profiling started: a -pg program (gcrt1.o's
 *                      __gmon_start__ calls __monstartup from the program's
 *                      _init, before its constructors and main), or a
 *                      program that called monstartup() itself.  Marked by
 *                      the interposed __monstartup (gmon_interpose.c) in
 *                      libcallpath.so, by gmon_static.c's constructor in
 *                      libcallpath.a (glibc's ran before it).
 *
 *   CP_PROFILED_SAMPLED  sampling mode started (sampled.c's constructor,
 *                      before it starts the histogram through the same
 *                      __monstartup, which marks CP_PROFILED_GMON too).
 */
#ifndef CALLPATH_RUNTIME_PROFILED_H
#define CALLPATH_RUNTIME_PROFILED_H

#define CP_PROFILED_GMON 1u
/* sampling mode (sampled.c): a program without -pg, its stacks walked */
#define CP_PROFILED_SAMPLED 2u

/* The reasons marked so far (0: not profiled).  Any context. */
unsigned cp_profiled(void) __attribute__((visibility("hidden")));
/*
 * This process is profiled, for `why`.  The first mark starts what a
 * profiled process gets (ends.c: the end handlers, the snapshot thread).
 * Normal context.
 */
void cp_profiled_mark(unsigned why) __attribute__((visibility("hidden")));

#endif
