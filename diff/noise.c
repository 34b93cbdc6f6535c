#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diff/noise.h"
#include "utils/error.h"
#include "utils/banned.h"

enum { STAT_MEAN, STAT_SAMPLING, STAT_RUNS, STAT_TICKS, NSTAT };

/* Fewer samples than this give too rough a ratio to measure a speed. */
#define SPEED_MIN_TICKS 20.0

static double *rank_stat(const struct diff *d, const struct diff_entry *e, int s, size_t k)
{
	return &e->rank_stat[((size_t)s * d->nranks + k) * NSTAT];
}

static int cmp_double(const void *l, const void *r)
{
	double a = *(const double *)l, b = *(const double *)r;

	return (a > b) - (a < b);
}

/* The ratio most of ratio[0..n) share, 1 when they share none (see
 * noise.h); *scatter (may be NULL) gets the root mean square of the log
 * deviations of the ratios that share it, 0 when none.  Sorts ratio. */
static double speed_consensus(double *ratio, size_t n, double *scatter)
{
	size_t i, near = 0;
	double m, ss = 0;

	if (scatter)
		*scatter = 0;
	if (n < 3)
		return 1.0;
	qsort(ratio, n, sizeof(double), cmp_double);
	m = n % 2 ? ratio[n / 2] : 0.5 * (ratio[n / 2 - 1] + ratio[n / 2]);
	if (m <= 0)
		return 1.0;
	for (i = 0; i < n; i++)
		if (fabs(ratio[i] / m - 1.0) <= 0.2) {
			near++;
			ss += pow(log(ratio[i] / m), 2);
		}
	if (2 * near < n)
		return 1.0;
	if (scatter && near > 2)
		*scatter = sqrt(ss / (double)(near - 1));
	return m;
}

/* Without a measured run-to-run variance on either side, sampling noise is
 * all we know, and it is too small on a shared machine. */
static double floor_sec(const struct diff *d, double a, double b)
{
	if (d->repeated[DIFF_BASE] || d->repeated[DIFF_SECOND])
		return 0;
	return d->floor_share * fmax(fabs(a), fabs(b));
}

/* The variance of one side's seconds: sampling's, or the spread its
 * repeated runs show when larger.  Not their sum: each repeat's seconds
 * already hold its own sampling noise, so the measured spread includes it
 * (adding both counted sampling twice, and a +15% change over seven runs
 * went unseen). */
static double side_var(double sampling, double runs)
{
	return fmax(sampling, runs);
}

double noise_threshold(const struct diff *d, const struct diff_entry *e, double k)
{
	double var = 0, g = d->speed > 0 ? d->speed : 1.0;
	int s;

	for (s = 0; s < DIFF_NSIDES; s++) {
		double hz = d->prof[s]->hz > 0 ? d->prof[s]->hz : 1.0;
		double w = s == DIFF_BASE ? g * g : 1.0;

		var += w * side_var(e->side[s].ticks / (hz * hz), e->side[s].run_var);
	}
	return fmax(k * sqrt(var), k > 0 ? floor_sec(d, g * e->side[0].self_sec,
						     e->side[1].self_sec) : 0);
}

/* The speed ratio between the two sides, and the floor (noise.h). */
static double side_speed(struct diff *d, double k)
{
	double *ratio = malloc((d->nentries + 1) * sizeof(double)), g, scatter;
	size_t i, n = 0;

	if (!ratio)
		return 1.0; /* out of memory: judge without it */
	for (i = 0; i < d->nentries; i++) {
		const struct diff_entry *e = &d->entries[i];

		if (!(e->flags & PSYM_CYCLE) && e->side[0].ticks >= SPEED_MIN_TICKS &&
		    e->side[1].ticks >= SPEED_MIN_TICKS)
			ratio[n++] = e->side[1].self_sec / e->side[0].self_sec;
	}
	g = speed_consensus(ratio, n, &scatter);
	free(ratio);
	/* The functions that share the speed differ from it by their own
	 * run-to-run noise: K of those standard deviations is the floor when
	 * that is above the configured one. */
	d->floor_share = fmax(d->opts.rel_floor, k * scatter);
	return fabs(g - 1.0) >= 0.5 * d->opts.rel_floor ? g : 1.0;
}

