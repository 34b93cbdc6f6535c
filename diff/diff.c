#define _GNU_SOURCE /* qsort_r */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff/diff.h"
#include "diff/clones.h"
#include "diff/match.h"
#include "diff/noise.h"
#include "diff/evidence.h"
#include "utils/array.h"
#include "utils/bigalloc.h"
#include "utils/error.h"
#include "utils/banned.h"

static void fill_side(struct diff_side_sym *s, const struct profile *p, long idx)
{
	const struct profile_sym *y;

	memset(s, 0, sizeof(*s));
	s->sym = idx;
	if (idx < 0)
		return; /* the placeholder: absent, no samples, no calls */
	y = &p->syms[idx];
	s->present = 1;
	s->ticks = y->self_ticks;
	s->has_samples = y->self_ticks != 0;
	s->calls_measured = profile_sym_calls_measured(p, y);
	s->has_calls = s->calls_measured && (y->ncalls != 0 || y->self_calls != 0);
	s->self_sec = profile_seconds(p, y->self_ticks);
	s->child_sec = profile_seconds(p, y->child_ticks);
	s->prop_self_sec = profile_seconds(p, y->prop_self);
	s->prop_child_sec = profile_seconds(p, y->prop_child);
	s->calls = y->ncalls;
	s->self_calls = y->self_calls;
	s->cycle = y->cycle;
}

/* s, made by the diff for an entry, now in its `owned` list (NULL when
 * out of memory: s is freed). */
static char *keep(struct diff *d, char *s)
{
	if (s && array_grow(&d->owned, &d->alloc_owned, d->nowned + 1, sizeof(*d->owned)) < 0) {
		free(s);
		return NULL;
	}
	if (s)
		d->owned[d->nowned++] = s;
	return s;
}

/* The printed name: a clone without its own partner shows its base name
 * (with both sides' names when they differ), so a cloning or inlining change
 * is visible instead of looking like two unrelated functions.  A side's own
 * print name is used as it is; a made one is the diff's (keep). */
static char *entry_print_name(struct diff *d, const struct profile_sym *x,
			      const struct profile_sym *y, int kind)
{
	const struct profile_sym *one = x ? x : y;
	char base[512];
	size_t n;
	char *out;

	if (kind == MATCH_NAME) {
		/* A side that folded GCC clones into the function says so
		 * (diff/clones.h), whichever side it is. */
		if (!strstr(x->print_name, CLONES_NOTE) && strstr(y->print_name, CLONES_NOTE))
			return y->print_name;
		return x->print_name;
	}
	if (kind == MATCH_CLONE_BASE) {
		if (!match_clone_base(x->print_name, base, sizeof(base)) &&
		    !match_clone_base(y->print_name, base, sizeof(base)))
			snprintf(base, sizeof(base), "%s", x->print_name);
		n = strlen(base) + strlen(x->print_name) + strlen(y->print_name) + 8;
		out = malloc(n);
		if (out)
			snprintf(out, n, "%s [%s | %s]", base, x->print_name, y->print_name);
		return keep(d, out);
	}
	if (!match_clone_base(one->print_name, base, sizeof(base)))
		return one->print_name;
	n = strlen(base) + strlen(one->print_name) + 4;
	out = malloc(n);
	if (out)
		snprintf(out, n, "%s [%s]", base, one->print_name);
	return keep(d, out);
}

static int cmp_print_name(const void *lp, const void *rp, void *ctx)
{
	const struct diff *d = ctx;

	return strcmp(d->entries[*(const size_t *)lp].print_name,
		      d->entries[*(const size_t *)rp].print_name);
}

/* Does another entry of order[i..j) share e's file (a static function
 * defined in a header and compiled into several units)? */
static int file_shared(const struct diff *d, const size_t *order, size_t i, size_t j,
		       const struct diff_entry *e)
{
	size_t k;

	for (k = i; k < j; k++) {
		const struct diff_entry *o = &d->entries[order[k]];

		if (o != e && ((!o->file && !e->file) ||
			       (o->file && e->file && strcmp(o->file, e->file) == 0)))
			return 1;
	}
	return 0;
}

