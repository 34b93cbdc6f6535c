#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diff/evidence.h"
#include "diff/signif.h"
#include "utils/banned.h"

int evidence_calls_exact(const struct diff *d)
{
	return diff_from_sidecars(d);
}

/* The counts the evidence compares: the source's (the sidecars' exact
 * ones, or gmon's).  A side that has the function and counted none of its
 * calls (a library's row, a sampling-only run) leaves nothing to compare:
 * 0 and 0, never "calls gone". */
void evidence_call_counts(const struct diff_entry *e, uint64_t *a, uint64_t *b)
{
	const struct diff_side_sym *x = &e->side[DIFF_BASE], *y = &e->side[DIFF_SECOND];

	*a = *b = 0;
	if ((x->present && !x->calls_measured) || (y->present && !y->calls_measured))
		return;
	*a = x->calls;
	*b = y->calls;
}

uint64_t evidence_code_size(const struct diff *d, const struct diff_entry *e, int side)
{
	const struct profile_sym *y;

	if (e->side[side].sym < 0)
		return 0;
	y = &d->prof[side]->syms[e->side[side].sym];
	return y->end_addr > y->addr ? y->end_addr - y->addr : 0;
}

static int is_row(const struct diff_entry *e)
{
	return !(e->flags & PSYM_CYCLE);
}

static int has_data(const struct diff_entry *e)
{
	int s;

	for (s = 0; s < DIFF_NSIDES; s++)
		if (e->side[s].has_samples || e->side[s].has_calls)
			return 1;
	return 0;
}

/* z of a difference x of standard deviation sigma; 0 for no difference */
static double z_of(double x, double sigma)
{
	if (x == 0)
		return 0;
	if (!(sigma > 0))
		return x > 0 ? 40 : -40;
	return x / sigma;
}

/* The calls' factor (>= 1; 0 when a side has none) and z. */
static void calls_test(const struct diff_entry *e, double *factor, double *z)
{
	uint64_t a, b;

	evidence_call_counts(e, &a, &b);
	*factor = a && b ? (a > b ? (double)a / (double)b : (double)b / (double)a) : 0;
	*z = signif_count_z((double)a, (double)b, e->side[0].calls_var + e->side[1].calls_var);
}

/* The time a call-count change implies: what the function's time would
 * have changed by had its cost followed its calls. */
static double implied(double top, double factor)
{
	return factor > 0 ? top * (1.0 - 1.0 / factor) : top;
}

static void add_row_tests(const struct diff *d, struct diff_entry *e, struct signif_family *f)
{
	uint64_t a, b;
	size_t r;

	e->time_z = z_of(e->excess_sec, e->sigma_sec);
	calls_test(e, &e->calls_factor, &e->calls_z);
	if (!is_row(e) || !has_data(e))
		return;
	signif_add(f, e->time_z, e->time_zmax);
	/* equal counts are no test: in a program that calls a function the
	 * same number of times in every run they are equal for certain, and
	 * a program whose counts vary shows it by a difference */
	evidence_call_counts(e, &a, &b);
	if (a != b)
		signif_add(f, e->calls_z, signif_count_zmax((double)a + (double)b));
	for (r = 0; e->rank_stat && r < d->nranks; r++)
		if (e->rank_diff[r] != 0 || e->rank_sigma[r] > 0)
			signif_add(f, z_of(e->rank_excess[r], e->rank_sigma[r]), e->rank_zmax[r]);
}

/* Did the ranks that changed change more than the others?  A change of
 * the function on every rank alike reaches some ranks' tests and not
 * others' by chance; it is not a change of those ranks. */
static int ranks_alike(const struct diff *d, const struct diff_entry *e)
{
	size_t r, o;

	if (d->nranks < 2)
		return 0;
	for (r = 0; r < d->nranks; r++) {
		double sum = 0, var = 0, n = (double)(d->nranks - 1), z;

		if (!e->rank_changed[r])
			continue;
		for (o = 0; o < d->nranks; o++)
			if (o != r) {
				sum += e->rank_excess[o];
				var += e->rank_sigma[o] * e->rank_sigma[o];
			}
		z = z_of(e->rank_excess[r] - sum / n,
			 sqrt(e->rank_sigma[r] * e->rank_sigma[r] + var / (n * n)));
		if (fabs(z) >= d->z_cut)
			return 0;
	}
	return 1;
}

