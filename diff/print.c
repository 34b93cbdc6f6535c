#define _GNU_SOURCE /* qsort_r */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "format/sidecar.h"
#include "diff/print.h"
#include "utils/error.h"
#include "utils/line.h"
#include "utils/banned.h"

static const char *const sort_text[DIFF_SORT__COUNT] = {
	[DIFF_SORT_IMPACT] = "|self difference|",
	[DIFF_SORT_ABS] = "|self difference|",
	[DIFF_SORT_RATIO] = "the ratio of self times, farthest from 1 first",
	[DIFF_SORT_CALLS] = "|calls difference|",
	[DIFF_SORT_NAME] = "name",
};

/* What the noise of each row is made of, and the correction: the header's
 * account of the significance rule (diff/noise.h, diff/evidence.h). */
static void print_noise_model(FILE *out, const struct diff *d)
{
	if (d->jitter_from_repeats)
		fprintf(out, "Repeated runs: each function's noise is what they show, at least its\n"
			     "sampling noise and a run-to-run jitter of %.0f%% of its time (measured\n"
			     "by its repeats).\n", 100 * d->jitter);
	else if (d->nranks)
		fprintf(out, "One job per side: each rank is compared with itself; a function's noise\n"
			     "is its sampling noise and a run-to-run jitter of %.0f%% of its time\n"
			     "(measured on the rank and function pairs, worth %.1f well-sampled\n"
			     "ones; %.0f%% assumed for few).\n",
			100 * d->jitter, d->jitter_weight, 100 * d->opts.jitter_prior);
	else
		fprintf(out, "One run per side: each function's noise is its sampling noise and a\n"
			     "run-to-run jitter of %.0f%% of its time (measured on the functions, worth\n"
			     "%.1f well-sampled ones; %.0f%% assumed for few); give a directory of\n"
			     "repeated runs per side to measure it.\n",
			100 * d->jitter, d->jitter_weight, 100 * d->opts.jitter_prior);
	if (d->nranks && d->rank_totals && diff_from_sidecars(d))
		fprintf(out, "A rank's time outside the program's functions (its MPI wait) varies as\n"
			     "the ranks' compute does: each such row carries its share of that noise.\n");
	fprintf(out, "%zu tests could show a change: corrected for their number (Bonferroni), a\n"
		     "difference is significant beyond %.2f standard deviations, so that two\n"
		     "runs of one program show a false one with the chance of %g sigmas.\n",
		d->ntests, d->z_cut, d->opts.noise_sigmas);
}

void print_opts_units(struct diff_print_opts *po, const struct diff *d)
{
	const struct profile_measure *m = &d->prof[DIFF_BASE]->measure;

	po->metric = m->metric[0] ? m->metric : NULL;
	po->unit = !m->metric[0] ? "seconds" : m->unit[0] ? m->unit : "events";
	po->unit_abbrev = !m->metric[0] ? "s" : !strcmp(po->unit, "events") ? "ev" : po->unit;
	po->decimals = m->metric[0] ? 0 : 2;
}

/* prefix and text, then a full stop, in lines of at most 78 columns
 * (broken at spaces; a word longer than that stays whole) */
static void print_wrapped(FILE *out, const char *prefix, const char *text)
{
	size_t col = strlen(prefix);
	const char *w = text;

	fputs(prefix, out);
	while (*w) {
		size_t len = strcspn(w, " ");
		int last = w[len] == 0;

		if (col > 0 && col + 1 + len + last > 78 && w != text) {
			fputc('\n', out);
			col = 0;
		} else if (w != text) {
			fputc(' ', out);
			col++;
		}
		fwrite(w, 1, len, out);
		col += len;
		w += len;
		while (*w == ' ')
			w++;
	}
	fputs(".\n", out);
}

