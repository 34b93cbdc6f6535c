/*
 * recursion.c - the frame that made a folded node's recursive calls
 * (recursion.h).
 */
#include "model/recursion.h"

#include <stdlib.h>
#include <string.h>

#include "utils/banned.h"

struct cand {
	uint64_t func;
	uint32_t tin;	/* its place in depth-first order */
	uint32_t node;
};

static int cmp_cand(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;

	if (a->func != b->func)
		return a->func < b->func ? -1 : 1;
	return (a->tin > b->tin) - (a->tin < b->tin);
}

/* First candidate at or after (func, tin) in the sorted c[0..n). */
static uint32_t lower_bound(const struct cand *c, uint32_t n, uint64_t func,
			    uint32_t tin)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (c[mid].func < func || (c[mid].func == func && c[mid].tin < tin))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int recursion_makers(uint32_t n, const uint32_t *parent, uint32_t none,
		     const uint64_t *func, const unsigned char *folded,
		     const uint64_t *caller, uint32_t *maker)
{
	/* children of i: kids[first[i + 1] .. first[i + 2]); roots: first[0] .. */
	uint32_t *first = calloc((size_t)n + 2, sizeof(*first));
	uint32_t *kids = malloc(((size_t)n + 1) * sizeof(*kids));
	uint32_t *stack = malloc(((size_t)n + 1) * sizeof(*stack));
	uint32_t *tin = malloc(((size_t)n + 1) * sizeof(*tin));
	uint32_t *tout = malloc(((size_t)n + 1) * sizeof(*tout));
	struct cand *c = malloc(((size_t)n + 1) * sizeof(*c));
	uint32_t sp = 0, t = 0, nc = 0;
	int ret = -1;

	if (!first || !kids || !stack || !tin || !tout || !c)
		goto out;
	for (uint32_t i = 0; i < n; i++) {
		maker[i] = none;
		first[(parent[i] == none ? 0 : parent[i] + 1) + 1]++;
	}
	for (uint32_t s = 1; s <= n + 1; s++)
		first[s] += first[s - 1];
	for (uint32_t i = 0; i < n; i++)
		kids[first[parent[i] == none ? 0 : parent[i] + 1]++] = i;
	for (uint32_t s = n + 1; s > 0; s--)
		first[s] = first[s - 1];
	first[0] = 0;
	/* preorder numbers; a subtree is [tin, tout).  Without recursion:
	 * paths can be as deep as the tree. */
	for (uint32_t j = first[1]; j > first[0]; j--)
		stack[sp++] = kids[j - 1];
	while (sp) {
		uint32_t i = stack[--sp];

		tin[i] = t++;
		for (uint32_t j = first[i + 2]; j > first[i + 1]; j--)
			stack[sp++] = kids[j - 1];
	}
	/* tout: children come after their parent in index order */
	for (uint32_t i = 0; i < n; i++)
		tout[i] = tin[i] + 1;
	for (uint32_t i = n; i-- > 0;)
		if (parent[i] != none && tout[i] > tout[parent[i]])
			tout[parent[i]] = tout[i];
	for (uint32_t i = 0; i < n; i++)
		if (!folded[i] && func[i] != RECURSION_UNKNOWN)
			c[nc++] = (struct cand){ func[i], tin[i], i };
	qsort(c, nc, sizeof(*c), cmp_cand);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = parent[i], lo;

		if (!folded[i] || p == none || caller[i] == RECURSION_UNKNOWN)
			continue;
		lo = lower_bound(c, nc, caller[i], tin[p]);
		if (lo < nc && c[lo].func == caller[i] && c[lo].tin < tout[p] &&
		    !(lo + 1 < nc && c[lo + 1].func == caller[i] &&
		      c[lo + 1].tin < tout[p]))
			maker[i] = c[lo].node;
	}
	ret = 0;
out:
	free(first);
	free(kids);
	free(stack);
	free(tin);
	free(tout);
	free(c);
	return ret;
}
