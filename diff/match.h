#ifndef EGPROF_MATCH_H
#define EGPROF_MATCH_H
/*
 * Matching the functions of two profiles, possibly of two different
 * binaries (every address may differ, so addresses are never compared).
 * The rules, in the order they are tried (doc/diff.md):
 *
 *  1. Same symbol-table name (mangled for C++).  A name that several
 *     static functions share is told apart by source file: exact path,
 *     then the same base name; static functions without debug info are
 *     paired in address order.  Two functions are never merged into one.
 *  2. A GCC clone (foo.constprop.0, foo.isra.1, foo.part.0, foo.cold,
 *     foo.lto_priv.0, and chains of these) left unmatched by rule 1 pairs
 *     with an unmatched function of the other side with the same base name
 *     (the original or another clone): that is an inlining or cloning
 *     change, shown under the base name.
 *  3. Anything left is on one side only.
 *
 * Cycles as a whole (PSYM_CYCLE) are matched by their members, never by
 * number (each side numbers its cycles in its own order): after the
 * functions are paired, a cycle of a pairs with the cycle of b holding the
 * most of its members' partners, when that cycle of b also holds the most
 * of its own members' partners in this cycle of a (identical member sets
 * always pair).  Ties go to the lower cycle number.  Other cycles are on
 * one side only.  Cycle pairs come after all function pairs.
 *
 *   struct match m;
 *   match_compute(&m, a, b);      m.pairs[i] = { index in a or -1, in b or -1 }
 *   match_release(&m);
 */
#include <stddef.h>
#include "diff/profile.h"

struct match_pair {
	long sym[2];      /* index into a->syms / b->syms, -1 for none */
	int kind;         /* enum diff_match_kind (diff/diff.h) */
};

struct match {
	struct match_pair *pairs;  /* owned */
	size_t npairs;
};

int match_compute(struct match *m, const struct profile *a, const struct profile *b);
void match_release(struct match *m);

/*
 * The base name of a GCC clone: "foo" for "foo.constprop.0.isra.0" and for
 * a demangled "foo(int) [clone .constprop.0]".  Writes it to buf (truncated
 * to n) and returns its length, or returns 0 when name is not a clone.
 */
size_t match_clone_base(const char *name, char *buf, size_t n);

#endif