/* Per rank of one function, the verdicts.  A function may run at another
 * speed in the second job on every rank alike (a loaded machine): the
 * ranks' change against each other is what counts, so each rank's
 * baseline is scaled by the function's speed across the ranks, the median
 * of the second job's ranks over the median of the baseline's. */
static void rank_verdicts(const struct diff *d, struct diff_entry *e, double k)
{
	double *v = malloc((d->nranks + 1) * sizeof(double)), med[DIFF_NSIDES], g = 1.0;
	size_t r, n;
	int s;

	for (s = 0; v && s < DIFF_NSIDES; s++) {
		for (r = n = 0; r < d->nranks; r++)
			v[n++] = rank_stat(d, e, s, r)[STAT_MEAN];
		qsort(v, n, sizeof(double), cmp_double);
		med[s] = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
	}
	if (v && d->nranks >= 3 && med[DIFF_BASE] > 0 && med[DIFF_SECOND] > 0)
		g = med[DIFF_SECOND] / med[DIFF_BASE];
	free(v);
	for (r = 0; r < d->nranks; r++) {
		const double *a = rank_stat(d, e, DIFF_BASE, r), *b = rank_stat(d, e, DIFF_SECOND, r);
		double t = fmax(k * sqrt(g * g * side_var(a[STAT_SAMPLING], a[STAT_RUNS]) +
					 side_var(b[STAT_SAMPLING], b[STAT_RUNS])),
				k > 0 ? floor_sec(d, g * a[STAT_MEAN], b[STAT_MEAN]) : 0);

		e->rank_diff[r] = a[STAT_MEAN] - b[STAT_MEAN];
		e->rank_changed[r] = k > 0 && e->rank_diff[r] != 0 &&
				     fabs(g * a[STAT_MEAN] - b[STAT_MEAN]) >= t;
		e->nranks_changed += e->rank_changed[r];
	}
}

static void slowest_rank(const struct diff *d, struct diff_entry *e)
{
	double top[DIFF_NSIDES] = { 0, 0 };
	size_t r;
	int s;

	for (r = 0; r < d->nranks; r++)
		for (s = 0; s < DIFF_NSIDES; s++)
			top[s] = fmax(top[s], rank_stat(d, e, s, r)[STAT_MEAN]);
	e->slowest_diff = top[DIFF_BASE] - top[DIFF_SECOND];
}

void noise_apply(struct diff *d, double k)
{
	size_t i;

	d->floor_share = d->opts.rel_floor;
	d->speed = k > 0 ? side_speed(d, k) : 1.0;
	for (i = 0; i < d->nentries; i++) {
		struct diff_entry *e = &d->entries[i];

		e->excess_sec = d->speed == 1.0 ? e->self_diff :
			d->speed * e->side[DIFF_BASE].self_sec - e->side[DIFF_SECOND].self_sec;
		e->noise_sec = noise_threshold(d, e, k);
		e->noise = e->self_diff != 0 && fabs(e->excess_sec) < e->noise_sec ?
			NOISE_WITHIN : NOISE_NONE;
		e->nranks_changed = 0;
		if (e->rank_stat) {
			slowest_rank(d, e);
			rank_verdicts(d, e, k);
		}
	}
}

static double run_seconds(const struct profile *p, long sym)
{
	return profile_seconds(p, p->syms[sym].self_ticks);
}

/* The groups of repeated runs of one side: files of the same rank, or all
 * files when none has a rank.  group[i] is file i's group, 0..ngroups-1. */
static size_t run_groups(const struct noise_runs *r, size_t *group)
{
	size_t i, j, ng = 0;

	for (i = 0; i < r->n; i++) {
		int rank = r->rank ? r->rank[i] : -1;

		for (j = 0; j < i; j++)
			if ((r->rank ? r->rank[j] : -1) == rank)
				break;
		group[i] = j < i ? group[j] : ng++;
	}
	return ng;
}

