#ifndef EGPROF_MODEL_PATHS_H
#define EGPROF_MODEL_PATHS_H
/*
 * paths.h - calling-context trees (callpath/report.h's model) of several
 * files as one: a run of several gmon files reads each file's sidecar
 * once, names it, keeps it when the noise model needs each file alone,
 * and adds it into the run's sum here.  Frames are matched by their names
 * (parent, function, call site), as the model keys them, so that the
 * processes of one program, loaded at different addresses, line up.
 *
 *   paths_copy(first, &sum);      a sum to add into (first unchanged)
 *   paths_merge(sum, second);     sum += second
 *
 * Both return 0, or -1 (reported) when out of memory; sums saturate at
 * 2^64 - 1 and set the model's `saturated` (utils/satmath.h).
 */

struct callpath_model;

int paths_copy(const struct callpath_model *m, struct callpath_model **out);
int paths_merge(struct callpath_model *into, const struct callpath_model *m);

/*
 * The paths named as the run's functions are (model/measured.h's
 * measured_frame_functions, through the run's gmon profile): a GCC clone
 * or an OpenMP region by its function, main._omp_fn.0 as "main (+
 * ._omp_fn.0)" in a diff, so that a path view (pprof, the HTML icicle graph, folded
 * stacks, path differences) names what the tables name.  Frames that then
 * read alike are one.  *out is m itself (*copied 0) when every frame is
 * named so already, else a new model (*copied 1).  0, or -1 (reported).
 */
struct profile;
int paths_as_functions(const struct callpath_model *m, const struct profile *gmon,
		       struct callpath_model **out, int *copied);

#endif
