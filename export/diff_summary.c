#define _GNU_SOURCE /* qsort_r */
/*
 * The markdown summary of a diff (diff_summary.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff/gate.h"
#include "export/diff_summary.h"
#include "export/table.h"
#include "utils/error.h"
#include "utils/banned.h"

struct ctx {
	const struct gate_input *in;
	const size_t *rows;     /* the rows listed, in order */
	char buf[3][96];        /* the cells formatted last */
};

static int get_name(const void *c, size_t row, const struct table_column *col,
		    union table_value *v)
{
	const struct ctx *x = c;

	(void)col;
	v->s = x->in->rows[x->rows[row]].name;
	return 1;
}

static int get_seconds(const void *c, size_t row, const struct table_column *col,
		       union table_value *v)
{
	struct ctx *x = (struct ctx *)c;
	const struct gate_row *r = &x->in->rows[x->rows[row]];

	snprintf(x->buf[col->arg], sizeof(x->buf[0]), "%.2f s",
		 col->arg == 0 ? r->base_sec : r->second_sec);
	v->s = x->buf[col->arg];
	return 1;
}

static int get_change(const void *c, size_t row, const struct table_column *col,
		      union table_value *v)
{
	struct ctx *x = (struct ctx *)c;
	const struct gate_row *r = &x->in->rows[x->rows[row]];

	(void)col;
	v->s = gate_change_text(x->buf[2], sizeof(x->buf[2]), r->slower_sec, r->ref_sec);
	return 1;
}

static int get_why(const void *c, size_t row, const struct table_column *col,
		   union table_value *v)
{
	const struct ctx *x = c;

	(void)col;
	v->s = x->in->rows[x->rows[row]].why;
	return 1;
}

static const struct table_column cols[] = {
	{ "Function", TCOL_STR, get_name, 0 },
	{ "Baseline", TCOL_STR, get_seconds, 0 },
	{ "Second run", TCOL_STR, get_seconds, 1 },
	{ "Change", TCOL_STR, get_change, 2 },
	{ "Evidence", TCOL_STR, get_why, 0 },
};

/* Largest change first; ties by name, so the summary is stable. */
static int cmp_rows(const void *a, const void *b, void *arg)
{
	const struct gate_input *in = arg;
	const struct gate_row *x = &in->rows[*(const size_t *)a], *y = &in->rows[*(const size_t *)b];

	if (fabs(x->slower_sec) != fabs(y->slower_sec))
		return fabs(x->slower_sec) > fabs(y->slower_sec) ? -1 : 1;
	return strcmp(x->name, y->name);
}

static void gate_line(FILE *fp, const struct gate *g, const struct gate_result *r)
{
	size_t i, n = 0;

	if (!g)
		return;
	fprintf(fp, "**Regression gate `%s`: %s**", g->expr, r->failed ? "failed" : "passed");
	if (r->failed) {
		for (i = 0; i < r->nhits; i++)
			n += i == 0 || r->hits[i].row != r->hits[i - 1].row;
		fprintf(fp, " (%zu finding%s)", n, n == 1 ? "" : "s");
	}
	fputs("\n\n", fp);
}

int diff_summary_write(FILE *fp, const struct gate_input *in, const struct gate *g,
		       const struct gate_result *r, const char *const label[2])
{
	struct table_doc doc;
	struct ctx x;
	size_t *rows = malloc((in->nrows + 1) * sizeof(*rows)), n = 0, i, listed;
	char total[64];

	if (!rows)
		return error("out of memory");
	for (i = 0; i < in->nrows; i++)
		if (in->rows[i].significant)
			rows[n++] = i;
	qsort_r(rows, n, sizeof(*rows), cmp_rows, (void *)in);
	listed = n < DIFF_SUMMARY_ROWS ? n : DIFF_SUMMARY_ROWS;

	fprintf(fp, "### egprof: `%s` vs `%s`\n\n", label[0], label[1]);
	gate_line(fp, g, r);
	fprintf(fp, "Total%s: %.2f s in the baseline, %.2f s in the second run; the "
		"significant differences add up to %s.\n\n",
		in->runs > 1 ? " per run" : "", in->base_total_sec, in->second_total_sec,
		r->net_slower_sec == 0 ? "nothing" :
		gate_change_text(total, sizeof(total), r->net_slower_sec, in->ref_total_sec));
	fprintf(fp, "%zu function%s significantly slower, %zu faster, of %zu compared; ",
		r->nslower, r->nslower == 1 ? "" : "s", r->nfaster, in->nrows);
	if (in->noise_sigmas > 0)
		fprintf(fp, "the chance that two runs of one build show any is %.2g%% "
			"(--noise %g).\n\n", 100 * in->alpha, in->noise_sigmas);
	else
		fputs("--noise 0: every difference counts.\n\n", fp);
	if (fabs(in->speed - 1) >= 0.005)
		fprintf(fp, "The second run ran at %.2fx the baseline's time as a whole: "
			"differences are judged at that speed (a loaded machine, or a change "
			"that slowed every function alike, which this summary cannot tell "
			"apart).\n\n", in->speed);
	if (listed) {
		x.in = in;
		x.rows = rows;
		table_begin(&doc, fp, TABLE_MARKDOWN, "egprof-diff-summary", 1);
		table_write(&doc, "changes", cols, sizeof(cols) / sizeof(cols[0]), listed, &x);
		fputc('\n', fp);
		if (n > listed)
			fprintf(fp, "%zu more significant change%s not listed (the text "
				"report has them all).\n\n", n - listed, n - listed == 1 ? "" : "s");
		free(rows);
		return table_end(&doc);
	}
	free(rows);
	fputs("No significant change.\n", fp);
	if (fflush(fp) != 0 || ferror(fp))
		return error("cannot write the summary");
	return 0;
}
