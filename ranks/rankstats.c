#include <stdlib.h>
#include <string.h>
#include "ranks/rankstate.h"
#include "ranks/rankstats.h"
#include "utils/error.h"
#include "utils/banned.h"

/* The single-process sequence of ranks/rankstate.h, with every profile
 * already in memory (unit tests, small sets).  gprof --rank-stats streams
 * instead (gprof-ext/cmd_rank_stats.c). */
int rankstats_calls_counted(const struct rankstats *rs)
{
	/* calls come from gmon.out's arcs only: none at all, no call graph */
	for (size_t i = 0; i < rs->nfns; i++)
		if (rs->fns[i].calls_max)
			return 1;
	return 0;
}

int rankstats_compute(struct profile *const *profiles, char *const *tags, size_t n,
		      struct rankstats **out)
{
	struct rankstate *st;
	struct rankpass pass;
	FILE *spill;
	size_t i;
	int ret = -1;

	*out = NULL;
	if (n == 0)
		return error("no rank profiles to compare");
	st = rankstate_new(n);
	spill = tmpfile();
	memset(&pass, 0, sizeof(pass));
	if (!st || !spill) {
		error(!st ? "out of memory" : "cannot create a temporary file");
		goto out;
	}
	for (i = 0; i < n; i++)
		if (rankstate_add(st, profiles[i], i, spill) < 0)
			goto out;
	if (rankstate_finish(st) < 0 || rankpass_init(&pass, st) < 0 ||
	    rankstate_pass2(st, st, spill, &pass) < 0)
		goto out;
	ret = rankstate_report(st, &pass, tags, out);
out:
	rankpass_release(&pass);
	if (spill)
		fclose(spill);
	rankstate_free(st);
	return ret;
}

void rankstats_free(struct rankstats *rs)
{
	size_t i;

	if (!rs)
		return;
	for (i = 0; rs->ranks && i < rs->nranks; i++)
		free(rs->ranks[i].tag);
	for (i = 0; i < rs->nfns; i++) {
		size_t k;

		free(rs->fns[i].name);
		free(rs->fns[i].file);
		for (k = 0; k < rs->fns[i].npaths; k++)
			free(rs->fns[i].paths[k]);
		free(rs->fns[i].paths);
	}
	free(rs->ranks);
	free(rs->fns);
	free(rs->outliers);
	free(rs);
}

const struct rankstats_fn *rankstats_find(const struct rankstats *rs,
					  const char *name, const char *file)
{
	size_t i;

	for (i = 0; i < rs->nfns; i++) {
		const struct rankstats_fn *f = &rs->fns[i];

		if (strcmp(f->name, name) != 0)
			continue;
		if (file && (!f->file || strcmp(f->file, file) != 0))
			continue;
		return f;
	}
	return NULL;
}
