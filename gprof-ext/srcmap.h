#ifndef EGPROF_SRCMAP_H
#define EGPROF_SRCMAP_H
/*
 * srcmap.h - source positions of an object file's addresses, from its
 * debug information (DWARF, through BFD, as gprof -l and addr2line -i
 * read it): the program or a shared library, opened by path, each on its
 * own (upstream gprof's core_bfd is the program of its profile only, and
 * a diff loads its profiles in other processes).  Detached debug files
 * are found as BFD finds them (.gnu_debuglink, build-id).
 *
 *   struct srcmap *sm = srcmap_open("app");
 *   struct callpath_inline in[8];
 *   int n = srcmap_find(sm, 0x1139, in, 8);
 *   // in[0]: the address's own file and line, and the innermost inlined
 *   // function; in[n - 1].func: the function the code belongs to
 *   srcmap_close(sm);
 *
 * Ownership: the strings srcmap_find gives belong to the map and live
 * until srcmap_close.
 */
#include <stdint.h>

struct callpath_inline;
struct srcmap;

/* A map of `path`'s code; NULL when it cannot be read as an object file
 * (nothing is reported: callers say what they skipped). */
struct srcmap *srcmap_open(const char *path);
void srcmap_close(struct srcmap *sm);

/* Whether the file has line information at all (a .debug_line section,
 * its own or a detached debug file's). */
int srcmap_has_lines(struct srcmap *sm);

/*
 * The functions inlined at link-time address `addr` (a file address:
 * a run-time address minus its object's load bias), innermost first, as
 * upstream_addr_inlines says them: out[0]'s file and line are the
 * address's own, out[k]'s (k > 0) where out[k - 1] was inlined into it;
 * out[n - 1].func the function the code belongs to (NULL when the debug
 * information names none).  n >= 1, or -1 when no line is known.
 */
int srcmap_find(struct srcmap *sm, uint64_t addr, struct callpath_inline *out, int max);

#endif