/* Static functions that share a name stay separate entries; give each the
 * file it comes from so a reader can tell them apart, and the compilation
 * unit where several come from one file (a header): "comdFree (memUtils.h
 * in CoMD.c)". */
static int disambiguate(struct diff *d)
{
	size_t *order = malloc((d->nentries + 1) * sizeof(size_t));
	size_t i, j;

	if (!order)
		return error("out of memory");
	for (i = 0; i < d->nentries; i++)
		order[i] = i;
	qsort_r(order, d->nentries, sizeof(size_t), cmp_print_name, d);
	for (i = 0; i < d->nentries; i = j) {
		for (j = i + 1; j < d->nentries &&
		     strcmp(d->entries[order[i]].print_name,
			    d->entries[order[j]].print_name) == 0; j++)
			;
		for (size_t k = i; j - i > 1 && k < j; k++) {
			struct diff_entry *e = &d->entries[order[k]];
			const char *f = e->file ? strrchr(e->file, '/') : NULL;
			const char *u = e->unit && file_shared(d, order, i, j, e) ? e->unit : NULL;
			size_t n;
			char *q;

			if (!e->file && !u)
				continue;
			f = f ? f + 1 : e->file;
			n = strlen(e->print_name) + (f ? strlen(f) : 0) + (u ? strlen(u) : 0) + 8;
			q = malloc(n);
			if (q && f && u)
				snprintf(q, n, "%s (%s in %s)", e->print_name, f, u);
			else if (q)
				snprintf(q, n, "%s (%s)", e->print_name, f ? f : u);
			if (!keep(d, q)) {
				free(order);
				return error("out of memory");
			}
			e->print_name = q;
		}
	}
	free(order);
	return 0;
}

/* Each function in a cycle on either side gets the diff's number of that
 * cycle (the baseline's, when it is in a cycle there). */
static int number_cycle_members(struct diff *d)
{
	int *num[DIFF_NSIDES] = { NULL, NULL }, max[DIFF_NSIDES] = { 0, 0 };
	size_t i, s;
	int ret = -1;

	for (i = 0; i < d->nentries; i++)
		for (s = 0; s < DIFF_NSIDES; s++)
			if (d->entries[i].side[s].cycle > max[s])
				max[s] = d->entries[i].side[s].cycle;
	for (s = 0; s < DIFF_NSIDES; s++)
		if (!(num[s] = calloc((size_t)max[s] + 1, sizeof(int)))) {
			error("out of memory");
			goto out;
		}
	for (i = 0; i < d->nentries; i++) {
		const struct diff_entry *e = &d->entries[i];

		if (e->flags & PSYM_CYCLE)
			for (s = 0; s < DIFF_NSIDES; s++)
				if (e->side[s].sym >= 0)
					num[s][e->side[s].cycle] = e->cycle;
	}
	for (i = 0; i < d->nentries; i++) {
		struct diff_entry *e = &d->entries[i];

		if (e->flags & PSYM_CYCLE)
			continue;
		for (s = DIFF_NSIDES; s-- > 0;)
			if (e->side[s].cycle > 0 && num[s][e->side[s].cycle])
				e->cycle = num[s][e->side[s].cycle];
	}
	ret = 0;
out:
	free(num[0]);
	free(num[1]);
	return ret;
}

/* Arcs: a hash from (parent entry, child entry) to the diff arc. */
struct arc_map {
	uint32_t *slot; /* diff arc index + 1 (arcs are counted in uint32_t) */
	size_t mask;
};

static size_t arc_hash(uint32_t p, uint32_t c)
{
	uint64_t h = ((uint64_t)p << 32 | c) * 0x9E3779B97F4A7C15ull;

	return (size_t)(h >> 17);
}

