/*
 * The differential call graph, in gprof's call-graph layout.  Every number
 * is baseline minus second run:
 *
 *   primary line   [index] impact of the total change (self + children
 *                  difference over the sum of |self differences|), self and
 *                  children seconds, calls (+recursive calls)
 *   parent/child   the time along the arc, and its call count difference
 *   lines          over the function's calls difference ("10/9": the second
 *                  run calls this arc 10 times less); with --extended the
 *                  counts of both runs follow ("31 22").
 *
 * Functions are ordered by |total difference|; a function of the call graph
 * on either side is listed, with zero differences kept.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diff/print.h"
#include "utils/error.h"
#include "utils/banned.h"

struct cg_ctx {
	const struct diff *d;
	int *index;        /* entry -> printed index, 0 when not printed */
	size_t *first_in, *next_in;   /* arcs into an entry: linked lists */
	size_t *first_out, *next_out; /* arcs out of an entry */
};

#define NONE ((size_t)-1)

static double total_diff(const struct diff_entry *e)
{
	return (e->side[0].prop_self_sec + e->side[0].prop_child_sec) -
	       (e->side[1].prop_self_sec + e->side[1].prop_child_sec);
}

static const struct diff *sort_d;

static int cmp_primary(const void *lp, const void *rp)
{
	const struct diff_entry *l = &sort_d->entries[*(const size_t *)lp];
	const struct diff_entry *r = &sort_d->entries[*(const size_t *)rp];
	double tl = fabs(total_diff(l)), tr = fabs(total_diff(r));
	int64_t cl = llabs(l->calls_diff), cr = llabs(r->calls_diff);
	int c;

	if (tl != tr)
		return tl > tr ? -1 : 1;
	if (cl != cr)
		return cl > cr ? -1 : 1;
	c = strcmp(l->print_name, r->print_name);
	return c ? c : (*(const size_t *)lp < *(const size_t *)rp ? -1 : 1);
}

static double arc_total(const struct diff_arc *a)
{
	return (a->time_sec[0] + a->child_time_sec[0]) - (a->time_sec[1] + a->child_time_sec[1]);
}

static int cmp_arc(const void *lp, const void *rp)
{
	const struct diff_arc *l = &sort_d->arcs[*(const size_t *)lp];
	const struct diff_arc *r = &sort_d->arcs[*(const size_t *)rp];
	double tl = fabs(arc_total(l)), tr = fabs(arc_total(r));
	int64_t cl = llabs(l->count_diff), cr = llabs(r->count_diff);

	if (tl != tr)
		return tl > tr ? -1 : 1;
	if (cl != cr)
		return cl > cr ? -1 : 1;
	return *(const size_t *)lp < *(const size_t *)rp ? -1 : 1;
}

static void arc_line(FILE *out, const struct cg_ctx *c, const struct diff_arc *a,
		     uint32_t other, const struct diff_entry *callee,
		     const struct diff_print_opts *po)
{
	const struct diff_entry *o = &c->d->entries[other];
	char idx[32] = "";

	if (c->index[other])
		snprintf(idx, sizeof(idx), " [%d]", c->index[other]);
	if (a->parent == a->child) {
		fprintf(out, po->bsd ? "%6.6s %5.5s %7.7s %11.11s %7lld %7.7s     "
				     : "%6.6s %5.5s %7.7s %7.7s %7lld %7.7s     ",
			"", "", "", "", (long long)a->count_diff, "");
	} else {
		fprintf(out, po->bsd ? "%6.6s %5.5s %7.2f %11.2f %7lld/%-7lld     "
				     : "%6.6s %5.5s %7.2f %7.2f %7lld/%-7lld     ",
			"", "", a->time_sec[0] - a->time_sec[1],
			a->child_time_sec[0] - a->child_time_sec[1],
			(long long)a->count_diff, (long long)callee->calls_diff);
	}
	if (po->extended)
		fprintf(out, "%s%s  (%llu %llu)\n", o->print_name, idx,
			(unsigned long long)a->count[0], (unsigned long long)a->count[1]);
	else
		fprintf(out, "%s%s\n", o->print_name, idx);
}

