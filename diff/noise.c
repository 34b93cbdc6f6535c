#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diff/noise.h"
#include "utils/error.h"
#include "utils/banned.h"

enum { STAT_MEAN, STAT_SAMPLING, STAT_RUNS, NSTAT };

static double *rank_stat(const struct diff *d, const struct diff_entry *e, int s, size_t k)
{
	return &e->rank_stat[((size_t)s * d->nranks + k) * NSTAT];
}

/* Without a measured run-to-run variance on either side, sampling noise is
 * all we know, and it is too small on a shared machine. */
static double floor_sec(const struct diff *d, double a, double b)
{
	if (d->repeated[DIFF_BASE] || d->repeated[DIFF_SECOND])
		return 0;
	return d->opts.rel_floor * fmax(fabs(a), fabs(b));
}

double noise_threshold(const struct diff *d, const struct diff_entry *e, double k)
{
	double var = 0;
	int s;

	for (s = 0; s < DIFF_NSIDES; s++) {
		double hz = d->prof[s]->hz > 0 ? d->prof[s]->hz : 1.0;

		var += e->side[s].ticks / (hz * hz) + e->side[s].run_var;
	}
	return fmax(k * sqrt(var), k > 0 ? floor_sec(d, e->side[0].self_sec,
						     e->side[1].self_sec) : 0);
}

static void rank_verdicts(const struct diff *d, struct diff_entry *e, double k)
{
	double top[DIFF_NSIDES] = { 0, 0 };
	size_t r;
	int s;

	e->nranks_changed = 0;
	for (r = 0; r < d->nranks; r++) {
		const double *a = rank_stat(d, e, DIFF_BASE, r), *b = rank_stat(d, e, DIFF_SECOND, r);
		double t = fmax(k * sqrt(a[STAT_SAMPLING] + a[STAT_RUNS] +
					 b[STAT_SAMPLING] + b[STAT_RUNS]),
				k > 0 ? floor_sec(d, a[STAT_MEAN], b[STAT_MEAN]) : 0);

		e->rank_diff[r] = a[STAT_MEAN] - b[STAT_MEAN];
		e->rank_changed[r] = k > 0 && e->rank_diff[r] != 0 && fabs(e->rank_diff[r]) >= t;
		e->nranks_changed += e->rank_changed[r];
		for (s = 0; s < DIFF_NSIDES; s++)
			top[s] = fmax(top[s], rank_stat(d, e, s, r)[STAT_MEAN]);
	}
	e->slowest_diff = top[DIFF_BASE] - top[DIFF_SECOND];
}

void noise_apply(struct diff *d, double k)
{
	size_t i;

	for (i = 0; i < d->nentries; i++) {
		struct diff_entry *e = &d->entries[i];

		e->noise_sec = noise_threshold(d, e, k);
		e->noise = e->self_diff != 0 && fabs(e->self_diff) < e->noise_sec ?
			NOISE_WITHIN : NOISE_NONE;
		if (e->rank_stat)
			rank_verdicts(d, e, k);
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

/* Run-to-run variance of the side's sum: within each group of repeats,
 * R_g * s_g^2 (the sum of R_g runs of standard deviation s_g). */
static double side_run_var(const struct noise_runs *r, const size_t *group, size_t ng, long sym,
			   int *repeated)
{
	double var = 0;
	size_t g, i;

	for (g = 0; g < ng; g++) {
		double mean = 0, ss = 0;
		size_t m = 0;

		for (i = 0; i < r->n; i++)
			if (group[i] == g) {
				mean += run_seconds(r->prof[i], sym);
				m++;
			}
		if (m < 2)
			continue;
		*repeated = 1;
		mean /= (double)m;
		for (i = 0; i < r->n; i++)
			if (group[i] == g)
				ss += pow(run_seconds(r->prof[i], sym) - mean, 2);
		var += (double)m * ss / (double)(m - 1);
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
 * variance of that mean and its run-to-run variance (from repeats). */
static void fill_rank_stats(struct diff *d, struct diff_entry *e, int s, const struct noise_runs *r)
{
	const struct profile *p = d->prof[s];
	double hz = p->hz > 0 ? p->hz : 1.0;
	size_t k, i;

	for (k = 0; k < d->nranks; k++) {
		double *st = rank_stat(d, e, s, k), sum = 0, ticks = 0, ss = 0;
		size_t m = 0;

		if (e->side[s].sym < 0)
			continue;
		for (i = 0; i < r->n; i++)
			if (r->rank[i] == d->ranks[k]) {
				sum += run_seconds(r->prof[i], e->side[s].sym);
				ticks += r->prof[i]->syms[e->side[s].sym].self_ticks;
				m++;
			}
		if (!m)
			continue;
		st[STAT_MEAN] = sum / (double)m;
		st[STAT_SAMPLING] = ticks / ((double)m * (double)m * hz * hz);
		for (i = 0; m > 1 && i < r->n; i++)
			if (r->rank[i] == d->ranks[k])
				ss += pow(run_seconds(r->prof[i], e->side[s].sym) - st[STAT_MEAN], 2);
		st[STAT_RUNS] = m > 1 ? ss / (double)(m - 1) / (double)m : 0;
	}
}

int noise_set_runs(struct diff *d, const struct noise_runs runs[DIFF_NSIDES])
{
	size_t *group[DIFF_NSIDES] = { NULL, NULL }, ng[DIFF_NSIDES] = { 0, 0 }, i;
	int s, ret = -1, with_ranks = has_all_ranks(&runs[0]) && has_all_ranks(&runs[1]);

	for (s = 0; s < DIFF_NSIDES; s++) {
		const struct noise_runs *r = &runs[s];

		for (i = 0; i < r->n; i++)
			if (r->prof[i]->nsyms != d->prof[s]->nsyms)
				return error("the runs of '%s' do not line up with their sum",
					     d->prof[s]->binary ? d->prof[s]->binary : "?");
		d->nruns[s] = r->n ? r->n : 1;
		d->repeated[s] = 0;
		if (!(group[s] = malloc((r->n + 1) * sizeof(size_t)))) {
			error("out of memory");
			goto out;
		}
		ng[s] = run_groups(r, group[s]);
	}
	if (with_ranks && collect_ranks(d, runs) < 0)
		goto out;
	for (i = 0; i < d->nentries; i++) {
		struct diff_entry *e = &d->entries[i];

		for (s = 0; s < DIFF_NSIDES; s++)
			e->side[s].run_var = e->side[s].sym < 0 ? 0 :
				side_run_var(&runs[s], group[s], ng[s], e->side[s].sym,
					     &d->repeated[s]);
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
			fill_rank_stats(d, e, s, &runs[s]);
	}
	ret = 0;
out:
	free(group[0]);
	free(group[1]);
	return ret;
}
