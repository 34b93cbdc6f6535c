/*
 * Profiles, call paths and diffs as pprof profiles (pprof_export.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "export/pprof_export.h"
#include "format/buildid.h"
#include "model/callpath_model.h"
#include "format/sidecar.h"
#include "diff/diff.h"
#include "diff/profile.h"
#include "utils/array.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/banned.h"

/* The label pprof -diff_base puts on the baseline's (negated) samples. */
#define BASE_LABEL "pprof::base"

/* ------------------------------------------------------------------------ */
/* One binary: its mapping, and its symbols by printed name                  */

struct binary {
	const struct profile *p;
	uint64_t mapping;
	size_t *slots, nslots;   /* print name -> syms[] index + 1 */
};

static const char *print_name(const struct profile_sym *s)
{
	return s->print_name ? s->print_name : s->name;
}

static size_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (size_t)h;
}

static size_t sym_hash_of(const void *ctx, size_t i)
{
	return name_hash(print_name(&((const struct profile *)ctx)->syms[i]));
}

/* The mapping of p's binary (its text as the symbols span it, build id in
 * hex as pprof prints it) and an index of its functions by name. */
static int binary_init(struct binary *b, struct pprof *pp, const struct profile *p)
{
	unsigned char id[64];
	char hex[2 * sizeof(id) + 1] = "";
	uint64_t lo = UINT64_MAX, hi = 0;
	int n, files = 0, lines = 0;
	size_t i, j;

	memset(b, 0, sizeof(*b));
	b->p = p;
	n = p->binary ? elf_build_id(p->binary, id, sizeof(id)) : 0;
	for (int k = 0; k < n; k++)
		snprintf(hex + 2 * k, 3, "%02x", id[k]);
	for (i = 0; i < p->nsyms; i++) {
		const struct profile_sym *s = &p->syms[i];

		if (s->flags & PSYM_CYCLE)
			continue;
		lo = s->addr < lo ? s->addr : lo;
		hi = s->end_addr > hi ? s->end_addr : hi;
		files |= s->file != NULL;
		lines |= s->line > 0;
		/* the first symbol of a name wins (statics sharing one) */
		if (2 * (i + 1) > b->nslots &&
		    array_index_grow(&b->slots, &b->nslots, i, sym_hash_of, p) < 0)
			return error("out of memory");
		for (j = sym_hash_of(p, i) & (b->nslots - 1); b->slots[j];
		     j = (j + 1) & (b->nslots - 1))
			if (!strcmp(print_name(&p->syms[b->slots[j] - 1]), print_name(s)))
				break;
		if (!b->slots[j])
			b->slots[j] = i + 1;
	}
	b->mapping = pprof_mapping(pp, lo == UINT64_MAX ? 0 : lo, hi, p->binary, hex, files,
				   lines);
	return 0;
}

static void binary_release(struct binary *b)
{
	free(b->slots);
	b->slots = NULL;
}

/* p's symbol of this printed name, -1 when none. */
static long binary_find(const struct binary *b, const char *name)
{
	size_t j;

	if (!b->nslots)
		return -1;
	/* the index holds symbols as they were added: non-cycle ones only */
	for (j = name_hash(name) & (b->nslots - 1); b->slots[j]; j = (j + 1) & (b->nslots - 1))
		if (!strcmp(print_name(&b->p->syms[b->slots[j] - 1]), name))
			return (long)(b->slots[j] - 1);
	return -1;
}

/* A function's location: at its first address, on the line debug info
 * gives for it.  `name` overrides the symbol's printed name (a diff's). */
static uint64_t sym_location(struct pprof *pp, const struct binary *b, long sym,
			     const char *name)
{
	const struct profile_sym *s = sym >= 0 ? &b->p->syms[sym] : NULL;
	uint64_t fn;

	if (!s)
		return pprof_location(pp, b->mapping, 0,
				      pprof_function(pp, name, name, NULL, 0), 0);
	fn = pprof_function(pp, name ? name : print_name(s), s->name, s->file, s->line);
	return pprof_location(pp, b->mapping, s->addr, fn, s->line);
}

static int64_t nanoseconds(double seconds)
{
	return (int64_t)llround(seconds * 1e9);
}

/* ------------------------------------------------------------------------ */
/* From gmon.out: function-level samples, arcs as two-frame stacks          */

/*
 * The type a viewer shows first is the last one: profile.proto's
 * default_sample_type is left out, since pprof reads it as a string and
 * speedscope as an index, and both show the last type without it.
 */
enum { T_SAMPLES, T_CALLS, T_CPU };

