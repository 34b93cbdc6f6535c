/*
 * `gprof -s` also sums the call-path sidecars of its gmon files into
 * gmon.sum.callpath, whichever command runs upstream's -s (plain gprof, or
 * gprof with --callpath, --folded or graph exports).
 *
 * Upstream's -s must stay byte for byte what it is: gmon.sum, the output
 * and the exit status are upstream's own.  main() plans before running the
 * command (upstream's option tables say whether -s is there and which
 * operands are gmon files) and, only when the command succeeded (so
 * upstream wrote gmon.sum), writes the sidecar sum (model/sum.h:
 * nothing when no input has a sidecar, a warning and nothing when only some
 * have one; when nothing is written, a gmon.sum.callpath of an earlier run
 * is removed, since it would not match the new gmon.sum).  The sidecars
 * are read before the command runs: a bad one fails it before upstream
 * rewrites gmon.sum, so a failed `gprof -s` leaves both sums as they were.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "format/sidecar.h"
#include "model/sum.h"
#include "gprof-ext/commands.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/banned.h"

#define SUM_NAME "gmon.sum" /* upstream's GMONSUM */

/*
 * Does this command line ask upstream for -s, and which are its gmon files?
 * Parsed as upstream will (cmdline.h), silently: anything odd is left for
 * upstream to report.
 */
int sum_plan_init(struct sum_plan *plan, const struct egprof_opts *o)
{
	static char *const default_gmons[] = { "gmon.out" };
	size_t i;

	memset(plan, 0, sizeof(*plan));
	if (cmdline_split_quiet(&plan->cl, o->argc, o->argv) < 0)
		return 0;
	for (i = 0; i < plan->cl.nopts; i++)
		if (plan->cl.opts[i].val == 's')
			plan->wanted = 1;
	if (!plan->wanted)
		return 0;
	/* Operands: the image, then gmon files (gmon.out when none). */
	if (plan->cl.noperands >= 2) {
		plan->gmons = plan->cl.operands + 1;
		plan->ngmon = plan->cl.noperands - 1;
	} else {
		plan->gmons = default_gmons;
		plan->ngmon = 1;
	}
	/* now, while gmon.sum is still as it was; each checked against its
	 * gmon file (--force reads one that does not belong anyway) */
	return callpath_sum_read(plan->gmons, plan->ngmon, o->force, &plan->sc,
				 &plan->missing);
}

/* Where upstream wrote gmon.sum: its staged temporary file, or gmon.sum. */
static const char *written_sum(const struct outset *set)
{
	if (!set)
		return SUM_NAME;
	for (size_t i = 0; i < set->nopen; i++)
		if (!strcmp(set->open[i]->path, SUM_NAME))
			return set->open[i]->kind == OUTFILE_RENAME ? set->open[i]->tmp_path
								    : NULL;
	return NULL;
}

int sum_plan_finish(struct sum_plan *plan, struct outset *set)
{
	if (!plan->wanted)
		return 0;
	/* the sum's sidecar belongs to the gmon.sum written beside it; upstream
	 * leaves that stream open, its last bytes in stdio's buffer */
	fflush(NULL);
	if (plan->sc && callpath_sum_identify(plan->sc, written_sum(set)) < 0)
		return -1;
	if (plan->sc && sidecar_set_gmon_name(plan->sc, SUM_NAME) < 0)
		return error("out of memory");
	/* upstream's output first, as when it ran alone */
	fflush(stdout);
	return callpath_sum_store(set, SUM_NAME SIDECAR_SUFFIX, plan->sc,
				  plan->missing == plan->ngmon ? NULL
							       : plan->gmons[plan->missing],
				  plan->sc != NULL);
}

void sum_plan_release(struct sum_plan *plan)
{
	sidecar_free(plan->sc);
	cmdline_release(&plan->cl);
	memset(plan, 0, sizeof(*plan));
}