int print_cg(FILE *out, const struct diff *d, const struct diff_print_opts *po)
{
	struct cg_ctx c = { d, NULL, NULL, NULL, NULL, NULL };
	size_t *order = NULL, *arcs = NULL, n = 0, i, k, na;
	int ret = -1;

	c.index = calloc(d->nentries + 1, sizeof(int));
	c.first_in = malloc((d->nentries + 1) * sizeof(size_t));
	c.first_out = malloc((d->nentries + 1) * sizeof(size_t));
	c.next_in = malloc((d->narcs + 1) * sizeof(size_t));
	c.next_out = malloc((d->narcs + 1) * sizeof(size_t));
	order = malloc((d->nentries + 1) * sizeof(size_t));
	arcs = malloc((d->narcs + 1) * sizeof(size_t));
	if (!c.index || !c.first_in || !c.first_out || !c.next_in || !c.next_out ||
	    !order || !arcs) {
		error("out of memory");
		goto out;
	}
	for (i = 0; i < d->nentries; i++)
		c.first_in[i] = c.first_out[i] = NONE;
	for (k = d->narcs; k-- > 0;) {
		c.next_in[k] = c.first_in[d->arcs[k].child];
		c.first_in[d->arcs[k].child] = k;
		c.next_out[k] = c.first_out[d->arcs[k].parent];
		c.first_out[d->arcs[k].parent] = k;
	}
	for (i = 0; i < d->nentries; i++) {
		const struct diff_entry *e = &d->entries[i];
		int data = c.first_in[i] != NONE || c.first_out[i] != NONE ||
			   e->side[0].has_samples || e->side[1].has_samples;

		if (e->in_graph && (data || po->zeros))
			order[n++] = i;
	}
	sort_d = d;
	qsort(order, n, sizeof(size_t), cmp_primary);
	for (i = 0; i < n; i++)
		c.index[order[i]] = (int)i + 1;

	fprintf(out, "\t\t\tCall graph (differential)\n\n");
	if (!po->brief)
		fprintf(out, "Every number is the baseline's minus the second run's.\n\n");
	fprintf(out, "index %% time    self  children    called     name\n");
	for (i = 0; i < n; i++) {
		const struct diff_entry *e = &d->entries[order[i]];
		int64_t self_calls_diff = (int64_t)e->side[0].self_calls - (int64_t)e->side[1].self_calls;
		char buf[32];

		/* Parents, then the function, then children: gprof's entry. */
		na = 0;
		for (k = c.first_in[order[i]]; k != NONE; k = c.next_in[k])
			arcs[na++] = k;
		if (na == 0)
			fprintf(out, "%6.6s %5.5s %7.7s %7.7s %7.7s %7.7s     <spontaneous>\n",
				"", "", "", "", "", "");
		qsort(arcs, na, sizeof(size_t), cmp_arc);
		for (k = 0; k < na; k++)
			arc_line(out, &c, &d->arcs[arcs[k]], d->arcs[arcs[k]].parent, e, po);

		snprintf(buf, sizeof(buf), "[%d]", c.index[order[i]]);
		fprintf(out, po->bsd ? "%-6.6s %5.1f %7.2f %11.2f" : "%-6.6s %5.1f %7.2f %7.2f",
			buf, d->abs_sum > 0 ? 100 * total_diff(e) / d->abs_sum : 0.0,
			e->side[0].prop_self_sec - e->side[1].prop_self_sec,
			e->side[0].prop_child_sec - e->side[1].prop_child_sec);
		if (e->side[0].has_calls || e->side[1].has_calls) {
			fprintf(out, " %7lld", (long long)e->calls_diff);
			if (e->side[0].self_calls || e->side[1].self_calls)
				fprintf(out, "+%-7lld ", (long long)self_calls_diff);
			else
				fprintf(out, " %7.7s ", "");
		} else {
			fprintf(out, " %7.7s %7.7s ", "", "");
		}
		fprintf(out, "%s %s%s\n", e->print_name, buf, print_noise_mark(e, po));

		na = 0;
		for (k = c.first_out[order[i]]; k != NONE; k = c.next_out[k])
			if (d->arcs[k].child != d->arcs[k].parent)
				arcs[na++] = k;
		qsort(arcs, na, sizeof(size_t), cmp_arc);
		for (k = 0; k < na; k++)
			arc_line(out, &c, &d->arcs[arcs[k]], d->arcs[arcs[k]].child,
				 &d->entries[d->arcs[arcs[k]].child], po);
		fprintf(out, "-----------------------------------------------\n");
	}
	sort_d = NULL;
	fprintf(out, "\n");
	ret = 0;
out:
	free(c.index);
	free(c.first_in);
	free(c.first_out);
	free(c.next_in);
	free(c.next_out);
	free(order);
	free(arcs);
	return ret;
}
