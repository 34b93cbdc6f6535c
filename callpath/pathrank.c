/*
 * pathrank.c - rank a tree's paths in the order of their texts.
 */
#include "callpath/pathrank.h"

#include <stdlib.h>
#include <string.h>

#include "utils/banned.h"

/* A node itself (subtree 0: key is its segment) or every path below it
 * (subtree 1: key is its segment and the separator). */
struct entry {
	const char *key;
	uint32_t node;
	uint32_t subtree;
};

/* One sibling group being walked: its sorted entries, the next one. */
struct group {
	struct entry *e;
	char *keys;
	uint32_t n, pos;
};

static int cmp_entries(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	if (c)
		return c;
	if (a->node != b->node)
		return a->node < b->node ? -1 : 1;
	return (int)a->subtree - (int)b->subtree;
}

/* The entries of the children of the nodes slots[0..ns) (slot 0: the
 * root's, slot i + 1: node i's), sorted. */
static int group_build(struct group *g, const uint32_t *slots, uint32_t ns,
		       const uint32_t *first, const uint32_t *all_kids,
		       pathrank_segment_fn segment, void *ctx, const char *sep)
{
	size_t seplen = strlen(sep), used = 0, alloc = 256;
	size_t *off = NULL;
	uint32_t nk = 0;

	for (uint32_t s = 0; s < ns; s++)
		nk += first[slots[s] + 1] - first[slots[s]];
	g->n = g->pos = 0;
	g->e = malloc(((size_t)nk * 2 + 1) * sizeof(*g->e));
	g->keys = malloc(alloc);
	off = malloc(((size_t)nk * 2 + 1) * sizeof(*off));
	if (!g->e || !g->keys || !off)
		goto oom;
	for (uint32_t k = 0, s = 0, j = first[slots[0]]; k < nk; k++, j++) {
		uint32_t c;

		while (j == first[slots[s] + 1])
			j = first[slots[++s]];
		c = all_kids[j];
		int has_kids = first[c + 2] > first[c + 1];
		size_t len;

		for (;;) {
			/* room for the segment twice: alone and with sep */
			len = segment(ctx, c, g->keys + used, alloc - used);
			if (used + 2 * (len + 1) + seplen <= alloc)
				break;
			alloc = 2 * (used + 2 * (len + 1) + seplen);
			char *nb = realloc(g->keys, alloc);

			if (!nb)
				goto oom;
			g->keys = nb;
		}
		off[g->n] = used;
		g->e[g->n++] = (struct entry){ NULL, c, 0 };
		used += len + 1;
		if (has_kids) {
			memcpy(g->keys + used, g->keys + off[g->n - 1], len);
			memcpy(g->keys + used + len, sep, seplen + 1);
			off[g->n] = used;
			g->e[g->n++] = (struct entry){ NULL, c, 1 };
			used += len + seplen + 1;
		}
	}
	/* keys moved with every realloc: point into them only now */
	for (uint32_t i = 0; i < g->n; i++)
		g->e[i].key = g->keys + off[i];
	qsort(g->e, g->n, sizeof(*g->e), cmp_entries);
	free(off);
	return 0;
oom:
	free(off);
	free(g->e);
	free(g->keys);
	g->e = NULL;
	g->keys = NULL;
	return -1;
}

int pathrank(uint32_t n, const uint32_t *parent, pathrank_segment_fn segment,
	     void *ctx, const char *sep, uint32_t *rank)
{
	/* children of node i: kids[first[i + 1]..first[i + 2]); of the root:
	 * kids[first[0]..first[1]) */
	uint32_t *first = calloc((size_t)n + 2, sizeof(*first));
	uint32_t *kids = malloc(((size_t)n + 1) * sizeof(*kids));
	struct group *stack = NULL;
	uint32_t *slots = malloc(((size_t)n + 1) * sizeof(*slots)), ns = 1;
	uint32_t sp = 0, alloc_stack = 0, next = 0;
	int ret = -1;

	if (!first || !kids || !slots)
		goto out;
	for (uint32_t i = 0; i < n; i++)
		first[(parent[i] == PATHRANK_ROOT ? 0 : parent[i] + 1) + 1]++;
	for (uint32_t s = 1; s <= n + 1; s++)
		first[s] += first[s - 1];
	/* fill by advancing each start, then shift the starts back */
	for (uint32_t i = 0; i < n; i++)
		kids[first[parent[i] == PATHRANK_ROOT ? 0 : parent[i] + 1]++] = i;
	for (uint32_t s = n + 1; s > 0; s--)
		first[s] = first[s - 1];
	first[0] = 0;

	/* depth-first without recursion: paths can be 100,000 deep.  Siblings
	 * with equal segments have their subtrees merged into one group, so
	 * that paths below them interleave as their texts do. */
	slots[0] = 0;
	for (;;) {
		if (sp == alloc_stack) {
			uint32_t na = alloc_stack ? 2 * alloc_stack : 64;
			struct group *ns = realloc(stack, (size_t)na * sizeof(*ns));

			if (!ns)
				goto out;
			stack = ns;
			alloc_stack = na;
		}
		if (group_build(&stack[sp], slots, ns, first, kids, segment, ctx,
				sep) < 0)
			goto out;
		sp++;
		ns = 0;
		while (sp && !ns) {
			struct group *g = &stack[sp - 1];
			const struct entry *e = &g->e[g->pos];

			if (g->pos == g->n) {
				free(g->e);
				free(g->keys);
				sp--;
				continue;
			}
			g->pos++;
			if (!e->subtree) {
				rank[e->node] = next++;
				continue;
			}
			slots[ns++] = e->node + 1;
			for (; g->pos < g->n && g->e[g->pos].subtree &&
			       !strcmp(g->e[g->pos].key, e->key); g->pos++)
				slots[ns++] = g->e[g->pos].node + 1;
		}
		if (!sp)
			break;
	}
	ret = 0;
out:
	while (sp) {
		sp--;
		free(stack[sp].e);
		free(stack[sp].keys);
	}
	free(stack);
	free(slots);
	free(first);
	free(kids);
	return ret;
}
