/*
 * --focus, --root, --depth, --exclude on a call graph of functions (the
 * rules are in filter.h).
 */
#define _GNU_SOURCE /* asprintf */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "filter/filter.h"
#include "filter/filter_private.h"
#include "utils/error.h"
#include "utils/banned.h"

const char *filter_start_option(const struct filter_opts *f)
{
	return f->focus ? "--focus" : f->root ? "--root" : NULL;
}

const char *filter_start_name(const struct filter_opts *f)
{
	return f->focus ? f->focus : f->root;
}

int filter_is_excluded(const struct filter_opts *f, const char *name)
{
	for (size_t i = 0; name && i < f->nexclude; i++)
		if (!strcmp(f->exclude[i], name))
			return 1;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Call graphs of functions                                                  */

/* Call edges both ways (CSR), self-calls left out: the callees of u are
 * dst[ostart[u] .. ostart[u+1]), its callers src[istart[u] .. istart[u+1]). */
struct adjacency {
	size_t *ostart, *dst, *istart, *src;
};

static void adjacency_free(struct adjacency *a)
{
	free(a->ostart);
	free(a->dst);
	free(a->istart);
	free(a->src);
}

static int adjacency_build(struct adjacency *a, const struct filter_graph *g)
{
	size_t nn = g->nnodes, ne = g->nedges ? g->nedges : 1, i, u, v;
	size_t *ofill = malloc((nn + 1) * sizeof(size_t));
	size_t *ifill = malloc((nn + 1) * sizeof(size_t));

	a->ostart = calloc(nn + 1, sizeof(size_t));
	a->istart = calloc(nn + 1, sizeof(size_t));
	a->dst = malloc(ne * sizeof(size_t));
	a->src = malloc(ne * sizeof(size_t));
	if (!a->ostart || !a->istart || !a->dst || !a->src || !ofill || !ifill) {
		free(ofill);
		free(ifill);
		adjacency_free(a);
		return -1;
	}
	for (i = 0; i < g->nedges; i++) {
		g->edge(g->ctx, i, &u, &v);
		if (u != v && u < nn && v < nn) {
			a->ostart[u + 1]++;
			a->istart[v + 1]++;
		}
	}
	for (i = 0; i < nn; i++) {
		a->ostart[i + 1] += a->ostart[i];
		a->istart[i + 1] += a->istart[i];
	}
	memcpy(ofill, a->ostart, (nn + 1) * sizeof(size_t));
	memcpy(ifill, a->istart, (nn + 1) * sizeof(size_t));
	for (i = 0; i < g->nedges; i++) {
		g->edge(g->ctx, i, &u, &v);
		if (u != v && u < nn && v < nn) {
			a->dst[ofill[u]++] = v;
			a->src[ifill[v]++] = u;
		}
	}
	free(ofill);
	free(ifill);
	return 0;
}

/*
 * Breadth first from the nodes queue[0..nq) (their dist[] already 0),
 * along callees (down) or callers, up to max_depth calls (< 0: no limit),
 * never into a node with allowed[] 0.  Reached nodes get their distance;
 * others keep SIZE_MAX.
 */
static void reach(const struct adjacency *a, int down, int max_depth, const char *allowed,
		  size_t *dist, size_t *queue, size_t nq)
{
	const size_t *start = down ? a->ostart : a->istart;
	const size_t *list = down ? a->dst : a->src;
	size_t head = 0;

	while (head < nq) {
		size_t u = queue[head++];

		if (max_depth >= 0 && dist[u] >= (size_t)max_depth)
			continue;
		for (size_t k = start[u]; k < start[u + 1]; k++) {
			size_t v = list[k];

			if (dist[v] == SIZE_MAX && allowed[v]) {
				dist[v] = dist[u] + 1;
				queue[nq++] = v;
			}
		}
	}
}

/* The uncalled functions among allowed[] (no caller at all in the graph). */
static size_t queue_roots(const struct filter_graph *g, const struct adjacency *a,
			  const char *allowed, size_t *dist, size_t *queue)
{
	size_t nq = 0;

	for (size_t i = 0; i < g->nnodes; i++)
		if (allowed[i] && g->name(g->ctx, i) && a->istart[i] == a->istart[i + 1]) {
			dist[i] = 0;
			queue[nq++] = i;
		}
	return nq;
}

/*
 * allowed[i] = 0 for the excluded functions and their subtrees: the
 * functions the roots reached before and no longer reach without them.
 */
static void exclude_subtrees(const struct filter_opts *f, const struct filter_graph *g,
			     const struct adjacency *a, char *allowed, size_t *before,
			     size_t *after, size_t *queue)
{
	size_t nn = g->nnodes, nq, i;

	for (i = 0; i < nn; i++) {
		allowed[i] = 1;
		before[i] = after[i] = SIZE_MAX;
	}
	nq = queue_roots(g, a, allowed, before, queue);
	reach(a, 1, -1, allowed, before, queue, nq);
	for (i = 0; i < nn; i++)
		if (filter_is_excluded(f, g->name(g->ctx, i)))
			allowed[i] = 0;
	nq = queue_roots(g, a, allowed, after, queue);
	reach(a, 1, -1, allowed, after, queue, nq);
	for (i = 0; i < nn; i++)
		if (before[i] != SIZE_MAX && after[i] == SIZE_MAX)
			allowed[i] = 0;
}

int filter_name_missing(const char *opt, const char *name, const char *where)
{
	return error("%s '%s': no such function in the %s", opt, name, where);
}

int filter_functions(const struct filter_opts *f, const struct filter_graph *g,
		     char *in, char *is_focus)
{
	const char *name = filter_start_name(f);
	struct adjacency a = { NULL, NULL, NULL, NULL };
	size_t nn = g->nnodes, i, nq = 0, n1 = nn ? nn : 1;
	size_t *down = malloc(n1 * sizeof(size_t)), *up = malloc(n1 * sizeof(size_t));
	size_t *queue = malloc(n1 * sizeof(size_t));
	char *allowed = calloc(n1, 1);
	int ret = -1;

	if (!down || !up || !queue || !allowed || adjacency_build(&a, g) < 0) {
		error("out of memory");
		goto out;
	}
	for (i = 0; i < f->nexclude; i++) {
		size_t k;

		for (k = 0; k < nn; k++)
			if (g->name(g->ctx, k) && !strcmp(g->name(g->ctx, k), f->exclude[i]))
				break;
		if (k == nn) {
			filter_name_missing("--exclude", f->exclude[i], "call graph");
			goto out;
		}
	}
	exclude_subtrees(f, g, &a, allowed, down, up, queue);
	for (i = 0; i < nn; i++) {
		const char *n = g->name(g->ctx, i);
		int start;

		down[i] = up[i] = SIZE_MAX;
		if (is_focus)
			is_focus[i] = 0;
		if (!n || !allowed[i])
			continue;
		start = name ? !strcmp(n, name) : a.istart[i] == a.istart[i + 1];
		if (start) {
			if (is_focus && name)
				is_focus[i] = 1;
			down[i] = up[i] = 0;
			queue[nq++] = i;
		}
	}
	if (name && nq == 0) {
		for (i = 0; i < nn; i++)
			if (g->name(g->ctx, i) && !strcmp(g->name(g->ctx, i), name))
				break;
		if (i < nn)
			error("%s '%s': the function is left out by --exclude",
			      filter_start_option(f), name);
		else
			filter_name_missing(filter_start_option(f), name, "call graph");
		goto out;
	}
	if (!name && f->depth < 0) {
		/* --exclude alone: everything that is left */
		for (i = 0; i < nn; i++)
			in[i] = g->name(g->ctx, i) && allowed[i];
		ret = 0;
		goto out;
	}
	reach(&a, 1, f->depth, allowed, down, queue, nq);
	if (f->focus) {
		/* the start nodes again, upwards */
		nq = 0;
		for (i = 0; i < nn; i++)
			if (up[i] == 0)
				queue[nq++] = i;
		reach(&a, 0, f->depth, allowed, up, queue, nq);
	}
	for (i = 0; i < nn; i++)
		in[i] = g->name(g->ctx, i) && allowed[i] &&
			(down[i] != SIZE_MAX || (f->focus && up[i] != SIZE_MAX));
	ret = 0;
out:
	adjacency_free(&a);
	free(down);
	free(up);
	free(queue);
	free(allowed);
	return ret;
}

char *filter_describe(const struct filter_opts *f)
{
	char *s = NULL, *t;
	size_t i;

	if (!filter_active(f))
		return NULL;
	if (asprintf(&s, "%s%s%s%s", f->focus ? "--focus " : f->root ? "--root " : "",
		     f->focus ? f->focus : f->root ? f->root : "",
		     f->depth >= 0 ? (f->focus || f->root ? " --depth " : "--depth ") : "",
		     "") < 0)
		return NULL;
	if (f->depth >= 0) {
		if (asprintf(&t, "%s%d", s, f->depth) < 0)
			goto oom;
		free(s);
		s = t;
	}
	for (i = 0; i < f->nexclude; i++) {
		if (asprintf(&t, "%s%s--exclude %s", s, *s ? " " : "", f->exclude[i]) < 0)
			goto oom;
		free(s);
		s = t;
	}
	return s;
oom:
	free(s);
	return NULL;
}
