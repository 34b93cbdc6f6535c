#ifndef EGPROF_PRINT_LINES_H
#define EGPROF_PRINT_LINES_H
/*
 * print_lines.h - the source lines of two runs as text: `--diff -l`'s
 * table (every line whose time changed, beyond the noise first) and
 * `--diff -A`'s annotated source (each changed function's source lines
 * with both runs' seconds and their difference).  Views of the model
 * (model/lines.h): they read the analysis's line diff, and open only the
 * source files they print.
 */
#include <stdio.h>

struct line_diff;
struct line_profile;

struct print_lines_opts {
	const char *label[2];	/* the runs, as the diff names them */
	const char *source;	/* where the lines come from, in words */
	const char *skipped[2];	/* libraries sampled without lines ("" none) */
	unsigned long long unplaced[2];	/* samples on no function's line */
	double hz[2];
	int full_paths;		/* -L: files as the debug information names
				   them, else their last component */
	const char *only;	/* -A's function, NULL: the changed ones */
};

/*
 * `--callpath -l`: each function's self time by source line (one run's
 * lines), functions by self time, each function's lines by time, at most
 * max_lines each (0: all) with a line counting the rest.  0, or -1 on a
 * stream error or out of memory.
 */
int print_lines_profile(FILE *out, const struct line_profile *lp, int full_paths,
			size_t max_lines);

/* 0, or -1 on a stream error. */
int print_lines_diff(FILE *out, const struct line_diff *d, const struct print_lines_opts *o);
int print_lines_annotated(FILE *out, const struct line_diff *d,
			  const struct print_lines_opts *o);

#endif
