#ifndef EGPROF_CLONES_H
#define EGPROF_CLONES_H
/*
 * GCC clones folded into their base function, for the diff.
 *
 * GCC emits parts of a function as functions of their own: foo.isra.0,
 * foo.constprop.0, foo.part.0, foo.cold, foo.lto_priv.0, foo.localalias and
 * chains such as foo.constprop.0.isra.0 (match_clone_base() names them).
 * Upstream gprof drops these symbols, so their samples and calls land on
 * whatever function precedes them in memory: an -O2 build shows another
 * function with all of foo's calls.  For the diff the adapter gives upstream
 * the clones as symbols of their own (gprof-ext/upstream.c), and
 * profile_merge_clones() then folds each clone into its base function, so
 * the -O0 and -O2 builds of one program compare function by function.
 *
 *   upstream computes p with clone symbols   (adapter, diff loads only)
 *   profile_merge_clones(p);                 p has one symbol per base
 *
 * A base function absorbs its clones: their samples, call counts and
 * propagated times add up; arcs to and from a clone become arcs of the base
 * (duplicates summed); a call between two parts of one function (foo calls
 * foo.part.0) becomes a recursive call ("+N"), as it is within one function.
 * A clone whose base is not in the table (GCC replaced foo by
 * foo.constprop.0) is renamed to the base.  The merged symbol's print_name
 * says what it absorbed: "foo (+ .part.0, .cold)".  Every other symbol
 * keeps its numbers.  Cycles as a whole are left as they are.
 *
 * 0, or -1 when out of memory (reported; p keeps upstream's numbers).
 */
#include "diff/profile.h"

#define CLONES_NOTE " (+ "

int profile_merge_clones(struct profile *p);

#endif
