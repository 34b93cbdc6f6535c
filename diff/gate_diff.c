/*
 * The gate's view of an assessed diff (gate.h): the one place that reads
 * struct diff for --fail-on and the markdown summary.  Rows are the
 * functions of both sides and the time outside the program (libraries),
 * never a cycle as a whole (its members are rows already).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff/diff.h"
#include "diff/evidence.h"
#include "diff/gate.h"
#include "diff/signif.h"
#include "utils/error.h"
#include "utils/banned.h"

/* What the diff's evidence rests on, in a few words. */
static void why_of(char *buf, size_t n, const struct diff *d, const struct diff_entry *e)
{
	char calls[32];
	int time_pass = e->excess_sec != 0 && e->noise == NOISE_NONE &&
			fabs(e->time_z) >= d->z_cut;

	if (!e->significant)
		snprintf(buf, n, e->verdict == VERDICT_EQUAL ? "equal" : "within noise");
	else if (time_pass && e->calls_evidence == CALLS_CHANGED)
		snprintf(buf, n, "time; %s", evidence_calls_text(calls, sizeof(calls), e));
	else if (time_pass)
		snprintf(buf, n, "time");
	else if (e->calls_evidence == CALLS_CHANGED)
		snprintf(buf, n, "%s", evidence_calls_text(calls, sizeof(calls), e));
	else if (e->nranks_changed)
		snprintf(buf, n, "%zu rank%s", e->nranks_changed, e->nranks_changed > 1 ? "s" : "");
	else if (e->moved_peer >= 0)
		snprintf(buf, n, "cost moved (inlining changed)");
	else
		snprintf(buf, n, "significant");
}

static void row_of(struct gate_row *row, const struct diff *d, const struct diff_entry *e,
		   double g, double runs)
{
	memset(row, 0, sizeof(*row));
	row->name = e->print_name ? e->print_name : e->name;
	row->symbol = e->name;
	/* the model's numbers (one source for both runs); rows outside the
	 * program's functions are judged at their own common speed */
	if ((e->flags & PSYM_KINDS) && d->outside_speed > 0)
		g = d->outside_speed;
	row->base_sec = e->side[DIFF_BASE].self_sec /
			(d->repeated[DIFF_BASE] && d->nruns[DIFF_BASE] ? (double)d->nruns[DIFF_BASE] : 1);
	row->second_sec = e->side[DIFF_SECOND].self_sec / runs;
	row->ref_sec = g * e->side[DIFF_BASE].self_sec / runs;
	row->significant = e->significant;
	/* the evidence's size and direction (> 0: less in the second run,
	 * the diff's convention), or, for the others, the time difference */
	row->slower_sec = -(e->significant ? e->evidence_signed : e->excess_sec) / runs;
	why_of(row->why, sizeof(row->why), d, e);
}

int gate_input_from_diff(struct gate_input *in, const struct diff *d)
{
	size_t i, n = 0;
	double g = d->speed > 0 ? d->speed : 1;

	memset(in, 0, sizeof(*in));
	in->rows = malloc((d->nentries + 1) * sizeof(*in->rows));
	if (!in->rows)
		return error("out of memory");
	in->runs = d->repeated[DIFF_SECOND] && d->nruns[DIFF_SECOND] ?
		   (double)d->nruns[DIFF_SECOND] : 1;
	for (i = 0; i < d->nentries; i++)
		if (!(d->entries[i].flags & PSYM_CYCLE))
			row_of(&in->rows[n++], d, &d->entries[i], g, in->runs);
	in->nrows = n;
	for (i = 0; i < n; i++) {
		in->base_total_sec += in->rows[i].base_sec;
		in->second_total_sec += in->rows[i].second_sec;
		in->ref_total_sec += in->rows[i].ref_sec;
	}
	in->speed = g;
	in->noise_sigmas = d->opts.noise_sigmas;
	in->alpha = d->opts.noise_sigmas > 0 ? signif_p(d->opts.noise_sigmas) : 1;
	in->nfunctions = d->ntests;
	return 0;
}