static void flat_types(struct pprof *pp, double hz)
{
	pprof_sample_type(pp, "samples", "count");
	pprof_sample_type(pp, "calls", "count");
	pprof_sample_type(pp, "cpu", "nanoseconds");
	if (hz > 0)
		pprof_period(pp, "cpu", "nanoseconds", (int64_t)llround(1e9 / hz));
}

/* One side of a profile's flat samples and arcs, times sign. */
static void add_profile(struct pprof *pp, const struct binary *b, const char *in, int sign,
			const char *label, int calls_only, int time_only)
{
	const struct profile *p = b->p;
	size_t i;

	for (i = 0; i < p->nsyms && !calls_only; i++) {
		const struct profile_sym *s = &p->syms[i];
		int64_t v[3] = { 0, 0, 0 };
		uint64_t loc;

		if ((s->flags & PSYM_CYCLE) || (in && !in[i]) || s->self_ticks == 0)
			continue;
		loc = sym_location(pp, b, (long)i, NULL);
		v[T_CPU] = sign * nanoseconds(profile_seconds(p, s->self_ticks));
		v[T_SAMPLES] = sign * (int64_t)llround(s->self_ticks);
		pprof_sample(pp, &loc, 1, v, label ? BASE_LABEL : NULL, label);
	}
	for (i = 0; i < p->narcs && !time_only; i++) {
		const struct profile_arc *a = &p->arcs[i];
		int64_t v[3] = { 0, 0, 0 };
		uint64_t locs[2];

		if (in && (!in[a->parent] || !in[a->child]))
			continue;
		locs[0] = sym_location(pp, b, (long)a->child, NULL);
		locs[1] = sym_location(pp, b, (long)a->parent, NULL);
		v[T_CALLS] = sign * (int64_t)a->count;
		pprof_sample(pp, locs, 2, v, label ? BASE_LABEL : NULL, label);
	}
}

static void comment_source(struct pprof *pp, const struct profile *p, const char *what)
{
	char buf[4200];

	snprintf(buf, sizeof(buf), "egprof %s: %s%s%s: %s", EGPROF_VERSION,
		 p->binary ? p->binary : "?", p->ngmon ? " " : "",
		 p->ngmon ? p->gmon_files[0] : "", what);
	pprof_comment(pp, buf);
}

