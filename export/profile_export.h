#ifndef EGPROF_PROFILE_EXPORT_H
#define EGPROF_PROFILE_EXPORT_H
/*
 * One profile (diff/profile.h) as records: gprof's flat profile and call
 * graph arcs, for the HTML report of a single profile.  Schema
 * "egprof-profile", documented in doc/formats.md (the same column rules
 * as the other documents).  `in` (NULL: all) is the --focus/--root/
 * --exclude selection of p's symbols (filter/filter_models.h).  Returns 0
 * or -1 (reported) on a write error or when out of memory.
 */
#include <stdio.h>
#include "diff/profile.h"
#include "export/table.h"

/* 2: the source, metric and unit in the header; library, instrumentation
 * and unknown rows with their kind; calls null where not counted.
 * `source`: what the values are, in words (model/analysis.h). */
#define PROFILE_EXPORT_VERSION 2

int profile_export(FILE *fp, enum table_format fmt, const struct profile *p, const char *in,
		   const char *source);

#endif
