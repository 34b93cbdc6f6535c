#ifndef EGPROF_GATE_CLI_H
#define EGPROF_GATE_CLI_H
/*
 * --diff's regression gate (--fail-on, diff/gate.h) and markdown summary
 * (--format markdown, export/diff_summary.h) on the command's assessed
 * diff, called once the diff's other outputs are done.  A failed gate is
 * reported on stderr, one line per finding, and sets o->gate_failed: main
 * exits with GATE_EXIT_STATUS after writing every output (a CI job keeps
 * its report and graphs).  0, or -1 after reporting an error.
 */
#include "gprof-ext/options.h"

struct diff;
int gate_cli_diff(struct egprof_opts *o, const struct diff *d, const char *const label[2]);

#endif