static int add_arcs(struct diff *d, const long *entry_of[DIFF_NSIDES])
{
	size_t total = d->prof[0]->narcs + d->prof[1]->narcs, cap = 16, k, s;
	struct arc_map map;

	while (cap < 2 * total + 2)
		cap *= 2;
	/* Only the arcs made are touched (each is cleared when made): the
	 * two sides mostly share theirs, so about half of the room for both
	 * stays untouched memory, never faulted in; what is touched is in
	 * huge pages where the kernel offers them (152 bytes an arc: 1,600
	 * faults of 4 KiB at 20,000 functions). */
	if (total >= UINT32_MAX)
		return error("out of memory");
	map.slot = calloc(cap, sizeof(*map.slot));
	map.mask = cap - 1;
	d->arcs = total + 1 <= SIZE_MAX / sizeof(*d->arcs) ?
		  bigalloc_aligned((total + 1) * sizeof(*d->arcs)) : NULL;
	if (!map.slot || !d->arcs) {
		free(map.slot);
		return error("out of memory");
	}
	for (s = 0; s < DIFF_NSIDES; s++) {
		const struct profile *p = d->prof[s];

		for (k = 0; k < p->narcs; k++) {
			const struct profile_arc *a = &p->arcs[k];
			long pe = entry_of[s][a->parent], ce = entry_of[s][a->child];
			struct diff_arc *da;
			size_t h;

			if (pe < 0 || ce < 0)
				continue; /* an arc touching a cycle pseudo-symbol */
			for (h = arc_hash((uint32_t)pe, (uint32_t)ce) & map.mask; map.slot[h];
			     h = (h + 1) & map.mask) {
				da = &d->arcs[map.slot[h] - 1];
				if (da->parent == (uint32_t)pe && da->child == (uint32_t)ce)
					break;
			}
			if (!map.slot[h]) {
				map.slot[h] = (uint32_t)d->narcs + 1;
				da = &d->arcs[d->narcs++];
				memset(da, 0, sizeof(*da));
				da->parent = (uint32_t)pe;
				da->child = (uint32_t)ce;
			}
			da = &d->arcs[map.slot[h] - 1];
			da->present[s] = 1;
			da->count[s] += a->count;
			da->time_sec[s] += profile_seconds(p, a->time);
			da->child_time_sec[s] += profile_seconds(p, a->child_time);
		}
	}
	for (k = 0; k < d->narcs; k++)
		d->arcs[k].count_diff = (int64_t)d->arcs[k].count[0] - (int64_t)d->arcs[k].count[1];
	free(map.slot);
	return 0;
}

