#ifndef EGPROF_FUZZ_NAMED_MODEL_H
#define EGPROF_FUZZ_NAMED_MODEL_H
/*
 * A sidecar named as the reports name it (callpath_model_build: its
 * addresses less its load address, looked up in a program's symbols), for
 * the harnesses that run the outputs on what a damaged file becomes:
 * fuzz_reports, fuzz_pathdiff.  The program is made up: functions of 0x40
 * bytes where the seeds' programs lie (0x1000 for a PIE, 0x401000
 * without), many sharing a name as static functions do, so that a wrong
 * load address names a node as another function, or two nodes as one.
 * The objects' paths are emptied first: a harness reads no file.
 *
 *   struct profile *p = fuzz_program();          once
 *   struct callpath_model *m = fuzz_named_model(sc, p);
 *   fuzz_folded_sum(f)                            a folded file's numbers, summed
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "callpath/folded.h"
#include "model/callpath_model.h"
#include "format/sidecar.h"
#include "diff/profile.h"
#include "testsuite/fuzz/fuzz.h"
#include "utils/satmath.h"

#define FUZZ_FUNCS 128		/* per range */
#define FUZZ_NAMES 48		/* distinct names among them */

static struct profile *fuzz_program(void)
{
	static const uint64_t base[] = { 0x1000, 0x401000 };
	struct profile *p = profile_new();

	fuzz_assert(p != NULL);
	for (size_t r = 0; r < sizeof(base) / sizeof(base[0]); r++)
		for (unsigned i = 0; i < FUZZ_FUNCS; i++) {
			struct profile_sym s;
			char name[16];

			memset(&s, 0, sizeof(s));
			snprintf(name, sizeof(name), "f%u", i % FUZZ_NAMES);
			s.name = strdup(name);
			s.print_name = strdup(name);
			s.addr = base[r] + 0x40ull * i;
			s.end_addr = s.addr + 0x3f;
			s.flags = PSYM_FUNC;
			fuzz_assert(s.name && s.print_name && profile_add_sym(p, &s) >= 0);
		}
	p->hz = 100;
	return p;
}

static struct callpath_model *fuzz_named_model(struct sidecar *sc, const struct profile *p)
{
	struct callpath_model *m = NULL;

	for (uint32_t i = 0; i < sc->nr_objects; i++)
		sc->objects[i].path[0] = '\0';
	fuzz_assert(callpath_model_build(sc, p, NULL, &m) == 0);
	return m;
}

/* The sum of a folded file's numbers, saturated as the model's sums are. */
static uint64_t fuzz_folded_sum(const struct folded *f)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < f->nr; i++)
		sum = sat_add_u64(sum, f->stacks[i].count);
	return sum;
}

#endif
