/*
 * measured.c - a run's functions and arcs from its call paths
 * (model/measured.h).
 */
#include "model/measured.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/leaves.h"
#include "model/callpath_model.h"
#include "format/sidecar.h"
#include "diff/match.h"
#include "diff/profile.h"
#include "utils/array.h"
#include "utils/error.h"
#include "utils/satmath.h"
#include "utils/strhash.h"
#include "utils/banned.h"

#define NONE UINT32_MAX

/* An index of a profile's symbols by printed name: the first of a name
 * (static functions sharing one are one name on the paths too). */
struct by_name {
	const struct profile *p;
	size_t *slots, nslots;
};

static const char *pname(const struct profile_sym *s)
{
	return s->print_name ? s->print_name : s->name;
}

static size_t sym_hash(const void *ctx, size_t i)
{
	return strhash(pname(&((const struct profile *)ctx)->syms[i]));
}

static int by_name_build(struct by_name *ix, const struct profile *p)
{
	memset(ix, 0, sizeof(*ix));
	ix->p = p;
	for (size_t i = 0; i < p->nsyms; i++) {
		const struct profile_sym *s = &p->syms[i];
		size_t j;

		if (s->flags & PSYM_CYCLE)
			continue;
		if (2 * (i + 1) > ix->nslots &&
		    array_index_grow(&ix->slots, &ix->nslots, i, sym_hash, p) < 0)
			return -1;
		for (j = strhash(pname(s)) & (ix->nslots - 1); ix->slots[j];
		     j = (j + 1) & (ix->nslots - 1))
			if (!strcmp(pname(&p->syms[ix->slots[j] - 1]), pname(s)))
				break;
		if (!ix->slots[j])
			ix->slots[j] = i + 1;
	}
	return 0;
}

/* Add symbol i of ix->p (the last one) to the index. */
static int by_name_add(struct by_name *ix, size_t i)
{
	size_t j;

	if (2 * (i + 1) > ix->nslots &&
	    array_index_grow(&ix->slots, &ix->nslots, i, sym_hash, ix->p) < 0)
		return -1;
	for (j = strhash(pname(&ix->p->syms[i])) & (ix->nslots - 1); ix->slots[j];
	     j = (j + 1) & (ix->nslots - 1))
		;
	ix->slots[j] = i + 1;
	return 0;
}

static long by_name_find(const struct by_name *ix, const char *name)
{
	if (!ix->nslots)
		return -1;
	for (size_t j = strhash(name) & (ix->nslots - 1); ix->slots[j];
	     j = (j + 1) & (ix->nslots - 1))
		if (!strcmp(pname(&ix->p->syms[ix->slots[j] - 1]), name))
			return (long)(ix->slots[j] - 1);
	return -1;
}

static size_t symname_hash(const void *ctx, size_t i)
{
	return strhash(((const struct profile *)ctx)->syms[i].name);
}

/* The function of symbol-table name or printed name `name` in p, or -1. */
static long gmon_function(const struct profile *p, const size_t *slots, size_t nslots,
			  const struct by_name *pix, const char *name)
{
	for (size_t j = strhash(name) & (nslots - 1); nslots && slots[j];
	     j = (j + 1) & (nslots - 1)) {
		const struct profile_sym *s = &p->syms[slots[j] - 1];

		if (!(s->flags & PSYM_CYCLE) && !strcmp(s->name, name))
			return (long)(slots[j] - 1);
	}
	return by_name_find(pix, name);
}