int diff_compute(struct diff *d, const struct profile *base,
		 const struct profile *second, const struct diff_opts *opts)
{
	struct match m;
	long *entry_of[DIFF_NSIDES] = { NULL, NULL };
	size_t i, s;
	int ret = -1;

	memset(d, 0, sizeof(*d));
	d->opts = opts ? *opts : (struct diff_opts)DIFF_OPTS_INIT;
	d->prof[DIFF_BASE] = base;
	d->prof[DIFF_SECOND] = second;
	if (match_compute(&m, base, second) < 0)
		return -1;
	/* 512 bytes an entry, megabytes for a big program: in huge pages
	 * where the kernel offers them, from the block's start (a fault per
	 * 4 KiB was a tenth of a 20,000-function diff's front end; bigalloc's
	 * unaligned ends still cost 900 of them) */
	if (m.npairs + 1 <= SIZE_MAX / sizeof(*d->entries) &&
	    (d->entries = bigalloc_aligned((m.npairs + 1) * sizeof(*d->entries))))
		memset(d->entries, 0, (m.npairs + 1) * sizeof(*d->entries));
	for (s = 0; s < DIFF_NSIDES; s++) {
		entry_of[s] = malloc((d->prof[s]->nsyms + 1) * sizeof(long));
		for (i = 0; entry_of[s] && i < d->prof[s]->nsyms; i++)
			entry_of[s][i] = -1;
	}
	if (!d->entries || !entry_of[0] || !entry_of[1]) {
		error("out of memory");
		goto out;
	}
	for (i = 0; i < m.npairs; i++) {
		const struct match_pair *mp = &m.pairs[i];
		struct diff_entry *e = &d->entries[d->nentries++];
		const struct profile_sym *x = mp->sym[0] >= 0 ? &base->syms[mp->sym[0]] : NULL;
		const struct profile_sym *y = mp->sym[1] >= 0 ? &second->syms[mp->sym[1]] : NULL;
		const struct profile_sym *one = x ? x : y;

		int is_cycle = !!(one->flags & PSYM_CYCLE);

		e->match = (enum diff_match_kind)mp->kind;
		if (is_cycle) {
			char name[64];

			e->cycle = ++d->ncycles;
			snprintf(name, sizeof(name), "<cycle %d as a whole>", e->cycle);
			e->name = e->print_name = keep(d, strdup(name));
		} else {
			e->name = one->name;
			e->file = one->file ? one->file : (y ? y->file : NULL);
			e->unit = one->unit ? one->unit : (y ? y->unit : NULL);
			e->print_name = entry_print_name(d, x, y, mp->kind);
		}
		if (!e->name || !e->print_name) {
			error("out of memory");
			goto out;
		}
		e->flags = (x ? x->flags : 0) | (y ? y->flags : 0);
		e->in_flat = !is_cycle && (e->flags & PSYM_IN_FLAT);
		e->in_graph = !!(e->flags & PSYM_IN_GRAPH);
		for (s = 0; s < DIFF_NSIDES; s++) {
			fill_side(&e->side[s], d->prof[s], mp->sym[s]);
			if (mp->sym[s] >= 0 && !is_cycle)
				entry_of[s][mp->sym[s]] = (long)i;
		}
		e->self_diff = e->side[0].self_sec - e->side[1].self_sec;
		e->child_diff = e->side[0].child_sec - e->side[1].child_sec;
		e->calls_diff = (int64_t)e->side[0].calls - (int64_t)e->side[1].calls;
		if (is_cycle)
			continue; /* its time is its members' */
		d->abs_sum += fabs(e->self_diff);
		d->total_sec[0] += e->side[0].self_sec;
		d->total_sec[1] += e->side[1].self_sec;
	}
	if (number_cycle_members(d) < 0 || disambiguate(d) < 0)
		goto out;
	for (s = 0; s < DIFF_NSIDES; s++)
		d->nruns[s] = 1;
	for (i = 0; i < d->nentries; i++)
		d->entries[i].impact = d->abs_sum > 0 ?
			100.0 * d->entries[i].self_diff / d->abs_sum : 0.0;
	for (s = 0; s < DIFF_NSIDES; s++) {
		d->has_hist[s] = !!(d->prof[s]->input & PROFILE_HAS_HIST);
		d->has_cg[s] = (d->prof[s]->input & PROFILE_HAS_CG) &&
			       !d->prof[s]->measure.calls_unmeasured;
	}
	if (add_arcs(d, (const long **)entry_of) < 0)
		goto out;
	diff_assess(d);
	ret = 0;
out:
	match_release(&m);
	free(entry_of[0]);
	free(entry_of[1]);
	if (ret < 0)
		diff_release(d);
	return ret;
}

const char *const diff_sort_names[DIFF_SORT__COUNT] = {
	[DIFF_SORT_IMPACT] = "impact",
	[DIFF_SORT_ABS] = "abs",
	[DIFF_SORT_RATIO] = "ratio",
	[DIFF_SORT_CALLS] = "calls",
	[DIFF_SORT_NAME] = "name",
};

void diff_arc_index_free(struct diff_arc_index *ai)
{
	free(ai->in_at);
	free(ai->in);
	free(ai->out_at);
	free(ai->out);
	memset(ai, 0, sizeof(*ai));
}

int diff_arc_index_build(const struct diff *d, struct diff_arc_index *ai)
{
	size_t n = d->nentries, k;

	/* in_at[e + 2] counts, then starts at e + 1, then (filled) ends at e + 1 */
	ai->in_at = calloc(n + 2, sizeof(size_t));
	ai->out_at = calloc(n + 2, sizeof(size_t));
	ai->in = malloc((d->narcs + 1) * sizeof(size_t));
	ai->out = malloc((d->narcs + 1) * sizeof(size_t));
	if (!ai->in_at || !ai->out_at || !ai->in || !ai->out) {
		diff_arc_index_free(ai);
		return -1;
	}
	for (k = 0; k < d->narcs; k++) {
		ai->in_at[d->arcs[k].child + 2]++;
		ai->out_at[d->arcs[k].parent + 2]++;
	}
	for (k = 2; k <= n + 1; k++) {
		ai->in_at[k] += ai->in_at[k - 1];
		ai->out_at[k] += ai->out_at[k - 1];
	}
	for (k = 0; k < d->narcs; k++) {
		ai->in[ai->in_at[d->arcs[k].child + 1]++] = k;
		ai->out[ai->out_at[d->arcs[k].parent + 1]++] = k;
	}
	return 0;
}

