/*
 * gmon_static.c - gmon.out in static links (libcallpath.a): glibc's own
 * __monstartup and moncontrol run, the runtime's writer runs before
 * glibc's _mcleanup and writes glibc's histogram with glibc's arc table and
 * the runtime's arcs.  See gmon_takeover.h.
 *
 * _gmonparam is hidden in libc.a: no dynamic symbol, but an ordinary
 * global to every object of a static link.  The reference is weak, so that
 * libcallpath.a still links into a dynamic program (libc.so keeps its
 * _gmonparam to itself: the address is then NULL and nothing is taken
 * over), and it pulls nothing in: gmon.o is in the link because gcrt1.o
 * calls __monstartup and registers _mcleanup.
 */
#define _GNU_SOURCE
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

#define MAX_SOURCES 8

/* glibc's, in no header */
void moncontrol(int mode);
void _mcleanup(void);

extern struct gmonparam _gmonparam __attribute__((weak, visibility("hidden")));
/*
 * gcrt1.o's, in a program linked with -pg (whose _init started glibc's
 * profiling before our constructors); NULL in one that was not.
 */
extern void __gmon_start__(void) __attribute__((weak));

static int taken_over;

/* ---- glibc's arc table as a source, in glibc's order ---- */

struct glibc_table {
	const struct gmonparam *p;
	uint64_t bucket, nbuckets;
	unsigned long link;	/* next tos[] entry of the bucket's chain, 0: none */
	long steps;		/* entries visited: at most tolimit, torn or not */
};

static int table_next(void *ctx, struct gmon_arc *arc)
{
	struct glibc_table *t = ctx;
	const struct gmonparam *p = t->p;

	if (t->steps >= p->tolimit)
		return 0;
	while (t->link == 0 || t->link >= (unsigned long)p->tolimit) {
		if (t->bucket >= t->nbuckets)
			return 0;
		t->link = p->froms[t->bucket++];
	}
	t->steps++;
	/* write_call_graph: lowpc + from_index * hashfraction * sizeof(*froms) */
	arc->frompc = p->lowpc + (t->bucket - 1) * p->hashfraction * sizeof(*p->froms);
	arc->selfpc = p->tos[t->link].selfpc;
	arc->count = (uint64_t)p->tos[t->link].count;
	arc->stamp = 0;	/* chain order is glibc's: kept as yielded */
	t->link = p->tos[t->link].link;
	return 1;
}

/* glibc's __monstartup arithmetic gives its own rounded range back. */
static void glibc_geometry(const struct gmonparam *p, struct gmon_geometry *g)
{
	gmon_geometry_compute(p->lowpc, p->highpc, g);
}

/* glibc's histogram and arc table with the runtime's arcs, into fd or named */
static int write_now(int fd, unsigned flags, int named)
{
	struct gmonparam *p = &_gmonparam;
	struct gmon_arc_source *srcs[MAX_SOURCES];
	struct glibc_table table = { .p = p };
	struct gmon_arc_source glibc_arcs = {
		.next = table_next, .ctx = &table,
	};
	struct gmon_geometry g;
	int n, ret;

	glibc_geometry(p, &g);
	table.nbuckets = p->fromssize / sizeof(*p->froms);
	glibc_arcs.max_arcs = (uint64_t)p->tolimit;
	srcs[0] = &glibc_arcs;
	n = (flags & CP_GMON_FROM_SIGNAL)
		? gmon_runtime_arc_sources_signal(srcs + 1, MAX_SOURCES - 1)
		: gmon_runtime_arc_sources(srcs + 1, MAX_SOURCES - 1);
	if (n < -1)
		return n;	/* busy: nothing written (a handler's wait) */
	{
		struct gmon_out_opts o = {
			.geom = &g,
			.load_address = 0,	/* glibc's static gmon.o: not PIC */
			.kcount = p->kcount,
			.prof_rate = __profile_frequency(),
			.parts = GMON_OUT_ALL,
			.sources = srcs,
			.nsources = 1 + (n > 0 ? (size_t)n : 0),
		};

		ret = named ? gmon_write_named(&o, !(flags & CP_GMON_FROM_SIGNAL))
			    : gmon_out_write(fd, &o);
	}
	if (n >= 0)
		gmon_runtime_arc_sources_done();
	return ret;
}

