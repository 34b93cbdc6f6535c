#ifndef EGPROF_HTML_VIEWS_H
#define EGPROF_HTML_VIEWS_H
/*
 * The HTML report (export/html.h) of each kind, from the models the
 * commands hold, its data written by the same exporters as --format json:
 *
 *  - html_profile: one profile ("egprof-profile": gmon.out's flat profile
 *    and arcs) and its call paths ("egprof-callpath") when it has them;
 *  - html_diff: the diff ("egprof-diff", the view --format json prints),
 *    both sides' call paths and the verdict of each path whose self time
 *    changed ("egprof-pathdiff": pathdiff_time_verdicts());
 *  - html_rankstats: "egprof-rank-stats" and the heat map.
 *
 * Models come filtered (--focus/--root/--depth/--exclude); `filters` says
 * which were given (filter_describe()), or NULL.  Each writes `path` as
 * one of the outputs of `set`, 0 or -1 reported.
 */
#include "filter/filter.h"

struct outset;
struct analysis;
struct rankstats;
struct heatmap;

/* From the analysis (model/analysis.h): its functions, paths, filters and
 * source; graph_svg the call graph drawn (NULL: too big to lay out). */
int html_profile(struct outset *set, const char *path, const struct analysis *a,
		 const char *graph_svg);
int html_diff(struct outset *set, const char *path, const struct analysis *a,
	      const char *const label[2], double noise_sigmas, const char *graph_svg);
int html_rankstats(struct outset *set, const char *path, const struct rankstats *rs,
		   const char *title, char *const *files, const struct heatmap *hm);


#endif
