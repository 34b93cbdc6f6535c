/*
 * The evidence behind the significant rows of a flat table, one line (or
 * two) per row in the table's order, after the table: where gprof prints
 * nothing, so that a gprof-text parser reads the table unchanged.  Every
 * number is baseline - second, as in the tables; call counts are shown
 * "baseline -> second".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diff/print.h"
#include "diff/evidence.h"
#include "utils/error.h"
#include "utils/banned.h"

static void time_clause(FILE *out, const struct diff_entry *e, const char **sep)
{
	if (e->self_diff == 0)
		return;
	fprintf(out, "%stime %+.2f s", *sep, e->self_diff);
	if (e->excess_sec != e->self_diff)
		fprintf(out, " (%+.2f s at the runs' common speed)", e->excess_sec);
	fprintf(out, ", %s noise %.2f s", e->noise == NOISE_NONE ? "beyond" : "within",
		e->noise_sec);
	*sep = "; ";
}

static void calls_clause(FILE *out, const struct diff_entry *e, const char **sep)
{
	char buf[48];
	uint64_t a, b;

	if (e->calls_evidence != CALLS_CHANGED)
		return;
	evidence_call_counts(e, &a, &b);
	fprintf(out, "%s%s (%s%llu -> %llu)", *sep, evidence_calls_text(buf, sizeof(buf), e),
		evidence_calls_exact(e) ? "sidecar: " : "",
		(unsigned long long)a, (unsigned long long)b);
	*sep = "; ";
}

static void moved_clause(FILE *out, const struct diff *d, const struct diff_entry *e,
			 const char **sep)
{
	const struct diff_entry *p;

	if (e->moved_peer < 0)
		return;
	p = &d->entries[e->moved_peer];
	if (e->side[0].present != e->side[1].present)
		fprintf(out, "%sonly in the %s: probably %s %s, whose self+children "
			"changed by %+.2f s", *sep, e->side[0].present ? "baseline" : "second run",
			e->side[0].present ? "inlined into" : "outlined from", p->print_name,
			e->moved_total_diff);
	else
		fprintf(out, "%sprobably took in %s (only in the %s); self+children "
			"changed by %+.2f s", *sep, p->print_name,
			p->side[0].present ? "baseline" : "second run", e->moved_total_diff);
	*sep = "; ";
}

static void ranks_clause(FILE *out, const struct diff *d, const struct diff_entry *e,
			 const char **sep)
{
	size_t k, shown = 0;

	if (!e->rank_diff)
		return;
	for (k = 0; k < d->nranks; k++) {
		if (!e->rank_changed[k])
			continue;
		if (shown++ == 4) {
			fprintf(out, ", ... (%zu ranks)", e->nranks_changed);
			break;
		}
		fprintf(out, "%srank %d %+.2f s", shown == 1 ? *sep : ", ", d->ranks[k],
			e->rank_diff[k]);
	}
	if (e->nranks_changed == 0)
		fprintf(out, "%sno rank beyond its noise", *sep);
	else if (e->nranks_changed < d->nranks)
		fprintf(out, ", other ranks within noise");
	fprintf(out, "; slowest rank %+.2f s", e->slowest_diff);
	*sep = "; ";
}

int print_evidence(FILE *out, const struct diff *d, const struct diff_print_opts *po)
{
	size_t *order, n, i, shown = 0;

	if (!po->noise_marker)
		return 0;
	if (print_flat_order(d, po, &order, &n) < 0)
		return -1;
	fprintf(out, "\nEvidence for the significant rows (baseline - second; calls\n"
		     "baseline -> second):\n\n");
	for (i = 0; i < n; i++) {
		const struct diff_entry *e = &d->entries[order[i]];
		const char *sep = "";

		if (!e->significant)
			continue;
		shown++;
		fprintf(out, "  %s: ", e->print_name);
		time_clause(out, e, &sep);
		calls_clause(out, e, &sep);
		ranks_clause(out, d, e, &sep);
		moved_clause(out, d, e, &sep);
		fputc('\n', out);
	}
	if (!shown)
		fprintf(out, "  none: every difference is within noise.\n");
	if (n > shown)
		fprintf(out, "  Within noise: the %zu other rows.\n", n - shown);
	fputc('\n', out);
	free(order);
	return 0;
}