int measured_frame_functions(const struct callpath_model *m, const struct profile *gmon,
			     const char ***out)
{
	const char **fn = malloc(((size_t)m->nr_frames + 1) * sizeof(*fn));
	const char **memo = calloc((size_t)m->nr_names + 1, sizeof(*memo));
	size_t *slots = NULL, nslots = 0;
	struct by_name pix = { gmon, NULL, 0 };
	int ret = -1;

	*out = NULL;
	if (!fn || !memo || by_name_build(&pix, gmon) < 0)
		goto out;
	for (size_t i = 0; i < gmon->nsyms; i++) {
		size_t j;

		if (2 * (i + 1) > nslots &&
		    array_index_grow(&slots, &nslots, i, symname_hash, gmon) < 0)
			goto out;
		for (j = strhash(gmon->syms[i].name) & (nslots - 1); slots[j];
		     j = (j + 1) & (nslots - 1))
			;
		slots[j] = i + 1;
	}
	for (uint32_t i = 0; i < m->nr_frames; i++) {
		const struct callpath_frame *f = &m->frames[i];

		if (f->func == f->attributed) {
			fn[i] = m->names[f->attributed];
			continue;
		}
		/* gprof left the callee out of its table (report.h): its
		 * own symbol names it, a GCC clone's or an OpenMP region's
		 * base function where gmon has one */
		if (!memo[f->func]) {
			char base[1024];
			long b = match_clone_base(m->names[f->func], base, sizeof(base))
				 ? gmon_function(gmon, slots, nslots, &pix, base) : -1;

			memo[f->func] = b >= 0 ? pname(&gmon->syms[b]) : m->names[f->func];
		}
		fn[i] = memo[f->func];
	}
	*out = fn;
	fn = NULL;
	ret = 0;
out:
	free(fn);
	free(memo);
	free(slots);
	free(pix.slots);
	return ret < 0 ? error("out of memory while naming call paths") : 0;
}

/* The kind of a name the paths hold and gmon.out does not. */
static unsigned extra_kind(const struct callpath_model *m, const struct callpath_frame *f)
{
	switch (f->leaf ? (int)f->leaf - 1 : f->code ? (int)f->code - 1 : -1) {
	case LEAF_LIBRARY:
		return PSYM_LIBRARY;
	case LEAF_INSTRUMENTATION:
		return PSYM_INSTRUMENTATION;
	case LEAF_UNKNOWN:
		return PSYM_UNKNOWN;
	default:
		return !strcmp(m->names[f->func], "[unknown]") ? PSYM_UNKNOWN : 0;
	}
}

/* The flags of a symbol made for a name only the paths bring (frame f):
 * in both tables, of its kind, else one of the program's functions. */
static unsigned extra_flags(const struct callpath_model *m, const struct callpath_frame *f)
{
	unsigned k = extra_kind(m, f);

	return PSYM_IN_FLAT | PSYM_IN_GRAPH | (k ? k : PSYM_FUNC);
}

/* Copy s into the pool at *at; NULL stays NULL. */
static char *pool_copy(struct profile_pool *pool, const char *s)
{
	size_t n;
	char *out;

	if (!s)
		return NULL;
	n = strlen(s) + 1;
	out = pool->bytes + pool->used;
	memcpy(out, s, n);
	pool->used += n;
	return out;
}

static size_t len0(const char *s)
{
	return s ? strlen(s) + 1 : 0;
}

/*
 * The symbols: gmon's functions then the other functions the frames are
 * (fn[i], measured_frame_functions), their strings in one pool; sym_of[i]
 * for frame i.
 */
