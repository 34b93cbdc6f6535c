/*
 * arcs.c - measured time per arc (caller function -> callee function).
 */
#define _GNU_SOURCE /* qsort_r */
#include "model/arcs.h"

#include <stdlib.h>
#include <string.h>

#include "model/callpath_model.h"
#include "format/sidecar.h"
#include "utils/error.h"
#include "utils/satmath.h"
#include "utils/banned.h"

/*
 * outer[i]: frame i is its function's outermost frame on its path (no
 * ancestor calls the same function).  Depth-first over children lists with
 * a per-function count of the frames on the current path: O(frames).
 */
static int outermost_frames(const struct callpath_model *m, unsigned char *outer)
{
	uint32_t n = m->nr_frames, sp = 0;
	uint32_t *first = calloc((size_t)n + 2, sizeof(*first));
	uint32_t *kids = malloc(((size_t)n + 1) * sizeof(*kids));
	uint32_t *fill = calloc((size_t)n + 2, sizeof(*fill));
	uint32_t *on_path = calloc((size_t)m->nr_names + 1, sizeof(*on_path));
	uint32_t *stack = malloc(((size_t)n + 1) * sizeof(*stack));
	unsigned char *entered = calloc((size_t)n + 1, 1);
	int ret = -1;

	if (!first || !kids || !fill || !on_path || !stack || !entered)
		goto out;
	/* slot 0: the root's children; slot i + 1: frame i's */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = m->frames[i].parent;

		first[(p == CALLPATH_NONE ? 0 : p + 1) + 1]++;
	}
	for (uint32_t s = 1; s <= n + 1; s++)
		first[s] += first[s - 1];
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = m->frames[i].parent;
		uint32_t slot = p == CALLPATH_NONE ? 0 : p + 1;

		kids[first[slot] + fill[slot]++] = i;
	}
	for (uint32_t k = first[0]; k < first[1]; k++)
		stack[sp++] = kids[k];
	/* a frame is on the stack until its children are done: entered, left */
	while (sp) {
		uint32_t i = stack[sp - 1], fn = m->frames[i].func;

		if (entered[i]) {
			on_path[fn]--;
			sp--;
			continue;
		}
		entered[i] = 1;
		outer[i] = on_path[fn] == 0;
		on_path[fn]++;
		for (uint32_t k = first[i + 1]; k < first[i + 2]; k++)
			stack[sp++] = kids[k];
	}
	ret = 0;
out:
	free(first);
	free(kids);
	free(fill);
	free(on_path);
	free(stack);
	free(entered);
	return ret;
}

struct raw_arc {
	uint32_t callee, caller;	/* name indices */
	uint64_t calls, samples;
};

static int cmp_raw(const void *pa, const void *pb, void *ctx)
{
	const struct raw_arc *a = pa, *b = pb;
	const struct callpath_model *m = ctx;
	int c = strcmp(m->names[a->callee], m->names[b->callee]);

	return c ? c : strcmp(m->names[a->caller], m->names[b->caller]);
}

static int cmp_arc(const void *pa, const void *pb)
{
	const struct callpath_arc *a = pa, *b = pb;
	int c = strcmp(a->callee, b->callee);

	return c ? c : strcmp(a->caller, b->caller);
}

int callpath_arcs_build(const struct callpath_model *m, struct callpath_arcs **out)
{
	uint32_t n = m->nr_frames;
	struct callpath_arcs *a = calloc(1, sizeof(*a));
	struct raw_arc *raw = malloc(((size_t)n + 1) * sizeof(*raw));
	unsigned char *outer = calloc((size_t)n + 1, 1);
	uint64_t *incl = malloc(((size_t)n + 1) * sizeof(*incl));
	size_t nr = 0;

	*out = NULL;
	if (!a || !raw || !outer || !incl || outermost_frames(m, outer) < 0)
		goto oom;
	a->hz = m->hz;
	a->timed = (m->sampling & SIDECAR_SAMPLING_SELF) && m->total_samples;
	callpath_model_inclusive(m, incl);
	for (uint32_t i = 0; i < n; i++) {
		const struct callpath_frame *f = &m->frames[i];
		uint32_t caller;

		if (f->parent == CALLPATH_NONE || f->folded)
			continue;
		caller = m->frames[f->parent].func;
		if (caller == f->func)
			continue;
		raw[nr++] = (struct raw_arc){ f->func, caller, f->count,
					      outer[i] ? incl[i] : 0 };
	}
	qsort_r(raw, nr, sizeof(*raw), cmp_raw, (void *)m);
	a->arcs = calloc(nr + 1, sizeof(*a->arcs));
	if (!a->arcs)
		goto oom;
	for (size_t r = 0; r < nr; r++) {
		struct callpath_arc *last = a->nr ? &a->arcs[a->nr - 1] : NULL;

		if (last && !strcmp(last->callee, m->names[raw[r].callee]) &&
		    !strcmp(last->caller, m->names[raw[r].caller])) {
			last->calls = sat_add_u64(last->calls, raw[r].calls);
			last->samples = sat_add_u64(last->samples, raw[r].samples);
			continue;
		}
		last = &a->arcs[a->nr];
		last->callee = strdup(m->names[raw[r].callee]);
		last->caller = strdup(m->names[raw[r].caller]);
		a->nr++;
		if (!last->callee || !last->caller)
			goto oom;
		last->calls = raw[r].calls;
		last->samples = raw[r].samples;
	}
	/* the callee's totals over its arcs (they are adjacent) */
	for (size_t lo = 0, hi; lo < a->nr; lo = hi) {
		uint64_t calls = 0, samples = 0;

		for (hi = lo; hi < a->nr && !strcmp(a->arcs[hi].callee, a->arcs[lo].callee); hi++) {
			calls = sat_add_u64(calls, a->arcs[hi].calls);
			samples = sat_add_u64(samples, a->arcs[hi].samples);
		}
		for (size_t k = lo; k < hi; k++) {
			a->arcs[k].callee_calls = calls;
			a->arcs[k].callee_samples = samples;
		}
	}
	free(raw);
	free(outer);
	free(incl);
	*out = a;
	return 0;
oom:
	free(raw);
	free(outer);
	free(incl);
	callpath_arcs_free(a);
	return error("out of memory while measuring time per arc");
}

void callpath_arcs_free(struct callpath_arcs *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nr; i++) {
		free(a->arcs[i].caller);
		free(a->arcs[i].callee);
	}
	free(a->arcs);
	free(a);
}

const struct callpath_arc *callpath_arcs_find(const struct callpath_arcs *a,
					      const char *caller, const char *callee)
{
	struct callpath_arc key = { (char *)caller, (char *)callee, 0, 0, 0, 0 };

	return a->nr ? bsearch(&key, a->arcs, a->nr, sizeof(*a->arcs), cmp_arc) : NULL;
}