/*
 * Does a change of calls from a to b count?  Beyond the Poisson noise of
 * the counts (the family's cut), by the factor or more (the tolerance of
 * threaded -pg counts), and either implying a measurable time (two
 * samples) or of many calls (DIFF_CALLS_FLOOR on the larger side): a
 * helper a random hash seed calls 0 to 20 times, at no measurable cost,
 * is not evidence; a function called 2,000,000 times instead of 4,000,000
 * is, however cheap.
 */
static int calls_count(const struct diff *d, uint64_t a, uint64_t b, double factor, double z,
		       double sec, const struct signif_family *f)
{
	return a != b && (factor == 0 || factor >= d->opts.calls_factor) && signif_pass(f, z) &&
	       (sec >= d->min_evidence_sec || (a > b ? a : b) >= DIFF_CALLS_FLOOR ||
		d->opts.noise_sigmas <= 0);
}

/* Keep the larger evidence and its direction. */
static void consider(struct diff_entry *e, double sec, double sign)
{
	if (sec > e->evidence_sec) {
		e->evidence_sec = sec;
		e->evidence_signed = sign >= 0 ? sec : -sec;
	}
}

static void row_verdict(const struct diff *d, struct diff_entry *e,
			const struct signif_family *f)
{
	const struct diff_side_sym *sa = &e->side[DIFF_BASE], *sb = &e->side[DIFF_SECOND];
	double top = fmax(sa->self_sec, sb->self_sec), sec, tdiff;
	int time_pass, differs, passed;
	uint64_t a, b;
	size_t r;

	evidence_call_counts(e, &a, &b);
	e->ratio = sa->self_sec > 0 ? sb->self_sec / sa->self_sec : 0;
	e->noise_sec = d->z_cut * e->sigma_sec;
	e->evidence_sec = e->evidence_signed = 0;
	e->nranks_changed = 0;
	e->ranks_alike = 0;
	tdiff = e->self_diff;
	time_pass = tdiff != 0 && e->excess_sec != 0 && signif_pass(f, e->time_z);
	e->noise = tdiff != 0 && !time_pass ? NOISE_WITHIN : NOISE_NONE;
	if (time_pass)
		consider(e, fabs(e->excess_sec), e->excess_sec);

	e->calls_evidence = a == b ? CALLS_SAME : CALLS_WITHIN;
	sec = implied(top, e->calls_factor);
	if (calls_count(d, a, b, e->calls_factor, e->calls_z, sec, f)) {
		e->calls_evidence = CALLS_CHANGED;
		consider(e, sec, (double)a - (double)b);
	}
	passed = time_pass || e->calls_evidence == CALLS_CHANGED;

	differs = e->self_diff != 0 || tdiff != 0 || a != b;
	for (r = 0; e->rank_stat && r < d->nranks; r++) {
		double z = z_of(e->rank_excess[r], e->rank_sigma[r]);

		differs |= e->rank_diff[r] != 0;
		e->rank_changed[r] = e->rank_diff[r] != 0 && signif_pass(f, z) &&
				     fabs(e->rank_excess[r]) >= d->min_evidence_sec;
		e->nranks_changed += e->rank_changed[r];
		if (e->rank_changed[r])
			consider(e, fabs(e->rank_excess[r]), e->rank_excess[r]);
	}
	if (e->nranks_changed)
		e->ranks_alike = ranks_alike(d, e);
	e->significant = passed || e->nranks_changed > 0;
	e->verdict = e->significant ? VERDICT_SIGNIFICANT : differs ? VERDICT_NOISE : VERDICT_EQUAL;
}

static void arc_verdict(const struct diff *d, struct diff_arc *a, const struct signif_family *f)
{
	double t0 = a->time_sec[0] + a->child_time_sec[0];
	double t1 = a->time_sec[1] + a->child_time_sec[1], sec;

	a->evidence_sec = a->evidence_signed = 0;
	a->calls_changed = 0;
	if (a->excess_sec != 0 && t0 != t1 && signif_pass(f, a->time_z)) {
		a->evidence_sec = fabs(a->excess_sec);
		a->evidence_signed = a->excess_sec;
	}
	sec = implied(fmax(t0, t1), a->calls_factor);
	if (calls_count(d, a->count[0], a->count[1], a->calls_factor, a->calls_z, sec, f)) {
		a->calls_changed = 1;
		if (sec > a->evidence_sec) {
			a->evidence_sec = sec;
			a->evidence_signed = a->count[0] > a->count[1] ? sec : -sec;
		}
	}
	a->significant = a->evidence_sec > 0 || a->calls_changed;
	a->verdict = a->significant ? VERDICT_SIGNIFICANT :
		     (a->count_diff != 0 || t0 != t1) ? VERDICT_NOISE : VERDICT_EQUAL;
}

