/*
 * --focus, --root, --depth, --exclude on a calling-context tree (the
 * rules are in filter.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "filter/filter.h"
#include "filter/filter_private.h"
#include "model/callpath_model.h"
#include "utils/error.h"
#include "utils/banned.h"

/* ------------------------------------------------------------------------ */
/* Calling-context trees                                                     */

#define FAR UINT32_MAX

/*
 * Per frame of m: whether an excluded frame is it or above it; `below`,
 * calls below the outermost start frame above it or itself (the start
 * frames: the --focus/--root function; without them, the top-level
 * frames), FAR when none is; `above`, calls up from the nearest start
 * frame below it (0 for one), FAR when none.  Folded-recursion frames are
 * never start frames: they stand for calls of their parent's function.
 */
struct ctt_marks {
	char *gone;
	uint32_t *below, *above;
	size_t starts;
};

static int ctt_mark(const struct filter_opts *f, const struct callpath_model *m,
		    struct ctt_marks *k)
{
	const char *name = filter_start_name(f);
	uint32_t n = m->nr_frames ? m->nr_frames : 1, i;
	uint32_t *is_name = NULL;

	k->gone = calloc(n, 1);
	k->below = malloc(n * sizeof(uint32_t));
	k->above = malloc(n * sizeof(uint32_t));
	is_name = calloc((size_t)m->nr_names + 1, sizeof(uint32_t));
	k->starts = 0;
	if (!k->gone || !k->below || !k->above || !is_name) {
		free(is_name);
		return error("out of memory");
	}
	/* names[] is interned: mark each name index once */
	for (i = 0; i < m->nr_names; i++)
		is_name[i] = (filter_is_excluded(f, m->names[i]) ? 1 : 0) |
			     (name && !strcmp(m->names[i], name) ? 2 : 0);
	for (i = 0; i < m->nr_frames; i++) {
		const struct callpath_frame *fr = &m->frames[i];
		uint32_t p = fr->parent;
		int start;

		k->gone[i] = (p != CALLPATH_NONE && k->gone[p]) ||
			     (!fr->folded && (is_name[fr->func] & 1));
		k->above[i] = FAR;
		if (k->gone[i]) {
			k->below[i] = FAR;
			continue;
		}
		start = !fr->folded && (name ? (is_name[fr->func] & 2) != 0 : p == CALLPATH_NONE);
		if (p != CALLPATH_NONE && k->below[p] != FAR)
			k->below[i] = fr->folded ? k->below[p] : k->below[p] + 1;
		else if (start)
			k->below[i] = 0;
		else
			k->below[i] = FAR;
		if (start) {
			k->above[i] = 0;
			k->starts++;
		}
	}
	/* children come after their parents: one pass backwards */
	for (i = m->nr_frames; i-- > 0;) {
		uint32_t p = m->frames[i].parent;

		if (p != CALLPATH_NONE && !k->gone[i] && !m->frames[i].folded &&
		    k->above[i] != FAR && k->above[i] + 1 < k->above[p])
			k->above[p] = k->above[i] + 1;
	}
	free(is_name);
	return 0;
}

static void ctt_marks_release(struct ctt_marks *k)
{
	free(k->gone);
	free(k->below);
	free(k->above);
}

/* What becomes of frame i: kept with its values, kept as a caller on the
 * way to a --focus frame (no values), or dropped. */
enum ctt_fate { CTT_DROP, CTT_KEEP, CTT_CALLER };

static enum ctt_fate ctt_fate(const struct filter_opts *f, const struct ctt_marks *k,
			      uint32_t i)
{
	uint32_t max = f->depth >= 0 ? (uint32_t)f->depth : FAR - 1;

	if (k->gone[i])
		return CTT_DROP;
	if (k->below[i] != FAR)
		return k->below[i] <= max ? CTT_KEEP : CTT_DROP;
	if (f->focus && k->above[i] != FAR && k->above[i] <= max)
		return CTT_CALLER;
	return CTT_DROP;
}

