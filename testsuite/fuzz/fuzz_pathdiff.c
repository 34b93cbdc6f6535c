/*
 * The path diff (callpath/pathdiff.c) on what a sidecar makes: the input
 * decoded, named as the reports name it (named_model.h) and as raw
 * addresses (no two nodes one frame), and each side's folded stacks
 * diffed against the other's, and a model's calls against its samples
 * (two columns of one tree, whatever their sizes: counts up to 2^64 - 1,
 * where A - B as int64_t was undefined).  Every table is printed: the
 * calls table (its comparators order rows by |A - B|), the time table and
 * its verdicts, the two-column folded file.  Properties: the rows are the
 * union of both sides' stacks, in strcmp order, each with its side's
 * number (0 where it has none); the totals are the sides' saturated sums;
 * `changed` counts the rows whose numbers differ; each table is written
 * whole.  Runs under UBSan with -fno-sanitize-recover: any undefined
 * arithmetic is a finding.  Mutations as fuzz_reports'.
 */
#define _GNU_SOURCE /* fopencookie */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "callpath/folded.h"
#include "callpath/pathdiff.h"
#include "model/callpath_model.h"
#include "format/sidecar.h"
#include "testsuite/fuzz/count_stream.h"
#include "testsuite/fuzz/fuzz.h"
#include "testsuite/fuzz/named_model.h"
#include "testsuite/fuzz/sidecar_mutate.h"
#include "utils/satmath.h"

static struct profile *program;

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

/* The sidecar's nodes as raw addresses: every node its own frame. */
static struct callpath_model *raw_model(const struct sidecar *sc)
{
	struct callpath_model *m = callpath_model_new();
	uint32_t *map = malloc(((size_t)sc->nr_nodes + 1) * sizeof(*map));

	fuzz_assert(m && map);
	for (uint32_t i = 0; i < sc->nr_nodes; i++) {
		const struct sidecar_node *n = &sc->nodes[i];
		uint32_t parent = n->parent == SIDECAR_ROOT ? CALLPATH_NONE : map[n->parent];
		char fn[32], site[32];
		uint32_t f, s;
		int folded = (n->flags & SIDECAR_NODE_FOLDED) != 0;

		snprintf(fn, sizeof(fn), "f%" PRIx64, n->callee);
		snprintf(site, sizeof(site), "s%" PRIx64, n->call_site);
		f = callpath_model_intern(m, fn);
		s = callpath_model_intern(m, site);
		fuzz_assert(f != CALLPATH_NONE && s != CALLPATH_NONE);
		fuzz_assert(callpath_model_add_kind(m, parent, f, s, folded, n->count, &map[i]) == 0);
		callpath_model_add_samples(m, map[i], n->self_samples);
		m->frames[map[i]].attributed = f;
		if (folded) {
			snprintf(fn, sizeof(fn), "f%" PRIx64, n->call_site);
			m->frames[map[i]].recursive = sat_add_u64(m->frames[map[i]].recursive,
								  n->recursive);
			m->frames[map[i]].caller = callpath_model_intern(m, fn);
			fuzz_assert(m->frames[map[i]].caller != CALLPATH_NONE);
		}
	}
	m->sampling = sc->sampling;
	m->hz = 100;
	free(map);
	return m;
}

/* d is a's and b's stacks merged: check it, then print every table. */
static void check_diff(const struct folded *a, const struct folded *b)
{
	struct pathdiff_time_opts to = { 100, 1000, 2.0, 0, NULL };
	struct pathdiff *d = NULL;
	unsigned char *verdicts;
	size_t i = 0, j = 0, changed = 0, n;
	FILE *out;

	fuzz_assert(pathdiff_compute(a, b, &d) == 0);
	for (size_t r = 0; r < d->nr; r++) {
		const struct pathdiff_row *row = &d->rows[r];
		int in_a = i < a->nr && !strcmp(a->stacks[i].stack, row->stack);
		int in_b = j < b->nr && !strcmp(b->stacks[j].stack, row->stack);

		fuzz_assert(in_a || in_b);
		fuzz_assert(r == 0 || strcmp(d->rows[r - 1].stack, row->stack) < 0);
		fuzz_assert(row->a == (in_a ? a->stacks[i].count : 0));
		fuzz_assert(row->b == (in_b ? b->stacks[j].count : 0));
		i += in_a;
		j += in_b;
		changed += row->a != row->b;
	}
	fuzz_assert(i == a->nr && j == b->nr);
	fuzz_assert(d->changed == changed);
	fuzz_assert(d->total_a == fuzz_folded_sum(a) && d->total_b == fuzz_folded_sum(b));
	out = count_stream(&n);
	fuzz_assert(out && pathdiff_print(out, d, "A", "B", 2.0) == 0);
	fclose(out);
	out = count_stream(&n);
	fuzz_assert(out && pathdiff_print_time(out, d, "A", "B", &to) == 0);
	fclose(out);
	to.metric = "perf::PAGE-FAULTS";
	out = count_stream(&n);
	fuzz_assert(out && pathdiff_print_time(out, d, "A", "B", &to) == 0);
	fclose(out);
	verdicts = malloc(d->nr + 1);
	fuzz_assert(verdicts && pathdiff_time_verdicts(d, &to, verdicts) == 0);
	free(verdicts);
	out = count_stream(&n);
	fuzz_assert(out && folded_write_diff(out, d) == 0);
	fclose(out);
	pathdiff_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sidecar *sc = NULL;
	struct callpath_model *m[2];
	struct folded *calls[2], *samples[2];
	char err[256];

	if (sidecar_decode(data, size, "fuzz.callpath", &sc, err, sizeof(err)) < 0)
		return 0;	/* fuzz_sidecar checks the reader */
	m[0] = raw_model(sc);
	m[1] = fuzz_named_model(sc, program);
	for (int k = 0; k < 2; k++) {
		fuzz_assert(folded_build(m[k], FOLDED_CALLS_GPROF, &calls[k]) == 0);
		fuzz_assert(folded_build(m[k], FOLDED_SAMPLES, &samples[k]) == 0);
	}
	check_diff(calls[0], calls[1]);
	check_diff(calls[1], calls[0]);
	check_diff(calls[1], samples[1]);
	check_diff(samples[0], calls[0]);
	for (int k = 0; k < 2; k++) {
		folded_free(calls[k]);
		folded_free(samples[k]);
		callpath_model_free(m[k]);
	}
	sidecar_free(sc);
	return 0;
}
