#ifndef EGPROF_SIGNIF_H
#define EGPROF_SIGNIF_H
/*
 * The one significance rule of every comparison egprof makes: the rows and
 * arcs of a differential profile (diff/evidence.h), the call paths of two
 * profiles (callpath/pathdiff.h) and the report's time per caller, gprof's
 * split against the measured one (callpath/report.c).
 *
 * A comparison is a family of tests.  Each test gives a z-score: the
 * difference observed over its standard deviation under "no change" (the
 * noise model is the caller's: diff/noise.h for profiles).  The family is
 * decided at once, corrected for the number of tests: the chance that any
 * "no change" test of the family passes is at most alpha, the two-sided
 * tail of K standard deviations (--noise K; K = 2 gives alpha = 4.55%).
 * So a program of 300 functions run twice does not show its coin tosses
 * at 2 sigmas.
 *
 * The correction is Bonferroni's over the tests that could pass at all
 * (Tarone 1990): a test also gives the largest |z| its data allow (z_max:
 * a function with 3 samples in all cannot be a 4-sigma change, however
 * they fall); the cut is alpha/K for the least K such that at most K tests
 * have a z_max that reaches it.  A profile is mostly functions with a
 * handful of samples, which would otherwise raise every other function's
 * bar without ever passing themselves.  A test that could pass is counted
 * whatever its outcome, so the bound holds.
 *
 * The rule reduces to one cut on |z| (signif_decide): a test passes when
 * |z| >= z_cut, so a threshold in seconds (z_cut times the test's sigma)
 * can be printed beside each difference and agrees with the verdict.
 *
 *   struct signif_family f;
 *   signif_family_init(&f, k);
 *   signif_add(&f, z1, zmax1); ...                every test made
 *   signif_decide(&f);                            f.z_cut
 *   ... signif_pass(&f, z1) ...
 *   signif_family_release(&f);
 *
 * K <= 0 turns the rule off: every non-zero difference passes (z_cut 0).
 *
 * Counts and shares have their own z (signif_count_z, signif_share_z); the
 * time of a function compared between two runs takes its noise model from
 * diff/noise.h, whose scatter estimate (signif_scatter) is here so that
 * the path diff shares it.  Every function takes a side's samples with
 * that side's own rate: two sides may sample at different rates (a sidecar
 * with its own timer).
 */
#include <stddef.h>
#include <stdint.h>

/* Two-sided tail of a standard normal beyond |z|. */
double signif_p(double z);
/* The |z| whose two-sided tail is p (0 < p <= 1). */
double signif_z(double p);

struct signif_family {
	double k;        /* K, --noise */
	double alpha;    /* family-wise error: signif_p(K) */
	double *z;       /* per test: |z|, z_max */
	size_t n, alloc;
	double z_cut;    /* after signif_decide: |z| >= z_cut passes */
	size_t counted;  /* after signif_decide: the tests that could pass
			    at the cut (at most Tarone's K, which the cut
			    is corrected for) */
	size_t lost;     /* tests not recorded (out of memory): counted as
			    tests that could pass */
};

void signif_family_init(struct signif_family *f, double k);
/* Record one test: its z, and the largest |z| its data allow (INFINITY
 * when unknown).  A NaN z is no test. */
void signif_add(struct signif_family *f, double z, double z_max);
/* Tarone's count, Bonferroni's cut: sets f->z_cut and f->counted. */
void signif_decide(struct signif_family *f);
static inline int signif_pass(const struct signif_family *f, double z)
{
	return z == z && (z < 0 ? -z : z) >= f->z_cut && (f->z_cut > 0 || z != 0);
}
void signif_family_release(struct signif_family *f);

/*
 * z of two counts of events (calls along an arc, samples on a path) a and
 * b: Poisson, (a - b) / sqrt(a + b), so that a change from 1 to 0 calls or
 * from 6 to 15 is no evidence on its own; var_extra (>= 0) adds a measured
 * run-to-run variance of the difference.  0 when both are 0.
 */