static void decide_arcs(struct diff *d)
{
	struct signif_family f;
	size_t i;

	signif_family_init(&f, d->opts.noise_sigmas);
	for (i = 0; i < d->narcs; i++) {
		struct diff_arc *a = &d->arcs[i];
		uint64_t c0 = a->count[0], c1 = a->count[1];

		a->time_z = z_of(a->excess_sec, a->sigma_sec);
		a->calls_factor = c0 && c1 ? (c0 > c1 ? (double)c0 / (double)c1
						      : (double)c1 / (double)c0) : 0;
		a->calls_z = signif_count_z((double)c0, (double)c1, 0);
		if (a->time_sec[0] + a->child_time_sec[0] != 0 ||
		    a->time_sec[1] + a->child_time_sec[1] != 0)
			signif_add(&f, a->time_z, a->time_zmax);
		if (c0 != c1)
			signif_add(&f, a->calls_z, signif_count_zmax((double)c0 + (double)c1));
	}
	signif_decide(&f);
	d->arc_z_cut = f.z_cut;
	d->arc_ntests = f.counted;
	for (i = 0; i < d->narcs; i++)
		arc_verdict(d, &d->arcs[i], &f);
	signif_family_release(&f);
}

/* ------------------------------------------------------------------ */
/* Moved cost                                                          */

/* Did the caller c take in (or give out) x's code?  x exists on `side`
 * only: c's code on the other side is larger (smaller) by a quarter of
 * x's size or more. */
static int grew_by(const struct diff *d, const struct diff_entry *c,
		   const struct diff_entry *x, int side)
{
	uint64_t xs = evidence_code_size(d, x, side);
	uint64_t here = evidence_code_size(d, c, side), there = evidence_code_size(d, c, !side);

	return xs && here && there && there > here && (there - here) * 4 >= xs;
}

/* c's self time moved the other way by a quarter of x's or more. */
static int moved_against(const struct diff_entry *c, const struct diff_entry *x)
{
	return x->self_diff != 0 && c->self_diff * x->self_diff < 0 &&
	       fabs(c->self_diff) >= 0.25 * fabs(x->self_diff);
}

static int both_sides(const struct diff_entry *e)
{
	return e->side[0].present && e->side[1].present;
}

struct moved_pick {
	long peer;
	int why;
	double score;
};

/* How alike two magnitudes are: 1 equal, 0 one of them 0. */
static double alike(double a, double b)
{
	a = fabs(a);
	b = fabs(b);
	return a > 0 && b > 0 ? fmin(a, b) / fmax(a, b) : 0;
}

/* How well caller c fits x's move: its code grew by about x's size, its
 * time moved by about x's. */
static double fit(const struct diff *d, const struct diff_entry *c, const struct diff_entry *x,
		  int side)
{
	double grew = (double)evidence_code_size(d, c, !side) - (double)evidence_code_size(d, c, side);

	return alike(grew, (double)evidence_code_size(d, x, side)) + alike(c->self_diff, x->self_diff);
}

static void offer(struct moved_pick *p, long peer, int why, double score)
{
	if (score > p->score) {
		p->peer = peer;
		p->why = why;
		p->score = score;
	}
}

/* The caller x (one side only) was probably inlined into: by its callers
 * on its side, and their callees (x tail-called from one of them). */