static int copy_frame(struct callpath_model *out, const struct callpath_model *m,
		      const struct callpath_frame *fr, uint32_t parent, int values,
		      uint32_t *idx)
{
	uint32_t func = callpath_model_intern(out, m->names[fr->func]);
	uint32_t site = callpath_model_intern(out, m->names[fr->site]);
	uint32_t attr = callpath_model_intern(out, m->names[fr->attributed]);
	struct callpath_frame *nf;

	if (func == CALLPATH_NONE || site == CALLPATH_NONE || attr == CALLPATH_NONE ||
	    callpath_model_add_kind(out, parent, func, site, fr->folded && values,
				    values ? fr->count : 0, idx) < 0)
		return -1;
	nf = &out->frames[*idx];
	nf->attributed = attr;
	nf->code = fr->code;
	if (values)
		callpath_model_add_samples(out, *idx, fr->samples);
	if (fr->folded && values) {
		uint32_t caller = callpath_model_intern(out, m->names[fr->caller]);

		if (caller == CALLPATH_NONE)
			return -1;
		nf = &out->frames[*idx];
		nf->folded = 1;
		nf->caller = caller;
		nf->recursive += fr->recursive;
		out->total += fr->recursive;
	}
	return 0;
}

/* The option and the name of a function the options name that has no
 * frame in m (the first), or NULL. */
static const char *ctt_missing(const struct filter_opts *f, const struct callpath_model *m,
			       const struct ctt_marks *k, const char **opt)
{
	char *used = calloc((size_t)m->nr_names + 1, 1);
	const char *name = NULL;

	*opt = NULL;
	if (!used)
		return NULL;
	for (uint32_t i = 0; i < m->nr_frames; i++)
		if (!m->frames[i].folded)
			used[m->frames[i].func] = 1;
	for (size_t e = 0; e < f->nexclude && !name; e++) {
		uint32_t j;

		for (j = 0; j < m->nr_names; j++)
			if (used[j] && !strcmp(m->names[j], f->exclude[e]))
				break;
		if (j == m->nr_names) {
			name = f->exclude[e];
			*opt = "--exclude";
		}
	}
	if (!name && filter_start_name(f) && k->starts == 0) {
		name = filter_start_name(f);
		*opt = filter_start_option(f);
	}
	free(used);
	return name;
}

/* The filtered copy; *missing is a function the options name without a
 * frame in m (*opt the option), or NULL. */
static int ctt_filter(const struct filter_opts *f, const struct callpath_model *m,
		      struct callpath_model **out, const char **missing, const char **opt)
{
	struct ctt_marks k = { NULL, NULL, NULL, 0 };
	struct callpath_model *o = callpath_model_new();
	uint32_t *map = malloc(((size_t)m->nr_frames + 1) * sizeof(uint32_t));
	/* what each frame's per-thread values give (callpath_model_threads_carry) */
	unsigned char *what = calloc((size_t)m->nr_frames + 1, 1);
	uint32_t max = f->depth >= 0 ? (uint32_t)f->depth : FAR - 1;
	int ret = -1;