double signif_count_z(double a, double b, double var_extra);
/* The largest |z| of two counts that sum to n: all on one side. */
double signif_count_zmax(double n);

/*
 * The largest |z| a time test can reach with these samples (na at hz_a,
 * nb at hz_b), however they fall between the sides: all on one side, with
 * a relative jitter c (w: the share of one file's jitter its files leave,
 * 1 for one file).
 */
double signif_time_zmax(double na, double hz_a, double nb, double hz_b, double c, double w);

/*
 * z of a share: k of n events (samples of a callee's time measured along
 * one caller) where a model gives the share g.  From the exact binomial
 * tail for small n (so that 2 of 3 samples is no evidence), else the normal
 * approximation with a continuity correction; signed as k - n*g.
 */
double signif_share_z(uint64_t k, uint64_t n, double g);

/*
 * What a set of items that should share one ratio says about the noise
 * (the functions of two runs, the paths of two profiles).  Items with
 * SIGNIF_SCATTER_MIN samples or more on both sides give r = log(b / a) of
 * their seconds, with a sampling variance s = 1/na + 1/nb.
 *
 *  - The common ratio is their median; its variance (1.2533 sigma)^2 / n,
 *    sigma 1.4826 times their median absolute deviation (or the sampling
 *    noise, when larger).
 *  - The jitter c is the relative standard deviation of one side's seconds
 *    from run to run beyond sampling: r - median has variance s + 2c^2.
 *    2c^2 is the V at which the items' (r - median)^2 / (s + V) have the
 *    median of a chi-square of one degree (0.4549): a median, so that up
 *    to half the items may be real changes.  An item says more of V the
 *    less its sampling hides it: a function of 20 samples says almost
 *    nothing of an 8% jitter, one of 2000 much; the items are worth
 *    `weight` perfectly measured ones (the sum of (V0 / (s + V0))^2, V0 of
 *    the prior), and the estimate is shrunk towards the prior with the
 *    weight of SIGNIF_PRIOR_ITEMS such items.  Items beyond 3 sigmas at
 *    the jitter found are changes, left out, and it is found again, from
 *    the prior, until it holds still: when every function of a pair
 *    changed (the paper's Figure 1), their scatter is no jitter.
 */
#define SIGNIF_SCATTER_MIN 10.0
#define SIGNIF_PRIOR_ITEMS 5.0
struct signif_scatter {
	size_t n;          /* items used */
	double log_ratio;  /* median of log(b / a) (0 when n == 0) */
	double log_ratio_time; /* the same weighted by the items' samples:
				  the ratio most of the time ran at */
	double log_var;    /* variance of that median */
	double sigma;      /* robust standard deviation of the log ratios */
	double jitter;     /* relative run-to-run noise of one side, shrunk */
	double jitter_raw; /* the items' own estimate, before shrinking */
	double weight;     /* what the items are worth (see above) */
};
/* a_sec/b_sec: the items' seconds; a_n/b_n: their samples.  0, or -1
 * when out of memory (out is then the prior alone). */
int signif_scatter(const double *a_sec, const double *b_sec, const double *a_n,
		   const double *b_n, size_t n, double prior, struct signif_scatter *out);

/*
 * Items whose time is a count of samples on each side, each side at its
 * own rate (the call paths of two profiles, the source lines of two
 * runs): each count Poisson, and the item's seconds jittering from run to
 * run by a relative c, measured over the items both sides sampled well
 * (signif_scatter, shrunk towards `prior`).  Every item whose counts
 * differ is a test of one family (K = k): z[i] its change in seconds
 * (a - b) over its noise, pass[i] its verdict; items with a[i] == b[i]
 * get z 0 and pass 0.  *jitter gets c, *counted the tests the family was
 * corrected for.  0, or -1 when out of memory.
 */
int signif_counts_decide(const uint64_t *a, const uint64_t *b, size_t n, double hz_a,
			 double hz_b, double k, double prior, double *z, unsigned char *pass,
			 double *jitter, size_t *counted);

#endif
