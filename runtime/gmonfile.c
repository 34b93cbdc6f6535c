/*
 * gmonfile.c - which gmon file this run wrote, and what identifies it.
 *
 * The sidecar records the gmon file it belongs to (its name, size and
 * hash: doc/dev/sidecar-format.md, "Identity"), so that a reader refuses a
 * sidecar beside another run's gmon file whatever the counts say.  glibc
 * writes the gmon file in _mcleanup, an atexit handler that runs before
 * our destructor: to `$GMON_OUT_PREFIX.<pid>` when that variable is set
 * (and the program is not set-user-ID), else, or when that file cannot be
 * created (a missing folder, a name too long), to `gmon.out`; and nothing
 * when neither can be opened or profiling failed.  A file of that name may
 * be left from an earlier run, so the file counts as this run's only if it
 * changed while _mcleanup ran, or was written no earlier than just before
 * it (file times come from the coarse clock we read then).
 *
 * So we look just before _mcleanup: in a dynamic program our _mcleanup
 * (gmon_interpose.c) is the one the program's start-up code registers; in a
 * static link (libcallpath.a, where glibc's _mcleanup cannot be replaced)
 * an atexit handler registered by our constructor, which runs after the
 * program's _init registered _mcleanup, and so before it.
 *
 * Whoever writes the file (glibc, or the runtime's writer once it has
 * taken gmon.out over: doc/dev/runtime.md), it is found the same way.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gmonfile.h"
#include "gmon_start.h"
#include "runtime.h"
#include "utils/banned.h"

#define CP_EXPORT __attribute__((visibility("default")))

/* The names glibc tries, in its order, and how each was before it wrote. */
struct candidate {
	char name[4096];
	int existed;
	struct stat before;
};

static struct {
	int looked;		/* cp_gmon_before_write() ran */
	struct timespec t0;	/* coarse clock just before glibc wrote */
	int n;
	struct candidate c[2];
} pre;

static int candidate_names(struct candidate *c)
{
	const char *prefix = gmon_prefix();
	int n = 0;

	if (prefix) {
		int k = snprintf(c[n].name, sizeof(c[n].name), "%s.%u", prefix,
				 (unsigned)getpid());

		if (k > 0 && (size_t)k < sizeof(c[n].name))
			n++;
	}
	snprintf(c[n].name, sizeof(c[n].name), "gmon.out");
	return n + 1;
}

void cp_gmon_before_write(void)
{
	/*
	 * glibc's _mcleanup turns profiling off, which puts SIGPROF's action
	 * back to the default (terminate): our CALLPATH_HZ timers, which
	 * deliver SIGPROF, must be gone before it (sampler.c).
	 */
	cp_sampler_stop();
	cp_offcpu_stop();	/* nothing is credited once the writer may read */
	if (pre.looked)
		return;
	pre.n = candidate_names(pre.c);
	for (int i = 0; i < pre.n; i++)
		pre.c[i].existed = lstat(pre.c[i].name, &pre.c[i].before) == 0;
	clock_gettime(CLOCK_REALTIME_COARSE, &pre.t0);
	pre.looked = 1;
}

static int ts_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static int same_file_state(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size && a->st_mode == b->st_mode &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
	       a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

int cp_gmon_written(struct cp_gmon *g)
{
	memset(g, 0, sizeof(*g));
	if (!pre.looked)
		return -1;	/* glibc's _mcleanup did not run: no gmon file */
	for (int i = 0; i < pre.n; i++) {
		const struct candidate *c = &pre.c[i];
		struct stat now;

		if (lstat(c->name, &now) != 0 || S_ISLNK(now.st_mode))
			continue;	/* glibc refuses symbolic links */
		if (c->existed && same_file_state(&c->before, &now) &&
		    ts_before(&now.st_mtim, &pre.t0))
			continue;	/* left from an earlier run */
		snprintf(g->name, sizeof(g->name), "%s", c->name);
		g->regular = S_ISREG(now.st_mode);
		if (g->regular && sidecar_hash_file(c->name, &g->size, &g->hash) == 0)
			g->hashed = 1;
		return 0;
	}
	return -1;
}

int cp_gmon_exit_began(void)
{
	return __atomic_load_n(&pre.looked, __ATOMIC_ACQUIRE);
}

const char *cp_gmon_expected(void)
{
	if (!pre.looked)
		pre.n = candidate_names(pre.c);
	return pre.c[0].name;
}

#ifndef CP_ARCHIVE
/* gmon_interpose.c's _mcleanup calls cp_gmon_before_write() first. */
void cp_gmon_init(void)
{
}

int cp_static_link(void)
{
	return 0;
}
#else
/*
 * A static link: glibc's moncontrol and _mcleanup are the program's own
 * there, not interposed (sampler.c keeps its timers off: glibc's
 * profil(NULL) puts SIGPROF's default action back, which a timer's next
 * signal would take).
 */
int cp_static_link(void)
{
	return 1;
}

#include "gmon_takeover.h"

static void before_mcleanup(void)
{
	cp_gmon_before_write();
	gmon_static_exit_glibc();
}

/*
 * Registered after the program's _init registered _mcleanup: runs first.
 * (gmon_static.c's writer, when it took over, notes before writing too.)
 * The reference to gmon_static_taken_over links gmon_static.o.
 */
void cp_gmon_init(void)
{
	if (gmon_static_taken_over() >= 0)
		atexit(before_mcleanup);
}
#endif
