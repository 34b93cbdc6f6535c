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
struct profile;
struct diff;
struct callpath_model;
struct rankstats;
struct heatmap;

/* source: the sidecar(s) m was read from, as --callpath names them */
int html_profile(struct outset *set, const char *path, const struct profile *p,
		 const char *in, const struct callpath_model *m, const char *source,
		 const char *graph_svg, const char *filters);
int html_diff(struct outset *set, const char *path, const struct diff *view,
	      const char *const label[2], double noise_sigmas,
	      const struct callpath_model *const m[2], const char *graph_svg,
	      const char *filters);
int html_rankstats(struct outset *set, const char *path, const struct rankstats *rs,
		   const char *title, char *const *files, const struct heatmap *hm);

/* "--focus 'solve' --depth 2": the options of f, malloc'd; NULL when none
 * is given or memory runs out. */
char *filter_describe(const struct filter_opts *f);

#endif
