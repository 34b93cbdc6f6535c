#ifndef EGPROF_FLAMEGRAPH_H
#define EGPROF_FLAMEGRAPH_H
/*
 * flamegraph.h - `--flamegraph FILE.svg`: an interactive flame graph of
 * folded stacks, one SVG file with its script inside (hover, click to
 * zoom, search by regular expression or text with the matched share),
 * which a browser opens from disk with no network and an image viewer
 * draws as a still picture.
 *
 * The input is the folded stacks `--folded` writes for the same command
 * (callpath/folded.h: "main;b;c" and the samples with c innermost along
 * that path), so that a frame's width, in samples, is the sum of the
 * folded counts of its stack and of every stack below it: what
 * flamegraph.pl draws from that file.  A diff's stacks carry both runs'
 * counts (the two columns of the diff's folded file): the frames are as
 * wide as the second run's samples (flamegraph.pl's differential flame
 * graph) and coloured by the change of their self time, baseline minus
 * second as every table of the diff: red where the second run spends more,
 * blue where it spends less, grey where the change is none or within the
 * noise (the path diff's verdict).
 *
 * Size is bounded: siblings narrower than a minimum width (0.1 px of the
 * 1200 px image by default, as flamegraph.pl's --minwidth) are merged into
 * one frame per parent, and the minimum is raised until at most
 * FLAMEGRAPH_MAX_FRAMES frames are drawn; the image says what it merged.
 *
 *   struct flamegraph_opts fo = FLAMEGRAPH_OPTS_INIT;
 *   fo.title = "app";
 *   if (flamegraph_save(set, "f.svg", stacks, n, &fo) < 0) return -1;
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FLAMEGRAPH_WIDTH_PX 1200
#define FLAMEGRAPH_MIN_WIDTH_PX 0.1
#define FLAMEGRAPH_MAX_FRAMES 30000

/* One folded stack: names outermost first, separated by ';' (printable
 * text: folded.h's escaping), with each run's count (b: the second run of
 * a diff, unused for a profile) and whether the diff's rule calls its
 * change of self samples noise. */
struct flamegraph_stack {
	const char *stack;
	uint64_t a, b;
	int within_noise;
};

struct flamegraph_opts {
	int diff;                /* two runs: widths b, colours by a - b */
	const char *title;       /* e.g. the program's name */
	const char *subtitle;    /* the source in words, the filters */
	const char *label[2];    /* the runs' names in a diff */
	/* samples per second of each run's counts: tooltips say seconds and
	 * a diff compares seconds; 0 when the counts are not time (events) */
	double hz[2];
	const char *unit;        /* what a count is: "samples", "events" */
	double min_width_px;     /* 0: FLAMEGRAPH_MIN_WIDTH_PX */
	size_t max_frames;       /* 0: FLAMEGRAPH_MAX_FRAMES */
};
#define FLAMEGRAPH_OPTS_INIT { 0, NULL, NULL, { NULL, NULL }, { 0, 0 }, "samples", 0, 0 }

/* 0, or -1 when out of memory (reported) or the stream failed. */
int flamegraph_write(FILE *fp, const struct flamegraph_stack *stacks, size_t n,
		     const struct flamegraph_opts *o);

/* Write to `path` through utils/outfile.h, as one of the outputs of `set`
 * (committed with them), or at once when set is NULL.  0 or -1 (reported). */
struct outset;
int flamegraph_save(struct outset *set, const char *path,
		    const struct flamegraph_stack *stacks, size_t n,
		    const struct flamegraph_opts *o);

#endif
