#include <math.h>
#include <stdlib.h>
#include "diff/signif.h"
#include "utils/array.h"
#include "utils/banned.h"

double signif_p(double z)
{
	return erfc(fabs(z) / M_SQRT2);
}

double signif_z(double p)
{
	double lo = 0, hi = 40;
	int i;

	if (!(p < 1))
		return 0;
	if (!(p > 0))
		return hi;
	/* erfc is monotonic: bisection to well below the printed precision */
	for (i = 0; i < 64; i++) {
		double mid = 0.5 * (lo + hi);

		if (signif_p(mid) > p)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

void signif_family_init(struct signif_family *f, double k)
{
	f->k = k;
	f->alpha = k > 0 ? signif_p(k) : 1.0;
	f->z = NULL;
	f->n = f->alloc = 0;
	f->z_cut = k > 0 ? k : 0;
	f->counted = 0;
	f->lost = 0;
}

void signif_add(struct signif_family *f, double z, double z_max)
{
	if (z != z)
		return;
	if (array_grow(&f->z, &f->alloc, 2 * (f->n + 1), sizeof(*f->z)) < 0) {
		f->lost++;
		return;
	}
	f->z[2 * f->n] = fabs(z);
	f->z[2 * f->n + 1] = z_max == z_max ? fmax(fabs(z), z_max) : INFINITY;
	f->n++;
}

static int cmp_desc(const void *l, const void *r)
{
	double a = *(const double *)l, b = *(const double *)r;

	return (a < b) - (a > b);
}

/* How many tests could pass at the cut of alpha / k: z_max >= that cut
 * (zmax, nz of them, sorted descending), the lost ones among them. */
static size_t could_pass(const struct signif_family *f, const double *zmax, size_t nz,
			 size_t k)
{
	double cut = signif_z(f->alpha / (double)k);
	size_t lo = 0, hi = nz;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (zmax[mid] >= cut)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo + f->lost;
}

void signif_decide(struct signif_family *f)
{
	double *zmax;
	size_t i, lo, hi, m, nz;

	f->counted = 0;
	if (f->k <= 0) {
		f->z_cut = 0;
		return;
	}
	f->z_cut = signif_z(f->alpha);
	if (!f->n && !f->lost)
		return;
	zmax = malloc((f->n + 1) * sizeof(double));
	if (!zmax) {
		/* Bonferroni over every test: never less strict than below */
		f->counted = f->n + f->lost;
		f->z_cut = signif_z(f->alpha / (double)f->counted);
		return;
	}
	/* Only a z_max at or above the cut at alpha can pass at any alpha / k
	 * (the cut only rises with k): the others are never counted, so
	 * they are left out of the sort (most tests of a large program:
	 * functions with a few samples). */
	for (i = nz = 0; i < f->n; i++)
		if (f->z[2 * i + 1] >= f->z_cut)
			zmax[nz++] = f->z[2 * i + 1];
	qsort(zmax, nz, sizeof(double), cmp_desc);
	/* Tarone: the least k with at most k tests able to pass at alpha/k
	 * (could_pass(k) - k only falls as k grows) */
	lo = 1;
	hi = f->n + f->lost;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (could_pass(f, zmax, nz, mid) <= mid)
			hi = mid;
		else
			lo = mid + 1;
	}
	m = lo;
	f->counted = could_pass(f, zmax, nz, m);
	/* Bonferroni over them: a test that could not pass stays below the
	 * cut (its z_max is).  (Holm's step-down would lower the cut for the
	 * later tests, but it would let the tests Tarone left out pass.) */
	f->z_cut = signif_z(f->alpha / (double)m);
	free(zmax);
}

void signif_family_release(struct signif_family *f)
{
	free(f->z);
	f->z = NULL;
	f->n = f->alloc = 0;
}

double signif_count_zmax(double n)
{
	return n > 0 ? sqrt(n) : 0;
}

double signif_time_zmax(double na, double hz_a, double nb, double hz_b, double c, double w)
{
	double t = (hz_a > 0 ? na / hz_a : 0) + (hz_b > 0 ? nb / hz_b : 0), best = 0;
	double hz[2] = { hz_a, hz_b };
	int s;

	if (t <= 0)
		return 0;
	for (s = 0; s < 2; s++) {
		double var = (hz[s] > 0 ? t / hz[s] : 0) + c * c * w * t * t;

		best = fmax(best, var > 0 ? t / sqrt(var) : INFINITY);
	}
	return best;
}

double signif_count_z(double a, double b, double var_extra)
{
	double var = a + b + (var_extra > 0 ? var_extra : 0);

	if (a == b)
		return 0;
	return var > 0 ? (a - b) / sqrt(var) : (a > b ? 40 : -40);
}

/* log of the binomial probability of k of n at g */
static double log_pmf(uint64_t k, uint64_t n, double g)
{
	double choose = 0;

	/* log C(n, k): lgamma's difference loses every digit once n is past
	 * 2^52 (n and n - k are one double); then k is small (the caller's
	 * bound) and the product n (n - 1) ... (n - k + 1) / k! is summed */
	if (n < (UINT64_C(1) << 52)) {
		choose = lgamma((double)n + 1) - lgamma((double)k + 1) -
			 lgamma((double)(n - k) + 1);
	} else {
		for (uint64_t j = 0; j < k; j++)
			choose += log((double)(n - j));
		choose -= lgamma((double)k + 1);
	}
	return choose + (double)k * log(g) + (double)(n - k) * log1p(-g);
}

double signif_share_z(uint64_t k, uint64_t n, double g)
{
	double mean = (double)n * g, sd = sqrt((double)n * g * (1 - g)), p, lo = 0, hi = 0, bound;
	uint64_t i, last;

	if (n == 0)
		return 0;
	if (g <= 0 || g >= 1)
		return (double)k == mean ? 0 : ((double)k > mean ? 40 : -40);
	if (sd >= 5) {
		double d = fabs((double)k - mean) - 0.5;

		return d <= 0 ? 0 : ((double)k > mean ? d : -d) / sd;
	}
	/* the tail of the rarer outcome is the one summed below */
	if (g > 0.5)
		return -signif_share_z(n - k, n, 1 - g);
	/* exact: twice the smaller tail, at most 1.  sd < 5 and g <= 1/2 make
	 * the mean below 50, but n may be anything (a tiny g): the terms past
	 * mean + 40 sd + 40 are below 1e-300 and are left out, so the loop is
	 * short whatever n is (a forged count of 2^64 - 1 looped for ever) */
	bound = mean + 40 * sd + 40;
	last = (double)n < bound ? n : (uint64_t)bound;
	for (i = 0; i <= last; i++) {
		double q = exp(log_pmf(i, n, g));

		if (i <= k)
			lo += q;
		if (i >= k)
			hi += q;
	}
	if (k > last)
		hi = 0;	/* below 1e-300 */
	p = fmin(1.0, 2 * fmin(lo, hi));
	return ((double)k >= mean ? 1 : -1) * signif_z(p);
}

static int cmp_double(const void *l, const void *r)
{
	double a = *(const double *)l, b = *(const double *)r;

	return (a > b) - (a < b);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct weighted {
	double r, w;
};

static int cmp_weighted(const void *l, const void *r)
{
	double a = ((const struct weighted *)l)->r, b = ((const struct weighted *)r)->r;

	return (a > b) - (a < b);
}

/* The median of the m items' log ratios r weighted by w: the ratio at
 * which most of the sampled time ran.  NAN when out of memory. */
static double weighted_median(const double *r, const double *w, size_t m)
{
	struct weighted *v = malloc((m + 1) * sizeof(*v));
	double total = 0, acc = 0, med = 0;
	size_t i;

	if (!v)
		return NAN;
	for (i = 0; i < m; i++) {
		v[i].r = r[i];
		v[i].w = w[i];
		total += w[i];
	}
	qsort(v, m, sizeof(*v), cmp_weighted);
	for (i = 0; i < m; i++) {
		acc += v[i].w;
		if (acc >= total / 2) {
			med = v[i].r;
			break;
		}
	}
	free(v);
	return med;
}

/* The median of (r - med)^2 / (s + v) over the m items (scratch: dev). */
static double std_median(const double *r, const double *s, size_t m, double med,
			 double *dev, double v)
{
	size_t i;

	for (i = 0; i < m; i++)
		dev[i] = s[i] + v > 0 ? pow(r[i] - med, 2) / (s[i] + v) : 0;
	return median(dev, m);
}

/* The V at which the items' (r - med)^2 / (s + V) have the median
 * `target` (a chi-square of one degree: 0.4549; less when the farthest
 * were left out): half of them may be changes without moving it.  0 when
 * sampling alone explains them. */
static double jitter_var(const double *r, const double *s, size_t m, double med, double *dev,
			 double target)
{
	double lo = 0, hi = 1;
	int iter;

	if (std_median(r, s, m, med, dev, 0) <= target)
		return 0;
	while (std_median(r, s, m, med, dev, hi) > target && hi < 1e6)
		hi *= 4;
	for (iter = 0; iter < 60; iter++) {
		double mid = 0.5 * (lo + hi);

		if (std_median(r, s, m, med, dev, mid) > target)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

int signif_scatter(const double *a_sec, const double *b_sec, const double *a_n,
		   const double *b_n, size_t n, double prior, struct signif_scatter *out)
{
	double *r = malloc((n + 1) * sizeof(*r)), *s = malloc((n + 1) * sizeof(*s));
	double *dev = malloc((n + 1) * sizeof(*dev));
	double *kr = malloc((n + 1) * sizeof(*kr)), *ks = malloc((n + 1) * sizeof(*ks));
	double *wt = malloc((n + 1) * sizeof(*wt));
	double v0 = fmax(2 * prior * prior, 1e-6), v = 2 * prior * prior, vhat = 0, w = 0;
	size_t i, m = 0, iter;
	int ret = 0;

	*out = (struct signif_scatter){ 0, 0, 0, 0, 0, prior, prior, 0 };
	if (!r || !s || !dev || !kr || !ks || !wt) {
		ret = -1;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (a_n[i] < SIGNIF_SCATTER_MIN || b_n[i] < SIGNIF_SCATTER_MIN ||
		    !(a_sec[i] > 0) || !(b_sec[i] > 0))
			continue;
		r[m] = log(b_sec[i] / a_sec[i]);
		s[m] = 1 / a_n[i] + 1 / b_n[i];
		wt[m] = a_n[i] + b_n[i];
		m++;
	}
	out->n = m;
	if (m >= 2) {
		double med, mad, samp;

		for (i = 0; i < m; i++)
			dev[i] = r[i];
		med = median(dev, m);
		for (i = 0; i < m; i++)
			dev[i] = fabs(r[i] - med);
		mad = median(dev, m);
		for (i = 0; i < m; i++)
			dev[i] = s[i];
		samp = median(dev, m);
		out->log_ratio = med;
		out->log_ratio_time = weighted_median(r, wt, m);
		if (isnan(out->log_ratio_time)) {
			ret = -1;
			goto out;
		}
		out->sigma = 1.4826 * mad;
		out->log_var = pow(1.2533 * fmax(out->sigma, sqrt(samp)), 2) / (double)m;
		/* the jitter: found again until it holds still, starting at
		 * the prior; the items beyond 3 sigmas at the current value are
		 * changes, not jitter (when every function of a pair changed,
		 * their scatter says nothing of the machine), and so are the
		 * tenth farthest out (at least one of three or more: the change
		 * a diff is looking for is among them, and it must not widen
		 * its own noise) */
		for (iter = 0; iter < 50; iter++) {
			double vnew, cut = INFINITY;
			size_t k = 0, drop;

			for (i = 0; i < m; i++)
				if (pow(r[i] - med, 2) <= 9 * (s[i] + v))
					dev[k++] = pow(r[i] - med, 2) / (s[i] + v);
			drop = k >= 3 ? (k + 9) / 10 : 0;
			if (drop) {
				qsort(dev, k, sizeof(double), cmp_double);
				cut = dev[k - drop];
			}
			k = 0;
			for (i = 0; i < m; i++) {
				double t = pow(r[i] - med, 2) / (s[i] + v);

				if (pow(r[i] - med, 2) <= 9 * (s[i] + v) && t < cut) {
					kr[k] = r[i];
					ks[k] = s[i];
					k++;
				}
			}
			/* the median of what is left is the chi-square's
			 * quantile (1 - dropped share) / 2 */
			vhat = k >= 2 ? jitter_var(kr, ks, k, med, dev,
						   pow(signif_z(1 - 0.5 * (double)k / (double)(k + drop)), 2))
				      : 0;
			/* what the items are worth: a perfectly measured one
			 * is 1 */
			for (i = 0, w = 0; k >= 2 && i < k; i++)
				w += v0 * v0 / pow(ks[i] + v0, 2);
			vnew = (w * vhat + SIGNIF_PRIOR_ITEMS * 2 * prior * prior) /
			       (w + SIGNIF_PRIOR_ITEMS);
			if (fabs(vnew - v) <= 1e-12 * fmax(v, 1e-12)) {
				v = vnew;
				break;
			}
			v = vnew;
		}
		out->weight = w;
		out->jitter_raw = sqrt(vhat / 2);
		out->jitter = sqrt(v / 2);
	}
out:
	free(r);
	free(s);
	free(dev);
	free(kr);
	free(ks);
	free(wt);
	return ret;
}

static double count_seconds(uint64_t n, double hz)
{
	return hz > 0 ? (double)n / hz : 0.0;
}

int signif_counts_decide(const uint64_t *a, const uint64_t *b, size_t n, double hz_a,
			 double hz_b, double k, double prior, double *z, unsigned char *pass,
			 double *jitter, size_t *counted)
{
	double *v = calloc(4 * n + 1, sizeof(double)), c = prior;
	struct signif_scatter sc;
	struct signif_family f;

	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++) {
		v[i] = count_seconds(a[i], hz_a);
		v[n + i] = count_seconds(b[i], hz_b);
		v[2 * n + i] = (double)a[i];
		v[3 * n + i] = (double)b[i];
	}
	if (signif_scatter(v, v + n, v + 2 * n, v + 3 * n, n, prior, &sc) == 0)
		c = sc.jitter;
	free(v);
	signif_family_init(&f, k);
	for (size_t i = 0; i < n; i++) {
		double sa = count_seconds(a[i], hz_a), sb = count_seconds(b[i], hz_b), var;

		z[i] = 0;
		if (a[i] == b[i])
			continue;
		/* each side's count is Poisson: its variance in seconds is
		 * n/hz^2; and an item's time varies from run to run by c */
		var = (hz_a > 0 ? (double)a[i] / (hz_a * hz_a) : 0) +
		      (hz_b > 0 ? (double)b[i] / (hz_b * hz_b) : 0) + c * c * (sa * sa + sb * sb);
		z[i] = var > 0 ? (sa - sb) / sqrt(var) : 0;
		signif_add(&f, z[i], signif_time_zmax((double)a[i], hz_a, (double)b[i], hz_b, c, 1));
	}
	signif_decide(&f);
	for (size_t i = 0; i < n; i++)
		pass[i] = a[i] != b[i] && signif_pass(&f, z[i]);
	*counted = f.counted;
	*jitter = c;
	signif_family_release(&f);
	return 0;
}
