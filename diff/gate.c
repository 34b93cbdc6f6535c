/*
 * The regression gate (gate.h): parse --fail-on's expression, judge the
 * significant rows of an assessed diff against it.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff/gate.h"
#include "utils/array.h"
#include "utils/error.h"
#include "utils/banned.h"

#define GATE_FORMS "slowdown, any, function>10%, function>0.5s, function:NAME>5%, " \
		   "total>2% or total>1s"

void gate_free(struct gate *g)
{
	size_t i;

	if (!g)
		return;
	for (i = 0; i < g->nterms; i++) {
		free(g->terms[i].name);
		free(g->terms[i].text);
	}
	free(g->terms);
	free(g->expr);
	free(g);
}

static char *trimmed(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return strndup(s, n);
}

/* "10%", "0.5s", "250ms" -> amount and unit; -1 when it is none. */
static int parse_amount(const char *s, double *amount, enum gate_unit *unit)
{
	char *end;
	double v;

	while (isspace((unsigned char)*s))
		s++;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	if (!strcmp(end, "%")) {
		*unit = GATE_PERCENT;
	} else if (!strcmp(end, "s")) {
		*unit = GATE_SECONDS;
	} else if (!strcmp(end, "ms")) {
		*unit = GATE_SECONDS;
		v /= 1000;
	} else {
		return -1;
	}
	*amount = v;
	return 0;
}

static int term_error(const char *text, const char *why)
{
	return error("--fail-on: '%s' %s; a term is %s", text, why, GATE_FORMS);
}

/* One term, its text trimmed. */
static int parse_term(struct gate_term *t, char *text)
{
	char *gt, *scope, *amount;

	memset(t, 0, sizeof(*t));
	t->text = text;
	if (!strcmp(text, "slowdown")) {
		t->scope = GATE_SLOWDOWN;
		return 0;
	}
	if (!strcmp(text, "any")) {
		t->scope = GATE_ANY;
		return 0;
	}
	/* the last '>': C++ names hold '>' (function:std::vector<int>::at>5%) */
	gt = strrchr(text, '>');
	if (!gt)
		return term_error(text, "is not a term");
	amount = gt + 1;
	if (*amount == '=')
		amount++;
	scope = trimmed(text, (size_t)(gt - text));
	if (!scope)
		return error("out of memory");
	if (!strcmp(scope, "function")) {
		t->scope = GATE_FUNCTION;
	} else if (!strcmp(scope, "total")) {
		t->scope = GATE_TOTAL;
	} else if (!strncmp(scope, "function:", 9) && scope[9]) {
		t->scope = GATE_FUNCTION;
		if (!(t->name = trimmed(scope + 9, strlen(scope + 9)))) {
			free(scope);
			return error("out of memory");
		}
	} else {
		free(scope);
		return term_error(text, "names neither function, function:NAME nor total");
	}
	free(scope);
	if (parse_amount(amount, &t->amount, &t->unit) < 0)
		return term_error(text, "needs an amount such as 10%, 0.5s or 250ms after '>'");
	return 0;
}

int gate_parse(const char *expr, struct gate **out)
{
	struct gate *g = calloc(1, sizeof(*g));
	size_t alloc = 0, depth = 0;
	const char *p, *start;

	*out = NULL;
	if (!g || !(g->expr = strdup(expr))) {
		free(g);
		return error("out of memory");
	}
	/* split at commas outside brackets: a C++ name may hold commas
	 * (function:std::map<int, int>::find>5%) */
	for (p = start = expr;; p++) {
		if (*p == '<' || *p == '(' || *p == '[')
			depth++;
		else if ((*p == '>' || *p == ')' || *p == ']') && depth)
			depth--;
		if (*p && (*p != ',' || depth))
			continue;
		{
			char *text = trimmed(start, (size_t)(p - start));

			if (!text || array_grow(&g->terms, &alloc, g->nterms + 1,
						sizeof(*g->terms)) < 0) {
				free(text);
				gate_free(g);
				return error("out of memory");
			}
			if (!*text) {
				free(text);
				gate_free(g);
				return error("--fail-on: '%s' has an empty term; a term is %s",
					     expr, GATE_FORMS);
			}
			if (parse_term(&g->terms[g->nterms], text) < 0) {
				free(g->terms[g->nterms].name);
				free(text);
				gate_free(g);
				return -1;
			}
			g->nterms++;
		}
		if (!*p)
			break;
		start = p + 1;
	}
	*out = g;
	return 0;
}

void gate_input_release(struct gate_input *in)
{
	free(in->rows);
	memset(in, 0, sizeof(*in));
}

void gate_result_release(struct gate_result *r)
{
	free(r->hits);
	memset(r, 0, sizeof(*r));
}

static double pct_of(double sec, double base)
{
	return base > 0 ? 100 * sec / base : sec > 0 ? INFINITY : sec < 0 ? -INFINITY : 0;
}

