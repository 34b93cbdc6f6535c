/*
 * The --rank-stats report.  Three parts, as GPTL prints per-thread tables
 * and then per-region sums across threads: the functions across ranks
 * (sorted by cost), the ranks (when there are few enough to read), and a
 * summary naming what to look at first.
 */
#define _GNU_SOURCE /* qsort_r */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ranks/rankstats.h"
#include "ranks/rankpaths.h"
#include "diff/signif.h"
#include "utils/banned.h"

static int tag_width(const struct rankstats *rs)
{
	size_t i, w = 4;

	for (i = 0; i < rs->nranks; i++)
		if (strlen(rs->ranks[i].tag) > w)
			w = strlen(rs->ranks[i].tag);
	return (int)w;
}

static void print_functions(FILE *fp, const struct rankstats *rs, const char *unit)
{
	const char *u = unit ? "events" : "seconds";

	int tw = tag_width(rs), counted = rankstats_calls_counted(rs);
	size_t i;
	char ran[48];

	fprintf(fp, "%9s %6s %9s %8s %8s %8s %*s %*s %11s %11s %9s  %s\n",
		"cost", "imbal", "total", "min", "mean", "max", tw, "min@", tw, "max@",
		"calls min", "calls max", "ran", "name");
	fprintf(fp, "%9s %6s %9s %8s %8s %8s %*s %*s %11s %11s %9s\n",
		u, "", u, u, u, u, tw, "", tw, "",
		"", "", "ranks");
	for (i = 0; i < rs->nfns; i++) {
		const struct rankstats_fn *f = &rs->fns[i];
		char imb[16], cmin[24] = "-", cmax[24] = "-";

		if (f->imbalance > 0)
			snprintf(imb, sizeof(imb), "%.2f", f->imbalance);
		else
			snprintf(imb, sizeof(imb), "-");
		snprintf(ran, sizeof(ran), "%zu/%zu", f->nran, rs->nranks);
		/* calls never counted (a library's row, a sampled run's): "-", not 0 */
		if (counted && !f->kind) {
			snprintf(cmin, sizeof(cmin), "%llu", (unsigned long long)f->calls_min);
			snprintf(cmax, sizeof(cmax), "%llu", (unsigned long long)f->calls_max);
		}
		fprintf(fp, "%9.2f %6s %9.2f %8.2f %8.3f %8.2f %*s %*s %11s %11s %9s  %s\n",
			f->cost, imb, f->self_total, f->self_min, f->self_mean, f->self_max,
			tw, rs->ranks[f->self_min_rank].tag, tw, rs->ranks[f->self_max_rank].tag,
			cmin, cmax, ran, f->name);
	}
}

static void print_ranks(FILE *fp, const struct rankstats *rs, char *const *files,
			const char *unit)
{
	double mean = rs->total_self / (double)rs->nranks;
	int tw = tag_width(rs), where = 0;
	size_t i;

	/*
	 * With sidecars that place every sample: each rank's time in
	 * libraries (MPI's waits among it) and in the instrumentation, as a
	 * share of its sampled time, which gmon.out's self seconds cannot
	 * show (the histogram covers the program's code only), from the
	 * rank's sidecar as the pass over the files read it.
	 */
	for (i = 0; i < rs->nranks; i++)
		where |= rs->ranks[i].sampled_s > 0;
	fprintf(fp, "\nPer rank:\n");
	fprintf(fp, "%*s %9s %7s %12s %6s %9s %9s %8s", tw, "rank", unit ? "self ev" : "self s",
		"x mean", "calls", "funcs", "time mix", "call mix", "calls");
	if (where)
		fprintf(fp, " %9s %7s %7s", "sampled s", "libs %", "instr %");
	fprintf(fp, "  %s\n", "file");
	fprintf(fp, "%*s %9s %7s %12s %6s %9s %9s %8s", tw, "", "", "", "", "ran",
		"distance", "distance", "differ");
	if (where)
		fprintf(fp, " %9s %7s %7s", "", "", "");
	fputc('\n', fp);
	for (i = 0; i < rs->nranks; i++) {
		const struct rankstats_rank *k = &rs->ranks[i];

		if (rankstats_calls_counted(rs))
			fprintf(fp, "%*s %9.2f %7.2f %12llu %6zu %9.3f %9.3f %8zu", tw, k->tag,
				k->self, mean > 0 ? k->self / mean : 0,
				(unsigned long long)k->calls, k->nran, k->time_dist, k->calls_dist,
				k->ncalls_differ);
		else	/* calls not counted (sampled): "-", not 0 */
			fprintf(fp, "%*s %9.2f %7.2f %12s %6zu %9.3f %9s %8s", tw, k->tag,
				k->self, mean > 0 ? k->self / mean : 0, "-", k->nran,
				k->time_dist, "-", "-");
		if (where && k->sampled_s > 0)
			fprintf(fp, " %9.2f %7.1f %7.1f", k->sampled_s,
				100.0 * k->lib_s / k->sampled_s, 100.0 * k->instr_s / k->sampled_s);
		else if (where)
			fprintf(fp, " %9s %7s %7s", "-", "-", "-");
		fprintf(fp, "  %s\n", files && files[i] ? files[i] : "");
	}
	if (where)
		fprintf(fp, "(sampled s: each rank's time measured by its call-path sidecar, "
			"every sample placed;\nlibs %%, instr %%: its share in shared "
			"libraries and in the instrumentation)\n");
}

