#define _GNU_SOURCE /* qsort_r */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diff/print.h"
#include "utils/error.h"
#include "utils/banned.h"

void print_convention(FILE *out, const struct diff *d, const struct diff_print_opts *po)
{
	if (po->brief)
		return;
	fprintf(out, "Differential profile: baseline minus second run.\n");
	fprintf(out, "  baseline: %s\n", po->label[DIFF_BASE] ? po->label[DIFF_BASE] : "?");
	fprintf(out, "  second:   %s\n", po->label[DIFF_SECOND] ? po->label[DIFF_SECOND] : "?");
	fprintf(out, "A positive difference is time (or calls) the second run no longer\n"
		     "spends; a negative one is time (or calls) it spends in addition.\n");
	fprintf(out, "Baseline total %.2f seconds, second %.2f seconds, sum of |differences| %.2f.\n",
		d->total_sec[DIFF_BASE], d->total_sec[DIFF_SECOND], d->abs_sum);
	if (po->noise_marker)
		fprintf(out, "~ marks a difference within the sampling noise of the two runs.\n");
	fprintf(out, "\n");
}

const char *print_noise_mark(const struct diff_entry *e, const struct diff_print_opts *po)
{
	return po->noise_marker && e->noise == NOISE_WITHIN ? "  ~" : "";
}

static int has_data(const struct diff_entry *e)
{
	int s;

	for (s = 0; s < DIFF_NSIDES; s++)
		if (e->side[s].has_samples || e->side[s].has_calls)
			return 1;
	return 0;
}

static int cmp_flat(const void *lp, const void *rp, void *ctx)
{
	const struct diff *d = ctx;
	size_t l = *(const size_t *)lp, r = *(const size_t *)rp;
	int c = diff_entry_cmp(&d->entries[l], &d->entries[r]);

	return c ? c : (l < r ? -1 : l > r);
}

int print_flat_order(const struct diff *d, const struct diff_print_opts *po,
		     size_t **orderp, size_t *np)
{
	size_t *order = malloc((d->nentries + 1) * sizeof(size_t));
	size_t i, n = 0;

	*orderp = NULL;
	*np = 0;
	if (!order)
		return error("out of memory");
	for (i = 0; i < d->nentries; i++) {
		const struct diff_entry *e = &d->entries[i];

		if (e->in_flat && (po->zeros || has_data(e)))
			order[n++] = i;
	}
	qsort_r(order, n, sizeof(size_t), cmp_flat, (void *)d);
	*orderp = order;
	*np = n;
	return 0;
}