/* Each file's speed relative to the mean of its group of repeats, so that
 * a run slowed as a whole does not count as every function's noise. */
static int run_speeds(const struct noise_runs *r, const size_t *group, double *speed)
{
	size_t nsyms = r->n ? r->prof[0]->nsyms : 0, i, j, f;
	double *ratio = malloc((nsyms + 1) * sizeof(double));

	if (!ratio)
		return error("out of memory");
	for (i = 0; i < r->n; i++) {
		size_t n = 0;

		for (f = 0; f < nsyms; f++) {
			double mean = 0, m = 0;

			if (r->prof[i]->syms[f].flags & PSYM_CYCLE ||
			    r->prof[i]->syms[f].self_ticks < SPEED_MIN_TICKS)
				continue;
			for (j = 0; j < r->n; j++)
				if (group[j] == group[i]) {
					mean += r->prof[j]->syms[f].self_ticks /
						(r->prof[j]->hz > 0 ? r->prof[j]->hz : 1.0);
					m++;
				}
			if (m > 1 && mean > 0)
				ratio[n++] = run_seconds(r->prof[i], (long)f) / (mean / m);
		}
		speed[i] = speed_consensus(ratio, n, NULL);
	}
	free(ratio);
	return 0;
}

/* The variance of one run from m repeats v[0..m): with three or more, from
 * the median absolute deviation (1.4826 * MAD estimates the standard
 * deviation), so that one run disturbed by the machine does not make every
 * difference noise; with two, the sample variance.  Sorts v. */
static double repeat_var(double *v, size_t m)
{
	double med, sd;
	size_t i;

	if (m < 2)
		return 0;
	if (m == 2)
		return 0.5 * pow(v[0] - v[1], 2);
	qsort(v, m, sizeof(double), cmp_double);
	med = m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
	for (i = 0; i < m; i++)
		v[i] = fabs(v[i] - med);
	qsort(v, m, sizeof(double), cmp_double);
	sd = 1.4826 * (m % 2 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]));
	return sd * sd;
}

/* Run-to-run variance of the side's sum: within each group of repeats,
 * R_g * s_g^2 (the sum of R_g runs of standard deviation s_g), on the
 * runs' common speed.  scratch holds r->n doubles. */
static double side_run_var(const struct noise_runs *r, const size_t *group, size_t ng,
			   const double *speed, long sym, int *repeated, double *scratch)
{
	double var = 0;
	size_t g, i;

	for (g = 0; g < ng; g++) {
		size_t m = 0;

		for (i = 0; i < r->n; i++)
			if (group[i] == g)
				scratch[m++] = run_seconds(r->prof[i], sym) / speed[i];
		if (m < 2)
			continue;
		*repeated = 1;
		var += (double)m * repeat_var(scratch, m);
	}
	return var;
}

static int has_all_ranks(const struct noise_runs *r)
{
	size_t i;

	if (!r->rank || r->n == 0)
		return 0;
	for (i = 0; i < r->n; i++)
		if (r->rank[i] < 0)
			return 0;
	return 1;
}

static int cmp_int(const void *l, const void *r)
{
	int a = *(const int *)l, b = *(const int *)r;

	return (a > b) - (a < b);
}

/* The union of both sides' ranks, ascending, into d->ranks. */
static int collect_ranks(struct diff *d, const struct noise_runs runs[DIFF_NSIDES])
{
	size_t n = 0, i, j;
	int s;

	d->ranks = malloc((runs[0].n + runs[1].n + 1) * sizeof(int));
	if (!d->ranks)
		return error("out of memory");
	for (s = 0; s < DIFF_NSIDES; s++)
		for (i = 0; i < runs[s].n; i++)
			d->ranks[n++] = runs[s].rank[i];
	qsort(d->ranks, n, sizeof(int), cmp_int);
	for (i = j = 0; i < n; i++)
		if (j == 0 || d->ranks[j - 1] != d->ranks[i])
			d->ranks[j++] = d->ranks[i];
	d->nranks = j;
	return 0;
}