/* The time the other ranks wait for the slowest at a barrier after this
 * function: ranks x max - total, in seconds. */
static double wait_of(const struct rankstats *rs, const struct rankstats_fn *f)
{
	return (double)rs->nranks * f->self_max - f->self_total;
}

/*
 * How far the slowest rank's excess over the mean is beyond sampling
 * noise, in standard deviations: samples are Poisson, so a count of m has
 * a standard deviation of sqrt(m).  A sample of weight w (a timer signal
 * standing for w periods: a 1 kHz CPU-time timer on a kernel ticking at
 * 250 Hz gives w = 4) is one Poisson event counted w times: m samples are
 * m / w events, a standard deviation of sqrt(m w) samples.  *z_max is the
 * most the function's samples allow (all of them on one rank): a function
 * with one sample on one rank of four has max/mean = 4 but says nothing.
 * NAN when the function has no samples.
 */
static double excess_z(const struct rankstats *rs, const struct rankstats_fn *f, double *z_max)
{
	double w = rs->weight > 1 ? rs->weight : 1, n = (double)rs->nranks;
	double total = f->mean_ticks * n;

	if (!(f->max_ticks > 0) || n < 1)
		return NAN;
	*z_max = (1 - 1 / n) * sqrt(total / w);
	return (f->max_ticks - f->mean_ticks) / sqrt(f->max_ticks * w);
}

static int cmp_wait(const void *pa, const void *pb, void *ctx)
{
	const struct rankstats_fn *a = *(const struct rankstats_fn *const *)pa;
	const struct rankstats_fn *b = *(const struct rankstats_fn *const *)pb;
	double wa = wait_of(ctx, a), wb = wait_of(ctx, b);

	if (wa != wb)
		return wa > wb ? -1 : 1;
	return strcmp(a->name, b->name);
}

int rankstats_imbalanced(const struct rankstats *rs, size_t **idxp, size_t *np)
{
	const struct rankstats_fn **sel = malloc((rs->nfns + 1) * sizeof(*sel));
	size_t *idx = malloc((rs->nfns + 1) * sizeof(*idx));
	struct signif_family fam;
	size_t i, n = 0;

	*idxp = NULL;
	*np = 0;
	if (!sel || !idx) {
		free(sel);
		free(idx);
		return -1;
	}
	/* One family over the functions (diff/signif.h, the rule of every
	 * comparison): with many functions, a few would pass any fixed cut
	 * by chance; the cut rises with the functions whose samples could
	 * pass it. */
	signif_family_init(&fam, RANKSTATS_IMBALANCE_Z);
	for (i = 0; i < rs->nfns; i++) {
		double z_max = 0, z = excess_z(rs, &rs->fns[i], &z_max);

		if (rs->fns[i].imbalance > 0 && z == z)
			signif_add(&fam, z, z_max);
	}
	signif_decide(&fam);
	for (i = 0; i < rs->nfns; i++) {
		double z_max = 0, z = excess_z(rs, &rs->fns[i], &z_max);

		if (rs->fns[i].imbalance > 0 && z == z && z > 0 && signif_pass(&fam, z))
			sel[n++] = &rs->fns[i];
	}
	signif_family_release(&fam);
	if (n)
		qsort_r(sel, n, sizeof(*sel), cmp_wait, (void *)rs);
	for (i = 0; i < n; i++)
		idx[i] = (size_t)(sel[i] - rs->fns);
	free(sel);
	*idxp = idx;
	*np = n;
	return 0;
}