int diff_sort_parse(const char *name)
{
	int k;

	for (k = 0; k < DIFF_SORT__COUNT; k++)
		if (strcmp(name, diff_sort_names[k]) == 0)
			return k;
	return -1;
}

const char *const diff_verdict_names[VERDICT__COUNT] = {
	[VERDICT_EQUAL] = "equal",
	[VERDICT_NOISE] = "within noise",
	[VERDICT_SIGNIFICANT] = "significant",
};

void diff_assess(struct diff *d)
{
	noise_apply(d);
	evidence_apply(d);
}

/* How far apart the sides are as a ratio: one-sided time is infinitely so. */
static double log_ratio(const struct diff_entry *e)
{
	double a = e->side[DIFF_BASE].self_sec, b = e->side[DIFF_SECOND].self_sec;

	if (a == b)
		return 0;
	if (a <= 0 || b <= 0)
		return INFINITY;
	return fabs(log(b / a));
}

static int cmp_desc(double l, double r)
{
	return l != r ? (l > r ? -1 : 1) : 0;
}

static int64_t abs64(int64_t v)
{
	return v < 0 ? -v : v;
}

int diff_entry_cmp_numbers(const struct diff_entry *l, const struct diff_entry *r,
			   enum diff_sort_key key)
{
	int c = 0;

	/* Exactly, not to the printed precision, which would hide real order
	 * (gprof compares the same way). */
	switch (key) {
	case DIFF_SORT_IMPACT:
		/* one order for every significant row: the size of its
		 * evidence, in seconds, whatever the evidence */
		if (l->significant != r->significant)
			return l->significant ? -1 : 1;
		if (l->significant)
			c = cmp_desc(l->evidence_sec, r->evidence_sec);
		break;
	case DIFF_SORT_RATIO:
		c = cmp_desc(log_ratio(l), log_ratio(r));
		break;
	case DIFF_SORT_CALLS:
		c = cmp_desc((double)abs64(l->calls_diff), (double)abs64(r->calls_diff));
		break;
	case DIFF_SORT_NAME:
		c = strcmp(l->print_name, r->print_name);
		break;
	case DIFF_SORT_ABS:
	case DIFF_SORT__COUNT:
		break;
	}
	if (c)
		return c;
	if ((c = cmp_desc(fabs(l->self_diff), fabs(r->self_diff))))
		return c;
	return cmp_desc((double)abs64(l->calls_diff), (double)abs64(r->calls_diff));
}

int diff_entry_cmp(const struct diff_entry *l, const struct diff_entry *r,
		   enum diff_sort_key key)
{
	int c = diff_entry_cmp_numbers(l, r, key);

	if (c)
		return c;
	c = strcmp(l->print_name, r->print_name);
	return c ? c : strcmp(l->file ? l->file : "", r->file ? r->file : "");
}

/* What diff_entry_cmp compares of one entry (diff_order). */
struct order_rec {
	double primary;       /* the key's number (0: none), descending */
	double self;          /* |self_diff| */
	double calls;         /* |calls_diff| */
	uint64_t name_key;    /* diff_name_key(name) */
	const char *name, *file;
	size_t idx;
	int group;            /* DIFF_SORT_IMPACT: 0 significant, 1 not */
	int by_name;          /* DIFF_SORT_NAME: the name before the numbers */
};

static void order_rec_fill(struct order_rec *r, const struct diff_entry *e,
			   enum diff_sort_key key, size_t idx)
{
	r->primary = 0;
	r->group = 0;
	r->by_name = key == DIFF_SORT_NAME;
	switch (key) {
	case DIFF_SORT_IMPACT:
		r->group = !e->significant;
		if (e->significant)
			r->primary = e->evidence_sec;
		break;
	case DIFF_SORT_RATIO:
		r->primary = log_ratio(e);
		break;
	case DIFF_SORT_CALLS:
		r->primary = (double)abs64(e->calls_diff);
		break;
	case DIFF_SORT_NAME:
	case DIFF_SORT_ABS:
	case DIFF_SORT__COUNT:
		break;
	}
	r->self = fabs(e->self_diff);
	r->calls = (double)abs64(e->calls_diff);
	r->name = e->print_name;
	r->name_key = diff_name_key(e->print_name);
	r->file = e->file ? e->file : "";
	r->idx = idx;
}

