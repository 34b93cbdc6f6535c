#include <stdlib.h>
#include <string.h>
#include "diff/clones.h"
#include "diff/match.h"
#include "utils/error.h"
#include "utils/banned.h"

struct by_name {
	const char *name;
	size_t index;
};

static int cmp_by_name(const void *l, const void *r)
{
	const struct by_name *a = l, *b = r;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return (a->index > b->index) - (a->index < b->index);
}

static int is_real(const struct profile_sym *s)
{
	return !(s->flags & PSYM_CYCLE);
}

static int same_file(const struct profile_sym *a, const struct profile_sym *b)
{
	return !a->file || !b->file || strcmp(a->file, b->file) == 0;
}

/* The first entry of sorted[0..n) named `name` whose file fits s, or -1. */
static long find_named(const struct by_name *sorted, size_t n, const char *name,
		       const struct profile *p, const struct profile_sym *s)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(sorted[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && strcmp(sorted[lo].name, name) == 0; lo++)
		if (same_file(&p->syms[sorted[lo].index], s))
			return (long)sorted[lo].index;
	return -1;
}

/*
 * rep[i]: the symbol that absorbs symbol i (i itself when it stays).  The
 * base is looked up among the symbols that are not clones; clones without
 * one gather under the first of them (in address order), renamed later.
 */
static int find_reps(const struct profile *p, size_t *rep)
{
	struct by_name *plain = malloc((p->nsyms + 1) * sizeof(*plain));
	size_t *orphans = malloc((p->nsyms + 1) * sizeof(*orphans));
	size_t nplain = 0, norphans = 0, i, k;
	char base[512];

	if (!plain || !orphans) {
		free(plain);
		free(orphans);
		return error("out of memory");
	}
	for (i = 0; i < p->nsyms; i++) {
		rep[i] = i;
		if (is_real(&p->syms[i]) && !match_clone_base(p->syms[i].name, NULL, 0))
			plain[nplain++] = (struct by_name){ p->syms[i].name, i };
	}
	qsort(plain, nplain, sizeof(*plain), cmp_by_name);
	for (i = 0; i < p->nsyms; i++) {
		const struct profile_sym *s = &p->syms[i];
		size_t len = is_real(s) ? match_clone_base(s->name, base, sizeof(base)) : 0;
		long r;

		if (!len || len >= sizeof(base))
			continue;
		r = find_named(plain, nplain, base, p, s);
		for (k = 0; r < 0 && k < norphans; k++) {
			const struct profile_sym *o = &p->syms[orphans[k]];

			if (strncmp(o->name, base, len) == 0 &&
			    match_clone_base(o->name, NULL, 0) == len && same_file(o, s))
				r = (long)orphans[k];
		}
		if (r < 0)
			orphans[norphans++] = i; /* the first clone of an absent base */
		else
			rep[i] = (size_t)r;
	}
	free(plain);
	free(orphans);
	return 0;
}

/* The suffixes of the symbols in group[0..n) (those r absorbs, in index
 * order, r among them), as ".constprop.0, .cold"; NULL when out of memory. */
static char *suffixes(const struct profile *p, const size_t *group, size_t n)
{
	size_t len = 1, i, k;
	char *out, *at;

	for (i = 0; i < n; i++)
		len += strlen(p->syms[group[i]].name) + 2;
	if (!(out = malloc(len)))
		return NULL;
	at = out;
	*at = '\0';
	for (i = 0; i < n; i++) {
		const char *name = p->syms[group[i]].name;

		if (!(k = match_clone_base(name, NULL, 0)))
			continue;
		if (at != out) {
			memcpy(at, ", ", 2);
			at += 2;
		}
		len = strlen(name + k);
		memcpy(at, name + k, len + 1);
		at += len;
	}
	return out;
}

/*
 * group[start[r]..start[r + 1]): the symbols whose rep is r, in index
 * order: a counting sort, so that finding each group's members costs one
 * pass over the symbols, not one per group (20,000 functions: seconds).
 */
static void group_by_rep(size_t nsyms, const size_t *rep, size_t *start, size_t *group)
{
	size_t i;

	memset(start, 0, (nsyms + 1) * sizeof(*start));
	for (i = 0; i < nsyms; i++)
		start[rep[i] + 1]++;
	for (i = 0; i < nsyms; i++)
		start[i + 1] += start[i];
	for (i = 0; i < nsyms; i++)
		group[start[rep[i]]++] = i;
	/* start[r] now ends group r: shift back to where each one starts */
	for (i = nsyms; i > 0; i--)
		start[i] = start[i - 1];
	start[0] = 0;
}

/* r's new name and print name: the base's, with what it absorbed. */
static int rename_rep(struct profile *p, struct profile_sym *s, const char *absorbed)
{
	size_t nlen = match_clone_base(s->name, NULL, 0);
	size_t plen = match_clone_base(s->print_name, NULL, 0);
	size_t n;
	char *name = NULL, *pn;

	if (!plen)
		plen = strlen(s->print_name);
	if (nlen && !(name = strndup(s->name, nlen)))
		return error("out of memory");
	n = plen + strlen(CLONES_NOTE) + strlen(absorbed) + 2;
	if (!(pn = malloc(n))) {
		free(name);
		return error("out of memory");
	}
	snprintf(pn, n, "%.*s%s%s)", (int)plen, s->print_name, CLONES_NOTE, absorbed);
	if (name) {
		profile_str_free(p, s->name);
		s->name = name;
	}
	profile_str_free(p, s->print_name);
	s->print_name = pn;
	return 0;
}

