/*
 * print_lines.c - `--diff -l` and `--diff -A` (print_lines.h).
 */
#include "diff/print_lines.h"

#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "model/lines.h"
#include "utils/infile.h"
#include "utils/banned.h"

static const char *shown_file(const char *file, int full)
{
	const char *slash = file ? strrchr(file, '/') : NULL;

	if (!file)
		return "??";
	return full || !slash ? file : slash + 1;
}

/* A paragraph, wrapped at 76 columns. */
static void print_wrapped(FILE *out, const char *text)
{
	size_t col = 0;

	while (*text) {
		size_t w = strcspn(text, " ");

		if (col && col + 1 + w > 76) {
			fputc('\n', out);
			col = 0;
		} else if (col) {
			fputc(' ', out);
			col++;
		}
		fwrite(text, 1, w, out);
		col += w;
		text += w;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

static void print_about(FILE *out, const struct line_diff *d, const struct print_lines_opts *o,
			const char *what)
{
	fprintf(out, "%s; A is '%s', B is '%s'.\n", what, o->label[0], o->label[1]);
	fprintf(out, "Source: %s.\n", o->source);
	fprintf(out,
		"change = A - B, baseline minus second as in every table of the diff.\n"
		"%zu lines changed, %zu beyond the noise; self time %.2f -> %.2f seconds.\n"
		"~ marks a change within the noise: sampling and a run-to-run jitter of\n"
		"%.0f%% of a line's time, corrected for the %zu lines that could show a\n"
		"change (--noise %g).  Lines are matched by function, file name and line\n"
		"number (and the function inlined there).\n",
		d->changed, d->nsig, d->total_s[0], d->total_s[1], 100 * d->jitter, d->counted,
		d->k);
	char buf[2048];

	if (d->warning[0]) {
		snprintf(buf, sizeof(buf), "Warning: %s.", d->warning);
		print_wrapped(out, buf);
	}
	if (o->unplaced[0] || o->unplaced[1]) {
		snprintf(buf, sizeof(buf), "Left out: %.2f and %.2f seconds of samples in the "
			 "instrumentation, in no known object or without a program counter.",
			 o->hz[0] > 0 ? (double)o->unplaced[0] / o->hz[0] : 0,
			 o->hz[1] > 0 ? (double)o->unplaced[1] / o->hz[1] : 0);
		print_wrapped(out, buf);
	}
	for (int s = 0; s < 2; s++)
		if (o->skipped[s] && o->skipped[s][0]) {
			snprintf(buf, sizeof(buf), "%s: libraries sampled without line information "
				 "(their time is on no line, shown as '?" "?'): %s.", s ? "B" : "A",
				 o->skipped[s]);
			print_wrapped(out, buf);
		}
}

static void print_where(FILE *out, const struct line_diff_row *r, int full)
{
	char where[4096];

	if (r->file)
		snprintf(where, sizeof(where), "%s:%d", shown_file(r->file, full), r->line);
	else
		snprintf(where, sizeof(where), "??");
	fprintf(out, "%-24s %s", where, r->func);
	if (r->inlined)
		fprintf(out, " [inlined: %s]", r->inlined);
	fputc('\n', out);
}

int print_lines_diff(FILE *out, const struct line_diff *d, const struct print_lines_opts *o)
{
	size_t same = 0;

	fprintf(out, "\t\t\tLine-level differences\n\n");
	print_about(out, d, o, "Self seconds of each source line");
	fprintf(out, "\n       A s        B s     change    line                     function\n");
	for (size_t i = 0; i < d->n; i++) {
		const struct line_diff_row *r = &d->rows[i];

		if (r->a == r->b) {
			same++;
			continue;
		}
		fprintf(out, "%10.2f %10.2f %+10.2f %c  ", r->a_s, r->b_s, r->change,
			r->significant ? ' ' : '~');
		print_where(out, r, o->full_paths);
	}
	if (same)
		fprintf(out, "\n%zu lines with the same samples in both runs are not listed.\n",
			same);
	return ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* Annotated source                                                    */

struct func_change {
	const char *func;
	double score;		/* its largest |change| beyond the noise */
	double any;		/* its largest |change| */
};

static int cmp_func_change(const void *l, const void *r)
{
	const struct func_change *a = l, *b = r;

	if (a->score != b->score)
		return a->score > b->score ? -1 : 1;
	if (a->any != b->any)
		return a->any > b->any ? -1 : 1;
	return strcmp(a->func, b->func);
}

/* The functions to annotate: with -A FUNC that one; else those with a line
 * beyond the noise, most changed first.  n of them in *out (malloc'd). */
static int changed_funcs(const struct line_diff *d, const char *only, struct func_change **out,
			 size_t *nout)
{
	struct func_change *f = malloc((d->n + 1) * sizeof(*f));
	size_t n = 0;

	if (!f)
		return -1;
	for (size_t i = 0; i < d->n; i++) {
		const struct line_diff_row *r = &d->rows[i];
		size_t k;

		for (k = 0; k < n && strcmp(f[k].func, r->func); k++)
			;
		if (k == n)
			f[n++] = (struct func_change){ r->func, 0, 0 };
		if (r->significant && fabs(r->change) > f[k].score)
			f[k].score = fabs(r->change);
		if (fabs(r->change) > f[k].any)
			f[k].any = fabs(r->change);
	}
	qsort(f, n, sizeof(*f), cmp_func_change);
	if (only) {
		size_t k;

		for (k = 0; k < n && strcmp(f[k].func, only); k++)
			;
		if (k < n)
			f[0] = f[k];
		n = k < n;
	} else {
		size_t k;

		for (k = 0; k < n && f[k].score > 0; k++)
			;
		n = k;
	}
	*out = f;
	*nout = n;
	return 0;
}

struct src_line {
	int line;
	double a, b;
	int significant, any;
};

/* The file holding most of function's time (its own code first). */
static const char *main_file(const struct line_diff *d, const char *func)
{
	const char *best = NULL;
	double most = -1;

	for (size_t i = 0; i < d->n; i++) {
		const struct line_diff_row *r = &d->rows[i];
		double t = r->a_s + r->b_s + (r->inlined ? 0 : 1e9);

		if (r->file && !strcmp(r->func, func) && t > most) {
			most = t;
			best = r->file;
		}
	}
	return best;
}

/* A function's source is printed whole up to this many lines; longer, its
 * sampled lines with this many lines of context each. */
#define ANNOTATE_ALL 60
#define ANNOTATE_CONTEXT 2

static void annotate_func(FILE *out, const struct line_diff *d, const char *func,
			  const struct print_lines_opts *o)
{
	const char *file = main_file(d, func);
	struct src_line *sl = malloc((d->n + 1) * sizeof(*sl));
	size_t n = 0;
	int lo = 0, hi = 0;
	char why[4200];
	FILE *src;

	fprintf(out, "\n%s (%s):\n", func, file ? shown_file(file, o->full_paths) : "no line information");
	if (!sl || !file) {
		free(sl);
		return;
	}
	/* the function's lines in that file, inlined code at its line summed */
	for (size_t i = 0; i < d->n; i++) {
		const struct line_diff_row *r = &d->rows[i];
		size_t k;

		if (!r->file || strcmp(r->func, func) || strcmp(r->file, file))
			continue;
		for (k = 0; k < n && sl[k].line != r->line; k++)
			;
		if (k == n)
			sl[n++] = (struct src_line){ r->line, 0, 0, 0, 0 };
		sl[k].a += r->a_s;
		sl[k].b += r->b_s;
		sl[k].significant |= r->significant;
		sl[k].any |= r->a != r->b;
		if (!lo || r->line < lo)
			lo = r->line;
		if (r->line > hi)
			hi = r->line;
	}
	fprintf(out, "       A s        B s     change    line  source\n");
	/* regular files only (utils/infile.h): never a FIFO's wait */
	src = infile_fopen(file, why, sizeof(why));
	if (!src) {
		fprintf(out, "(the source file %s cannot be read: %s; its lines' times alone)\n",
			file, why);
		for (int l = lo; l <= hi; l++)
			for (size_t k = 0; k < n; k++)
				if (sl[k].line == l)
					fprintf(out, "%10.2f %10.2f %+10.2f %c %6d\n", sl[k].a, sl[k].b,
						sl[k].a - sl[k].b,
						sl[k].any && !sl[k].significant ? '~' : ' ', l);
	} else {
		char text[4096];
		int l = 0;

		int gap = 0;

		/* a few lines before the first sampled one: the loop's head; a
		 * long function (an interpreter's loop) by its sampled lines
		 * with CONTEXT lines around each, the rest elided */
		lo = lo > 3 ? lo - 3 : 1;
		while (fgets(text, sizeof(text), src) && ++l <= hi) {
			size_t len = strlen(text), k;
			int near = hi - lo <= ANNOTATE_ALL;

			if (len && text[len - 1] == '\n')
				text[--len] = 0;
			if (l < lo)
				continue;
			for (k = 0; k < n && !near; k++)
				near = sl[k].line >= l - ANNOTATE_CONTEXT &&
				       sl[k].line <= l + ANNOTATE_CONTEXT;
			if (!near) {
				if (!gap)
					fprintf(out, "%34s   %6s\n", "", "...");
				gap = 1;
				continue;
			}
			gap = 0;
			for (k = 0; k < n && sl[k].line != l; k++)
				;
			if (k < n)
				fprintf(out, "%10.2f %10.2f %+10.2f %c %6d  %s\n", sl[k].a, sl[k].b,
					sl[k].a - sl[k].b,
					sl[k].any && !sl[k].significant ? '~' : ' ', l, text);
			else
				fprintf(out, "%34s   %6d  %s\n", "", l, text);
		}
		fclose(src);
	}
	free(sl);
}

int print_lines_annotated(FILE *out, const struct line_diff *d,
			  const struct print_lines_opts *o)
{
	struct func_change *f = NULL;
	size_t n = 0;

	if (changed_funcs(d, o->only, &f, &n) < 0)
		return -1;
	fprintf(out, "\t\t\tAnnotated source differences\n\n");
	print_about(out, d, o, "Self seconds of each source line");
	if (!n && o->only)
		fprintf(out, "\nNo sampled line of function '%s' in either run.\n", o->only);
	else if (!n)
		fprintf(out, "\nNo line changed beyond the noise: no function is annotated "
			"(-A FUNCTION annotates one).\n");
	for (size_t i = 0; i < n; i++)
		annotate_func(out, d, f[i].func, o);
	free(f);
	return ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* One run's lines                                                     */

struct func_span {
	size_t lo, hi;		/* its rows in lp (rows are by function) */
	uint64_t samples;
};

static int cmp_span(const void *l, const void *r)
{
	const struct func_span *a = l, *b = r;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static int cmp_row_samples(const void *l, const void *r)
{
	const struct line_row *a = *(const struct line_row *const *)l;
	const struct line_row *b = *(const struct line_row *const *)r;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return a->line - b->line;
}

int print_lines_profile(FILE *out, const struct line_profile *lp, int full_paths,
			size_t max_lines)
{
	struct func_span *f = malloc((lp->n + 1) * sizeof(*f));
	const struct line_row **rows = malloc((lp->n + 1) * sizeof(*rows));
	size_t nf = 0;
	char buf[2048];

	if (!f || !rows) {
		free(f);
		free(rows);
		return -1;
	}
	for (size_t i = 0; i < lp->n;) {
		size_t k = i;

		f[nf] = (struct func_span){ i, i, 0 };
		for (; k < lp->n && !strcmp(lp->rows[k].func, lp->rows[i].func); k++)
			f[nf].samples += lp->rows[k].samples;
		f[nf++].hi = k;
		i = k;
	}
	qsort(f, nf, sizeof(*f), cmp_span);
	fprintf(out, "\f\n\t\t\tSelf time by source line\n\n");
	snprintf(buf, sizeof(buf), "Each function's self seconds by source line (%s), "
		 "functions by self time; a line's share is of its function's time.  "
		 "\"[inlined: F]\" marks the code of function F inlined there.", lp->source);
	print_wrapped(out, buf);
	if (lp->unplaced) {
		snprintf(buf, sizeof(buf), "Left out: %.2f seconds of samples in the "
			 "instrumentation, in no known object or without a program counter.",
			 lp->hz > 0 ? (double)lp->unplaced / lp->hz : 0);
		print_wrapped(out, buf);
	}
	if (lp->skipped[0]) {
		snprintf(buf, sizeof(buf), "Libraries sampled without line information (their "
			 "time is on no line, shown as '?" "?'): %s.", lp->skipped);
		print_wrapped(out, buf);
	}
	for (size_t i = 0; i < nf; i++) {
		size_t n = 0, shown;
		uint64_t rest = 0;

		if (!f[i].samples)
			continue;
		for (size_t k = f[i].lo; k < f[i].hi; k++)
			if (lp->rows[k].samples)
				rows[n++] = &lp->rows[k];
		qsort(rows, n, sizeof(*rows), cmp_row_samples);
		fprintf(out, "\n%s: %.2f seconds\n    seconds   share  line\n",
			lp->rows[f[i].lo].func, lp->hz > 0 ? (double)f[i].samples / lp->hz : 0);
		shown = max_lines && n > max_lines ? max_lines : n;
		for (size_t k = 0; k < n; k++) {
			const struct line_row *r = rows[k];
			char where[4096];

			if (k >= shown) {
				rest += r->samples;
				continue;
			}
			if (r->file)
				snprintf(where, sizeof(where), "%s:%d", shown_file(r->file, full_paths),
					 r->line);
			else
				snprintf(where, sizeof(where), "?" "?");
			fprintf(out, "%11.2f %6.1f%%  %s", lp->hz > 0 ? (double)r->samples / lp->hz : 0,
				100.0 * (double)r->samples / (double)f[i].samples, where);
			if (r->inlined)
				fprintf(out, " [inlined: %s]", r->inlined);
			fputc('\n', out);
		}
		if (rest)
			fprintf(out, "%11.2f %6.1f%%  (%zu more lines)\n",
				lp->hz > 0 ? (double)rest / lp->hz : 0,
				100.0 * (double)rest / (double)f[i].samples, n - shown);
	}
	free(f);
	free(rows);
	return ferror(out) ? -1 : 0;
}
