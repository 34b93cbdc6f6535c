#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diff/noise.h"
#include "diff/signif.h"
#include "utils/array.h"
#include "utils/error.h"
#include "utils/banned.h"

enum { STAT_MEAN, STAT_SAMPLING, STAT_RUNS, STAT_TICKS, STAT_SQ, NSTAT };

/* A common speed must be this far from 1 to be applied (closer, the
 * jitter covers it), and measured by this many functions. */
#define SPEED_MIN_CHANGE 0.05
#define SPEED_MIN_ITEMS 5
/* Rows outside the program's functions are few (a library or two, the
 * instrumentation, an MPI library's wait): three of them agreeing measure
 * their common speed (an MPI job's wait as a whole) */
#define OUTSIDE_SPEED_MIN_ITEMS 3

static double *rank_stat(const struct diff *d, const struct diff_entry *e, int s, size_t k)
{
	return &e->rank_stat[((size_t)s * d->nranks + k) * NSTAT];
}

static int cmp_double(const void *l, const void *r)
{
	double a = *(const double *)l, b = *(const double *)r;

	return (a > b) - (a < b);
}

static int is_row(const struct diff_entry *e)
{
	return !(e->flags & PSYM_CYCLE);
}

/*
 * The two populations of rows (noise.h): the program's functions, and the
 * rows outside them.  Time outside the program's code moves as a whole for
 * reasons of its own (an MPI library's wait is the other ranks' compute,
 * not this rank's work): one speed and one jitter for each population.
 */
enum { PROGRAM, OUTSIDE, NCLASS };

static int class_of(const struct diff_entry *e)
{
	return e->flags & PSYM_KINDS ? OUTSIDE : PROGRAM;
}

static double speed_of_class(const struct diff *d, int cls)
{
	return cls == OUTSIDE ? d->outside_speed : d->speed;
}

static double speed_var_of_class(const struct diff *d, int cls)
{
	return cls == OUTSIDE ? d->outside_speed_var : d->speed_var;
}

static double jitter_of_class(const struct diff *d, int cls)
{
	return cls == OUTSIDE ? d->outside_jitter : d->jitter;
}

static double rank_speed_of_class(const struct diff *d, int cls, size_t r)
{
	return cls == OUTSIDE ? d->rank_outside_speed[r] : d->rank_speed[r];
}

/* A profile's samples as independent ones: a sample of weight w (a timer
 * signal that stood for w periods) counts 1 / w, at rate hz / w. */
static double indep(const struct profile *p, double ticks)
{
	return ticks / profile_weight(p);
}

static double indep_hz(const struct profile *p)
{
	return p->hz / profile_weight(p);
}

/*
 * The speed a scatter measured, when it is clear enough to apply: most
 * functions ran at it, and so did most of the time.  A speed that the
 * functions holding most of the samples contradict is no machine's: an
 * A/A pair of a release build of an MPI code on a loaded machine had its
 * few-sample functions (setup, sorting) at 0.65x and its one big function
 * (eamForce, 1.1 s) at 1.02x, and judged at 0.65x that function's
 * unchanged time was a false change of -0.41 s.
 */
static void speed_of(const struct signif_scatter *sc, size_t min_items, double *g, double *var)
{
	double lg = sc->log_ratio;

	*g = 1.0;
	*var = 0;
	if (sc->n < min_items || fabs(exp(lg) - 1) < SPEED_MIN_CHANGE ||
	    fabs(lg) < 3 * sqrt(sc->log_var))
		return;
	if (fabs(sc->log_ratio_time - lg) > fmax(3 * sqrt(sc->log_var), log(1 + SPEED_MIN_CHANGE)))
		return;
	*g = exp(lg);
	*var = *g * *g * sc->log_var;
}

/* The variance of one side's seconds t (n samples at hz; sq the sum of its
 * files' t^2, 0 for one file), or the measured run-to-run variance v when
 * larger: each repeat holds its own sampling noise, so v includes it. */
