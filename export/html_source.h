#ifndef EGPROF_HTML_SOURCE_H
#define EGPROF_HTML_SOURCE_H
/*
 * The HTML report's source view (export/html/source.js): its data from
 * the analysis's lines (model/lines.h), read by the command once, since
 * the page cannot read local files.
 *
 *  - "lines": the rows, as --format json writes them: a profile's
 *    "egprof-lines" (lines_profile_export), a diff's "egprof-lines-diff"
 *    (lines_export, with both runs, change, z and verdict);
 *  - "sources": "egprof-html-sources", the text of the sampled lines'
 *    files, bounded: per function and file, the span of its sampled lines
 *    with SOURCE_CONTEXT lines around it (a span longer than
 *    SOURCE_SPAN_ALL lines: each sampled line with its context, as -A
 *    elides a long function), files by their samples, the hottest first,
 *    until SOURCE_CAP_BYTES of text (the document says when it stopped);
 *    a file that cannot be read named with the reason, as -A says it.
 *
 * No other file is opened; the page writes nothing.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct html_page;
struct analysis;

#define SOURCE_CONTEXT 5
#define SOURCE_SPAN_ALL 400
#define SOURCE_CAP_BYTES (2u << 20)
#define SOURCE_LINE_MAX 1000	/* bytes of one line kept; longer ends in "..." */

/* A sampled line of a function (a row of a run's or a diff's lines). */
struct source_mark {
	const char *func;
	const char *file;	/* NULL: no line information (ignored) */
	int line;
	uint64_t samples;	/* its weight: which files come first */
};

struct source_limits {
	int context;		/* lines around a function's span */
	int span_all;		/* a span up to this many lines whole */
	size_t cap_bytes;	/* text embedded in all */
	size_t line_max;	/* bytes of one line */
};
#define SOURCE_LIMITS_INIT { SOURCE_CONTEXT, SOURCE_SPAN_ALL, SOURCE_CAP_BYTES, SOURCE_LINE_MAX }

/* The "egprof-html-sources" document of these marks to fp: 0, or -1 (out
 * of memory or a write error, reported).  Unreadable files are part of the
 * document, not errors. */
int source_doc_write(FILE *fp, const struct source_mark *m, size_t n,
		     const struct source_limits *lim);

/* The page's "lines" and "sources" from a->lines (a profile) or
 * a->line_diff (a diff); nothing when the analysis has no lines.  0 or -1
 * (reported). */
int html_add_lines(struct html_page *pg, const struct analysis *a, const char *const label[2]);

#endif