static struct moved_pick moved_caller(const struct diff *d, const struct diff_arc_index *ai,
				      size_t x, int side)
{
	const struct diff_entry *ex = &d->entries[x];
	struct moved_pick best = { -1, MOVED_NONE, 0 };
	uint64_t total = 0;
	size_t k, j, ncallers = 0;

	for (k = ai->in_at[x]; k < ai->in_at[x + 1]; k++) {
		const struct diff_arc *a = &d->arcs[ai->in[k]];

		if (!a->present[side] || a->parent == x)
			continue;
		total += a->count[side];
		ncallers++;
	}
	for (k = ai->in_at[x]; k < ai->in_at[x + 1]; k++) {
		const struct diff_arc *a = &d->arcs[ai->in[k]];
		const struct diff_entry *c = &d->entries[a->parent];
		double share = total ? (double)a->count[side] / (double)total : 0;

		if (!a->present[side] || a->parent == x || !both_sides(c) || !is_row(c) ||
		    c->moved_peer >= 0)
			continue;
		/* a direct caller: time moved (the first rule), then code */
		if (moved_against(c, ex))
			offer(&best, (long)a->parent, MOVED_TIME, 10 + share + fit(d, c, ex, side));
		else if (grew_by(d, c, ex, side))
			offer(&best, (long)a->parent, MOVED_SIZE, 5 + share + fit(d, c, ex, side));
		else if (ncallers == 1 && (ex->noise == NOISE_WITHIN || ex->self_diff == 0))
			/* too little time to see it move: its only caller */
			offer(&best, (long)a->parent, MOVED_ONLY, 1);
		/* a tail call: the callees of this caller that grew */
		for (j = ai->out_at[a->parent]; j < ai->out_at[a->parent + 1]; j++) {
			const struct diff_arc *b = &d->arcs[ai->out[j]];
			const struct diff_entry *h = &d->entries[b->child];

			if (b->child == x || b->child == a->parent || !b->present[side] ||
			    !both_sides(h) || !is_row(h) || h->moved_peer >= 0)
				continue;
			if (grew_by(d, h, ex, side) && (moved_against(h, ex) || ex->self_diff == 0))
				offer(&best, (long)b->child, MOVED_TAIL, 2 + share + fit(d, h, ex, side));
		}
	}
	return best;
}

/* x present in both: a caller whose arc to it went (or came) while the
 * caller stayed, and grew or took the time. */
static struct moved_pick moved_partial(const struct diff *d, const struct diff_arc_index *ai, size_t x)
{
	const struct diff_entry *ex = &d->entries[x];
	struct moved_pick best = { -1, MOVED_NONE, 0 };
	size_t k;

	for (k = ai->in_at[x]; k < ai->in_at[x + 1]; k++) {
		const struct diff_arc *a = &d->arcs[ai->in[k]];
		const struct diff_entry *c = &d->entries[a->parent];
		int from = a->present[0] && !a->present[1] ? 0 :
			   a->present[1] && !a->present[0] ? 1 : -1;
		uint64_t sa, sb;

		if (from < 0 || a->parent == x || !both_sides(c) || !is_row(c) || c->moved_peer >= 0)
			continue;
		/* the callee's calls fell (or rose) by the arc's */
		evidence_call_counts(ex, &sa, &sb);
		if ((from == 0 ? sa < sb : sb < sa) || a->count[from] == 0)
			continue;
		if (!grew_by(d, c, ex, from) &&
		    !(c->self_diff != 0 && (from == 0 ? c->self_diff < 0 : c->self_diff > 0)))
			continue;
		offer(&best, (long)a->parent, MOVED_PARTIAL, (double)a->count[from]);
	}
	return best;
}

static void moved_cost(struct diff *d)
{
	struct diff_arc_index ai;
	size_t i;

	for (i = 0; i < d->nentries; i++) {
		d->entries[i].moved_peer = -1;
		d->entries[i].moved_why = MOVED_NONE;
	}
	if (diff_arc_index_build(d, &ai) < 0)
		return; /* out of memory: no moved cost, the verdicts stand */
	for (i = 0; i < d->nentries; i++) {
		struct diff_entry *e = &d->entries[i];
		struct moved_pick p;

		/* code outside the program's functions (a library's) is in no
		 * binary: sampled on one side only, it moved nowhere */
		if (!is_row(e) || !has_data(e) || e->moved_peer >= 0 || (e->flags & PSYM_KINDS))
			continue;
		if (e->side[0].present != e->side[1].present)
			p = moved_caller(d, &ai, i, e->side[DIFF_BASE].present ? DIFF_BASE : DIFF_SECOND);
		else
			p = moved_partial(d, &ai, i);
		if (p.peer < 0 || d->entries[p.peer].moved_peer >= 0)
			continue;
		e->moved_peer = p.peer;
		e->moved_why = p.why;
		e->moved_caller = 0;
		d->entries[p.peer].moved_peer = (long)i;
		d->entries[p.peer].moved_why = p.why;
		d->entries[p.peer].moved_caller = 1;
		e->moved_total_diff = d->entries[p.peer].self_diff + d->entries[p.peer].child_diff;
		d->entries[p.peer].moved_total_diff = e->moved_total_diff;
	}
	diff_arc_index_free(&ai);
}