/* diff_entry_cmp on the records, then the index */
static int cmp_order_rec(const void *lp, const void *rp)
{
	const struct order_rec *l = lp, *r = rp;
	int c;

	if (l->group != r->group)
		return l->group < r->group ? -1 : 1;
	if (l->by_name)
		c = diff_name_cmp(l->name_key, l->name, r->name_key, r->name);
	else
		c = cmp_desc(l->primary, r->primary);
	if (c || (c = cmp_desc(l->self, r->self)) || (c = cmp_desc(l->calls, r->calls)) ||
	    (c = diff_name_cmp(l->name_key, l->name, r->name_key, r->name)) ||
	    (c = strcmp(l->file, r->file)))
		return c;
	return l->idx < r->idx ? -1 : l->idx > r->idx;
}

int diff_order(const struct diff *d, size_t *idx, size_t n)
{
	struct order_rec *rec = malloc((n + 1) * sizeof(*rec));
	size_t i;

	if (!rec)
		return -1;
	for (i = 0; i < n; i++)
		order_rec_fill(&rec[i], &d->entries[idx[i]], d->opts.sort, idx[i]);
	qsort(rec, n, sizeof(*rec), cmp_order_rec);
	for (i = 0; i < n; i++)
		idx[i] = rec[i].idx;
	free(rec);
	return 0;
}

void diff_sort(struct diff *d)
{
	size_t *order = malloc((d->nentries + 1) * sizeof(size_t));
	size_t *newpos = malloc((d->nentries + 1) * sizeof(size_t));
	size_t i;

	if (!order || !newpos) {
		/* Out of memory: leave the (valid) match order. */
		free(order);
		free(newpos);
		return;
	}
	for (i = 0; i < d->nentries; i++)
		order[i] = i;
	if (diff_order(d, order, d->nentries) < 0) {
		free(order);
		free(newpos);
		return;
	}
	for (i = 0; i < d->nentries; i++)
		newpos[order[i]] = i;
	/*
	 * In place, a cycle of the permutation at a time: a sorted copy
	 * was megabytes of fresh pages (a fault and a clearing each).
	 * order[k] is the entry that goes to k; a position is done once
	 * order[k] == k (set as each is filled).
	 */
	for (i = 0; i < d->nentries; i++) {
		struct diff_entry held;
		size_t j = i;

		if (order[i] == i)
			continue;
		held = d->entries[i];
		while (order[j] != i) {
			size_t from = order[j];

			d->entries[j] = d->entries[from];
			order[j] = j;
			j = from;
		}
		d->entries[j] = held;
		order[j] = j;
	}
	for (i = 0; i < d->narcs; i++) {
		d->arcs[i].parent = (uint32_t)newpos[d->arcs[i].parent];
		d->arcs[i].child = (uint32_t)newpos[d->arcs[i].child];
	}
	for (i = 0; i < d->nentries; i++)
		if (d->entries[i].moved_peer >= 0)
			d->entries[i].moved_peer = (long)newpos[d->entries[i].moved_peer];
	free(order);
	free(newpos);
}

long diff_find(const struct diff *d, const char *name)
{
	size_t i;

	for (i = 0; i < d->nentries; i++)
		if (strcmp(d->entries[i].name, name) == 0 ||
		    strcmp(d->entries[i].print_name, name) == 0)
			return (long)i;
	return -1;
}

void diff_release(struct diff *d)
{
	size_t i;

	for (i = 0; i < d->nowned; i++)
		free(d->owned[i]);
	free(d->owned);
	for (i = 0; i < d->nentries; i++) {
		free(d->entries[i].rank_diff);
		free(d->entries[i].rank_excess);
		free(d->entries[i].rank_sigma);
		free(d->entries[i].rank_zmax);
		free(d->entries[i].rank_changed);
		free(d->entries[i].rank_stat);
	}
	free(d->entries);
	free(d->ranks);
	free(d->rank_speed);
	free(d->rank_outside_speed);
	free(d->rank_totals);
	free(d->arcs);
	memset(d, 0, sizeof(*d));
}
