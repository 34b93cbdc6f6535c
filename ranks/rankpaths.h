#ifndef EGPROF_RANKPATHS_H
#define EGPROF_RANKPATHS_H
/*
 * Which calling context carries a function's imbalance (issue 14 item 5):
 * with call-path sidecars, the paths to an imbalanced function on its
 * slowest rank against the same paths on its fastest rank, largest
 * difference in calls first ("relax via main>sweep>smooth: 40 calls on
 * rank 3, 10 on rank 0").  Reads two sidecars per function listed, never
 * every rank's: O(1) files however many ranks.
 *
 *   struct rankpaths_syms syms;
 *   rankpaths_syms_init(&syms, profile);     any one rank's profile
 *   rankpaths_fill(rs, gmon_files, &syms, items);   per listed function
 *   rankpaths_syms_release(&syms);
 *
 * Sidecars that are missing, unreadable, of another binary or of another
 * run (sidecar_belongs_to) are skipped
 * silently here (--rank-stats warns about them when it reads ranks).
 */
#include <stddef.h>
#include <stdint.h>
#include "diff/profile.h"
#include "ranks/rankstats.h"

struct rankpaths_syms {
	uint64_t *lo, *hi;   /* link-time address ranges, ascending */
	char **names;        /* print names, owned */
	size_t n;
};

int rankpaths_syms_init(struct rankpaths_syms *syms, const struct profile *p);
void rankpaths_syms_release(struct rankpaths_syms *syms);

/* For the first `items` functions of rankstats_imbalanced(), the top
 * RANKSTATS_PATHS paths into rs->fns[i].paths.  files[r]: rank r's gmon
 * file (its sidecar is beside it).  rs->fns[i].name is matched against syms' names. */
int rankpaths_fill(struct rankstats *rs, char *const *files,
		   const struct rankpaths_syms *syms, size_t items);

#endif