int pprof_from_profile(const struct profile *p, const char *in, struct pprof **out)
{
	struct pprof *pp = pprof_new();
	struct binary b;

	*out = NULL;
	if (!pp)
		return error("out of memory");
	if (binary_init(&b, pp, p) < 0) {
		pprof_free(pp);
		return -1;
	}
	flat_types(pp, p->hz);
	comment_source(pp, p, "gmon.out's histogram and call graph (arcs as two-frame stacks)");
	add_profile(pp, &b, in, 1, NULL, 0, 0);
	binary_release(&b);
	*out = pp;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* From call paths                                                           */

static int64_t frame_cpu(const struct callpath_model *m, uint32_t i)
{
	return m->hz > 0 ? nanoseconds((double)m->frames[i].samples / m->hz) : 0;
}

/* --metric: the events (overflows over the model's rate, 1/period) */
static int64_t frame_events(const struct callpath_model *m, uint32_t i)
{
	return m->hz > 0 ? (int64_t)llround((double)m->frames[i].samples / m->hz) : 0;
}

static int64_t frame_samples(const struct callpath_model *m, uint32_t i)
{
	return (int64_t)m->frames[i].samples;
}

static int64_t frame_calls(const struct callpath_model *m, uint32_t i)
{
	const struct callpath_frame *f = &m->frames[i];

	return (int64_t)(f->folded ? f->recursive : f->count);
}

/*
 * The model's metrics, the one shown first (time) last.  A new metric of
 * the sidecar is one row here (the model's own list of metrics, once it
 * carries more than samples and calls): the profile's sample types come
 * from this list.
 */
size_t pprof_metrics(const struct callpath_model *m, struct pprof_metric *out, size_t max)
{
	size_t n = 0;
	int timed = (m->sampling & SIDECAR_SAMPLING_SELF) != 0;

	if (timed && n < max)
		out[n++] = (struct pprof_metric){ "samples", "count", frame_samples };
	/* sampled paths counted no call: no such sample type */
	if (!m->calls_unmeasured && n < max)
		out[n++] = (struct pprof_metric){ "calls", "count", frame_calls };
	if (timed && n < max)
		out[n++] = m->metric.name[0]
			? (struct pprof_metric){ m->metric.name, m->metric.unit, frame_events }
			: (struct pprof_metric){ "cpu", "nanoseconds", frame_cpu };
	return n;
}

static int timed(const struct callpath_model *m)
{
	return (m->sampling & SIDECAR_SAMPLING_SELF) != 0;
}

/*
 * The profile's sample types for call paths: the model's metrics, or,
 * when a model has no time of its own (has_time 0), gmon.out's cpu and
 * samples and the paths' calls.  names[] gets each column's type.
 */
static int callpath_types(struct pprof *pp, const struct callpath_model *m, int has_time,
			  double hz, const char **names)
{
	struct pprof_metric met[PPROF_MAX_METRICS];
	size_t n, k;

	if (!has_time) {
		flat_types(pp, hz);
		names[T_CPU] = "cpu";
		names[T_SAMPLES] = "samples";
		names[T_CALLS] = "calls";
		return 3;
	}
	n = pprof_metrics(m, met, PPROF_MAX_METRICS);
	for (k = 0; k < n; k++) {
		pprof_sample_type(pp, met[k].type, met[k].unit);
		names[k] = met[k].type;
	}
	/* --metric: a sample is `period` events of the metric (metric.h) */
	if (m->metric.name[0])
		pprof_period(pp, m->metric.name, m->metric.unit,
			     (int64_t)(m->metric.period ? m->metric.period : 1));
	else if (m->hz > 0)
		pprof_period(pp, "cpu", "nanoseconds", (int64_t)llround(1e9 / m->hz));
	return (int)n;
}

/*
 * Every frame of m as a sample of its path, times sign: the value of each
 * of the profile's columns (names[0..ncols)) is m's metric of that type,
 * 0 when m has none (a model without time, whose time comes from
 * gmon.out in one-frame samples of its own).  paths_time 0: the time comes
 * from gmon.out even where m has some (the other side of a diff has
 * none), so only m's calls are taken.
 *
 * Linear in the model at any depth: a frame is one stack of the builder
 * (pprof_stack), its caller's stack and its function's location, which is
 * made once per function; the paths are walked out as the file is written.
 */
static int add_callpath(struct pprof *pp, const struct binary *b,
			const struct callpath_model *m, const char *const *names, int ncols,
			int paths_time, int sign, const char *label)
{
	struct pprof_metric met[PPROF_MAX_METRICS];
	int col[PPROF_MAX_METRICS];
	size_t nmet = pprof_metrics(m, met, PPROF_MAX_METRICS), use = 0, k;
	uint64_t *stack = malloc(((size_t)m->nr_frames + 1) * sizeof(*stack));
	uint64_t *loc = calloc((size_t)m->nr_names + 1, sizeof(*loc));
	uint32_t i;
	int ret = -1;

	for (k = 0; k < nmet; k++)
		for (int c = 0; c < ncols; c++)
			if (!strcmp(met[k].type, names[c]) &&
			    (paths_time || !strcmp(met[k].type, "calls"))) {
				met[use] = met[k];
				col[use++] = c;
				break;
			}
	if (!stack || !loc)
		goto out;
	/* parents come before their children (report.h) */
	for (i = 0; i < m->nr_frames; i++) {
		const struct callpath_frame *f = &m->frames[i];
		const char *name = m->names[f->func];
		int64_t v[PPROF_MAX_METRICS] = { 0 };

		if (f->parent != CALLPATH_NONE && f->parent >= i) {
			error("internal error: a frame before its caller in the call paths");
			goto fail;
		}
		if (!loc[f->func] &&
		    !(loc[f->func] = sym_location(pp, b, binary_find(b, name), name)))
			goto out;
		/* leaf first; a folded frame is its parent's function again */
		stack[i] = pprof_stack(pp, f->parent == CALLPATH_NONE ? 0 : stack[f->parent],
				       loc[f->func]);
		if (!stack[i])
			goto out;
		for (k = 0; k < use; k++)
			v[col[k]] = sign * met[k].value(m, i);
		pprof_sample_stack(pp, stack[i], v, label ? BASE_LABEL : NULL, label);
	}
	ret = 0;
out:
	if (ret < 0)
		error("out of memory");
fail:
	free(stack);
	free(loc);
	return ret;
}

int pprof_from_callpath(const struct profile *p, const char *in,
			const struct callpath_model *m, struct pprof **out)
{
	struct pprof *pp = pprof_new();
	const char *names[PPROF_MAX_METRICS];
	struct binary b;
	int ret = -1, ncols;

	*out = NULL;
	memset(&b, 0, sizeof(b));
	if (!pp)
		return error("out of memory");
	if (binary_init(&b, pp, p) < 0)
		goto fail;
	ncols = callpath_types(pp, m, timed(m), p->hz, names);
	comment_source(pp, p, timed(m) ? "call paths"
				       : "call paths (calls) and gmon.out's histogram (time)");
	if (m->unplaced_samples) {
		char buf[160];

		snprintf(buf, sizeof(buf), "%llu samples could not be placed in a calling "
			 "context and are not in this profile",
			 (unsigned long long)m->unplaced_samples);
		pprof_comment(pp, buf);
	}
	if (add_callpath(pp, &b, m, names, ncols, timed(m), 1, NULL) < 0)
		goto fail;
	if (!timed(m))
		add_profile(pp, &b, in, 1, NULL, 0, 1);
	*out = pp;
	pp = NULL;
	ret = 0;
fail:
	binary_release(&b);
	pprof_free(pp);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* Diffs                                                                     */

/* A diff's entries as samples of side s: the functions as the diff matched
 * and named them. */
static void add_diff_side(struct pprof *pp, const struct diff *d, const char *in,
			  const struct binary *b, int s, int time_only)
{
	const char *label = s == DIFF_BASE ? "true" : NULL;
	int sign = s == DIFF_BASE ? -1 : 1;
	size_t i;

	for (i = 0; i < d->nentries; i++) {
		const struct diff_entry *e = &d->entries[i];
		int64_t v[3] = { 0, 0, 0 };
		uint64_t loc;

		if ((e->flags & PSYM_CYCLE) || (in && !in[i]) || !e->side[s].present ||
		    e->side[s].ticks == 0)
			continue;
		loc = sym_location(pp, b, e->side[s].sym, e->print_name);
		v[T_CPU] = sign * nanoseconds(e->side[s].self_sec);
		v[T_SAMPLES] = sign * (int64_t)llround(e->side[s].ticks);
		pprof_sample(pp, &loc, 1, v, label ? BASE_LABEL : NULL, label);
	}
	for (i = 0; i < d->narcs && !time_only; i++) {
		const struct diff_arc *a = &d->arcs[i];
		const struct diff_entry *pe = &d->entries[a->parent], *ce = &d->entries[a->child];
		int64_t v[3] = { 0, 0, 0 };
		uint64_t locs[2];

		if (!a->present[s] || (in && (!in[a->parent] || !in[a->child])))
			continue;
		locs[0] = sym_location(pp, b, ce->side[s].sym, ce->print_name);
		locs[1] = sym_location(pp, b, pe->side[s].sym, pe->print_name);
		v[T_CALLS] = sign * (int64_t)a->count[s];
		pprof_sample(pp, locs, 2, v, label ? BASE_LABEL : NULL, label);
	}
}

int pprof_from_diff(const struct diff *d, const char *in,
		    const struct callpath_model *const m[2], struct pprof **out)
{
	struct pprof *pp = pprof_new();
	struct binary b[DIFF_NSIDES];
	int s, ret = -1, paths = m && m[0] && m[1], both_timed, ncols;
	const char *names[PPROF_MAX_METRICS];
	char buf[256];

	*out = NULL;
	memset(b, 0, sizeof(b));
	if (!pp)
		return error("out of memory");
	for (s = 0; s < DIFF_NSIDES; s++)
		if (binary_init(&b[s], pp, d->prof[s]) < 0)
			goto fail;
	snprintf(buf, sizeof(buf), "egprof %s: second run minus baseline (pprof's "
		 "-diff_base form: the baseline's samples negated, labelled %s=true)%s",
		 EGPROF_VERSION, BASE_LABEL, paths ? ", from call paths" : "");
	pprof_comment(pp, buf);
	/* time per path only when both sides have it; else both sides' time
	 * comes from their gmon files, as without paths */
	both_timed = paths && timed(m[0]) && timed(m[1]);
	if (!paths)
		flat_types(pp, d->prof[DIFF_SECOND]->hz);
	else
		ncols = callpath_types(pp, m[DIFF_SECOND], both_timed,
				       d->prof[DIFF_SECOND]->hz, names);
	for (s = DIFF_NSIDES; s-- > 0;) {
		if (paths && add_callpath(pp, &b[s], m[s], names, ncols, both_timed,
					  s == DIFF_BASE ? -1 : 1, s == DIFF_BASE ? "true" : NULL) < 0)
			goto fail;
		if (!both_timed)
			add_diff_side(pp, d, in, &b[s], s, paths);
	}
	*out = pp;
	pp = NULL;
	ret = 0;
fail:
	for (s = 0; s < DIFF_NSIDES; s++)
		binary_release(&b[s]);
	pprof_free(pp);
	return ret;
}

/* ------------------------------------------------------------------------ */

static int write_fp(FILE *fp, const void *ctx)
{
	return pprof_write(fp, ctx);
}

int pprof_save(struct outset *set, const char *path, const struct pprof *pp)
{
	return outfile_write(set, path, write_fp, pp);
}