void print_convention(FILE *out, const struct diff *d, const struct diff_print_opts *po)
{
	const char *u = po->unit ? po->unit : "seconds";
	int dec = po->unit ? po->decimals : 2;

	if (po->brief)
		return;
	fprintf(out, "Differential profile: baseline minus second run.\n");
	fprintf(out, "  baseline: %s\n", po->label[DIFF_BASE] ? po->label[DIFF_BASE] : "?");
	fprintf(out, "  second:   %s\n", po->label[DIFF_SECOND] ? po->label[DIFF_SECOND] : "?");
	if (po->source)
		print_wrapped(out, "Source: ", po->source);
	if (po->source && po->coverage_low)
		fprintf(out, "warning: less than %.0f%% of a run's CPU time was sampled: its\n"
			     "times are short by the rest.\n", 100.0 * SIDECAR_CPU_COVERAGE_WARN);
	if (po->metric)
		fprintf(out, "A positive difference is %s (or calls) the second run no longer\n"
			     "has; a negative one is %s (or calls) it has in addition.\n",
			po->metric, po->metric);
	else
		fprintf(out, "A positive difference is time (or calls) the second run no longer\n"
			     "spends; a negative one is time (or calls) it spends in addition.\n");
	fprintf(out, "Baseline total %.*f %s, second %.*f %s, sum of |differences| %.*f.\n",
		dec, d->total_sec[DIFF_BASE], u, dec, d->total_sec[DIFF_SECOND], u, dec, d->abs_sum);
	if (po->noise_marker && d->opts.sort == DIFF_SORT_IMPACT)
		fprintf(out, "Rows are in evidence order: the %zu significant changes first, by the\n"
			     "size of their evidence in %s (a change of calls counts as the\n"
			     "%s it implies); then the rows within noise, by |difference|.\n",
			print_count_significant(d, po), u, po->metric ? po->metric : "time");
	else
		fprintf(out, "Rows are sorted by %s.\n", sort_text[d->opts.sort]);
	if (po->noise_marker && po->extended)
		fprintf(out, "~ marks a difference within the noise of the two runs, = no difference.\n");
	if (po->noise_marker && d->speed != 1.0)
		fprintf(out, "Most functions took %.2fx their baseline time in the second run (a\n"
			     "loaded machine?): differences are judged at that common speed.\n",
			d->speed);
	if (po->noise_marker && d->outside_speed != 1.0 && d->outside_speed != 0)
		fprintf(out, "The rows outside the program's functions (libraries, an MPI library's\n"
			     "wait) took %.2fx their baseline time: they are judged at that speed.\n",
			d->outside_speed);
	if (po->noise_marker)
		print_noise_model(out, d);
	if (!d->has_cg[DIFF_BASE] || !d->has_cg[DIFF_SECOND])
		fprintf(out, "No call evidence: %s (a build without -pg, its\n"
			     "call paths sampled, or gmon.out without arcs); changes are judged\n"
			     "by time and events, and a blank calls column means not counted.\n",
			!d->has_cg[DIFF_BASE] && !d->has_cg[DIFF_SECOND] ? "neither run counted calls"
			: !d->has_cg[DIFF_BASE] ? "the baseline counted no calls"
						: "the second run counted no calls");
	fprintf(out, "\n");
}

/* Only --extended marks rows: gprof's layout has no place for a marker
 * that a gprof-text parser would not take for part of the name.  Every
 * row has its verdict: unmarked significant, "~" within noise, "=" equal. */
const char *print_noise_mark(const struct diff_entry *e, const struct diff_print_opts *po)
{
	if (!po->noise_marker || !po->extended)
		return "";
	return e->verdict == VERDICT_NOISE ? "  ~" : e->verdict == VERDICT_EQUAL ? "  =" : "";
}

static int has_data(const struct diff_entry *e)
{
	int s;

	for (s = 0; s < DIFF_NSIDES; s++)
		if (e->side[s].has_samples || e->side[s].has_calls)
			return 1;
	return 0;
}

size_t print_count_significant(const struct diff *d, const struct diff_print_opts *po)
{
	size_t i, n = 0;

	for (i = 0; i < d->nentries; i++) {
		const struct diff_entry *e = &d->entries[i];

		n += e->in_flat && (po->zeros || has_data(e)) && e->significant;
	}
	return n;
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
	if (diff_order(d, order, n) < 0) {
		free(order);
		return error("out of memory");
	}
	*orderp = order;
	*np = n;
	return 0;
}

int print_flat_rows(const struct diff *d, const struct diff_print_opts *po,
		    const size_t **order, size_t *n, size_t **owned)
{
	*owned = NULL;
	if (po->flat_order) {
		*order = po->flat_order;
		*n = po->nflat;
		return 0;
	}
	if (print_flat_order(d, po, owned, n) < 0)
		return -1;
	*order = *owned;
	return 0;
}

void print_row_end(struct line *l, FILE *out, const struct diff_entry *e,
		   const struct diff_print_opts *po)
{
	line_str(l, e->print_name);
	line_str(l, print_noise_mark(e, po));
	line_char(l, '\n');
	line_flush_over(l, out, LINE_FLUSH_BYTES);
}

const char *print_ratio_cell(char *buf, size_t n, const struct diff_entry *e,
			     const struct diff_print_opts *po)
{
	if (!po->ratio)
		return "";
	if (e->side[DIFF_BASE].self_sec > 0)
		snprintf(buf, n, " %7.1f%%", 100 * e->ratio);
	else
		snprintf(buf, n, " %8s", e->side[DIFF_SECOND].self_sec > 0 ? "new" : "");
	return buf;
}
