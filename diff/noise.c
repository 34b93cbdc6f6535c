#include <math.h>
#include <string.h>
#include "diff/noise.h"
#include "utils/error.h"
#include "utils/banned.h"

static double side_variance(const struct diff *d, const struct diff_entry *e, int s)
{
	const struct diff_side_sym *x = &e->side[s];
	double hz = d->prof[s]->hz > 0 ? d->prof[s]->hz : 1.0;
	size_t runs = d->nruns[s] ? d->nruns[s] : 1;

	return x->ticks / (hz * hz) + (double)runs * x->spread_sec * x->spread_sec;
}

double noise_threshold(const struct diff *d, const struct diff_entry *e, double k)
{
	return k * sqrt(side_variance(d, e, DIFF_BASE) + side_variance(d, e, DIFF_SECOND));
}

void noise_apply(struct diff *d, double k)
{
	size_t i;

	for (i = 0; i < d->nentries; i++) {
		struct diff_entry *e = &d->entries[i];

		e->noise_sec = noise_threshold(d, e, k);
		e->noise = e->self_diff != 0 && fabs(e->self_diff) < e->noise_sec ?
			NOISE_WITHIN : NOISE_NONE;
	}
}

int noise_set_spread(struct diff *d, int side, struct profile *const *runs, size_t n)
{
	const struct profile *p = d->prof[side];
	size_t i, r;

	for (r = 0; r < n; r++)
		if (runs[r]->nsyms != p->nsyms)
			return error("the runs of '%s' do not line up with their sum",
				     p->binary ? p->binary : "?");
	d->nruns[side] = n;
	for (i = 0; i < d->nentries; i++) {
		struct diff_side_sym *x = &d->entries[i].side[side];
		double mean = 0, var = 0;

		x->spread_sec = 0;
		if (x->sym < 0 || n < 2)
			continue;
		for (r = 0; r < n; r++)
			mean += profile_seconds(runs[r], runs[r]->syms[x->sym].self_ticks);
		mean /= (double)n;
		for (r = 0; r < n; r++) {
			double v = profile_seconds(runs[r], runs[r]->syms[x->sym].self_ticks) - mean;

			var += v * v;
		}
		x->spread_sec = sqrt(var / (double)(n - 1));
	}
	return 0;
}