/* Side s's, rank k's mean seconds of class cls's rows. */
static double rank_total(const struct diff *d, int s, size_t k, int cls)
{
	return d->rank_totals ? d->rank_totals[((size_t)s * d->nranks + k) * NCLASS + cls] : 0;
}

/*
 * In a job of several ranks the time outside the program's functions is
 * mostly the MPI library's wait: a rank waits while the slowest rank
 * computes, so its wait varies from run to run as the ranks' compute does,
 * whatever its own size: W = max(C) - C_r has about twice the variance
 * of one rank's compute time, 2 c^2 C^2.  The wait is sampled in several
 * rows (opal_progress, the library's unnamed code, sched_yield), which
 * share it differently from run to run: each row carries the part of the
 * wait's variance its share of the rank's outside time is (t / W, the
 * rows taken as independent parts of the wait).  0 outside jobs of ranks
 * and for the program's own rows.
 */
static double wait_var(const struct diff *d, int s, size_t k, double t)
{
	double c = d->jitter, comp = rank_total(d, s, k, PROGRAM), w = rank_total(d, s, k, OUTSIDE);

	return w > 0 && t > 0 ? 2 * c * c * comp * comp * fmin(1, t / w) : 0;
}

static double side_var(double t, double n, double hz, double sq, double c, double v)
{
	double model = (hz > 0 ? n / (hz * hz) : 0) + c * c * (sq > 0 ? sq : t * t);

	return fmax(model, v);
}

/* The rows' seconds and samples of class cls, each side's over a common
 * speed (rank r's means when r >= 0), for signif_scatter. */
static int scatter_rows(const struct diff *d, long r, double prior, int cls,
			struct signif_scatter *sc)
{
	size_t n = d->nentries, i, m = 0;
	double *v = malloc((4 * n + 1) * sizeof(double));
	int ret;

	if (!v)
		return -1;
	for (i = 0; i < n; i++) {
		const struct diff_entry *e = &d->entries[i];

		if (!is_row(e) || class_of(e) != cls)
			continue;
		if (r < 0) {
			v[m] = e->side[0].self_sec;
			v[n + m] = e->side[1].self_sec;
			v[2 * n + m] = e->side[0].ticks / profile_weight(d->prof[0]);
			v[3 * n + m] = e->side[1].ticks / profile_weight(d->prof[1]);
		} else {
			if (!e->rank_stat)
				continue;
			v[m] = rank_stat(d, e, 0, (size_t)r)[STAT_MEAN];
			v[n + m] = rank_stat(d, e, 1, (size_t)r)[STAT_MEAN];
			v[2 * n + m] = rank_stat(d, e, 0, (size_t)r)[STAT_TICKS];
			v[3 * n + m] = rank_stat(d, e, 1, (size_t)r)[STAT_TICKS];
		}
		m++;
	}
	ret = signif_scatter(v, v + n, v + 2 * n, v + 3 * n, m, prior, sc);
	free(v);
	return ret;
}

/* The jitter of every (rank, row) pair of class cls, each rank against
 * itself at its own speed, pooled. */
static int scatter_ranks(const struct diff *d, double prior, int cls, struct signif_scatter *sc)
{
	size_t n = d->nentries * d->nranks, i, r, m = 0;
	double *v = malloc((4 * n + 1) * sizeof(double));
	int ret;

	if (!v)
		return -1;
	for (r = 0; r < d->nranks; r++)
		for (i = 0; i < d->nentries; i++) {
			const struct diff_entry *e = &d->entries[i];
			const double *a, *b;

			if (!is_row(e) || !e->rank_stat || class_of(e) != cls)
				continue;
			a = rank_stat(d, e, 0, r);
			b = rank_stat(d, e, 1, r);
			v[m] = a[STAT_MEAN] * rank_speed_of_class(d, cls, r);
			v[n + m] = b[STAT_MEAN];
			v[2 * n + m] = a[STAT_TICKS];
			v[3 * n + m] = b[STAT_TICKS];
			m++;
		}
	ret = signif_scatter(v, v + n, v + 2 * n, v + 3 * n, m, prior, sc);
	free(v);
	return ret;
}