static int own_symbols(struct profile *out, const struct callpath_model *m,
		       const struct profile *gmon, const char *const *fn, uint32_t *sym_of)
{
	struct by_name ix;
	struct profile_pool *pool = NULL;
	size_t bytes = 0, first_extra;
	int ret = -1;

	if (by_name_build(&ix, gmon) < 0)
		goto out;
	for (size_t i = 0; i < gmon->nsyms; i++) {
		const struct profile_sym *s = &gmon->syms[i];

		if (!(s->flags & PSYM_CYCLE))
			bytes += len0(s->name) + len0(s->print_name) + len0(s->file) +
				 len0(s->unit);
	}
	for (uint32_t i = 0; i < m->nr_frames; i++)
		if (by_name_find(&ix, fn[i]) < 0)
			bytes += len0(fn[i]);	/* at most: a name is copied once */
	if (!(pool = profile_pool_new(bytes)) || profile_use_pool(out, pool) < 0 ||
	    profile_reserve(out, gmon->nsyms, 0) < 0)
		goto out;
	for (size_t i = 0; i < gmon->nsyms; i++) {
		const struct profile_sym *s = &gmon->syms[i];
		struct profile_sym y;

		if (s->flags & PSYM_CYCLE)
			continue;
		memset(&y, 0, sizeof(y));
		y.name = pool_copy(pool, s->name);
		y.print_name = pool_copy(pool, s->print_name);
		y.file = pool_copy(pool, s->file);
		y.unit = pool_copy(pool, s->unit);
		y.line = s->line;
		y.addr = s->addr;
		y.end_addr = s->end_addr;
		y.flags = s->flags & (PSYM_STATIC | PSYM_IN_FLAT | PSYM_IN_GRAPH | PSYM_FUNC);
		/* gmon.out without a call graph (sampled paths of a build without
		 * -pg): gprof selected nothing for a graph it never built; the
		 * paths' graph takes the flat profile's selection */
		if (!(gmon->input & PROFILE_HAS_CG) && (s->flags & PSYM_IN_FLAT))
			y.flags |= PSYM_IN_GRAPH;
		if (profile_add_sym(out, &y) < 0)
			goto out;
	}
	/* the index points at out's symbols from now on; new names join it */
	free(ix.slots);
	if (by_name_build(&ix, out) < 0)
		goto out;
	first_extra = out->nsyms;
	for (uint32_t i = 0; i < m->nr_frames; i++) {
		long at = by_name_find(&ix, fn[i]);

		/*
		 * A name the paths brought takes its kind from any of its
		 * frames that knows it (a leaf, or a sampled frame of a
		 * library's code): a library function of sampled paths first
		 * met as a frame of no kind was read as one of the program's
		 * functions (its speed, noise and moves the program's).
		 */
		if (at >= 0 && (size_t)at >= first_extra &&
		    !(out->syms[at].flags & PSYM_KINDS)) {
			unsigned k = extra_kind(m, &m->frames[i]);

			if (k)
				out->syms[at].flags = (out->syms[at].flags & ~PSYM_FUNC) | k;
		}
		if (at < 0) {
			struct profile_sym y;

			memset(&y, 0, sizeof(y));
			y.name = y.print_name = pool_copy(pool, fn[i]);
			y.flags = extra_flags(m, &m->frames[i]);
			/* indexed: the next frame of this name finds it */
			if ((at = profile_add_sym(out, &y)) < 0 || by_name_add(&ix, (size_t)at) < 0)
				goto out;
		}
		sym_of[i] = (uint32_t)at;
	}
	ret = 0;
out:
	profile_pool_release(pool);	/* out holds its own reference */
	free(ix.slots);
	return ret;
}

/* like's symbols, sharing its strings; sym_of[i] as above. */
static int like_symbols(struct profile *out, const struct callpath_model *m,
			const struct profile *like, const char *const *fn, uint32_t *sym_of)
{
	struct by_name ix;
	int ret = -1;

	for (size_t k = 0; k < PROFILE_MAX_POOLS; k++)
		if (like->pools[k] && profile_use_pool(out, like->pools[k]) < 0)
			return -1;
	memset(&ix, 0, sizeof(ix));
	if (profile_reserve(out, like->nsyms, 0) < 0)
		goto out;
	for (size_t i = 0; i < like->nsyms; i++) {
		struct profile_sym y = like->syms[i];

		y.self_ticks = y.prop_self = y.prop_child = y.child_ticks = 0;
		y.ncalls = y.self_calls = 0;
		if (profile_add_sym(out, &y) < 0)
			goto out;
	}
	/* over out's symbols: a name like lacks joins it */
	if (by_name_build(&ix, out) < 0)
		goto out;
	for (uint32_t i = 0; i < m->nr_frames; i++) {
		long at = by_name_find(&ix, fn[i]);

		/*
		 * A name like lacks (files that are not one run's: a library,
		 * or the instrumentation, sampled in this one only): after
		 * like's symbols, as own_symbols adds the names the paths bring.
		 */
		if (at < 0 &&
		    ((at = profile_add_named_sym(out, fn[i], NULL, extra_flags(m, &m->frames[i]))) < 0 ||
		     by_name_add(&ix, (size_t)at) < 0))
			goto out;
		sym_of[i] = (uint32_t)at;
	}
	ret = 0;
out:
	free(ix.slots);
	return ret;
}

/* The children of each frame as one array: kids[first[i + 1]..first[i + 2])
 * for frame i, kids[first[0]..first[1]) for the top level. */
