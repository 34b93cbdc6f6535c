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
	char buf[96];

	if (d->cp_hz[DIFF_BASE] == d->cp_hz[DIFF_SECOND])
		snprintf(buf, sizeof(buf), " from call-path samples at %g Hz", d->cp_hz[DIFF_BASE]);
	else
		snprintf(buf, sizeof(buf), " from call-path samples at %g and %g Hz",
			 d->cp_hz[DIFF_BASE], d->cp_hz[DIFF_SECOND]);
	line_str(l, buf);
}

static void time_clause(struct line *l, const struct diff *d, const struct diff_entry *e,
			const char **sep)
{
	/* the time the test judged: the sidecars' when both sides have them */
	double t = d->time_from_sidecars ? e->cp_diff : e->self_diff;

	if (t == 0)
		return;
	/* "%stime %+.2f s" */
	line_str(l, *sep);
	line_put(l, "time ", 5);
	line_fixed_plus(l, t, 2);
	line_put(l, " s", 2);
	if (d->time_from_sidecars)
		source_clause(l, d);
	if (e->excess_sec != t) {
		line_put(l, " (", 2);
		line_fixed_plus(l, e->excess_sec, 2);
		line_str(l, " s at the runs' common speed)");
	}
	/* ", %s noise %.2f s" */
	line_str(l, e->noise == NOISE_NONE ? ", beyond noise " : ", within noise ");
	line_fixed(l, e->noise_sec, 0, 2);
	line_put(l, " s", 2);
	*sep = "; ";
}

static void calls_clause(struct line *l, const struct diff_entry *e, const char **sep)
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
	if (evidence_calls_exact(e))
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

/* The library rows in the flat tables' order (diff_entry_cmp). */
static int lib_cmp(const void *x, const void *y, void *ctx)
{
	const struct diff_entry *p = x, *q = y;
	int r;

	if ((r = diff_entry_cmp_numbers(p, q, *(const enum diff_sort_key *)ctx)))
		return r;
	if (p->significant != q->significant)
		return q->significant - p->significant;
	if (fabs(p->cp_diff) != fabs(q->cp_diff))
		return fabs(p->cp_diff) < fabs(q->cp_diff) ? 1 : -1;
	return strcmp(p->print_name, q->print_name);
}

/* The library rows to show: with samples on a side (sorted, a copy). */
static struct diff_entry *lib_rows(const struct diff *d, size_t *n)
{
	struct diff_entry *v = malloc((d->nlibs + 1) * sizeof(*v));
	enum diff_sort_key key = d->opts.sort;

	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < d->nlibs; i++)
		if (d->libs[i].side[0].cp_samples || d->libs[i].side[1].cp_samples)
			v[(*n)++] = d->libs[i];
	qsort_r(v, *n, sizeof(*v), lib_cmp, &key);
	return v;
}

int print_library_rows(FILE *out, const struct diff *d, const struct diff_print_opts *po)
{
	struct diff_entry *v;
	size_t n;

	if (!d->time_from_sidecars || !d->nlibs)
		return 0;
	if (!(v = lib_rows(d, &n)))
		return error("out of memory");
	if (n) {
		fprintf(out, "\nTime outside the program: library functions, the instrumentation, no\n"
			     "known object; from the call-path sidecars (seconds of samples at %g Hz\n"
			     "and %g Hz; gmon.out has none of it)%s.\n\n",
			d->cp_hz[DIFF_BASE], d->cp_hz[DIFF_SECOND],
			po->noise_marker ? "; ~ marks a difference within noise" : "");
		fprintf(out, "  baseline    second      diff\n"
			     "   seconds   seconds   seconds    name\n");
	}
	for (size_t i = 0; i < n; i++) {
		const struct diff_entry *e = &v[i];

		fprintf(out, "%10.2f%10.2f%+10.2f    %s%s\n", diff_tested_sec(d, e, DIFF_BASE),
			diff_tested_sec(d, e, DIFF_SECOND), e->cp_diff, e->print_name,
			po->noise_marker && e->verdict == VERDICT_NOISE ? "  ~" :
			po->noise_marker && e->verdict == VERDICT_EQUAL ? "  =" : "");
	}
	free(v);
	return ferror(out) ? -1 : 0;
}

/* A library row's callers' paths: "; from main;f 0.25 -> 0.50 s" */
static void callers_clause(struct line *l, const struct diff_entry *e, const char **sep)
{
	if (!e->library || !e->callers)
		return;
	line_str(l, *sep);
	line_str(l, "under ");
	line_str(l, e->callers);
	*sep = "; ";
}

/*
 * Row e's evidence line, if it is significant (1, else 0): its time,
 * then, for a function of the program, its calls, ranks and moves, and for
 * a row outside the program, its callers' paths.
 */
static int evidence_line(struct line *l, FILE *out, const struct diff *d,
			 const struct diff_entry *e)
{
	const char *sep = "";

	if (!e->significant)
		return 0;
	line_put(l, "  ", 2);
	line_str(l, e->print_name);
	line_put(l, ": ", 2);
	time_clause(l, d, e, &sep);
	if (e->library) {
		callers_clause(l, e, &sep);
	} else {
		calls_clause(l, e, &sep);
		ranks_clause(l, d, e, &sep);
		moved_clause(l, d, e, &sep);
	}
	line_char(l, '\n');
	line_flush_over(l, out, LINE_FLUSH_BYTES);
	return 1;
}

int print_evidence(FILE *out, const struct diff *d, const struct diff_print_opts *po)
{
	const size_t *order;
	size_t *owned, n, i, shown = 0, nlib = 0;
	struct line l = LINE_INIT;
	struct diff_entry *libs = NULL;

	if (print_library_rows(out, d, po) < 0)
		return -1;
	if (!po->noise_marker)
		return 0;
	if (d->time_from_sidecars && !(libs = lib_rows(d, &nlib)))
		return error("out of memory");
	if (print_flat_rows(d, po, &order, &n, &owned) < 0) {
		free(libs);
		return -1;
	}
	fprintf(out, "\nEvidence for the significant rows (baseline - second; calls\n"
		     "baseline -> second):\n\n");
	for (i = 0; i < n && !l.failed; i++)
		shown += evidence_line(&l, out, d, &d->entries[order[i]]);
	/* then the rows outside the program, with their callers */
	for (i = 0; i < nlib && !l.failed; i++)
		shown += evidence_line(&l, out, d, &libs[i]);
	n += nlib;
	free(libs);
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