/*
 * A rank's time in the program's own code.  With sidecars a rank's self
 * time holds all it sampled, its libraries' among it: the ranks that wait
 * for the slowest one wait in MPI, which spins on the CPU, so by self time
 * a waiting rank can rank first.  Without them (gmon.out's histogram: the
 * program's code only), or for an event count (--metric), its self.
 */
static int own_known(const struct rankstats *rs, const char *unit)
{
	if (unit)
		return 0;
	for (size_t i = 0; i < rs->nranks; i++)
		if (!(rs->ranks[i].sampled_s > 0 && rs->ranks[i].lib_s >= 0 &&
		      rs->ranks[i].instr_s >= 0))
			return 0;
	return rs->nranks > 0;
}

static double own_self(const struct rankstats_rank *k, int known)
{
	return known ? fmax(0, k->self - k->lib_s - k->instr_s) : k->self;
}

/* The slowest and fastest ranks, by their own code where it is known. */
static void print_slowest(FILE *fp, const struct rankstats *rs, const char *unit, double mean)
{
	const char *u = unit ? "events" : "s";
	int known = own_known(rs, unit);
	size_t i, slow = 0, fast = 0;
	double own_mean = 0;

	for (i = 0; i < rs->nranks; i++)
		own_mean += own_self(&rs->ranks[i], known) / (double)rs->nranks;
	for (i = 1; i < rs->nranks; i++) {
		double o = own_self(&rs->ranks[i], known);

		if (o > own_self(&rs->ranks[slow], known))
			slow = i;
		if (o < own_self(&rs->ranks[fast], known))
			fast = i;
	}
	if (!known) {
		fprintf(fp, "  slowest rank %s: %.2f %s self (%.2fx mean); fastest rank %s: %.2f %s (%.2fx)\n",
			rs->ranks[slow].tag, rs->ranks[slow].self, u,
			mean > 0 ? rs->ranks[slow].self / mean : 0, rs->ranks[fast].tag,
			rs->ranks[fast].self, u, mean > 0 ? rs->ranks[fast].self / mean : 0);
		return;
	}
	fprintf(fp, "  slowest rank %s: %.2f s in the program's own code (%.2fx mean); "
		"fastest rank %s: %.2f s (%.2fx)\n    (its own code: its self seconds "
		"less those in libraries, MPI's waits among them, and in the instrumentation)\n",
		rs->ranks[slow].tag, own_self(&rs->ranks[slow], 1),
		own_mean > 0 ? own_self(&rs->ranks[slow], 1) / own_mean : 0, rs->ranks[fast].tag,
		own_self(&rs->ranks[fast], 1),
		own_mean > 0 ? own_self(&rs->ranks[fast], 1) / own_mean : 0);
}

