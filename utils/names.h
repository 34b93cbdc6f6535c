#ifndef EGPROF_NAMES_H
#define EGPROF_NAMES_H
/*
 * names.h - how every output names a function: the one rule behind the
 * text reports, JSON, CSV, the graphs, the HTML report, pprof and folded
 * stacks.
 *
 * A name is the symbol's, demangled as gprof demangles; a GCC clone that
 * upstream gprof leaves out of its table is a function of its own, named
 * as its function plus its clone suffix ("float norm2<float>(Point<float>
 * const&) [clone .isra.0]", "work.part.0"), never the function before it
 * in memory (gprof-ext/upstream.c reads them; the diff folds them into
 * their function).  Frames the sampler names keep their forms ("f
 * [inlined]", "memcpy [libc.so.6]", "[truncated]").
 *
 * Shortened names (--short-names, and every graph's labels) leave template
 * arguments out, and keep distinct functions distinct: a name first loses
 * all its template arguments (`std::vector<…>::push_back(int const&)`);
 * names that then read the same keep one more level of arguments, then
 * another, until they differ:
 *
 *   void sort_points<float>(std::vector<Point<float>, ...>&)
 *   void sort_points<double>(std::vector<Point<double>, ...>&)
 *       -> void sort_points<float>(std::vector<…>&)
 *          void sort_points<double>(std::vector<…>&)
 *
 * A map shortens one run's names consistently: the names it is given
 * together (name_map_add_all) are made distinct among themselves whatever
 * their order; a name asked for later keeps more arguments until it
 * differs from every short name the map gave before.  Every output of a
 * command asks the same map, so a function reads the same everywhere.
 *
 *   struct name_map *nm = name_map_new();
 *   name_map_add_all(nm, names, n);
 *   const char *s = name_map_short(nm, names[0]);   // owned by the map
 *   name_map_free(nm);
 */
#include <stddef.h>

/*
 * `name` with template arguments nested deeper than `keep` levels left
 * out: each such balanced <...> becomes <…> (U+2026); with keep 0, every
 * one.  The operators whose names hold '<' or '>' (operator<, operator<<,
 * operator->, operator<=>, ...) stay as they are.  A name whose brackets
 * do not balance (not a demangled C++ name) is returned as it is.
 * A malloc'd string, or NULL when out of memory.
 */
char *name_shorten(const char *name, unsigned keep);

struct name_map;

struct name_map *name_map_new(void);
void name_map_free(struct name_map *nm);
/* Shorten names[0..n) together (duplicates allowed).  0, or -1 when out of
 * memory. */
int name_map_add_all(struct name_map *nm, const char *const *names, size_t n);
/* The short form of `full` (given before, or shortened now), owned by the
 * map; a short name the map gave is its own short form.  NULL when out of
 * memory. */
const char *name_map_short(struct name_map *nm, const char *full);

/*
 * A graph node's label: `name` broken into lines of about `width`
 * characters after ", " or "(", or before a " [...]" suffix, or
 * else before a "::" (a line with none of these runs longer), at most
 * `max_lines` lines, the last ending in "…" when more was left out.  The
 * full name goes in the node's tooltip or attribute.  malloc'd, or NULL.
 */
char *name_wrap(const char *name, size_t width, size_t max_lines);

#endif
