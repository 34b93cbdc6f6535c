/*
 * gmon_out.h - write gmon.out as glibc 2.36's write_gmon writes it, from a
 * histogram and any source of call arcs.
 *
 * The file (native byte order, x86_64):
 *   header   "gmon", int32 version 1, 12 zero bytes                   20
 *   hist     tag 0, low_pc, high_pc (run-time - load address), int32
 *            hist_size (kcountsize / 2), int32 prof_rate
 *            (__profile_frequency()), "seconds" padded with zeros to 15
 *            bytes, 's'; then the bins                        1 + 40 + 2n
 *            (only when kcountsize > 0, as glibc)
 *   arcs     tag 1, from_pc, self_pc (- load address), int32 count   1 + 20
 * glibc's basic-block records (tag 2) need gcc's long-gone -a: never
 * written.
 *
 * Arcs, as glibc's mcount keeps them and write_call_graph writes them:
 *   - a call is kept only when its frompc (the call's return address) lies
 *     in [lowpc, highpc] (gmon_geometry_bucket): calls from libraries and
 *     from signal trampolines are dropped, whatever the callee;
 *   - its from_pc is rounded down to its bucket, lowpc + 16 * b, and the
 *     calls of one bucket to one selfpc are one arc (two call sites in one
 *     16-byte stretch, or one site reached through many contexts, are
 *     summed);
 *   - arcs are written by bucket, ascending; within a bucket glibc's chain
 *     is most-recently-called first (mcount moves an arc it finds to the
 *     front).  gprof's call graph depends on that order where counts and
 *     times tie (which child or parent is listed first, cycle numbers), so
 *     the writer orders a bucket by `stamp`, greatest first: a source that
 *     stamps each arc with the time of its last call gets glibc's order
 *     exactly; equal stamps keep the order the arcs were first yielded in;
 *   - glibc writes its 64-bit count as int32 (modulo 2^32; gprof reads it
 *     unsigned).  A count above 0xffffffff is written here as several
 *     records of one arc, next to each other, each at most 0xffffffff,
 *     which gprof adds up: the exact count where glibc's wraps; a count of
 *     at most 0xffffffff is glibc's single record.  Arcs of count 0 are not
 *     written (glibc never has one).
 *
 * Sources: an iterator over (frompc, selfpc, count, stamp), any number of
 * sources per write; a source flagged `subtract` takes its counts away
 * from the others' (calls made while moncontrol had arcs off, when the
 * runtime's trees counted them anyway).  Counts are summed modulo 2^64, so
 * any subtraction that is not larger than what was added comes out exact.
 *
 * Calling sequence:
 *   struct gmon_out_opts o = { .geom = &g, .load_address = ..., .kcount = ...,
 *       .prof_rate = __profile_frequency(), .parts = GMON_OUT_ALL,
 *       .sources = srcs, .nsources = n };
 *   gmon_out_write(fd, &o);
 * Appending arcs to a file that has its header: .parts = GMON_OUT_ARCS.
 *
 * Async-signal-safe and bounded: no malloc, no stdio, no locks; working
 * memory is the caller's (`work`, gmon_out_work_size bytes) or mmap'ed and
 * unmapped here; time O(n log n) in the arcs yielded.  Partial writes and
 * EINTR are retried (glibc ignores both).  errno is preserved.  Sources are
 * called from the writer only, in the caller's context: they must be
 * async-signal-safe where the writer is called from a signal handler.
 */
#ifndef CALLPATH_GMON_OUT_H
#define CALLPATH_GMON_OUT_H

#include <stddef.h>
#include <stdint.h>

#include "gmon_start.h"

struct gmon_arc {
	uint64_t frompc;	/* return address of the call, run-time */
	uint64_t selfpc;	/* mcount's selfpc, run-time */
	uint64_t count;
	uint64_t stamp;		/* when last called, greater is later; 0: unknown */
};

struct gmon_arc_source {
	/* The next arc in *arc: 1, or 0 when there is none left. */
	int (*next)(void *ctx, struct gmon_arc *arc);
	void *ctx;
	uint64_t max_arcs;	/* it yields at most this many (working memory) */
	int subtract;		/* its counts are taken away from the others' */
};

enum {
	GMON_OUT_HEADER = 1,
	GMON_OUT_HIST = 2,
	GMON_OUT_ARCS = 4,
	GMON_OUT_ALL = 7,
};

struct gmon_out_opts {
	const struct gmon_geometry *geom;	/* glibc's (gmon_geometry_compute) */
	uint64_t load_address;	/* subtracted from every pc (PIE); 0 static */
	const uint16_t *kcount;	/* the bins, geom->kcountsize bytes */
	int32_t prof_rate;	/* __profile_frequency() */
	unsigned parts;		/* GMON_OUT_* */
	struct gmon_arc_source *const *sources;
	size_t nsources;
	void *work;		/* gmon_out_work_size() bytes, 8-aligned; NULL: mmap'ed */
	size_t work_size;
	/*
	 * With fd -1: the file is opened by open_fd(open_ctx) (a descriptor,
	 * or -errno) once the arcs are merged, just before its first byte, so
	 * that an error before then (working memory, too many arcs) leaves
	 * the file as it was, never emptied.  The caller closes it.
	 */
	int (*open_fd)(void *open_ctx);
	void *open_ctx;
};

/* Bytes of working memory for sources yielding `max_arcs` arcs in all. */
size_t gmon_out_work_size(uint64_t max_arcs);

/*
 * Write the parts into `fd` at its offset (or o->open_fd's, fd -1).
 * 0, or -errno: -EINVAL (no
 * geometry, bins missing for a histogram, work not 8-aligned), -E2BIG (the sources yielded
 * more than their max_arcs: nothing written), -ENOMEM (work too small or
 * not mapped: nothing written), or a write error (the file is then partly
 * written: a snapshot's caller aborts it).
 */
int gmon_out_write(int fd, const struct gmon_out_opts *o);

#endif
