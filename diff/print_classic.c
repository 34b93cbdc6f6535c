/*
 * The classic differential flat profile: gprof's flat-profile layout with
 * signed numbers, so scripts that parse gprof output keep working.
 *
 *   % time      the impact: self diff / sum |self diff| * 100
 *   cumulative  running sum of |self diff| in printed order
 *   self        self seconds, baseline - second
 *   calls       calls, baseline - second (blank when neither side has any)
 *   self/call   change of the cost of one call: self/calls of the baseline
 *               minus that of the second run; a side without calls counts
 *               as 0 per call (blank when neither side has calls)
 *   total/call  the same with self + children time
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diff/print.h"
#include "utils/error.h"
#include "utils/fixed.h"
#include "utils/line.h"
#include "utils/banned.h"

/* gprof's SI table (hist.c), for the per-call unit. */
static const struct { char prefix; double scale; } si[] = {
	{ 'T', 1e-12 }, { 'G', 1e-09 }, { 'M', 1e-06 }, { 'K', 1e-03 },
	{ ' ', 1 }, { 'm', 1e+03 }, { 'u', 1e+06 }, { 'n', 1e+09 },
	{ 'p', 1e+12 }, { 'f', 1e+15 }, { 'a', 1e+18 },
};

static double per_call(const struct diff_side_sym *s, int with_children)
{
	if (!s->calls)
		return 0;
	return (s->self_sec + (with_children ? s->child_sec : 0)) / (double)s->calls;
}

static int any_calls(const struct diff_entry *e)
{
	return e->side[DIFF_BASE].calls || e->side[DIFF_SECOND].calls;
}

static double print_per_call_diff(const struct diff_entry *e, int with_children)
{
	return per_call(&e->side[DIFF_BASE], with_children) -
	       per_call(&e->side[DIFF_SECOND], with_children);
}

/* The % time column: gprof's "%6.2f" (%5.1f with -T), with a decimal less
 * where a negative impact would not fit ("-100.0"): a wider cell would
 * shift every column of the row for a reader of gprof's columns. */
static void impact_cell(struct line *l, double v, int width, int decimals)
{
	char buf[FIXED_MAX];

	while (decimals > 0) {
		fixed_format(buf, v, 0, decimals);
		if ((int)strlen(buf) <= width)
			break;
		decimals--;
	}
	line_fixed(l, v, width, decimals);
}

static void sample_line(FILE *out, const struct diff *d, const char *unit)
{
	double a = d->prof[DIFF_BASE]->hz, b = d->prof[DIFF_SECOND]->hz;

	if (a == b)
		fprintf(out, "\nEach sample counts as %g %s.\n", a > 0 ? 1.0 / a : 0.0, unit);
	else
		fprintf(out, "\nEach sample counts as %g %s in the baseline, %g in the second run.\n",
			a > 0 ? 1.0 / a : 0.0, unit, b > 0 ? 1.0 / b : 0.0);
}

int print_classic_flat(FILE *out, const struct diff *d, const struct diff_print_opts *po)
{
	const size_t *order;
	size_t *owned, n, i, scale = 4;
	double top = 0, cum = 0;
	char unit[16];
	struct line l = LINE_INIT;
	const char *u = po->unit ? po->unit : "seconds";
	const char *ua = po->unit ? po->unit_abbrev : "s";
	int dec = po->unit ? po->decimals : 2;

	if (print_flat_rows(d, po, &order, &n, &owned) < 0)
		return -1;
	if (po->bsd) {
		scale = 5; /* milliseconds, as gprof -T */
	} else {
		for (i = 0; i < n; i++) {
			const struct diff_entry *e = &d->entries[order[i]];

			if (any_calls(e) && fabs(print_per_call_diff(e, 1)) > top)
				top = fabs(print_per_call_diff(e, 1));
		}
		if (top > 0)
			for (scale = 0; scale < sizeof(si) / sizeof(si[0]) - 1; scale++)
				if (si[scale].scale * top >= 1.0 && si[scale].scale * top < 1000.0)
					break;
	}
	snprintf(unit, sizeof(unit), "%c%s/call", si[scale].prefix, ua);

	fprintf(out, "Flat profile:\n");
	sample_line(out, d, u);
	fprintf(out, "%5.5s %10.10s %8.8s %8.8s %8.8s %8.8s  %-8.8s\n",
		"%  ", "cumulative", "self  ", "", "self  ", "total ", "");
	fprintf(out, "%5.5s %9.9s  %8.8s %8.8s %8.8s %8.8s  %s%-8.8s\n",
		"time", u, u, "calls", unit, unit,
		po->ratio ? "2nd/base " : "", "name");
	for (i = 0; i < n && !l.failed; i++) {
		const struct diff_entry *e = &d->entries[order[i]];
		char ratio[32];

		cum += fabs(e->self_diff);
		/* the row assembled without printf (utils/line.h): most of a
		 * big profile's printing time otherwise */
		impact_cell(&l, e->impact, po->bsd ? 5 : 6, po->bsd ? 1 : 2);
		line_char(&l, ' ');
		line_fixed(&l, cum, po->bsd ? 10 : 9, dec);
		line_char(&l, ' ');
		line_fixed(&l, e->self_diff, 8, dec);
		if (any_calls(e)) {
			/* " %8lld " */
			line_char(&l, ' ');
			line_int(&l, e->calls_diff, 8);
			line_char(&l, ' ');
			line_fixed(&l, si[scale].scale * print_per_call_diff(e, 0), 8, 2);
			line_char(&l, ' ');
			line_fixed(&l, si[scale].scale * print_per_call_diff(e, 1), 8, 2);
			line_spaces(&l, 2);
		} else {
			line_spaces(&l, 29); /* " %8.8s %8.8s %8.8s  " of "" */
		}
		if (po->ratio) {
			line_str(&l, print_ratio_cell(ratio, sizeof(ratio), e, po));
			line_char(&l, ' ');
		}
		print_row_end(&l, out, e, po);
	}
	if (line_finish(&l, out) < 0) {
		free(owned);
		return -1;
	}
	if (!po->brief && po->metric)
		fprintf(out,
			"\n"
			" %%         the impact of this function on the change: its self\n"
			"           %s difference over the sum of all |differences|.\n\n"
			"cumulative a running sum of |self %s| differences, in this order.\n\n"
			"self       self %s of the baseline minus the second run's.\n\n"
			"calls      calls of the baseline minus the second run's; blank when\n"
			"           neither run counted calls of the function.\n\n"
			"self       the change of the %s of one call: self %s per call\n"
			"%s/call    in the baseline minus that in the second run (a run without\n"
			"           calls counts as 0 per call).\n\n"
			"total      the same with self and children %s.\n"
			"%s/call\n\n"
			"name       the function; rows are in the order the header states.\n\n",
			u, u, u, po->metric, u, ua, po->metric, ua);
	else if (!po->brief)
		fprintf(out,
			"\n"
			" %%         the impact of this function on the change: its self\n"
			"           seconds difference over the sum of all |differences|.\n\n"
			"cumulative a running sum of |self seconds| differences, in this order.\n\n"
			"self       self seconds of the baseline minus the second run's.\n\n"
			"calls      calls of the baseline minus the second run's; blank when\n"
			"           neither run counted calls of the function.\n\n"
			"self       the change of the cost of one call: self seconds per call\n"
			"s/call     in the baseline minus that in the second run (a run without\n"
			"           calls counts as 0 per call).\n\n"
			"total      the same with self and children time.\n"
			"s/call\n\n"
			"name       the function; rows are in the order the header states.\n\n");
	free(owned);
	return 0;
}