/* The model: the runs' speed, each rank's, and the jitter, of each
 * population of rows. */
static void measure(struct diff *d)
{
	double prior = d->opts.jitter_prior;
	double *speed[NCLASS] = { &d->speed, &d->outside_speed };
	double *speed_var[NCLASS] = { &d->speed_var, &d->outside_speed_var };
	double *jitter[NCLASS] = { &d->jitter, &d->outside_jitter };
	double *weight[NCLASS] = { &d->jitter_weight, &d->outside_jitter_weight };
	double *rank_speed[NCLASS] = { d->rank_speed, d->rank_outside_speed };
	const size_t min_items[NCLASS] = { SPEED_MIN_ITEMS, OUTSIDE_SPEED_MIN_ITEMS };

	d->jitter_from_repeats = 0;
	if (d->nranks && d->rank_totals) {
		memset(d->rank_totals, 0, DIFF_NSIDES * d->nranks * NCLASS * sizeof(double));
		for (size_t i = 0; i < d->nentries; i++) {
			const struct diff_entry *e = &d->entries[i];

			if (!is_row(e) || !e->rank_stat)
				continue;
			for (int s = 0; s < DIFF_NSIDES; s++)
				for (size_t k = 0; k < d->nranks; k++)
					d->rank_totals[((size_t)s * d->nranks + k) * NCLASS + class_of(e)] +=
						rank_stat(d, e, s, k)[STAT_MEAN];
		}
	}
	for (int cls = 0; cls < NCLASS; cls++) {
		struct signif_scatter sc;
		size_t r;

		if (scatter_rows(d, -1, prior, cls, &sc) < 0)
			sc = (struct signif_scatter){ .jitter = prior };
		speed_of(&sc, min_items[cls], speed[cls], speed_var[cls]);
		*jitter[cls] = sc.jitter;
		*weight[cls] = sc.weight;
		for (r = 0; rank_speed[cls] && r < d->nranks; r++) {
			struct signif_scatter rs;
			double var;

			rank_speed[cls][r] = 1.0;
			if (scatter_rows(d, (long)r, prior, cls, &rs) == 0)
				speed_of(&rs, min_items[cls], &rank_speed[cls][r], &var);
		}
		if (rank_speed[cls] && d->nranks && scatter_ranks(d, prior, cls, &sc) == 0) {
			*jitter[cls] = sc.jitter;
			*weight[cls] = sc.weight;
		}
		if (d->repeat_weight > 0) {
			/* repeats measure it directly: shrunk towards the
			 * prior all the same, by what they are worth */
			double w = d->repeat_weight;

			*jitter[cls] = sqrt((w * d->repeat_jitter2 + SIGNIF_PRIOR_ITEMS * prior * prior) /
					    (w + SIGNIF_PRIOR_ITEMS));
			*weight[cls] = w;
			d->jitter_from_repeats = 1;
		}
	}
}

/* The sum-of-squares weight of a side: how its files share its seconds. */
static double side_sq(const struct diff_side_sym *s)
{
	return s->sq_sec > 0 ? s->sq_sec : s->self_sec * s->self_sec;
}

double noise_time_zmax(double na, double hz_a, double nb, double hz_b, double c, double w)
{
	return signif_time_zmax(na, hz_a, nb, hz_b, c, w);
}

/* The share of one file's jitter weight a side's files leave (sq / t^2). */
static double sq_share(const struct diff_side_sym *s)
{
	return s->self_sec > 0 && s->sq_sec > 0 ? fmin(1, s->sq_sec / (s->self_sec * s->self_sec))
						: 1;
}

