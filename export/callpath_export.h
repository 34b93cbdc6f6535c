#ifndef EGPROF_CALLPATH_EXPORT_H
#define EGPROF_CALLPATH_EXPORT_H
/*
 * `--callpath --format json|csv`: the calling-context tree (callpath/
 * report.h) as records, one per frame: its parent, depth, function, call
 * site, calls along the path and the path itself.  Schema
 * "egprof-callpath", documented in doc/formats.md.  source names the
 * sidecar(s).  Returns 0 or -1 (reported) on a write error or when out of
 * memory.
 */
#include <stdio.h>
#include "model/callpath_model.h"
#include "export/table.h"

#define CALLPATH_EXPORT_VERSION 1

int callpath_export(FILE *fp, enum table_format fmt, const struct callpath_model *m,
		    const char *source);

#endif
