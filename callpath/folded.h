#ifndef CALLPATH_FOLDED_H
#define CALLPATH_FOLDED_H
/*
 * folded.h - call paths as folded stacks (`--folded FILE`), the input of
 * flamegraph.pl and speedscope: one line per path, function names from the
 * outermost to the called one separated by ';', a space, then the time
 * samples in the last function itself along that path (`--folded`: the
 * width flamegraph.pl and speedscope draw) or its calls (`--folded-calls`):
 *
 *   main;b;d;c 2
 *
 * Every frame of the calling-context tree with a non-zero value is a line,
 * so "main;b 9" sits beside "main;b;c 7".  Paths that differ only in their call sites are one
 * line with their counts summed; lines are sorted by stack.  With --diff,
 * folded_write_diff() writes difffolded.pl's two-column form,
 * "main;b;c 7 9" (first profile, second profile).
 *
 *   struct folded *f;
 *   if (folded_build(model, FOLDED_SAMPLES, &f) < 0) return -1;
 *   folded_write(fp, f);
 *   folded_free(f);
 *
 * Ownership: a struct folded owns its stacks and their strings.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct callpath_model;
struct pathdiff;

struct folded_stack {
	char *stack;		/* "main;b;c" */
	uint64_t count;
	uint64_t recursive;	/* of count, the recursive calls folded into the
				   last function (FOLDED_CALLS_GPROF), "1+N" */
};

struct folded {
	struct folded_stack *stacks;	/* sorted by strcmp, no duplicates */
	size_t nr;
};

/*
 * What a line's number is: the time samples taken with the path's last
 * function innermost (its self time along the path: what flamegraph.pl and
 * speedscope draw as width, `--folded`), or the calls along the path
 * (`--folded-calls`).
 */
enum folded_value {
	FOLDED_SAMPLES,
	FOLDED_CALLS,
	/*
	 * Calls as gprof counts a recursive function's: the calls folded into
	 * a frame by recursion (report.h, folded) count on that frame's line
	 * ("main;fib", 1+2692536 in the path diff), instead of a line of their
	 * own per call site ("main;fib;fib 2692536", what --folded-calls
	 * writes so that each line's last two names are a caller and callee).
	 */
	FOLDED_CALLS_GPROF,
	/*
	 * The samples in the metric's own unit (model/metric.h): events
	 * for an event counted by overflow (samples times the period), the
	 * samples themselves for time.  What `--folded` writes.
	 */
	FOLDED_WEIGHTED,
};

/* 0 or -1 (out of memory, reported).  Frames whose value is 0 are left out. */
int folded_build(const struct callpath_model *m, enum folded_value value,
		 struct folded **out);

/*
 * Why m's metric (time, or the event of --metric: metric.h) holds no
 * sample to show, as the rest of a sentence that starts with the
 * sidecar's name ("'gmon.out.callpath' holds no overflow of
 * perf::PAGE-FAULTS: ..."), in buf; NULL when it holds some.  The one rule
 * of every output that shows the metric: --folded (and the diff's), whose
 * lines would all be gone, refuses with it; --pprof and --html, which
 * also show the calls, say it as a warning.  A time sample is a tick of
 * the profiling timer (m->hz a second); an event's is one overflow, every
 * `period` events.
 */
const char *folded_no_samples_why(const struct callpath_model *m, char *buf, size_t n);
void folded_free(struct folded *f);

/* 0 or -1 when the stream reports an error. */
int folded_write(FILE *fp, const struct folded *f);
int folded_write_diff(FILE *fp, const struct pathdiff *d);

/* Write to `path` (utils/outfile.h: "-" is standard output), as one of
 * the outputs of `set` (committed with them), or at once when set is NULL.
 * 0 or -1, reported with error(). */
struct outset;
int folded_save(struct outset *set, const char *path, const struct folded *f);
int folded_save_diff(struct outset *set, const char *path, const struct pathdiff *d);

#endif