static void entry_noise(const struct diff *d, struct diff_entry *e)
{
	const struct diff_side_sym *a = &e->side[0], *b = &e->side[1];
	int cls = class_of(e);
	double g = speed_of_class(d, cls), c = jitter_of_class(d, cls);
	/* n samples of weight w are n / w independent ones at rate hz / w */
	double wa = profile_weight(d->prof[0]), wb = profile_weight(d->prof[1]);
	double hza = d->prof[0]->hz / wa, hzb = d->prof[1]->hz / wb;
	double va, vb;

	va = side_var(a->self_sec, a->ticks / wa, hza, side_sq(a), c, a->run_var);
	vb = side_var(b->self_sec, b->ticks / wb, hzb, side_sq(b), c, b->run_var);
	for (size_t k = 0; cls == OUTSIDE && e->rank_stat && k < d->nranks; k++) {
		va += wait_var(d, 0, k, rank_stat(d, e, 0, k)[STAT_MEAN]);
		vb += wait_var(d, 1, k, rank_stat(d, e, 1, k)[STAT_MEAN]);
	}
	e->excess_sec = g == 1.0 ? e->self_diff : g * a->self_sec - b->self_sec;
	e->sigma_sec = sqrt(g * g * va + vb + a->self_sec * a->self_sec * speed_var_of_class(d, cls));
	e->time_zmax = noise_time_zmax(a->ticks / wa, hza, b->ticks / wb, hzb, c,
				       fmin(sq_share(a), sq_share(b)));
}

static void rank_noise(const struct diff *d, struct diff_entry *e)
{
	int cls = class_of(e);
	double top[DIFF_NSIDES] = { 0, 0 }, c = jitter_of_class(d, cls);
	size_t r;
	int s;

	for (r = 0; r < d->nranks; r++) {
		const double *a = rank_stat(d, e, 0, r), *b = rank_stat(d, e, 1, r);
		double g = rank_speed_of_class(d, cls, r);
		double va = fmax(a[STAT_SAMPLING] + c * c * a[STAT_SQ], a[STAT_RUNS]);
		double vb = fmax(b[STAT_SAMPLING] + c * c * b[STAT_SQ], b[STAT_RUNS]);

		if (cls == OUTSIDE) {
			va += wait_var(d, 0, r, a[STAT_MEAN]);
			vb += wait_var(d, 1, r, b[STAT_MEAN]);
		}

		e->rank_zmax[r] = noise_time_zmax(a[STAT_TICKS], indep_hz(d->prof[0]),
						  b[STAT_TICKS], indep_hz(d->prof[1]), c, 1);
		e->rank_diff[r] = a[STAT_MEAN] - b[STAT_MEAN];
		e->rank_excess[r] = g == 1.0 ? e->rank_diff[r] : g * a[STAT_MEAN] - b[STAT_MEAN];
		e->rank_sigma[r] = sqrt(g * g * va + vb);
		for (s = 0; s < DIFF_NSIDES; s++)
			top[s] = fmax(top[s], rank_stat(d, e, s, r)[STAT_MEAN]);
	}
	e->slowest_diff = top[DIFF_BASE] - top[DIFF_SECOND];
}

/* An arc's time: gprof's split of the callee's self and children's time
 * along it.  Its samples are its seconds at the side's rate; its files
 * share it as the callee's share its seconds. */
static void arc_noise(const struct diff *d, struct diff_arc *a)
{
	const struct diff_entry *callee = &d->entries[a->child];
	int cls = class_of(callee);
	double g = speed_of_class(d, cls), c = jitter_of_class(d, cls);
	double v[DIFF_NSIDES], t[DIFF_NSIDES];
	int s;

	for (s = 0; s < DIFF_NSIDES; s++) {
		const struct diff_side_sym *cs = &callee->side[s];
		double hz = indep_hz(d->prof[s]), w = 1.0;

		t[s] = a->time_sec[s] + a->child_time_sec[s];
		if (cs->self_sec > 0 && cs->sq_sec > 0)
			w = cs->sq_sec / (cs->self_sec * cs->self_sec);
		v[s] = side_var(t[s], t[s] * hz, hz, w * t[s] * t[s], c, 0);
	}
	a->excess_sec = g == 1.0 ? t[0] - t[1] : g * t[0] - t[1];
	a->sigma_sec = sqrt(g * g * v[0] + v[1] + t[0] * t[0] * speed_var_of_class(d, cls));
	a->time_zmax = noise_time_zmax(t[0] * indep_hz(d->prof[0]), indep_hz(d->prof[0]),
				       t[1] * indep_hz(d->prof[1]), indep_hz(d->prof[1]), c,
				       fmin(sq_share(&callee->side[0]), sq_share(&callee->side[1])));
}