	*out = NULL;
	*missing = NULL;
	if (!o || !map || !what) {
		error("out of memory");
		goto fail;
	}
	if (ctt_mark(f, m, &k) < 0)
		goto fail;
	if ((*missing = ctt_missing(f, m, &k, opt))) {
		ret = 0;
		goto fail;
	}
	for (uint32_t i = 0; i < m->nr_frames; i++) {
		const struct callpath_frame *fr = &m->frames[i];
		uint32_t p = fr->parent;
		enum ctt_fate fate = ctt_fate(f, &k, i);

		map[i] = CALLPATH_NONE;
		if (fate == CTT_DROP) {
			/* deeper than --depth below a kept frame: its time is
			 * that frame's own.  map[] of such a frame names the
			 * kept frame, for its children. */
			if (!k.gone[i] && k.below[i] != FAR && k.below[i] > max &&
			    p != CALLPATH_NONE) {
				map[i] = map[p];
				what[i] = CALLPATH_CARRY_SAMPLES;
				if (map[i] != CALLPATH_NONE)
					callpath_model_add_samples(o, map[i], fr->samples);
			}
			continue;
		}
		{
			/* a kept frame's parent is kept, or it starts the tree
			 * (--root's start frames, --focus's caller N calls up) */
			uint32_t np = CALLPATH_NONE;

			if (p != CALLPATH_NONE && ctt_fate(f, &k, p) != CTT_DROP &&
			    !(f->root && k.below[i] == 0))
				np = map[p];
			if (copy_frame(o, m, fr, np, fate == CTT_KEEP, &map[i]) < 0) {
				error("out of memory");
				goto fail;
			}
			if (fate == CTT_KEEP)
				what[i] = CALLPATH_CARRY_SAMPLES | CALLPATH_CARRY_CALLS;
		}
	}
	if (callpath_model_threads_carry(o, m, map, what) < 0)
		goto fail;
	o->sampling = m->sampling;
	o->calls_unmeasured = m->calls_unmeasured;
	o->unwind = m->unwind;
	o->hz = m->hz;
	o->metric = m->metric;
	/* samples no path holds belong to no part of the program */
	o->unplaced_samples = filter_start_name(f) ? 0 : m->unplaced_samples;
	*out = o;
	o = NULL;
	ret = 0;
fail:
	ctt_marks_release(&k);
	free(map);
	free(what);
	callpath_model_free(o);
	return ret;
}

int filter_callpath(const struct filter_opts *f, const struct callpath_model *m,
		    struct callpath_model **out)
{
	const char *missing, *opt;

	if (ctt_filter(f, m, out, &missing, &opt) < 0)
		return -1;
	if (missing)
		return filter_name_missing(opt, missing, "call paths");
	return 0;
}

static int has_function(const struct callpath_model *m, const char *name)
{
	for (uint32_t i = 0; i < m->nr_frames; i++)
		if (!m->frames[i].folded && !strcmp(m->names[m->frames[i].func], name))
			return 1;
	return 0;
}

int filter_callpath_pair(const struct filter_opts *f, const struct callpath_model *const m[2],
			 struct callpath_model *out[2])
{
	const char *missing[2] = { NULL, NULL }, *opt[2] = { NULL, NULL };
	const char **ex[2] = { NULL, NULL };

	out[0] = out[1] = NULL;
	/* a function on one side only is no error; on neither, it is */
	for (size_t e = 0; e < f->nexclude; e++)
		if (!(m[0] && has_function(m[0], f->exclude[e])) &&
		    !(m[1] && has_function(m[1], f->exclude[e]))) {
			filter_name_missing("--exclude", f->exclude[e], "call paths");
			return -1;
		}
	for (int s = 0; s < 2; s++) {
		struct filter_opts g = *f;

		if (!m[s])
			continue;
		/* each side leaves out what it has of --exclude's names */
		if (!(ex[s] = malloc((f->nexclude + 1) * sizeof(*ex[s])))) {
			error("out of memory");
			goto fail;
		}
		g.exclude = ex[s];
		g.nexclude = 0;
		for (size_t e = 0; e < f->nexclude; e++)
			if (has_function(m[s], f->exclude[e]))
				ex[s][g.nexclude++] = f->exclude[e];
		if (ctt_filter(&g, m[s], &out[s], &missing[s], &opt[s]) < 0)
			goto fail;
	}
	if ((!m[0] || missing[0]) && (!m[1] || missing[1]) && filter_start_name(f)) {
		filter_name_missing(filter_start_option(f), filter_start_name(f), "call paths");
		goto fail;
	}
	/* a side without a path through --focus/--root's function: empty */
	for (int s = 0; s < 2; s++)
		if (m[s] && missing[s]) {
			if (!(out[s] = callpath_model_new())) {
				error("out of memory");
				goto fail;
			}
			out[s]->sampling = m[s]->sampling;
			out[s]->hz = m[s]->hz;
		}
	free(ex[0]);
	free(ex[1]);
	return 0;
fail:
	free(ex[0]);
	free(ex[1]);
	callpath_model_free(out[0]);
	callpath_model_free(out[1]);
	out[0] = out[1] = NULL;
	return -1;
}
