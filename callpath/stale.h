#ifndef CALLPATH_STALE_H
#define CALLPATH_STALE_H
/*
 * stale.h - does a call-path sidecar belong to the gmon file beside it?
 *
 * A sidecar left from an earlier run next to a new gmon.out would be read
 * silently (same binary, same build-id).  Both files count the same calls:
 * every call made from inside the program is an arc in gmon.out (glibc
 * drops arcs whose call site is outside the program, and the sidecar writes
 * those call sites as 0, "external").  So per called function, the calls
 * the sidecar records from call sites inside the program (count + folded
 * recursion) equal gmon's arcs into it, and never exceed them when the
 * runtime dropped calls.  Where glibc's counter itself loses calls (its
 * arcs are not updated atomically: several threads) or the sidecar is a sum
 * of processes, nothing is checked.
 *
 *   char why[512];
 *   if (callpath_stale_check(model, sc, profile, why, sizeof(why)))
 *           return error("'%s' does not match '%s': %s", ...);
 */
#include <stddef.h>

struct callpath_model;
struct sidecar;
struct profile;

/*
 * 0 when the counts agree (or cannot be compared), 1 when they do not:
 * `why` then names the function with the largest difference and both
 * counts ("fib: 400000 calls in the sidecar, 1200000 in the gmon file").
 * -1 when out of memory (reported with error()).  May intern the
 * profile's function names into `m`.
 */
int callpath_stale_check(struct callpath_model *m, const struct sidecar *sc,
			 const struct profile *p, char *why, size_t whylen);

#endif
