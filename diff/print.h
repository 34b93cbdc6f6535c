#ifndef EGPROF_PRINT_H
#define EGPROF_PRINT_H
/*
 * The printers of a differential profile (struct diff, diff/diff.h): one
 * module, one file per table.
 *
 *   print_convention()    the header saying what is subtracted from what
 *   print_classic_flat()  gprof's flat profile layout, signed (print_classic.c)
 *   print_extended_flat() the paper's Figure 1 (bottom) table (print_extended.c)
 *   print_cg()            gprof's call-graph layout, signed, then (unless
 *                         brief) what its columns mean and the index by
 *                         function name, as gprof ends its call graph
 *                         (print_cg.c)
 *
 * Printers read entries and arcs and never test for a missing side: an
 * absent side is a placeholder whose has_samples/has_calls are 0, which is
 * what prints "---" and "-".  Each returns 0, or -1 (reported) when out of
 * memory.  Sorting is theirs (they do not change the diff).
 */
#include <stdio.h>
#include "diff/diff.h"

struct diff_print_opts {
	int brief;            /* -b: no header, no explanations */
	int zeros;            /* -z: print functions without data too */
	int bsd;              /* -T: gprof's traditional (BSD) number layout */
	int extended;         /* --extended */
	int noise_marker;     /* mark entries within sampling noise */
	int width;            /* -w: width of the index by function name
				 (0: gprof's default, 80) */
	int print_path;       /* -L: full source paths in the index */
	int ratio;            /* --ratio: second in percent of the baseline */
	const char *label[DIFF_NSIDES]; /* how each side is named ("app gmon") */
	/* The flat tables' rows in order (print_flat_order), when the caller
	 * sorted them once for the table and its evidence; NULL: each
	 * printer sorts them itself. */
	const size_t *flat_order;
	size_t nflat;
	/* what the numbers are, said once in the header (model/analysis.h:
	 * "time: call-path samples of each thread, 1000 Hz ..."), or NULL */
	const char *source;
	int coverage_low;     /* the source's samples cover less than
				 SIDECAR_CPU_COVERAGE_WARN of a run's CPU
				 time: a warning below it */
	/* set by print_opts_units() from the diff's profiles: the unit of the
	 * values ("seconds", or an event's "events"), its short form for
	 * per-call columns ("s", "ev"), the metric (NULL: time) and the
	 * decimals printed (2 for seconds, 0 for events) */
	const char *unit, *unit_abbrev, *metric;
	int decimals;
};

/* The unit fields of po, from what d's values are (diff/profile.h's
 * struct profile_measure). */
void print_opts_units(struct diff_print_opts *po, const struct diff *d);

void print_convention(FILE *out, const struct diff *d, const struct diff_print_opts *po);
int print_classic_flat(FILE *out, const struct diff *d, const struct diff_print_opts *po);
int print_extended_flat(FILE *out, const struct diff *d, const struct diff_print_opts *po);
int print_cg(FILE *out, const struct diff *d, const struct diff_print_opts *po);

/* For the printers: entry indices of the flat tables, in print order
 * (|self diff|, then |calls diff|, then name); the caller frees *order. */
int print_flat_order(const struct diff *d, const struct diff_print_opts *po,
		     size_t **order, size_t *n);
/* The rows of a flat table: po->flat_order, or sorted here into *owned
 * (the caller frees it; NULL when po had them).  0, or -1 (reported). */
int print_flat_rows(const struct diff *d, const struct diff_print_opts *po,
		    const size_t **order, size_t *n, size_t **owned);
/* How many rows of the flat tables are significant. */
size_t print_count_significant(const struct diff *d, const struct diff_print_opts *po);
/* After a flat table: each significant row's evidence (time, calls,
 * ranks, moved cost; a library row's callers), in the table's order
 * (print_evidence.c). */
int print_evidence(FILE *out, const struct diff *d, const struct diff_print_opts *po);
/* With --ratio, the column " 123.4%" (second in percent of the baseline;
 * "new" without baseline time), else "".  buf of at least 16 bytes. */
const char *print_ratio_cell(char *buf, size_t n, const struct diff_entry *e,
			     const struct diff_print_opts *po);
/* The end of a flat table's row in l: the name, the noise marker, the
 * newline; written out once l holds LINE_FLUSH_BYTES. */
struct line;
void print_row_end(struct line *l, FILE *out, const struct diff_entry *e,
		   const struct diff_print_opts *po);
/* The noise marker column ("  ~" or ""). */
const char *print_noise_mark(const struct diff_entry *e, const struct diff_print_opts *po);

#endif
