#ifndef EGPROF_RANKSTATS_EXPORT_H
#define EGPROF_RANKSTATS_EXPORT_H
/*
 * `--rank-stats --format json|csv`: the statistics across ranks
 * (diff/rankstats.h) as records, per function and per rank.  Schema
 * "egprof-rank-stats", documented in doc/formats.md; the column tables
 * are in rankstats_export.c.  files[i] is rank i's gmon file (may be
 * NULL).  Returns 0 or -1 (reported) on a write error.
 */
#include <stdio.h>
#include "ranks/rankstats.h"
#include "export/table.h"

#define RANKSTATS_EXPORT_VERSION 1

int rankstats_export(FILE *fp, enum table_format fmt, const struct rankstats *rs,
		     const char *title, char *const *files);

#endif
