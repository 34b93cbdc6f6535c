#ifndef CALLPATH_STALE_H
#define CALLPATH_STALE_H
/*
 * stale.h - a hint, for sidecars without an identity, that one may be
 * left from another run.
 *
 * A sidecar of version 4 records which gmon file it belongs to, and
 * model/sum.h's callpath_pair_check() refuses it beside any other.
 * Older sidecars (versions 1 to 3) record nothing of the kind; for them
 * the counts give a hint, and only a warning: per called function, the
 * calls the sidecar records from call sites inside the program (count +
 * folded recursion) are never fewer than gmon.out's arcs into it, unless
 * the runtime dropped calls.  They may well be more, for reasons that
 * have nothing to do with staleness: glibc drops calls that interrupt its
 * own counter (signal handlers), loses arcs between threads, stops
 * counting under moncontrol(0), and does not see the calls of -pg shared
 * libraries; names gprof does not know ([unknown], GCC's .part and
 * .constprop clones outside its symbol table) never compare.  So only
 * fewer calls than gmon.out counts, with nothing dropped, in a single
 * thread's sidecar of one process, is reported.
 *
 *   char why[512];
 *   if (callpath_stale_check(model, sc, profile, why, sizeof(why)) > 0)
 *           warning("'%s' may be left from another run: %s", ...);
 */
#include <stddef.h>

struct callpath_model;
struct sidecar;
struct profile;

/*
 * 0 when nothing says the sidecar is stale (or it cannot be compared),
 * 1 when it counts fewer calls of a function than the gmon file: `why`
 * names the function with the largest shortfall and both counts ("fib:
 * 21891 calls in the sidecar, 57313 in the gmon file").  -1 when out of
 * memory (reported with error()).  May intern the profile's function
 * names into `m`.
 */
int callpath_stale_check(struct callpath_model *m, const struct sidecar *sc,
			 const struct profile *p, char *why, size_t whylen);

#endif
