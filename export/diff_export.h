#ifndef EGPROF_DIFF_EXPORT_H
#define EGPROF_DIFF_EXPORT_H
/*
 * `--diff --format json|csv`: the differential profile (diff/diff.h) as
 * records, per function and per arc, both sides, the difference, the
 * ratio and the noise verdict.  Schema "egprof-diff", documented in
 * doc/formats.md; the column tables are in diff_export.c (one row per
 * field).  label[] names each side as the text header does.
 * Returns 0 or -1 (reported) on a write error.
 */
#include <stdio.h>
#include "diff/diff.h"
#include "export/table.h"

/* 3: one source for every number (the header's source, metric and unit;
 * library, instrumentation and unknown rows among the functions, with
 * their kind; calls null where a side counted none); the fields are
 * doc/schema/egprof-diff.schema.json's.  `source` says what the values are
 * in words (model/analysis.h). */
#define DIFF_EXPORT_VERSION 3

int diff_export(FILE *fp, enum table_format fmt, const struct diff *d,
		const char *const label[DIFF_NSIDES], double noise_sigmas, const char *source);

#endif