static void print_summary(FILE *fp, const struct rankstats *rs, size_t items, const char *unit)
{
	/* the values' unit: seconds, or --metric EV's events */
	const char *u = unit ? "events" : "s";

	const struct rankstats_fn **sel = malloc((rs->nfns + 1) * sizeof(*sel));
	double mean = rs->total_self / (double)rs->nranks;
	size_t i, n = 0, *idx;

	fprintf(fp, "\nSummary:\n");
	if (!sel)
		return;
	if (rankstats_imbalanced(rs, &idx, &n) < 0) {
		free(sel);
		return;
	}
	for (i = 0; i < n; i++)
		sel[i] = &rs->fns[idx[i]];
	free(idx);
	fprintf(fp, "  most imbalanced functions (by the time the other ranks wait, "
		"ranks x max - total; slowest rank beyond sampling noise):\n");
	if (!n)
		fprintf(fp, "    none: no function's slowest rank is beyond sampling noise\n");
	for (i = 0; i < n && i < items; i++) {
		size_t k;

		fprintf(fp, "    %-24s wait %.2f %s  imbal %.2f  max %.2f %s on rank %s, "
			"min %.2f %s on rank %s\n",
			sel[i]->name, wait_of(rs, sel[i]), u, sel[i]->imbalance, sel[i]->self_max, u,
			rs->ranks[sel[i]->self_max_rank].tag, sel[i]->self_min, u,
			rs->ranks[sel[i]->self_min_rank].tag);
		for (k = 0; k < sel[i]->npaths; k++)
			fprintf(fp, "      via %s\n", sel[i]->paths[k]);
	}

	/* known from its calls: a library's row (its calls never counted)
	 * sampled on some ranks only says nothing of where it ran */
	n = 0;
	for (i = 0; i < rs->nfns; i++)
		if (rs->fns[i].nran < rs->nranks && !rs->fns[i].kind)
			sel[n++] = &rs->fns[i];
	fprintf(fp, "  functions that ran on some ranks only: %zu\n", n);
	for (i = 0; i < n && i < items; i++) {
		fprintf(fp, "    %-24s %zu/%zu", sel[i]->name, sel[i]->nran, rs->nranks);
		if (sel[i]->nran == 1)
			fprintf(fp, "  only rank %s", rs->ranks[sel[i]->only_rank].tag);
		if (rankstats_calls_counted(rs))
			fprintf(fp, "  (calls up to %llu on rank %s)\n",
				(unsigned long long)sel[i]->calls_max,
				rs->ranks[sel[i]->calls_max_rank].tag);
		else
			fputc('\n', fp);
	}
	free(sel);

	print_slowest(fp, rs, unit, mean);

	if (rs->nranks < 3) {
		fprintf(fp, "  outlier ranks: need 3 ranks or more\n");
		return;
	}
	fprintf(fp, "  outlier ranks (mix of time and calls least like the others'):\n");
	for (i = 0; i < rs->nranks && i < items; i++) {
		const struct rankstats_rank *k = &rs->ranks[rs->outliers[i]];

		if (k->time_dist + k->calls_dist <= 0)
			break;
		if (rankstats_calls_counted(rs))
			fprintf(fp, "    rank %s: distance %.3f (time %.3f, calls %.3f); "
				"functions run on under half the ranks: %zu; calls off the "
				"median: %zu\n", k->tag, k->time_dist + k->calls_dist,
				k->time_dist, k->calls_dist, k->nunique, k->ncalls_differ);
		else	/* calls not counted (sampled runs) */
			fprintf(fp, "    rank %s: distance %.3f (time); functions run on "
				"under half the ranks: %zu\n", k->tag, k->time_dist, k->nunique);
	}
	if (i == 0)
		fprintf(fp, "    none: every rank has the same mix\n");
}

void rankstats_print(FILE *fp, const struct rankstats *rs,
		     const struct rankstats_opts *o, const char *title)
{
	fprintf(fp, "Rank statistics: %s\n", title);
	if (o->unit)
		fprintf(fp, "%zu ranks, %zu functions, %.0f %s events in all. "
			"imbal = max/mean; cost = ranks x max.\n\n",
			rs->nranks, rs->nfns, rs->total_self, o->unit);
	else
		fprintf(fp, "%zu ranks, %zu functions, %.2f self seconds in all. "
			"imbal = max/mean; cost = ranks x max.\n\n",
			rs->nranks, rs->nfns, rs->total_self);
	print_functions(fp, rs, o->unit);
	if (rs->nranks <= o->max_rank_rows)
		print_ranks(fp, rs, o->files, o->unit);
	else
		fprintf(fp, "\n(per-rank table left out: %zu ranks; the summary names the outliers)\n",
			rs->nranks);
	print_summary(fp, rs, o->summary_items, o->unit);
}
