/*
 * The evidence behind the significant rows of a flat table, one line (or
 * two) per row in the table's order, after the table: where gprof prints
 * nothing, so that a gprof-text parser reads the table unchanged.  Every
 * number is baseline - second, as in the tables; call counts are shown
 * "baseline -> second".
 */
#define _GNU_SOURCE /* qsort_r */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff/print.h"
#include "diff/evidence.h"
#include "utils/error.h"
#include "utils/line.h"
#include "utils/banned.h"

/* Each row's text is assembled in a line (utils/line.h) and written a few
 * KiB at a time: fprintf per clause was a tenth of a big diff's printing. */

/* " from call-path samples at 1000 Hz" (or "at 1000 and 500 Hz") */
static void source_clause(struct line *l, const struct diff *d)
{
	double a = d->prof[DIFF_BASE]->hz, b = d->prof[DIFF_SECOND]->hz;
	char buf[96];

	if (d->prof[DIFF_BASE]->measure.metric[0])
		return;	/* an event's: the header says where it comes from */
	if (a == b)
		snprintf(buf, sizeof(buf), " from call-path samples at %g Hz", a);
	else
		snprintf(buf, sizeof(buf), " from call-path samples at %g and %g Hz", a, b);
	line_str(l, buf);
}

/* A value in the diff's unit: " s" of seconds to 0.01, an event's count. */
static void value(struct line *l, const struct diff_print_opts *po, double v, int plus)
{
	int dec = po->unit ? po->decimals : 2;

	if (plus)
		line_fixed_plus(l, v, dec);
	else
		line_fixed(l, v, 0, dec);
	line_char(l, ' ');
	line_str(l, po->unit && po->metric ? po->unit : "s");
}

static void time_clause(struct line *l, const struct diff *d, const struct diff_print_opts *po,
			const struct diff_entry *e, const char **sep)
{
	double t = e->self_diff;

	if (t == 0)
		return;
	/* "%stime %+.2f s" */
	line_str(l, *sep);
	line_str(l, po->metric ? po->metric : "time");
	line_char(l, ' ');
	value(l, po, t, 1);
	if (diff_from_sidecars(d))
		source_clause(l, d);
	if (e->excess_sec != t) {
		line_put(l, " (", 2);
		value(l, po, e->excess_sec, 1);
		line_str(l, " at the runs' common speed)");
	}
	/* ", %s noise %.2f s" */
	line_str(l, e->noise == NOISE_NONE ? ", beyond noise " : ", within noise ");
	value(l, po, e->noise_sec, 0);
	*sep = "; ";
}

static void calls_clause(struct line *l, const struct diff *d, const struct diff_entry *e,
			 const char **sep)
{
	char buf[48];
	uint64_t a, b;

	if (e->calls_evidence != CALLS_CHANGED)
		return;
	evidence_call_counts(e, &a, &b);
	/* "%s%s (%s%llu -> %llu)" */
	line_str(l, *sep);
	line_str(l, evidence_calls_text(buf, sizeof(buf), e));
	line_put(l, " (", 2);
	if (evidence_calls_exact(d))
		line_str(l, "sidecar: ");
	line_uint(l, a, 0);
	line_put(l, " -> ", 4);
	line_uint(l, b, 0);
	line_char(l, ')');
	*sep = "; ";
}

static const char *side_name(int s)
{
	return s == DIFF_BASE ? "baseline" : "second run";
}