/* Per rank of one entry: the mean of the rank's files, the sampling
 * variance of that mean, its run-to-run variance (from repeats, on their
 * common speed) and the mean samples. */
static void fill_rank_stats(struct diff *d, struct diff_entry *e, int s, const struct noise_runs *r,
			    const double *speed, double *scratch)
{
	const struct profile *p = d->prof[s];
	double hz = p->hz > 0 ? p->hz : 1.0;
	long sym = e->side[s].sym;
	size_t k, i;

	for (k = 0; k < d->nranks; k++) {
		double *st = rank_stat(d, e, s, k), sum = 0, ticks = 0;
		size_t m = 0;

		if (sym < 0)
			continue;
		for (i = 0; i < r->n; i++)
			if (r->rank[i] == d->ranks[k]) {
				sum += run_seconds(r->prof[i], sym);
				ticks += r->prof[i]->syms[sym].self_ticks;
				scratch[m++] = run_seconds(r->prof[i], sym) / speed[i];
			}
		if (!m)
			continue;
		st[STAT_MEAN] = sum / (double)m;
		st[STAT_TICKS] = ticks / (double)m;
		st[STAT_SAMPLING] = ticks / ((double)m * (double)m * hz * hz);
		st[STAT_RUNS] = repeat_var(scratch, m) / (double)m;
	}
}

int noise_set_runs(struct diff *d, const struct noise_runs runs[DIFF_NSIDES])
{
	size_t *group[DIFF_NSIDES] = { NULL, NULL }, ng[DIFF_NSIDES] = { 0, 0 }, i;
	double *speed[DIFF_NSIDES] = { NULL, NULL };
	double *scratch = malloc((runs[0].n + runs[1].n + 1) * sizeof(double));
	int s, ret = -1, with_ranks = has_all_ranks(&runs[0]) && has_all_ranks(&runs[1]);

	for (s = 0; s < DIFF_NSIDES; s++) {
		const struct noise_runs *r = &runs[s];

		for (i = 0; i < r->n; i++)
			if (r->prof[i]->nsyms != d->prof[s]->nsyms)
				return error("the runs of '%s' do not line up with their sum",
					     d->prof[s]->binary ? d->prof[s]->binary : "?");
	}
	for (s = 0; s < DIFF_NSIDES; s++) {
		const struct noise_runs *r = &runs[s];

		d->nruns[s] = r->n ? r->n : 1;
		d->repeated[s] = 0;
		group[s] = malloc((r->n + 1) * sizeof(size_t));
		speed[s] = malloc((r->n + 1) * sizeof(double));
		if (!group[s] || !speed[s] || !scratch) {
			error("out of memory");
			goto out;
		}
		ng[s] = run_groups(r, group[s]);
		if (run_speeds(r, group[s], speed[s]) < 0)
			goto out;
	}
	if (with_ranks && collect_ranks(d, runs) < 0)
		goto out;
	for (i = 0; i < d->nentries; i++) {
		struct diff_entry *e = &d->entries[i];

		for (s = 0; s < DIFF_NSIDES; s++)
			e->side[s].run_var = e->side[s].sym < 0 ? 0 :
				side_run_var(&runs[s], group[s], ng[s], speed[s], e->side[s].sym,
					     &d->repeated[s], scratch);
		if (!with_ranks || (e->flags & PSYM_CYCLE))
			continue;
		e->rank_stat = calloc(DIFF_NSIDES * d->nranks * NSTAT + 1, sizeof(double));
		e->rank_diff = calloc(d->nranks + 1, sizeof(double));
		e->rank_changed = calloc(d->nranks + 1, 1);
		if (!e->rank_stat || !e->rank_diff || !e->rank_changed) {
			error("out of memory");
			goto out;
		}
		for (s = 0; s < DIFF_NSIDES; s++)
			fill_rank_stats(d, e, s, &runs[s], speed[s], scratch);
	}
	ret = 0;
out:
	for (s = 0; s < DIFF_NSIDES; s++) {
		free(group[s]);
		free(speed[s]);
	}
	free(scratch);
	return ret;
}