/* held against the signals that end a process, as _mcleanup is (ends.h) */
static void write_at_exit(void)
{
	struct gmonparam *p = &_gmonparam;
	struct cp_end_hold hold;

	/* the program (or a handler before us) ran _mcleanup already */
	if (!p->tos || !p->kcount)
		return;
	cp_end_hold_begin(&hold);
	gmon_runtime_before_write();
	/* glibc's _mcleanup: profil off, arcs off (state OFF unless ERROR) */
	moncontrol(0);
	write_now(-1, 0, 1);
	/* glibc's _mcleanup now writes nothing, frees its tables and resets */
	p->state = GMON_PROF_ERROR;
	__atomic_store_n(&taken_over, 0, __ATOMIC_RELEASE);
	cp_end_hold_end(&hold);
}

/* gmon_takeover.h: gmon.out as it stands now (async-signal-safe). */
static int write_checked(int fd, unsigned flags, int named)
{
	int saved = errno, ret;

	if (!__atomic_load_n(&taken_over, __ATOMIC_ACQUIRE))
		return -ENOTSUP;
	if (!_gmonparam.tos || !_gmonparam.kcount ||
	    __atomic_load_n(&_gmonparam.state, __ATOMIC_RELAXED) == GMON_PROF_ERROR)
		return -ENODATA;
	ret = write_now(fd, flags, named);
	errno = saved;
	return ret;
}

int cp_gmon_write_fd(int fd, unsigned flags)
{
	return write_checked(fd, flags, 0);
}

int cp_gmon_write_named(unsigned flags)
{
	return write_checked(-1, flags, 1);
}

/*
 * Not taken over (CALLPATH_ARCS=glibc): glibc's _mcleanup writes gmon.out
 * at exit, after this.  Run it now, held as write_at_exit is, and leave it
 * nothing to do when its turn comes: its state ERROR writes nothing, and
 * its free() of the tables it freed now finds NULL.
 */
void gmon_static_exit_glibc(void)
{
	struct cp_end_hold hold;

	if (!&_gmonparam || !_gmonparam.tos || __atomic_load_n(&taken_over, __ATOMIC_ACQUIRE))
		return;
	cp_end_hold_begin(&hold);
	gmon_runtime_before_write();
	_mcleanup();
	_gmonparam.state = GMON_PROF_ERROR;
	_gmonparam.tos = NULL;
	_gmonparam.kcount = NULL;
	cp_end_hold_end(&hold);
}

int gmon_static_taken_over(void)
{
	return __atomic_load_n(&taken_over, __ATOMIC_ACQUIRE);
}

int gmon_static_arcs_on(void)
{
	long s;

	if (!&_gmonparam)
		return 0;
	s = __atomic_load_n(&_gmonparam.state, __ATOMIC_RELAXED);
	/* BUSY: glibc's counter is counting another call (glibc's __fentry__) */
	return s == GMON_PROF_ON || s == GMON_PROF_BUSY;
}

/*
 * After _init, where gcrt1.o's __gmon_start__ started profiling and
 * registered _mcleanup: registered now, our writer runs before it.
 */
__attribute__((constructor(101))) static void gmon_static_start(void)
{
	/*
	 * A -pg program (profiled.h); libcallpath.a linked into a dynamic one
	 * too, where glibc's tables are libc.so's own and are not taken over.
	 */
	if (__gmon_start__ || (&_gmonparam && _gmonparam.tos))
		cp_profiled_mark(CP_PROFILED_GMON);
	if (!&_gmonparam || !_gmonparam.tos)
		return;		/* dynamic program, or not profiled */
	gmon_runtime_arcs_gate(&_gmonparam.state);
	if (!gmon_runtime_take_over(1)) {
		gmon_runtime_arcs_gate(NULL);
		return;
	}
	if (atexit(write_at_exit) != 0) {
		gmon_runtime_take_over(0);
		gmon_runtime_arcs_gate(NULL);
		return;
	}
	/* on, under the gate: glibc's state says when they are off */
	gmon_runtime_arcs(1);
	__atomic_store_n(&taken_over, 1, __ATOMIC_RELEASE);
}
