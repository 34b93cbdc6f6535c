/*
 * The extended differential table: the columns of the paper's Figure 1
 * (bottom).  "---": that side has no samples in the function; "-": no call
 * counts; "sym + -": X where the symbol exists in that side's binary, "."
 * where it does not.
 */
#include <stdlib.h>
#include "diff/print.h"
#include "utils/error.h"
#include "utils/banned.h"

static const char *seconds_cell(char *buf, size_t n, const struct diff_side_sym *s)
{
	if (!s->has_samples)
		return "---";
	snprintf(buf, n, "%.2f", s->self_sec);
	return buf;
}

static const char *calls_cell(char *buf, size_t n, const struct diff_side_sym *s)
{
	if (!s->has_calls)
		return "-";
	snprintf(buf, n, "%llu", (unsigned long long)s->calls);
	return buf;
}

/* The difference of the two printed seconds, so that a row never reads
 * "0.01 0.03 -0.01" (issue 11 item 9): sides round to 0.01 s, and so does
 * their exact difference, but not always to the same digit. */
static double printed(const struct diff_side_sym *s)
{
	char buf[64];

	if (!s->has_samples)
		return 0;
	snprintf(buf, sizeof(buf), "%.2f", s->self_sec);
	return strtod(buf, NULL);
}

static double shown_diff(const struct diff_entry *e)
{
	return printed(&e->side[DIFF_BASE]) - printed(&e->side[DIFF_SECOND]);
}

int print_extended_flat(FILE *out, const struct diff *d, const struct diff_print_opts *po)
{
	size_t *order, n, i;

	if (print_flat_order(d, po, &order, &n) < 0)
		return -1;
	fprintf(out, "Differential flat profile:\n\n");
	fprintf(out, "%7s %9s %9s %9s %8s %8s %8s  %-3s%s  %s\n",
		"%  ", "+self", "-self", "diff", "+self", "-self", "diff", "sym",
		po->ratio ? "  -self in" : "", "");
	fprintf(out, "%7s %9s %9s %9s %8s %8s %8s  %-3s%s  %s\n",
		"impact", "seconds", "seconds", "seconds", "calls", "calls", "calls", "+ -",
		po->ratio ? "  % of +self" : "", "name");
	for (i = 0; i < n; i++) {
		const struct diff_entry *e = &d->entries[order[i]];
		const struct diff_side_sym *a = &e->side[DIFF_BASE], *b = &e->side[DIFF_SECOND];
		char s1[32], s2[32], c1[32], c2[32], ratio[32];

		fprintf(out, "%7.2f %9s %9s %9.2f %8s %8s %8lld  %c%c %s  %s%s\n",
			e->impact, seconds_cell(s1, sizeof(s1), a), seconds_cell(s2, sizeof(s2), b),
			shown_diff(e), calls_cell(c1, sizeof(c1), a), calls_cell(c2, sizeof(c2), b),
			(long long)e->calls_diff, a->present ? 'X' : '.', b->present ? 'X' : '.',
			po->ratio ? print_ratio_cell(ratio, sizeof(ratio), e, po) : "",
			e->print_name, print_noise_mark(e, po));
	}
	if (!po->brief)
		fprintf(out,
			"\n"
			"impact %%   self seconds difference over the sum of all |differences|.\n"
			"+self      the baseline's self seconds and calls (\"---\": no samples,\n"
			"           \"-\": no call counts).\n"
			"-self      the second run's.\n"
			"diff       baseline minus second.\n"
			"sym + -    X where the function exists in that run's binary.\n\n");
	free(order);
	return 0;
}