static int children(const struct callpath_model *m, uint32_t **firstp, uint32_t **kidsp)
{
	uint32_t n = m->nr_frames;
	uint32_t *first = calloc((size_t)n + 2, sizeof(*first));
	uint32_t *kids = malloc(((size_t)n + 1) * sizeof(*kids));

	*firstp = first;
	*kidsp = kids;
	if (!first || !kids)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = m->frames[i].parent;

		first[(p == CALLPATH_NONE ? 0 : p + 1) + 1]++;
	}
	for (uint32_t s = 1; s <= n + 1; s++)
		first[s] += first[s - 1];
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = m->frames[i].parent;

		kids[first[p == CALLPATH_NONE ? 0 : p + 1]++] = i;
	}
	for (uint32_t s = n + 1; s > 0; s--)
		first[s] = first[s - 1];
	first[0] = 0;
	return 0;
}

/*
 * Depth first: outer[i] when no frame above frame i is attributed to the
 * same function; own[i], of an outermost frame, the samples of its
 * function in its subtree (its own frames below it, a recursion's).
 */
static int outermost(const struct callpath_model *m, const uint32_t *sym_of, size_t nsyms,
		     unsigned char *outer, uint64_t *own)
{
	uint32_t n = m->nr_frames, sp = 0, *first = NULL, *kids = NULL;
	uint32_t *active = malloc((nsyms + 1) * sizeof(*active));
	uint32_t *stack = malloc(((size_t)n + 1) * sizeof(*stack));
	unsigned char *entered = calloc((size_t)n + 1, 1);
	int ret = -1;

	if (!active || !stack || !entered || children(m, &first, &kids) < 0)
		goto out;
	for (size_t k = 0; k < nsyms; k++)
		active[k] = NONE;
	for (uint32_t k = first[1]; k > first[0]; k--)
		stack[sp++] = kids[k - 1];
	while (sp) {
		uint32_t i = stack[sp - 1], a = sym_of[i];

		if (entered[i]) {
			if (outer[i])
				active[a] = NONE;
			sp--;
			continue;
		}
		entered[i] = 1;
		outer[i] = active[a] == NONE;
		own[i] = 0;
		if (outer[i])
			active[a] = i;
		own[active[a]] = sat_add_u64(own[active[a]], m->frames[i].samples);
		for (uint32_t k = first[i + 2]; k > first[i + 1]; k--)
			stack[sp++] = kids[k - 1];
	}
	ret = 0;
out:
	free(active);
	free(stack);
	free(entered);
	free(first);
	free(kids);
	return ret;
}

/* The arc parent -> child of out, added when missing (index by pair). */
struct arc_index {
	size_t *slots, nslots;
};

static size_t pair_hash(uint32_t p, uint32_t c)
{
	uint64_t h = ((uint64_t)p << 32 | c) * 0x9E3779B97F4A7C15ull;

	return (size_t)(h >> 17);
}

static size_t arc_hash_of(const void *ctx, size_t i)
{
	const struct profile_arc *a = &((const struct profile *)ctx)->arcs[i];

	return pair_hash(a->parent, a->child);
}

static struct profile_arc *arc_of(struct profile *p, struct arc_index *ix, uint32_t parent,
				  uint32_t child)
{
	size_t j;

	if (2 * (p->narcs + 1) > ix->nslots &&
	    array_index_grow(&ix->slots, &ix->nslots, p->narcs, arc_hash_of, p) < 0)
		return NULL;
	for (j = pair_hash(parent, child) & (ix->nslots - 1); ix->slots[j];
	     j = (j + 1) & (ix->nslots - 1)) {
		struct profile_arc *a = &p->arcs[ix->slots[j] - 1];

		if (a->parent == parent && a->child == child)
			return a;
	}
	if (profile_add_arc(p, &(struct profile_arc){ parent, child, 0, 0, 0 }) < 0)
		return NULL;
	ix->slots[j] = p->narcs;
	return &p->arcs[p->narcs - 1];
}

