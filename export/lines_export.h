#ifndef EGPROF_LINES_EXPORT_H
#define EGPROF_LINES_EXPORT_H
/*
 * lines_export.h - `--diff -l --format json|csv`: the line-by-line
 * comparison of two runs (model/lines.h) as a table (export/table.h),
 * schema "egprof-lines-diff": header fields baseline, second, source,
 * noise_sigmas, jitter, tests, warning; one record per line in the text
 * table's order, with both runs' samples and seconds, the change (baseline
 * minus second), its z and the verdict.  doc/formats.md describes it.
 */
#include <stdio.h>

#include "export/table.h"

#define LINES_EXPORT_VERSION 1

struct line_diff;
struct line_profile;

/* 0, or -1 on a write error (reported). */
int lines_export(FILE *fp, enum table_format fmt, const struct line_diff *d,
		 const char *const label[2], const char *source);

/*
 * One run's lines (the HTML report's source view), schema "egprof-lines":
 * header fields source, hz, total_samples, no_line_samples (of code
 * without line information), unplaced_samples (left out), skipped (the
 * libraries without line information, in words); one record per row of
 * the model (by function, file, line, inlined) with its samples, seconds
 * and whether it is a library's code.  0, or -1 on a write error.
 */
int lines_profile_export(FILE *fp, enum table_format fmt, const struct line_profile *lp);

#endif