static void absorb(struct profile_sym *r, const struct profile_sym *m)
{
	r->self_ticks += m->self_ticks;
	r->ncalls += m->ncalls;
	r->self_calls += m->self_calls;
	r->prop_self += m->prop_self;
	r->prop_child += m->prop_child;
	r->child_ticks += m->child_ticks;
	r->flags |= m->flags & (PSYM_IN_FLAT | PSYM_IN_GRAPH);
	if (!r->cycle)
		r->cycle = m->cycle;
	if (m->end_addr > r->end_addr && m->addr >= r->addr)
		r->end_addr = m->end_addr;
}

/* A call between two parts of one function is a call within it: upstream
 * counted it in the callee's calls and its time in the caller's children. */
static void fold_internal(struct profile_sym *r, const struct profile_arc *a)
{
	double t = a->time + a->child_time;

	r->ncalls -= a->count < r->ncalls ? a->count : r->ncalls;
	r->self_calls += a->count;
	r->prop_child = r->prop_child > t ? r->prop_child - t : 0;
	r->child_ticks = r->child_ticks > t ? r->child_ticks - t : 0;
}

struct arc_key {
	size_t parent, child, index;
};

static int cmp_arc_key(const void *l, const void *r)
{
	const struct arc_key *a = l, *b = r;

	if (a->parent != b->parent)
		return (a->parent > b->parent) - (a->parent < b->parent);
	if (a->child != b->child)
		return (a->child > b->child) - (a->child < b->child);
	return (a->index > b->index) - (a->index < b->index);
}

/* Whether p has a clone at all: without one nothing changes, and the
 * sorts and tables below were a fifth of a 20,000-function diff worker's
 * writing of its profile. */
static int has_clone(const struct profile *p)
{
	size_t i;

	for (i = 0; i < p->nsyms; i++)
		if (is_real(&p->syms[i]) && match_clone_base(p->syms[i].name, NULL, 0))
			return 1;
	return 0;
}

int profile_merge_clones(struct profile *p)
{
	size_t nsyms = p->nsyms, i, j, n, na, changed = 0;
	size_t *rep, *newi, *start, *group;
	struct arc_key *keys;
	unsigned char *drop;
	char **notes;
	int ret = -1;

	if (!has_clone(p))
		return 0;
	rep = malloc((nsyms + 1) * sizeof(*rep));
	newi = malloc((nsyms + 1) * sizeof(*newi));
	start = malloc((nsyms + 1) * sizeof(*start));
	group = malloc((nsyms + 1) * sizeof(*group));
	keys = malloc((p->narcs + 1) * sizeof(*keys));
	drop = calloc(p->narcs + 1, 1);
	notes = calloc(nsyms + 1, sizeof(*notes));
	if (!rep || !newi || !start || !group || !keys || !drop || !notes) {
		error("out of memory");
		goto out;
	}
	if (find_reps(p, rep) < 0)
		goto out;
	group_by_rep(nsyms, rep, start, group);
	/* Every allocation before the first change: on failure p is intact. */
	for (i = 0; i < nsyms; i++) {
		int absorbs;

		if (rep[i] != i)
			continue;
		absorbs = (is_real(&p->syms[i]) && match_clone_base(p->syms[i].name, NULL, 0)) ||
			  start[i + 1] - start[i] > 1;
		if (absorbs && !(notes[i] = suffixes(p, group + start[i],
						     start[i + 1] - start[i]))) {
			error("out of memory");
			goto out;
		}
		changed += absorbs;
	}
	ret = 0;
	if (!changed)
		goto out;
	for (i = 0; i < nsyms; i++)
		if (notes[i] && rename_rep(p, &p->syms[i], notes[i]) < 0) {
			ret = -1; /* names only: the numbers are still upstream's */
			goto out;
		}
	for (i = 0; i < nsyms; i++)
		if (rep[i] != i)
			absorb(&p->syms[rep[i]], &p->syms[i]);

	/* Arcs: remap, fold the internal ones, sum duplicates into the first
	 * (which keeps its place in upstream's order). */
	for (i = na = 0; i < p->narcs; i++) {
		const struct profile_arc *a = &p->arcs[i];
		size_t pp = rep[a->parent], cc = rep[a->child];

		if (pp == cc && a->parent != a->child) {
			fold_internal(&p->syms[pp], a);
			drop[i] = 1;
			continue;
		}
		keys[na++] = (struct arc_key){ pp, cc, i };
	}
	qsort(keys, na, sizeof(*keys), cmp_arc_key);
	for (i = 0; i < na; i = j) {
		struct profile_arc *first = &p->arcs[keys[i].index];

		for (j = i + 1; j < na && keys[j].parent == keys[i].parent &&
				keys[j].child == keys[i].child; j++) {
			const struct profile_arc *dup = &p->arcs[keys[j].index];

			first->count += dup->count;
			first->time += dup->time;
			first->child_time += dup->child_time;
			drop[keys[j].index] = 1;
		}
	}

	/* Compact the symbols, then renumber the arcs. */
	for (i = n = 0; i < nsyms; i++) {
		if (rep[i] != i) {
			profile_str_free(p, p->syms[i].name);
			profile_str_free(p, p->syms[i].print_name);
			profile_str_free(p, p->syms[i].file);
			profile_str_free(p, p->syms[i].unit);
			continue;
		}
		newi[i] = n;
		p->syms[n++] = p->syms[i];
	}
	p->nsyms = n;
	for (i = na = 0; i < p->narcs; i++) {
		struct profile_arc a = p->arcs[i];

		if (drop[i])
			continue;
		a.parent = (uint32_t)newi[rep[a.parent]];
		a.child = (uint32_t)newi[rep[a.child]];
		p->arcs[na++] = a;
	}
	p->narcs = na;
out:
	for (i = 0; notes && i < nsyms; i++)
		free(notes[i]);
	free(notes);
	free(drop);
	free(rep);
	free(newi);
	free(start);
	free(group);
	free(keys);
	return ret;
}
