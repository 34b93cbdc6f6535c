/*
 * gmon_interpose.c - __monstartup, monstartup, moncontrol and _mcleanup
 * for dynamic builds (libcallpath.so): see gmon_takeover.h.
 *
 * One state, as glibc's _gmonparam.state: GMON_PROF_ON / OFF / ERROR, and
 * whose functions are in charge (nobody yet, ours, glibc's).  The choice is
 * made once per __monstartup; _mcleanup ends it.  Normal context only
 * (glibc's functions are not async-signal-safe either), and, as glibc's,
 * not meant to be called from several threads at once.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/gmon.h>
#include <unistd.h>

#include "ends.h"
#include "gmon_out.h"
#include "gmon_start.h"
#include "gmon_takeover.h"
#include "profiled.h"
#include "utils/banned.h"

#define EXPORT __attribute__((visibility("default")))
#define MAX_SOURCES 8

enum { NOBODY, OURS, GLIBC };

struct glibc_gmon {
	void (*monstartup)(unsigned long, unsigned long);
	void (*moncontrol)(int);
	void (*mcleanup)(void);
};

static int in_charge = NOBODY;
static long state = GMON_PROF_OFF;
static struct gmon_hist hist;
static uint64_t load_address;	/* computed at start: the signal path cannot */

/* glibc's own functions, the next definitions after ours. */
static const struct glibc_gmon *glibc(void)
{
	static struct glibc_gmon g;

	if (!g.monstartup) {
		g.moncontrol = (void (*)(int))dlsym(RTLD_NEXT, "moncontrol");
		g.mcleanup = (void (*)(void))dlsym(RTLD_NEXT, "_mcleanup");
		g.monstartup = (void (*)(unsigned long, unsigned long))
			dlsym(RTLD_NEXT, "__monstartup");
	}
	return &g;
}

/*
 * This library's own _init (crti.o, as in every shared object gcc links)
 * calls __gmon_start__ when that symbol resolves, and the link of a program
 * with -lcallpath resolves it to gcrt1.o's, which it then exports: glibc's
 * profiling would start from our _init, before the program's, and register
 * _mcleanup with atexit before __libc_start_main registers the dynamic
 * linker's finalizer, so gmon.out was written after the program's
 * destructors and counted their calls (a plain -pg run, or the library
 * preloaded, writes it before them).  Defined here, hidden, the reference
 * stays in this library and does nothing: profiling starts from the
 * program's _init, as without us.
 */
void __gmon_start__(void) __attribute__((visibility("hidden")));
void __gmon_start__(void)
{
}

EXPORT void __monstartup(unsigned long lowpc, unsigned long highpc)
{
	const struct glibc_gmon *g;

	/* glibc's profiling starts: this process is profiled (profiled.h) */
	cp_profiled_mark(CP_PROFILED_GMON);
	/* glibc ignores a second call before _mcleanup */
	if (in_charge == OURS)
		return;
	if (in_charge == NOBODY && gmon_runtime_take_over(1)) {
		if (gmon_hist_start(&hist, lowpc, highpc) == 0) {
			load_address = gmon_load_address();
			in_charge = OURS;
			state = GMON_PROF_ON;
			gmon_runtime_arcs(1);
			return;
		}
		gmon_hist_release(&hist);
		gmon_runtime_take_over(0);
	}
	in_charge = GLIBC;
	g = glibc();
	if (g->monstartup)
		g->monstartup(lowpc, highpc);
}

EXPORT void monstartup(unsigned long lowpc, unsigned long highpc)
	__attribute__((alias("__monstartup")));

/* glibc's __moncontrol, with the arcs the runtime's */
static void control(int mode)
{
	if (mode && state != GMON_PROF_ERROR) {
		gmon_hist_control(&hist, 1);
		state = GMON_PROF_ON;
		gmon_runtime_arcs(1);
	} else {
		gmon_hist_control(&hist, 0);
		if (state != GMON_PROF_ERROR)
			state = GMON_PROF_OFF;
		gmon_runtime_arcs(0);
	}
}

void moncontrol(int mode);

EXPORT void moncontrol(int mode)
{
	const struct glibc_gmon *g;

	if (in_charge == OURS) {
		control(mode);
		gmon_runtime_profil_changed();
		return;
	}
	g = glibc();
	if (g->moncontrol)
		g->moncontrol(mode);
	gmon_runtime_profil_changed();
}

static int write_now(int fd, unsigned flags, int named);

/*
 * The whole of it held against the signals that end a process (ends.h):
 * a SIGTERM in the middle of writing gmon.out is delivered once it is
 * written, and never leaves it emptied or cut short.
 */
EXPORT void _mcleanup(void)
{
	struct cp_end_hold hold;

	cp_end_hold_begin(&hold);
	gmon_runtime_before_write();
	if (in_charge != OURS) {
		const struct glibc_gmon *g = glibc();

		if (g->mcleanup)
			g->mcleanup();
		if (in_charge == GLIBC)
			in_charge = NOBODY;
		cp_end_hold_end(&hold);
		return;
	}
	control(0);
	if (state != GMON_PROF_ERROR)
		write_now(-1, 0, 1);
	gmon_hist_release(&hist);
	/* glibc resets _gmonparam: a later __monstartup starts afresh */
	state = GMON_PROF_OFF;
	in_charge = NOBODY;
	cp_end_hold_end(&hold);
}

/* gmon_takeover.h: gmon.out as it stands now (async-signal-safe). */
static int write_now(int fd, unsigned flags, int named)
{
	struct gmon_arc_source *srcs[MAX_SOURCES];
	int n, ret, saved = errno;

	if (__atomic_load_n(&in_charge, __ATOMIC_ACQUIRE) != OURS)
		return -ENOTSUP;
	if (__atomic_load_n(&state, __ATOMIC_RELAXED) == GMON_PROF_ERROR || !hist.kcount)
		return -ENODATA;
	n = (flags & CP_GMON_FROM_SIGNAL) ? gmon_runtime_arc_sources_signal(srcs, MAX_SOURCES)
					   : gmon_runtime_arc_sources(srcs, MAX_SOURCES);
	/* -1, no arcs to give: _mcleanup's file is still written, without them */
	if (n < 0 && (named == 0 || n != -1)) {
		errno = saved;
		return n == -1 ? -ENOTSUP : n;
	}
	{
		struct gmon_out_opts o = {
			.geom = &hist.geom,
			.load_address = load_address,
			.kcount = hist.kcount,
			.prof_rate = __profile_frequency(),
			.parts = GMON_OUT_ALL,
			.sources = srcs,
			.nsources = n > 0 ? (size_t)n : 0,
		};

		ret = named ? gmon_write_named(&o, !(flags & CP_GMON_FROM_SIGNAL))
			    : gmon_out_write(fd, &o);
	}
	if (n >= 0)
		gmon_runtime_arc_sources_done();
	errno = saved;
	return ret;
}

int cp_gmon_write_fd(int fd, unsigned flags)
{
	return write_now(fd, flags, 0);
}

int cp_gmon_write_named(unsigned flags)
{
	return write_now(-1, flags, 1);
}