static int numbers(struct profile *out, const struct callpath_model *m, const uint32_t *sym_of)
{
	uint32_t n = m->nr_frames;
	unsigned char *outer = calloc((size_t)n + 1, 1);
	uint64_t *own = calloc((size_t)n + 1, sizeof(*own));
	uint64_t *incl = malloc(((size_t)n + 1) * sizeof(*incl));
	double *total = calloc(out->nsyms + 1, sizeof(*total));
	struct arc_index ix = { NULL, 0 };
	int ret = -1;

	if (!outer || !own || !incl || !total ||
	    outermost(m, sym_of, out->nsyms, outer, own) < 0)
		goto out;
	callpath_model_inclusive(m, incl);
	for (uint32_t i = 0; i < n; i++) {
		const struct callpath_frame *f = &m->frames[i];
		uint32_t c = sym_of[i];
		struct profile_sym *s = &out->syms[c];

		s->self_ticks += (double)f->samples;
		if (outer[i])
			total[c] += (double)incl[i];
		if (f->folded) {
			/* recursion folded into its parent: the function's own */
			s->self_calls = sat_add_u64(s->self_calls, f->recursive);
			continue;
		}
		if (f->parent == CALLPATH_NONE) {
			/* called from outside the program (main, a thread) */
			s->ncalls = sat_add_u64(s->ncalls, f->count);
			continue;
		}
		{
			uint32_t p = sym_of[f->parent];
			struct profile_arc *a;

			if (p == c) {
				s->self_calls = sat_add_u64(s->self_calls, f->count);
				continue;
			}
			s->ncalls = sat_add_u64(s->ncalls, f->count);
			if (!(a = arc_of(out, &ix, p, c)))
				goto out;
			a->count = sat_add_u64(a->count, f->count);
			if (outer[i]) {
				a->time += (double)own[i];
				a->child_time += (double)incl[i] - (double)own[i];
			}
		}
	}
	for (size_t k = 0; k < out->nsyms; k++) {
		struct profile_sym *s = &out->syms[k];

		s->prop_self = s->self_ticks;
		s->prop_child = s->child_ticks = total[k] > s->self_ticks ? total[k] - s->self_ticks
									  : 0;
		out->total_ticks += s->self_ticks;
	}
	out->print_ticks = out->total_ticks;
	ret = 0;
out:
	free(outer);
	free(own);
	free(incl);
	free(total);
	free(ix.slots);
	return ret;
}

/* The profile's head: the gmon profile's files and names, the model's rate
 * and what its numbers are. */
static int head(struct profile *out, const struct callpath_model *m, const struct profile *gmon)
{
	out->rank = gmon->rank;
	out->hz = m->hz;
	if ((gmon->binary && !(out->binary = strdup(gmon->binary))) ||
	    (gmon->label && !(out->label = strdup(gmon->label))))
		return -1;
	for (size_t i = 0; i < gmon->ngmon; i++)
		if (profile_add_gmon_file(out, gmon->gmon_files[i]) < 0)
			return -1;
	out->input = PROFILE_HAS_CG;
	if (m->sampling & SIDECAR_SAMPLING_SELF)
		out->input |= PROFILE_HAS_HIST;
	out->measure.source = PROFILE_FROM_SIDECARS;
	/* sampled paths of a build without -pg: no call was counted */
	out->measure.calls_unmeasured = m->calls_unmeasured;
	out->measure.per_thread = !m->metric.name[0];
	snprintf(out->measure.metric, sizeof(out->measure.metric), "%s", m->metric.name);
	snprintf(out->measure.unit, sizeof(out->measure.unit), "%s",
		 m->metric.name[0] ? (m->metric.unit[0] ? m->metric.unit : "events") : "");
	/* a timer signal may stand for several periods (sidecar.h) */
	out->measure.weight = m->time_taken && !m->metric.name[0]
		? (double)(m->total_samples + m->unplaced_samples) / (double)m->time_taken : 1.0;
	return 0;
}

int measured_profile(const struct callpath_model *m, const struct profile *gmon,
		     const struct profile *like, struct profile **out)
{
	struct profile *p = profile_new();
	uint32_t *sym_of = malloc(((size_t)m->nr_frames + 1) * sizeof(*sym_of));
	const char **fn = NULL;
	int bad = 0;

	*out = NULL;
	if (measured_frame_functions(m, gmon, &fn) < 0) {
		free(sym_of);
		profile_free(p);
		return -1;
	}
	if (!p || !sym_of || head(p, m, gmon) < 0)
		bad = -1;
	else
		bad = like ? like_symbols(p, m, like, fn, sym_of) : own_symbols(p, m, gmon, fn, sym_of);
	if (!bad && numbers(p, m, sym_of) < 0)
		bad = -1;
	free(sym_of);
	free(fn);
	if (bad) {
		profile_free(p);
		return error("out of memory while measuring functions from call paths");
	}
	*out = p;
	return 0;
}