/* A cycle as a whole: significant when a member is, with its largest
 * evidence; equal when every member is.  One pass over the members. */
static void cycle_verdicts(struct diff *d)
{
	size_t n = (size_t)d->ncycles + 1, i;
	long *best = malloc(n * sizeof(long));
	unsigned char *differs = calloc(n, 1), *any = calloc(n, 1);

	if (!best || !differs || !any)
		goto out; /* out of memory: cycles keep no verdict of their own */
	for (i = 0; i < n; i++)
		best[i] = -1;
	for (i = 0; i < d->nentries; i++) {
		const struct diff_entry *m = &d->entries[i];
		int c = m->cycle;

		if (!is_row(m) || c <= 0 || c > d->ncycles)
			continue;
		differs[c] |= m->verdict != VERDICT_EQUAL;
		any[c] |= m->significant;
		if (m->significant && (best[c] < 0 || m->evidence_sec > d->entries[best[c]].evidence_sec))
			best[c] = (long)i;
	}
	for (i = 0; i < d->nentries; i++) {
		struct diff_entry *e = &d->entries[i];
		int c = e->cycle;

		if (is_row(e) || c <= 0 || c > d->ncycles)
			continue;
		e->significant = any[c];
		e->evidence_sec = best[c] >= 0 ? d->entries[best[c]].evidence_sec : 0;
		e->evidence_signed = best[c] >= 0 ? d->entries[best[c]].evidence_signed : 0;
		e->verdict = e->significant ? VERDICT_SIGNIFICANT :
			     differs[c] ? VERDICT_NOISE : VERDICT_EQUAL;
		e->noise = NOISE_NONE;
	}
out:
	free(best);
	free(differs);
	free(any);
}

void evidence_apply(struct diff *d)
{
	struct signif_family f;
	double hz0 = d->prof[0]->hz, hz1 = d->prof[1]->hz;
	size_t i;

	signif_family_init(&f, d->opts.noise_sigmas);
	d->min_evidence_sec = d->opts.noise_sigmas > 0 ?
		2.0 / fmax(1e-9, fmin(hz0 > 0 ? hz0 : hz1, hz1 > 0 ? hz1 : hz0)) : 0;
	if (!(d->min_evidence_sec < 1e6))
		d->min_evidence_sec = 0;
	for (i = 0; i < d->nentries; i++)
		add_row_tests(d, &d->entries[i], &f);
	signif_decide(&f);
	d->z_cut = f.z_cut;
	d->ntests = f.counted;
	for (i = 0; i < d->nentries; i++)
		if (is_row(&d->entries[i]))
			row_verdict(d, &d->entries[i], &f);
	signif_family_release(&f);

	moved_cost(d);
	/* A caller that took in an inlined function's cost is as significant
	 * as the cost it took in; its evidence is its own change. */
	for (i = 0; i < d->nentries; i++) {
		struct diff_entry *e = &d->entries[i];

		if (e->moved_peer >= 0 && !e->significant && d->entries[e->moved_peer].significant &&
		    e->self_diff != 0) {
			e->significant = 1;
			e->verdict = VERDICT_SIGNIFICANT;
			e->evidence_sec = fabs(e->excess_sec);
			e->evidence_signed = e->excess_sec;
		}
	}
	cycle_verdicts(d);
	decide_arcs(d);
}

const char *evidence_calls_text(char *buf, size_t n, const struct diff_entry *e)
{
	uint64_t a, b;

	evidence_call_counts(e, &a, &b);
	if (!a && b)
		snprintf(buf, n, "calls new");
	else if (a && !b)
		snprintf(buf, n, "calls gone");
	else if (e->calls_factor >= 1 && e->calls_factor < 1000 &&
		 e->calls_factor == (double)(int)e->calls_factor)
		/* "%.3g" of a whole number under 1000 is its digits: a row's
		 * snprintf less for the common "x2", "/10" */
		snprintf(buf, n, "calls %c%d", b >= a ? 'x' : '/', (int)e->calls_factor);
	else if (b >= a)
		snprintf(buf, n, "calls x%.3g", e->calls_factor);
	else
		snprintf(buf, n, "calls /%.3g", e->calls_factor);
	return buf;
}
