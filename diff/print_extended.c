/*
 * The extended differential table: the columns of the paper's Figure 1
 * (bottom).  "---": the function is not in that side's flat profile (gprof
 * lists a function with samples or calls, every present one with -z), so a
 * function called but never sampled reads 0.00, as gprof prints it; "-": no
 * call counts; "sym + -": X where the symbol exists in that side's binary, "."
 * where it does not.
 */
#include <stdlib.h>
#include "diff/print.h"
#include "utils/error.h"
#include "utils/fixed.h"
#include "utils/line.h"
#include "utils/banned.h"

/* Whether gprof's flat profile of that side alone lists the function. */
static int listed(const struct diff_side_sym *s, const struct diff_print_opts *po)
{
	return s->has_samples || s->has_calls || (po->zeros && s->present);
}

/* " %9s" of the side's self seconds ("%.2f"), "---" where that side's
 * flat profile does not list the function. */
static void seconds_cell(struct line *l, const struct diff_side_sym *s,
			 const struct diff_print_opts *po)
{
	char buf[FIXED_MAX];

	line_char(l, ' ');
	if (!listed(s, po)) {
		line_pad(l, "---", 9);
		return;
	}
	fixed_format(buf, s->self_sec, 0, po->unit ? po->decimals : 2);
	line_pad(l, buf, 9);
}

/* " %8s" of the side's calls, "-" without call counts. */
static void calls_cell(struct line *l, const struct diff_side_sym *s)
{
	line_char(l, ' ');
	if (!s->has_calls)
		line_pad(l, "-", 8);
	else
		line_uint(l, s->calls, 8);
}

/* The difference of the two printed seconds, so that a row never reads
 * "0.01 0.03 -0.01" (issue 11 item 9): sides round to 0.01 s, and so does
 * their exact difference, but not always to the same digit. */
static double printed(const struct diff_side_sym *s, int decimals)
{
	char buf[FIXED_MAX];

	if (!s->has_samples)
		return 0;
	fixed_format(buf, s->self_sec, 0, decimals);
	return strtod(buf, NULL);
}

static double shown_diff(const struct diff_entry *e, int decimals)
{
	return printed(&e->side[DIFF_BASE], decimals) - printed(&e->side[DIFF_SECOND], decimals);
}

int print_extended_flat(FILE *out, const struct diff *d, const struct diff_print_opts *po)
{
	const size_t *order;
	size_t *owned, n, i;
	struct line l = LINE_INIT;
	const char *u = po->unit ? po->unit : "seconds";
	int dec = po->unit ? po->decimals : 2;

	if (print_flat_rows(d, po, &order, &n, &owned) < 0)
		return -1;
	fprintf(out, "Differential flat profile:\n\n");
	fprintf(out, "%7s %9s %9s %9s %8s %8s %8s  %-3s%s  %s\n",
		"%  ", "+self", "-self", "diff", "+self", "-self", "diff", "sym",
		po->ratio ? "  -self in" : "", "");
	fprintf(out, "%7s %9s %9s %9s %8s %8s %8s  %-3s%s  %s\n",
		"impact", u, u, u, "calls", "calls", "calls", "+ -",
		po->ratio ? "  % of +self" : "", "name");
	for (i = 0; i < n && !l.failed; i++) {
		const struct diff_entry *e = &d->entries[order[i]];
		const struct diff_side_sym *a = &e->side[DIFF_BASE], *b = &e->side[DIFF_SECOND];
		char ratio[32];

		/* "%7.2f %9s %9s %9.2f %8s %8s %8lld  %c%c %s  %s%s\n", without
		 * printf (utils/line.h) */
		line_fixed(&l, e->impact, 7, 2);
		seconds_cell(&l, a, po);
		seconds_cell(&l, b, po);
		line_char(&l, ' ');
		line_fixed(&l, shown_diff(e, dec), 9, dec);
		calls_cell(&l, a);
		calls_cell(&l, b);
		line_char(&l, ' ');
		line_int(&l, e->calls_diff, 8);
		line_spaces(&l, 2);
		line_char(&l, a->present ? 'X' : '.');
		line_char(&l, b->present ? 'X' : '.');
		line_char(&l, ' ');
		line_str(&l, po->ratio ? print_ratio_cell(ratio, sizeof(ratio), e, po) : "");
		line_spaces(&l, 2);
		print_row_end(&l, out, e, po);
	}
	if (line_finish(&l, out) < 0) {
		free(owned);
		return -1;
	}
	if (!po->brief && po->metric)
		fprintf(out,
			"\n"
			"impact %%   self %s difference over the sum of all |differences|.\n"
			"+self      the baseline's self %s and calls (\"---\": not in its\n"
			"           profile, no samples and no calls; \"-\": no call counts).\n"
			"-self      the second run's.\n"
			"diff       baseline minus second.\n"
			"sym + -    X where the function exists in that run's binary.\n\n", u, u);
	else if (!po->brief)
		fprintf(out,
			"\n"
			"impact %%   self seconds difference over the sum of all |differences|.\n"
			"+self      the baseline's self seconds and calls (\"---\": not in its\n"
			"           profile, no samples and no calls; \"-\": no call counts).\n"
			"-self      the second run's.\n"
			"diff       baseline minus second.\n"
			"sym + -    X where the function exists in that run's binary.\n\n");
	free(owned);
	return 0;
}
