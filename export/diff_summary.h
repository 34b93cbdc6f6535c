#ifndef EGPROF_DIFF_SUMMARY_H
#define EGPROF_DIFF_SUMMARY_H
/*
 * --diff --format markdown: a short summary of a differential profile for
 * CI logs and pull-request comments: the two runs, the regression gate's
 * verdict (when --fail-on is given), the significant changes, largest
 * first, in a table (export/table.h's markdown), and what was left out.
 * It reads the diff through the gate's rows (diff/gate.h), nothing else.
 *
 *   diff_summary_write(stdout, &in, gate_or_NULL, &result, labels);
 *
 * 0, or -1 on a write error (reported).
 */
#include <stdio.h>

struct gate;
struct gate_input;
struct gate_result;

/* At most this many significant rows are listed (the largest changes). */
#define DIFF_SUMMARY_ROWS 10

int diff_summary_write(FILE *fp, const struct gate_input *in, const struct gate *g,
		       const struct gate_result *r, const char *const label[2]);

#endif
