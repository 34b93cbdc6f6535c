/*
 * --fail-on and --format markdown of a --diff (gate_cli.h).
 */
#include <math.h>
#include <stdio.h>
#include "gprof-ext/gate_cli.h"
#include "diff/gate.h"
#include "export/diff_summary.h"
#include "export/table.h"
#include "utils/error.h"
#include "utils/banned.h"

int gate_cli_diff(struct egprof_opts *o, const struct diff *d, const char *const label[2])
{
	struct gate_input in;
	struct gate_result r;
	int ret = -1;

	if (!o->gate && o->format != TABLE_MARKDOWN)
		return 0;
	if (gate_input_from_diff(&in, d) < 0)
		return -1;
	if (gate_judge(o->gate, &in, &r) < 0)
		goto out_input;
	if (o->format == TABLE_MARKDOWN && diff_summary_write(stdout, &in, o->gate, &r, label) < 0)
		goto out;
	if (r.failed) {
		gate_report(o->gate, &in, &r);
		o->gate_failed = 1;
	} else if (o->gate && in.speed > 1.05) {
		/* the one slowdown the gate cannot see: every function alike,
		 * which the diff takes for the machine's speed */
		warning("the second run took %.2fx the baseline's time as a whole; the diff "
			"judges functions at that speed (a busy machine, or a change that "
			"slowed everything alike): --fail-on does not gate it", in.speed);
	}
	ret = 0;
out:
	gate_result_release(&r);
out_input:
	gate_input_release(&in);
	return ret;
}
