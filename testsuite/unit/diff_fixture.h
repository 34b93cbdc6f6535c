/*
 * Building profiles in code for the diff unit tests (test_match, test_diff,
 * test_noise): fx_sym() adds a function, fx_arc() an arc by names.
 */
#ifndef EGPROF_DIFF_FIXTURE_H
#define EGPROF_DIFF_FIXTURE_H
#include <stdlib.h>
#include <string.h>
#include "diff/profile.h"

static inline struct profile *fx_new(double hz)
{
	struct profile *p = profile_new();

	assert_non_null(p);
	p->hz = hz;
	p->input = PROFILE_HAS_HIST | PROFILE_HAS_CG;
	return p;
}

/* file may be NULL; flags PSYM_STATIC for a static function. */
static inline long fx_sym(struct profile *p, const char *name, const char *file,
			  unsigned flags, double ticks, uint64_t calls)
{
	struct profile_sym s;
	long i;

	memset(&s, 0, sizeof(s));
	s.name = strdup(name);
	s.print_name = strdup(name);
	s.file = file ? strdup(file) : NULL;
	s.addr = 0x1000 + 0x40 * p->nsyms;
	s.end_addr = s.addr + 0x40;
	s.flags = flags | PSYM_FUNC | PSYM_IN_FLAT | PSYM_IN_GRAPH;
	s.self_ticks = ticks;
	s.prop_self = ticks;
	s.ncalls = calls;
	i = profile_add_sym(p, &s);
	assert_true(i >= 0);
	p->total_ticks += ticks;
	return i;
}

static inline void fx_arc(struct profile *p, const char *from, const char *to, uint64_t n)
{
	struct profile_arc a;

	memset(&a, 0, sizeof(a));
	assert_true(profile_find(p, from, NULL) >= 0);
	assert_true(profile_find(p, to, NULL) >= 0);
	a.parent = (uint32_t)profile_find(p, from, NULL);
	a.child = (uint32_t)profile_find(p, to, NULL);
	a.count = n;
	assert_true(profile_add_arc(p, &a) >= 0);
}

/* Make the named functions cycle n of p (a NULL-terminated list) and add
 * its "<cycle n as a whole>" symbol, as the adapter does. */
static inline long fx_cycle(struct profile *p, int n, uint64_t calls, uint64_t self_calls,
			    const char *const *members)
{
	struct profile_sym s;
	char name[64];
	long i;

	for (; *members; members++) {
		long m = profile_find(p, *members, NULL);

		assert_true(m >= 0);
		p->syms[m].cycle = n;
	}
	snprintf(name, sizeof(name), "<cycle %d as a whole>", n);
	memset(&s, 0, sizeof(s));
	s.name = strdup(name);
	s.print_name = strdup(name);
	s.flags = PSYM_CYCLE | PSYM_IN_GRAPH;
	s.cycle = n;
	s.ncalls = calls;
	s.self_calls = self_calls;
	i = profile_add_sym(p, &s);
	assert_true(i >= 0);
	return i;
}
#endif