void noise_apply(struct diff *d)
{
	size_t i;

	measure(d);
	for (i = 0; i < d->nentries; i++) {
		struct diff_entry *e = &d->entries[i];

		entry_noise(d, e);
		if (e->rank_stat)
			rank_noise(d, e);
	}
	for (i = 0; i < d->narcs; i++)
		arc_noise(d, &d->arcs[i]);
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
/* The functions of p: its symbols before the first cycle (diff/profile.h).
 * The runs of one binary share them, index for index; their cycles are
 * each run's own (gprof finds them in that run's call graph). */
static size_t real_syms(const struct profile *p)
{
	size_t n = 0;

	while (n < p->nsyms && !(p->syms[n].flags & PSYM_CYCLE))
		n++;
	return n;
}

static int run_speeds(const struct noise_runs *r, const size_t *group, double *speed)
{
	size_t nsyms = r->n ? real_syms(r->prof[0]) : 0, i, j, f;
	double *v = malloc((4 * nsyms + 1) * sizeof(double));

	if (!v)
		return error("out of memory");
	for (i = 0; i < r->n; i++) {
		struct signif_scatter sc;
		double var;
		size_t n = 0;

		for (f = 0; f < nsyms; f++) {
			double mean = 0, ticks = 0, m = 0;

			if (r->prof[i]->syms[f].flags & PSYM_CYCLE)
				continue;
			for (j = 0; j < r->n; j++)
				if (group[j] == group[i]) {
					mean += run_seconds(r->prof[j], (long)f);
					ticks += indep(r->prof[j], r->prof[j]->syms[f].self_ticks);
					m++;
				}
			if (m < 2)
				continue;
			v[n] = mean / m;
			v[nsyms + n] = run_seconds(r->prof[i], (long)f);
			v[2 * nsyms + n] = ticks / m;
			v[3 * nsyms + n] = indep(r->prof[i], r->prof[i]->syms[f].self_ticks);
			n++;
		}
		speed[i] = 1.0;
		if (signif_scatter(v, v + nsyms, v + 2 * nsyms, v + 3 * nsyms, n, 0, &sc) == 0)
			speed_of(&sc, SPEED_MIN_ITEMS, &speed[i], &var);
	}
	free(v);
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

/* The plain sample variance of v[0..m). */
static double sample_var(const double *v, size_t m)
{
	double mean = 0, ss = 0;
	size_t i;

	if (m < 2)
		return 0;
	for (i = 0; i < m; i++)
		mean += v[i];
	mean /= (double)m;
	for (i = 0; i < m; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return ss / (double)(m - 1);
}

/* What the repeats of a side say of one function: its run-to-run variance
 * (within each group of repeats, R_g * s_g^2: the sum of R_g runs of
 * standard deviation s_g, on the runs' common speed), its calls' variance,
 * the sum of its files' squared seconds; and, for functions with enough
 * samples, each group's relative variance beyond sampling (jitter^2) into
 * j2/nj (weighted by degrees of freedom).  scratch holds 2 * r->n doubles. */
struct repeat_sums {
	double *j2;   /* (c^2 estimate, weight) pairs */
	size_t nj, alloc;
};

static void side_repeats(const struct noise_runs *r, const size_t *group, size_t ng,
			 const double *speed, long sym, struct diff_side_sym *out, int *repeated,
			 double *scratch, struct repeat_sums *rs, double prior)
{
	size_t g, i;

	out->run_var = out->calls_var = out->sq_sec = 0;
	for (i = 0; i < r->n; i++)
		out->sq_sec += pow(run_seconds(r->prof[i], sym), 2);
	for (g = 0; g < ng; g++) {
		size_t m = 0;
		double ticks = 0, mean = 0, v;

		for (i = 0; i < r->n; i++)
			if (group[i] == g) {
				scratch[m] = run_seconds(r->prof[i], sym) / speed[i];
				scratch[r->n + m] = (double)r->prof[i]->syms[sym].ncalls;
				ticks += indep(r->prof[i], r->prof[i]->syms[sym].self_ticks);
				mean += scratch[m];
				m++;
			}
		if (m < 2)
			continue;
		*repeated = 1;
		out->calls_var += (double)m * sample_var(scratch + r->n, m);
		ticks /= (double)m;
		mean /= (double)m;
		if (ticks >= SIGNIF_SCATTER_MIN && mean > 0 &&
		    array_grow(&rs->j2, &rs->alloc, rs->nj + 2, sizeof(*rs->j2)) == 0) {
			/* relative variance beyond the sampling of one run,
			 * weighted as signif_scatter weighs its items: by
			 * degrees of freedom and how little sampling hides */
			double v0 = fmax(prior * prior, 1e-6);

			rs->j2[rs->nj++] = sample_var(scratch, m) / (mean * mean) - 1 / ticks;
			rs->j2[rs->nj++] = 0.5 * (double)(m - 1) * pow(v0 / (1 / ticks + v0), 2);
		}
		v = repeat_var(scratch, m);
		out->run_var += (double)m * v;
	}
}

/* The repeats' jitter: the weighted mean of the (function, group)
 * estimates of c^2, the tenth at each end left out (a function that one
 * disturbed run moved, or that the program itself makes vary). */
static int cmp_pair(const void *l, const void *r)
{
	return cmp_double(l, r);
}

static void pool_jitter(struct diff *d, struct repeat_sums *rs)
{
	size_t n = rs->nj / 2, i;
	double total = 0, acc = 0, sum = 0, w = 0;

	d->repeat_jitter2 = 0;
	d->repeat_weight = 0;
	if (!n)
		return;
	qsort(rs->j2, n, 2 * sizeof(double), cmp_pair);
	for (i = 0; i < n; i++)
		total += rs->j2[2 * i + 1];
	for (i = 0; i < n; i++) {
		double wi = rs->j2[2 * i + 1];

		if (acc >= 0.1 * total && acc + wi <= 0.9 * total + 1e-9) {
			sum += wi * rs->j2[2 * i];
			w += wi;
		}
		acc += wi;
	}
	if (w <= 0)
		return;
	d->repeat_jitter2 = fmax(0, sum / w);
	d->repeat_weight = w;
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
	d->rank_speed = malloc((runs[0].n + runs[1].n + 1) * sizeof(double));
	d->rank_outside_speed = malloc((runs[0].n + runs[1].n + 1) * sizeof(double));
	d->rank_totals = calloc(DIFF_NSIDES * (runs[0].n + runs[1].n + 1) * NCLASS, sizeof(double));
	if (!d->ranks || !d->rank_speed || !d->rank_outside_speed || !d->rank_totals)
		return error("out of memory");
	for (s = 0; s < DIFF_NSIDES; s++)
		for (i = 0; i < runs[s].n; i++)
			d->ranks[n++] = runs[s].rank[i];
	qsort(d->ranks, n, sizeof(int), cmp_int);
	for (i = j = 0; i < n; i++)
		if (j == 0 || d->ranks[j - 1] != d->ranks[i])
			d->ranks[j++] = d->ranks[i];
	d->nranks = j;
	for (i = 0; i < j; i++)
		d->rank_speed[i] = d->rank_outside_speed[i] = 1.0;
	return 0;
}

/* Per rank of one entry: the mean of the rank's files, the sampling
 * variance of that mean, its run-to-run variance (from repeats, on their
 * common speed), the mean samples and the mean of the files' squared
 * seconds over the repeats (the jitter's weight of the mean). */
static void fill_rank_stats(struct diff *d, struct diff_entry *e, int s, const struct noise_runs *r,
			    const double *speed, double *scratch)
{
	const struct profile *p = d->prof[s];
	double hz = indep_hz(p) > 0 ? indep_hz(p) : 1.0;
	long sym = e->side[s].sym;
	size_t k, i;

	for (k = 0; k < d->nranks; k++) {
		double *st = rank_stat(d, e, s, k), sum = 0, ticks = 0, sq = 0;
		size_t m = 0;

		if (sym < 0)
			continue;
		for (i = 0; i < r->n; i++)
			if (r->rank[i] == d->ranks[k]) {
				double t = run_seconds(r->prof[i], sym);

				sum += t;
				sq += t * t;
				ticks += indep(r->prof[i], r->prof[i]->syms[sym].self_ticks);
				scratch[m++] = t / speed[i];
			}
		if (!m)
			continue;
		st[STAT_MEAN] = sum / (double)m;
		st[STAT_TICKS] = ticks / (double)m;
		st[STAT_SAMPLING] = ticks / ((double)m * (double)m * hz * hz);
		st[STAT_SQ] = sq / ((double)m * (double)m);
		st[STAT_RUNS] = repeat_var(scratch, m) / (double)m;
	}
}

int noise_set_runs(struct diff *d, const struct noise_runs runs[DIFF_NSIDES])
{
	size_t *group[DIFF_NSIDES] = { NULL, NULL }, ng[DIFF_NSIDES] = { 0, 0 }, i;
	double *speed[DIFF_NSIDES] = { NULL, NULL };
	double *scratch = malloc((2 * (runs[0].n + runs[1].n) + 1) * sizeof(double));
	struct repeat_sums rs = { NULL, 0, 0 };
	int s, ret = -1, with_ranks = has_all_ranks(&runs[0]) && has_all_ranks(&runs[1]);

	for (s = 0; s < DIFF_NSIDES; s++) {
		const struct noise_runs *r = &runs[s];

		for (i = 0; i < r->n; i++)
			if (real_syms(r->prof[i]) != real_syms(d->prof[s])) {
				free(scratch);
				return error("the runs of '%s' do not line up with their sum",
					     d->prof[s]->binary ? d->prof[s]->binary : "?");
			}
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

		/* a cycle as a whole is the sum's: the runs have their own */
		for (s = 0; s < DIFF_NSIDES; s++)
			if (e->side[s].sym >= 0 && runs[s].n && !(e->flags & PSYM_CYCLE))
				side_repeats(&runs[s], group[s], ng[s], speed[s], e->side[s].sym,
					     &e->side[s], &d->repeated[s], scratch, &rs,
					     d->opts.jitter_prior);
		if (!with_ranks || (e->flags & PSYM_CYCLE))
			continue;
		e->rank_stat = calloc(DIFF_NSIDES * d->nranks * NSTAT + 1, sizeof(double));
		e->rank_diff = calloc(d->nranks + 1, sizeof(double));
		e->rank_excess = calloc(d->nranks + 1, sizeof(double));
		e->rank_zmax = calloc(d->nranks + 1, sizeof(double));
		e->rank_sigma = calloc(d->nranks + 1, sizeof(double));
		e->rank_changed = calloc(d->nranks + 1, 1);
		if (!e->rank_stat || !e->rank_diff || !e->rank_excess || !e->rank_sigma || !e->rank_zmax ||
		    !e->rank_changed) {
			error("out of memory");
			goto out;
		}
		for (s = 0; s < DIFF_NSIDES; s++)
			fill_rank_stats(d, e, s, &runs[s], speed[s], scratch);
	}
	pool_jitter(d, &rs);
	ret = 0;
out:
	for (s = 0; s < DIFF_NSIDES; s++) {
		free(group[s]);
		free(speed[s]);
	}
	free(rs.j2);
	free(scratch);
	return ret;
}