static void moved_clause(struct line *l, const struct diff *d, const struct diff_entry *e,
			 const char **sep)
{
	const struct diff_entry *p;
	int one_sided = !e->moved_caller;
	int why = e->moved_why;

	if (e->moved_peer < 0)
		return;
	p = &d->entries[e->moved_peer];
	line_str(l, *sep);
	if (why == MOVED_PARTIAL) {
		/* a function in both binaries: its calls from one caller went
		 * (or came) */
		const struct diff_entry *callee = e->moved_caller ? p : e;
		int gone = callee->calls_diff > 0;

		if (!e->moved_caller) {
			line_str(l, "its calls from ");
			line_str(l, p->print_name);
			line_str(l, gone ? " went: probably inlined there"
					 : " are new: probably outlined there");
		} else {
			line_str(l, gone ? "probably took in its calls of " : "probably gave out its calls of ");
			line_str(l, p->print_name);
		}
		line_str(l, "; the caller's self+children changed by ");
	} else if (one_sided) {
		/* "only in the %s: probably %s %s, whose self+children changed by %+.2f s" */
		line_str(l, "only in the ");
		line_str(l, side_name(e->side[0].present ? DIFF_BASE : DIFF_SECOND));
		line_str(l, ": probably ");
		line_str(l, e->side[0].present ? "inlined into" : "outlined from");
		line_str(l, why == MOVED_ONLY ? " its only caller " : " ");
		line_str(l, p->print_name);
		if (why == MOVED_SIZE || why == MOVED_TAIL) {
			int here = e->side[0].present ? DIFF_BASE : DIFF_SECOND;
			uint64_t a = evidence_code_size(d, p, here), b = evidence_code_size(d, p, !here);

			line_str(l, why == MOVED_TAIL ? " (which tail-called it: gprof saw the calls"
							" from its caller; its code " : " (its code ");
			line_uint(l, a, 0);
			line_put(l, " -> ", 4);
			line_uint(l, b, 0);
			line_str(l, " bytes)");
		}
		line_str(l, ", whose self+children changed by ");
	} else {
		/* "probably took in %s (only in the %s); self+children changed by %+.2f s" */
		line_str(l, p->side[0].present ? "probably took in " : "probably gave out ");
		line_str(l, p->print_name);
		line_str(l, " (only in the ");
		line_str(l, side_name(p->side[0].present ? DIFF_BASE : DIFF_SECOND));
		if (why == MOVED_TAIL)
			line_str(l, ", which it tail-called");
		line_str(l, "); self+children changed by ");
	}
	line_fixed_plus(l, e->moved_total_diff, 2);
	line_put(l, " s", 2);
	*sep = "; ";
}

static void ranks_clause(struct line *l, const struct diff *d, const struct diff_entry *e,
			 const char **sep)
{
	size_t k, shown = 0;
	double sum = 0;

	if (!e->rank_diff)
		return;
	if (e->nranks_changed && e->ranks_alike) {
		/* one change of the function, on every rank */
		for (k = 0; k < d->nranks; k++)
			sum += e->rank_diff[k];
		line_str(l, *sep);
		line_str(l, "every rank alike, ");
		line_fixed_plus(l, sum / (double)d->nranks, 2);
		line_str(l, " s each on average");
	}
	for (k = 0; !e->ranks_alike && k < d->nranks; k++) {
		if (!e->rank_changed[k])
			continue;
		if (shown++ == 4) {
			/* ", ... (%zu ranks)" */
			line_str(l, ", ... (");
			line_uint(l, e->nranks_changed, 0);
			line_str(l, " ranks)");
			break;
		}
		/* "%srank %d %+.2f s" */
		line_str(l, shown == 1 ? *sep : ", ");
		line_str(l, "rank ");
		line_int(l, d->ranks[k], 0);
		line_char(l, ' ');
		line_fixed_plus(l, e->rank_diff[k], 2);
		line_put(l, " s", 2);
	}
	if (e->nranks_changed == 0) {
		line_str(l, *sep);
		line_str(l, "no rank beyond its noise");
	} else if (!e->ranks_alike && e->nranks_changed < d->nranks) {
		line_str(l, ", other ranks within noise");
	}
	line_str(l, "; slowest rank ");
	line_fixed_plus(l, e->slowest_diff, 2);
	line_put(l, " s", 2);
	*sep = "; ";
}

/* How many callers a row outside the program names. */
#define CALLERS_SHOWN 3

/*
 * Where a row's time changed: a row outside the program's functions (a
 * library function, the instrumentation, unknown code) has no calls of its
 * own, and a function called from several places may have changed under
 * one of them; its callers say where.  "under use_libm 0.34 -> 1.00 s,
 * main 0.01 -> 0.01 s": the callers whose time along the call changed most
 * first.
 */