static int add_hit(struct gate_result *r, size_t *alloc, size_t term, size_t row,
		   double sec, double pct)
{
	if (array_grow(&r->hits, alloc, r->nhits + 1, sizeof(*r->hits)) < 0)
		return error("out of memory");
	r->hits[r->nhits++] = (struct gate_hit){ term, row, sec, pct };
	r->failed = 1;
	return 0;
}

static int row_is(const struct gate_row *row, const char *name)
{
	return !strcmp(row->name, name) || (row->symbol && !strcmp(row->symbol, name));
}

static int crosses(const struct gate_term *t, double sec, double pct)
{
	return t->unit == GATE_PERCENT ? pct > t->amount : sec > t->amount;
}

/* The hits of one term, the largest change first. */
static int cmp_hits(const void *a, const void *b)
{
	const struct gate_hit *x = a, *y = b;

	if (x->term != y->term)
		return x->term < y->term ? -1 : 1;
	if (fabs(x->sec) != fabs(y->sec))
		return fabs(x->sec) > fabs(y->sec) ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

int gate_judge(const struct gate *g, const struct gate_input *in, struct gate_result *r)
{
	size_t alloc = 0, t, i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < in->nrows; i++) {
		const struct gate_row *row = &in->rows[i];

		if (!row->significant)
			continue;
		r->net_slower_sec += row->slower_sec;
		r->nslower += row->slower_sec > 0;
		r->nfaster += row->slower_sec < 0;
	}
	for (t = 0; g && t < g->nterms; t++) {
		const struct gate_term *term = &g->terms[t];

		if (term->scope == GATE_TOTAL) {
			double pct = pct_of(r->net_slower_sec, in->ref_total_sec);

			if (r->net_slower_sec > 0 && crosses(term, r->net_slower_sec, pct) &&
			    add_hit(r, &alloc, t, (size_t)-1, r->net_slower_sec, pct) < 0)
				return -1;
			continue;
		}
		for (i = 0; i < in->nrows; i++) {
			const struct gate_row *row = &in->rows[i];
			double pct = pct_of(row->slower_sec, row->ref_sec);
			int hit;

			if (!row->significant)
				continue;
			switch (term->scope) {
			case GATE_ANY:
				hit = row->slower_sec != 0;
				break;
			case GATE_SLOWDOWN:
				hit = row->slower_sec > 0;
				break;
			default:
				hit = row->slower_sec > 0 &&
				      (!term->name || row_is(row, term->name)) &&
				      crosses(term, row->slower_sec, pct);
				break;
			}
			if (hit && add_hit(r, &alloc, t, i, row->slower_sec, pct) < 0)
				return -1;
		}
	}
	if (r->nhits > 1)
		qsort(r->hits, r->nhits, sizeof(*r->hits), cmp_hits);
	return 0;
}

const char *gate_change_text(char *buf, size_t n, double slower_sec, double ref_sec)
{
	double pct = pct_of(slower_sec, ref_sec);
	const char *way = slower_sec > 0 ? "slower" : "faster";

	char amount[32];

	/* under a hundredth of a second in milliseconds, not "0.00 s" */
	if (fabs(slower_sec) >= 0.01)
		snprintf(amount, sizeof(amount), "%.2f s", fabs(slower_sec));
	else
		snprintf(amount, sizeof(amount), "%.1f ms", 1000 * fabs(slower_sec));
	if (slower_sec == 0)
		snprintf(buf, n, "equal");
	else if (isfinite(pct))
		snprintf(buf, n, "%s %s (%+.1f%%)", amount, way, pct);
	else
		snprintf(buf, n, "%s %s (new)", amount, way);
	return buf;
}

#define GATE_REPORT_MAX 10

void gate_report(const struct gate *g, const struct gate_input *in,
		 const struct gate_result *r)
{
	size_t i, shown = 0;
	char change[64];

	for (i = 0; i < r->nhits; i++) {
		const struct gate_hit *h = &r->hits[i];
		const char *term = g->terms[h->term].text;

		if (shown == GATE_REPORT_MAX) {
			error("regression: and %zu more (--fail-on '%s')", r->nhits - shown,
			      g->expr);
			break;
		}
		shown++;
		if (h->row == (size_t)-1) {
			error("regression: the significant differences add up to %s of the "
			      "baseline's %.2f s (--fail-on '%s')",
			      gate_change_text(change, sizeof(change), h->sec, in->ref_total_sec),
			      in->base_total_sec, term);
			continue;
		}
		error("regression: '%s' is %s, beyond noise (%s; --fail-on '%s')",
		      in->rows[h->row].name,
		      gate_change_text(change, sizeof(change), h->sec, in->rows[h->row].ref_sec),
		      in->rows[h->row].why, term);
	}
}
