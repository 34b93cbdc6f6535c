#include <math.h>
#include <stdio.h>
#include <string.h>
#include "diff/evidence.h"
#include "utils/banned.h"

int evidence_calls_exact(const struct diff_entry *e)
{
	return e->side[DIFF_BASE].has_exact_calls && e->side[DIFF_SECOND].has_exact_calls;
}

/* The counts the evidence compares: the sidecars' exact ones when both
 * sides have them (they win over gmon's lossy threaded counts), else
 * gmon's. */
void evidence_call_counts(const struct diff_entry *e, uint64_t *a, uint64_t *b)
{
	int exact = evidence_calls_exact(e);

	*a = exact ? e->side[DIFF_BASE].exact_calls : e->side[DIFF_BASE].calls;
	*b = exact ? e->side[DIFF_SECOND].exact_calls : e->side[DIFF_SECOND].calls;
}

static void calls_evidence(const struct diff *d, struct diff_entry *e)
{
	uint64_t a, b;

	evidence_call_counts(e, &a, &b);

	e->calls_factor = 0;
	if (a == b) {
		e->calls_evidence = CALLS_SAME;
		return;
	}
	if (a && b) {
		e->calls_factor = a > b ? (double)a / (double)b : (double)b / (double)a;
		e->calls_evidence = e->calls_factor >= d->opts.calls_factor ?
			CALLS_CHANGED : CALLS_WITHIN;
	} else {
		e->calls_evidence = CALLS_CHANGED; /* called in one run only */
	}
}

static double implied_sec(const struct diff_entry *e)
{
	double top = fmax(e->side[DIFF_BASE].self_sec, e->side[DIFF_SECOND].self_sec);

	if (e->calls_evidence != CALLS_CHANGED)
		return 0;
	return e->calls_factor > 0 ? top * (1.0 - 1.0 / e->calls_factor) : top;
}

/* The one-sided entry's callers on the side it exists in: the one whose
 * self time moved most the opposite way. */
static long moved_caller(const struct diff *d, size_t x, int side)
{
	const struct diff_entry *ex = &d->entries[x];
	double best = 0;
	long peer = -1;
	size_t k;

	for (k = 0; k < d->narcs; k++) {
		const struct diff_arc *a = &d->arcs[k];
		const struct diff_entry *c = &d->entries[a->parent];

		if (a->child != x || !a->present[side] || a->parent == x ||
		    !c->side[0].present || !c->side[1].present)
			continue;
		if (c->self_diff * ex->self_diff >= 0 ||
		    fabs(c->self_diff) < 0.25 * fabs(ex->self_diff))
			continue;
		if (fabs(c->self_diff) > best) {
			best = fabs(c->self_diff);
			peer = (long)a->parent;
		}
	}
	return peer;
}

static void moved_cost(struct diff *d)
{
	size_t i;

	for (i = 0; i < d->nentries; i++)
		d->entries[i].moved_peer = -1;
	for (i = 0; i < d->nentries; i++) {
		struct diff_entry *e = &d->entries[i];
		int side = e->side[DIFF_BASE].present ? DIFF_BASE : DIFF_SECOND;
		long c;

		if (e->side[0].present == e->side[1].present || e->self_diff == 0 ||
		    (e->flags & PSYM_CYCLE))
			continue;
		if ((c = moved_caller(d, i, side)) < 0)
			continue;
		e->moved_peer = c;
		d->entries[c].moved_peer = (long)i;
		e->moved_total_diff = d->entries[c].self_diff + d->entries[c].child_diff;
		d->entries[c].moved_total_diff = e->moved_total_diff;
	}
}

void evidence_apply(struct diff *d)
{
	size_t i;

	moved_cost(d);
	for (i = 0; i < d->nentries; i++) {
		struct diff_entry *e = &d->entries[i];
		double a = e->side[DIFF_BASE].self_sec, b = e->side[DIFF_SECOND].self_sec;

		calls_evidence(d, e);
		e->ratio = a > 0 ? b / a : 0;
		e->evidence_sec = fmax(fabs(e->excess_sec), implied_sec(e));
		e->significant = (e->self_diff != 0 && e->excess_sec != 0 &&
				  e->noise == NOISE_NONE) ||
				 e->calls_evidence == CALLS_CHANGED || e->nranks_changed > 0;
	}
	/* A caller that took in an inlined function's cost is as significant
	 * as the cost it took in. */
	for (i = 0; i < d->nentries; i++) {
		struct diff_entry *e = &d->entries[i];

		if (e->moved_peer >= 0 && d->entries[e->moved_peer].significant)
			e->significant = 1;
	}
}

const char *evidence_calls_text(char *buf, size_t n, const struct diff_entry *e)
{
	uint64_t a, b;

	evidence_call_counts(e, &a, &b);
	if (!a && b)
		snprintf(buf, n, "calls new");
	else if (a && !b)
		snprintf(buf, n, "calls gone");
	else if (e->calls_factor >= 1 && e->calls_factor < 1000 &&
		 e->calls_factor == (double)(int)e->calls_factor)
		/* "%.3g" of a whole number under 1000 is its digits: a row's
		 * snprintf less for the common "x2", "/10" */
		snprintf(buf, n, "calls %c%d", b >= a ? 'x' : '/', (int)e->calls_factor);
	else if (b >= a)
		snprintf(buf, n, "calls x%.3g", e->calls_factor);
	else
		snprintf(buf, n, "calls /%.3g", e->calls_factor);
	return buf;
}
