/*
 * The reports' size (issue 28): a sidecar that decodes is named (each address
 * its own short name: "f" and the callee's address in hex, "s" and the call
 * site's, so no two nodes merge) and printed as the call-path report
 * (callpath/report.c) and folded stacks of calls and of samples
 * (callpath/folded.c).  Their bytes must stay within REPORT_K times the
 * input's: a line holds at most ELIDE_FRAMES names (model/elide.h), so
 * the output is linear in the nodes, where whole paths made it quadratic
 * in the depth (a chain of 200 nodes, one of the seeds, printed 1.5 MB
 * from 9.7 KB).  REPORT_K covers, per 48-byte node, a path line of 32
 * frames of 17-character names and sites with its numbers (1.4 KB), a tree
 * line, two folded lines (0.6 KB each) and a line of the time-per-caller
 * section: about 3.1 KB.  Apart from fuzz_sidecar, which checks the
 * reader at tens of thousands of inputs a second: a report costs more.
 *
 * The same sidecar named as the reports name it (named_model.h: through a
 * program's symbols, less its load address, so that damaged address
 * fields name nodes as other functions, or two as one) is folded every
 * way and printed: every call and every sample is on exactly one folded
 * line (a folded frame that took a frame of calls' children lost counts
 * and made --folded-calls go round for ever).  Mutations: libFuzzer's,
 * and a third of the time the address fields (sidecar_mutate.h).
 */
#define _GNU_SOURCE /* fopencookie */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "callpath/folded.h"
#include "callpath/report.h"
#include "format/sidecar.h"
#include "testsuite/fuzz/count_stream.h"
#include "testsuite/fuzz/fuzz.h"
#include "testsuite/fuzz/named_model.h"
#include "testsuite/fuzz/sidecar_mutate.h"
#include "utils/satmath.h"

#define REPORT_K 80
#define REPORT_FIXED 8192	/* headings and explanations */

static struct profile *program;	/* named_model.h's, made once */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	program = fuzz_program();
	return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	return sidecar_mutate(data, size, max_size, seed);
}

static uint32_t intern_hex(struct callpath_model *m, char prefix, uint64_t addr)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%c%" PRIx64, prefix, addr);
	return callpath_model_intern(m, buf);
}

/* The sidecar as a model, named without symbols (see the top). */
static struct callpath_model *model_of(const struct sidecar *sc)
{
	struct callpath_model *m = callpath_model_new();
	uint32_t *map = malloc(((size_t)sc->nr_nodes + 1) * sizeof(*map));

	fuzz_assert(m && map);
	for (uint32_t i = 0; i < sc->nr_nodes; i++) {
		const struct sidecar_node *n = &sc->nodes[i];
		uint32_t parent = n->parent == SIDECAR_ROOT ? CALLPATH_NONE : map[n->parent];
		uint32_t fn = intern_hex(m, 'f', n->callee), site = intern_hex(m, 's', n->call_site);

		fuzz_assert(fn != CALLPATH_NONE && site != CALLPATH_NONE);
		fuzz_assert(callpath_model_add(m, parent, fn, site, n->count, &map[i]) == 0);
		callpath_model_add_samples(m, map[i], n->self_samples);
		m->frames[map[i]].attributed = fn;
		if (n->flags & SIDECAR_NODE_FOLDED) {
			m->frames[map[i]].folded = 1;
			m->frames[map[i]].recursive += n->recursive;
			m->frames[map[i]].caller = intern_hex(m, 'f', n->call_site);
			fuzz_assert(m->frames[map[i]].caller != CALLPATH_NONE);
		}
	}
	m->sampling = sc->sampling;
	m->unplaced_samples = sc->unplaced_samples;
	m->hz = 100;
	free(map);
	return m;
}

static void check_report_size(const struct sidecar *sc, size_t input)
{
	struct callpath_model *m = model_of(sc);
	struct folded *calls = NULL, *time = NULL;
	size_t n_report, n_calls, n_time;
	FILE *out;

	out = count_stream(&n_report);
	fuzz_assert(out && callpath_report_print(out, m, "fuzz.callpath") == 0);
	fclose(out);
	fuzz_assert(folded_build(m, FOLDED_CALLS, &calls) == 0);
	fuzz_assert(folded_build(m, FOLDED_SAMPLES, &time) == 0);
	out = count_stream(&n_calls);
	fuzz_assert(out && folded_write(out, calls) == 0);
	fclose(out);
	out = count_stream(&n_time);
	fuzz_assert(out && folded_write(out, time) == 0);
	fclose(out);
	fuzz_assert(n_report + n_calls + n_time <= REPORT_K * input + REPORT_FIXED);
	folded_free(calls);
	folded_free(time);
	callpath_model_free(m);
}

/* The sidecar named through the program's symbols: each way of folding
 * keeps every count once, and the report prints. */
static void check_named(struct sidecar *sc)
{
	static const enum folded_value calls[] = { FOLDED_CALLS, FOLDED_CALLS_GPROF };
	struct callpath_model *m = fuzz_named_model(sc, program);
	struct folded *f = NULL;
	size_t n;
	FILE *out;

	for (size_t k = 0; k < sizeof(calls) / sizeof(calls[0]); k++) {
		fuzz_assert(folded_build(m, calls[k], &f) == 0);
		fuzz_assert(m->saturated || fuzz_folded_sum(f) == m->total);
		folded_free(f);
	}
	fuzz_assert(folded_build(m, FOLDED_SAMPLES, &f) == 0);
	fuzz_assert(m->saturated || fuzz_folded_sum(f) == m->total_samples);
	folded_free(f);
	fuzz_assert(folded_build(m, FOLDED_WEIGHTED, &f) == 0);
	folded_free(f);
	out = count_stream(&n);
	fuzz_assert(out && callpath_report_print(out, m, "fuzz.callpath") == 0);
	fclose(out);
	callpath_model_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sidecar *sc = NULL;
	char err[256];

	if (sidecar_decode(data, size, "fuzz.callpath", &sc, err, sizeof(err)) < 0)
		return 0;	/* fuzz_sidecar checks the reader */
	check_report_size(sc, size);
	check_named(sc);
	sidecar_free(sc);
	return 0;
}
