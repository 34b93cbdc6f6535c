#ifndef CALLPATH_RUNTIME_GMONFILE_H
#define CALLPATH_RUNTIME_GMONFILE_H
/*
 * gmonfile.h - the gmon file glibc wrote for this run (gmonfile.c).
 *
 *   cp_gmon_init();          constructor: how we will know (static links)
 *   ... glibc's _mcleanup runs, cp_gmon_before_write() just before it ...
 *   struct cp_gmon g;
 *   if (cp_gmon_written(&g) == 0) ... g.name, and g.size/g.hash if hashed ...
 */
#include <stdint.h>

struct cp_gmon {
	char name[4096];	/* as glibc named it (relative to the cwd) */
	int regular;		/* a regular file (not a FIFO or device) */
	int hashed;		/* size and hash are the file's */
	uint64_t size, hash;
};

void cp_gmon_init(void) __attribute__((visibility("hidden")));
/* 1 in libcallpath.a (a static link), 0 in libcallpath.so */
int cp_static_link(void) __attribute__((visibility("hidden")));
void cp_gmon_before_write(void) __attribute__((visibility("hidden")));
/* 0 and *g: the file this run wrote; -1: none (glibc wrote nothing). */
int cp_gmon_written(struct cp_gmon *g) __attribute__((visibility("hidden")));
/* glibc's _mcleanup is running or ran (the exit path, or a killed
 * process's handler): it must not run again (ends.c). */
int cp_gmon_exit_began(void) __attribute__((visibility("hidden")));
/* The name glibc tries first (for messages when it wrote nothing). */
const char *cp_gmon_expected(void) __attribute__((visibility("hidden")));

#endif
