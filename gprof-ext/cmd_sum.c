/*
 * `gprof -s` also sums the call-path sidecars of its gmon files into
 * gmon.sum.callpath, whichever command runs upstream's -s (plain gprof, or
 * gprof with --callpath, --folded or graph exports).
 *
 * Upstream's -s must stay byte for byte what it is: gmon.sum, the output
 * and the exit status are upstream's own.  main() plans before running the
 * command (upstream's option tables say whether -s is there and which
 * operands are gmon files) and, only when the command succeeded (so
 * upstream wrote gmon.sum), writes the sidecar sum (callpath/sum.h:
 * nothing when no input has a sidecar, a warning and nothing when only some
 * have one; when nothing is written, a gmon.sum.callpath of an earlier run
 * is removed, since it would not match the new gmon.sum).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "callpath/sidecar.h"
#include "callpath/sum.h"
#include "gprof-ext/commands.h"
#include "gprof-ext/upstream.h"
#include "utils/error.h"
#include "utils/banned.h"

#define SUM_NAME "gmon.sum" /* upstream's GMONSUM */

/*
 * Does this command line ask upstream for -s, and which are its gmon files?
 * Parsed as upstream will (its own tables), silently: anything odd is left
 * for upstream to report.  *gmons points into `copy`, which the caller frees.
 */
static int wants_sum(int argc, char **argv, char ***copyp, char ***gmons, size_t *ngmon)
{
	static char default_gmon[] = "gmon.out";
	static char *default_list[] = { default_gmon };
	const char *optstring;
	const struct option *longopts;
	char **copy;
	int c, sum = 0, saved_opterr = opterr;

	*copyp = NULL;
	if (upstream_option_spec(&optstring, &longopts) < 0)
		return 0;
	copy = calloc((size_t)argc + 1, sizeof(char *));
	if (!copy)
		return 0;
	memcpy(copy, argv, (size_t)argc * sizeof(char *));
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, copy, optstring, longopts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			sum = 0;
			break;
		}
		if (c == 's')
			sum = 1;
	}
	opterr = saved_opterr;
	if (sum) {
		/* Operands: the image, then gmon files (gmon.out when none). */
		if (argc - optind >= 2) {
			*gmons = copy + optind + 1;
			*ngmon = (size_t)(argc - optind - 1);
		} else {
			*gmons = default_list;
			*ngmon = 1;
		}
	}
	optind = 0; /* a fresh getopt session for upstream */
	*copyp = copy;
	return sum;
}

void sum_plan_init(struct sum_plan *plan, const struct egprof_opts *o)
{
	memset(plan, 0, sizeof(*plan));
	plan->wanted = wants_sum(o->argc, o->argv, &plan->argv_copy, &plan->gmons,
				 &plan->ngmon);
}

int sum_plan_finish(const struct sum_plan *plan)
{
	if (!plan->wanted)
		return 0;
	/* upstream's output first, as when it ran alone */
	fflush(stdout);
	return callpath_sum_write(plan->gmons, plan->ngmon, SUM_NAME SIDECAR_SUFFIX);
}

void sum_plan_release(struct sum_plan *plan)
{
	free(plan->argv_copy);
	memset(plan, 0, sizeof(*plan));
}