static void callers_clause(struct line *l, const struct diff *d, const struct diff_arc_index *ix,
			   const struct diff_print_opts *po, size_t entry, const char **sep)
{
	size_t best[CALLERS_SHOWN], nbest = 0, ncallers = 0;

	for (size_t j = ix->in_at[entry]; j < ix->in_at[entry + 1]; j++)
		ncallers += d->arcs[ix->in[j]].parent != entry;
	if (!(d->entries[entry].flags & PSYM_KINDS) &&
	    (ncallers < 2 || d->entries[entry].noise != NOISE_NONE || d->entries[entry].self_diff == 0))
		return;
	/* the arcs in the diff's order, as before the index: ties keep it */
	for (size_t j = ix->in_at[entry]; j < ix->in_at[entry + 1]; j++) {
		size_t k = ix->in[j];
		const struct diff_arc *a = &d->arcs[k];
		double ch = fabs(a->time_sec[0] + a->child_time_sec[0] - a->time_sec[1] -
				 a->child_time_sec[1]);
		size_t at;

		if (a->parent == entry)
			continue;
		for (at = nbest; at > 0; at--) {
			const struct diff_arc *b = &d->arcs[best[at - 1]];

			if (fabs(b->time_sec[0] + b->child_time_sec[0] - b->time_sec[1] -
				 b->child_time_sec[1]) >= ch)
				break;
			if (at < CALLERS_SHOWN)
				best[at] = best[at - 1];
		}
		if (at < CALLERS_SHOWN) {
			best[at] = k;
			if (nbest < CALLERS_SHOWN)
				nbest++;
		}
	}
	for (size_t i = 0; i < nbest; i++) {
		const struct diff_arc *a = &d->arcs[best[i]];

		line_str(l, i ? ", " : *sep);
		if (!i)
			line_str(l, "under ");
		line_str(l, d->entries[a->parent].print_name);
		line_char(l, ' ');
		line_fixed(l, a->time_sec[0] + a->child_time_sec[0], 0, po->unit ? po->decimals : 2);
		line_put(l, " -> ", 4);
		value(l, po, a->time_sec[1] + a->child_time_sec[1], 0);
	}
	if (nbest)
		*sep = "; ";
}

/*
 * Row e's evidence line, if it is significant (1, else 0): its time,
 * then, for a function of the program, its calls, ranks and moves, and for
 * a row outside the program, its callers' paths.
 */
static int evidence_line(struct line *l, FILE *out, const struct diff *d,
			 const struct diff_arc_index *ix, const struct diff_print_opts *po,
			 size_t entry)
{
	const struct diff_entry *e = &d->entries[entry];
	const char *sep = "";

	if (!e->significant)
		return 0;
	line_put(l, "  ", 2);
	line_str(l, e->print_name);
	line_put(l, ": ", 2);
	time_clause(l, d, po, e, &sep);
	calls_clause(l, d, e, &sep);
	ranks_clause(l, d, e, &sep);
	moved_clause(l, d, e, &sep);
	callers_clause(l, d, ix, po, entry, &sep);
	line_char(l, '\n');
	line_flush_over(l, out, LINE_FLUSH_BYTES);
	return 1;
}

int print_evidence(FILE *out, const struct diff *d, const struct diff_print_opts *po)
{
	const size_t *order;
	size_t *owned, n, i, shown = 0;
	struct line l = LINE_INIT;
	struct diff_arc_index ix;

	if (!po->noise_marker)
		return 0;
	if (diff_arc_index_build(d, &ix) < 0)
		return error("out of memory");
	if (print_flat_rows(d, po, &order, &n, &owned) < 0) {
		diff_arc_index_free(&ix);
		return -1;
	}
	fprintf(out, "\nEvidence for the significant rows (baseline - second; calls\n"
		     "baseline -> second):\n\n");
	for (i = 0; i < n && !l.failed; i++)
		shown += evidence_line(&l, out, d, &ix, po, order[i]);
	diff_arc_index_free(&ix);
	if (line_finish(&l, out) < 0) {
		free(owned);
		return -1;
	}
	if (!shown)
		fprintf(out, "  none: every difference is within noise.\n");
	if (n > shown)
		fprintf(out, "  Within noise: the %zu other rows.\n", n - shown);
	fputc('\n', out);
	free(owned);
	return 0;
}
