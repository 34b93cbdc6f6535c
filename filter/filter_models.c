/*
 * The call-graph filter over profiles and diffs (filter_models.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "filter/filter_models.h"
#include "diff/diff.h"
#include "diff/profile.h"
#include "utils/error.h"
#include "utils/banned.h"

static const char *sym_name(const void *ctx, size_t i)
{
	const struct profile_sym *s = &((const struct profile *)ctx)->syms[i];

	if (s->flags & PSYM_CYCLE)
		return NULL;
	return s->print_name ? s->print_name : s->name;
}

static void sym_arc(const void *ctx, size_t e, size_t *from, size_t *to)
{
	const struct profile_arc *a = &((const struct profile *)ctx)->arcs[e];

	*from = a->parent;
	*to = a->child;
}

/* A cycle as a whole stays with any of its members. */
static void keep_cycles(size_t n, char *in, int (*cycle_of)(const void *, size_t, int *),
			const void *ctx)
{
	for (size_t i = 0; i < n; i++) {
		int whole = 0, c = cycle_of(ctx, i, &whole);

		if (!whole || !c)
			continue;
		for (size_t k = 0; k < n && !in[i]; k++) {
			int w2 = 0;

			if (in[k] && cycle_of(ctx, k, &w2) == c && !w2)
				in[i] = 1;
		}
	}
}

static int sym_cycle(const void *ctx, size_t i, int *whole)
{
	const struct profile_sym *s = &((const struct profile *)ctx)->syms[i];

	*whole = (s->flags & PSYM_CYCLE) != 0;
	return s->cycle;
}

int filter_profile(const struct filter_opts *f, const struct profile *p, char *in)
{
	struct filter_graph g = { p->nsyms, p->narcs, sym_name, sym_arc, p };

	if (!filter_active(f)) {
		memset(in, 1, p->nsyms);
		return 0;
	}
	if (filter_functions(f, &g, in, NULL) < 0)
		return -1;
	keep_cycles(p->nsyms, in, sym_cycle, p);
	return 0;
}

static const char *entry_name(const void *ctx, size_t i)
{
	const struct diff_entry *e = &((const struct diff *)ctx)->entries[i];

	if (e->flags & PSYM_CYCLE)
		return NULL;
	return e->print_name ? e->print_name : e->name;
}

static void entry_arc(const void *ctx, size_t k, size_t *from, size_t *to)
{
	const struct diff_arc *a = &((const struct diff *)ctx)->arcs[k];

	*from = a->parent;
	*to = a->child;
}

static int entry_cycle(const void *ctx, size_t i, int *whole)
{
	const struct diff_entry *e = &((const struct diff *)ctx)->entries[i];

	*whole = (e->flags & PSYM_CYCLE) != 0;
	return e->cycle;
}

int filter_diff_entries(const struct filter_opts *f, const struct diff *d, char *in)
{
	struct filter_graph g = { d->nentries, d->narcs, entry_name, entry_arc, d };

	if (!filter_active(f)) {
		memset(in, 1, d->nentries);
		return 0;
	}
	if (filter_functions(f, &g, in, NULL) < 0)
		return -1;
	keep_cycles(d->nentries, in, entry_cycle, d);
	return 0;
}

int filter_diff_view(const struct filter_opts *f, const struct diff *d, struct diff *view)
{
	size_t n1 = d->nentries ? d->nentries : 1, i, n = 0, m = 0;
	char *in = malloc(n1);
	long *newidx = malloc(n1 * sizeof(long));

	*view = *d;
	view->entries = NULL;
	view->arcs = NULL;
	view->owned = NULL;
	view->nowned = view->alloc_owned = 0;
	if (!in || !newidx)
		goto oom;
	if (filter_diff_entries(f, d, in) < 0) {
		free(in);
		free(newidx);
		return -1;
	}
	view->entries = malloc(n1 * sizeof(*view->entries));
	view->arcs = malloc((d->narcs ? d->narcs : 1) * sizeof(*view->arcs));
	if (!view->entries || !view->arcs)
		goto oom;
	for (i = 0; i < d->nentries; i++) {
		newidx[i] = in[i] ? (long)n : -1;
		if (in[i])
			view->entries[n++] = d->entries[i];
	}
	for (i = 0; i < n; i++)
		if (view->entries[i].moved_peer >= 0)
			view->entries[i].moved_peer = newidx[view->entries[i].moved_peer];
	for (i = 0; i < d->narcs; i++) {
		struct diff_arc a = d->arcs[i];

		if (newidx[a.parent] < 0 || newidx[a.child] < 0)
			continue;
		a.parent = (uint32_t)newidx[a.parent];
		a.child = (uint32_t)newidx[a.child];
		view->arcs[m++] = a;
	}
	view->nentries = n;
	view->narcs = m;
	free(in);
	free(newidx);
	return 0;
oom:
	free(in);
	free(newidx);
	filter_diff_view_release(view);
	return error("out of memory");
}

void filter_diff_view_release(struct diff *view)
{
	free(view->entries);
	free(view->arcs);
	view->entries = NULL;
	view->arcs = NULL;
	view->nentries = view->narcs = 0;
}
