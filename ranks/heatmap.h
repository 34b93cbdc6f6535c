#ifndef EGPROF_HEATMAP_H
#define EGPROF_HEATMAP_H
/*
 * The imbalance heat map of --rank-stats --svg/--png: the top functions
 * (rows, in the report's order) x the ranks (columns; consecutive ranks
 * share a column when there are more than RANKSTATE_HEAT_BINS), the colour
 * of a cell its self time relative to the function's mean over all ranks
 * (blue below, white at the mean, red above; a binned cell shows the
 * slowest rank in it), the slowest rank's cell outlined in black.  Drawn
 * with cairo, so it reads the same at 4 ranks and at 100,000.
 *
 *   struct heatmap hm;
 *   rankstate_heatmap(global, pass, &hm);   (ranks/rankstate.h's data)
 *   heatmap_write(&hm, "imbalance.svg", HEATMAP_SVG, title);
 *   heatmap_release(&hm);
 *
 * Ownership: a heatmap owns its arrays and names.
 */
#include <stddef.h>
#include <stdint.h>
#include "ranks/rankstate.h"

enum heatmap_format { HEATMAP_SVG, HEATMAP_PNG };

struct heatmap {
	size_t rows, bins;
	uint64_t nranks;
	char **names;        /* per row: function name */
	double *mean;        /* per row: mean self seconds over all ranks */
	double *cell;        /* rows x bins: largest self seconds in the bin */
	uint64_t *max_rank;  /* per row: the slowest rank */
};

int rankstate_heatmap(const struct rankstate *global, const struct rankpass *pass,
		      struct heatmap *hm);
void heatmap_release(struct heatmap *hm);

/* Writes `path` (atomically, utils/outfile.h); -1 with an error naming it. */
struct outset;
/* outs: the command's outputs, committed with them (utils/outfile.h), or
 * NULL: committed at once. */
int heatmap_write(const struct heatmap *hm, struct outset *outs, const char *path,
		  enum heatmap_format fmt,
		  const char *title);

/* The SVG into fp (also the HTML report's, inline).  0, or -1 on a write
 * error (not reported). */
#include <stdio.h>
int heatmap_svg_fp(const struct heatmap *hm, FILE *fp, const char *title);

#endif
