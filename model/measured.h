#ifndef EGPROF_MODEL_MEASURED_H
#define EGPROF_MODEL_MEASURED_H
/*
 * measured.h - a run's functions and arcs as its call-path sidecars
 * measured them: the profile (diff/profile.h) that every extension view
 * reads when a run has sidecars, so that a table, its evidence, a graph's
 * nodes and edges and the HTML page all show one source.
 *
 * From a calling-context tree (callpath/report.h, named through the gmon
 * profile: each frame's `attributed` function is the one gprof's table and
 * the diff name, a GCC clone or an OpenMP region under its function):
 *
 *  - every function of the gmon profile (its order, names, files, flags;
 *    cycles left out: measured times count a recursion once, so there is
 *    nothing to fold), with what the paths give it, 0 where they give
 *    nothing, so that a function of the binary is never "absent";
 *  - then every other name the paths hold: a library function ("sin
 *    [libm.so.6]", PSYM_LIBRARY), the instrumentation (PSYM_INSTRUMENTATION),
 *    "[unknown]" (PSYM_UNKNOWN), a function gprof's table leaves out;
 *  - self_ticks: the samples with the function innermost, at the model's
 *    rate (hz: the sidecar's, or 1/period for an event);
 *  - prop_self, prop_child, child_ticks: its self samples, and the rest of
 *    its inclusive samples (those of its outermost frames on each path, so
 *    that a recursion counts once);
 *  - ncalls, self_calls: the calls along its frames from other functions,
 *    and from itself (a call between two parts of one function too);
 *  - an arc caller -> callee per pair of functions a frame and its parent
 *    are: its calls, and the inclusive samples of the callee's outermost
 *    frames under that caller, split into the callee's own (time) and its
 *    callees' (child_time).  So an arc never carries more than its
 *    callee's total.  Library and instrumentation rows have no counted
 *    calls (profile_sym_calls_measured).
 *
 * The profile's `measure` says where the numbers come from (sidecars, the
 * metric and its unit, the samples' mean weight).
 *
 *   struct profile *sum, *one;
 *   measured_profile(model, gmon, NULL, &sum);       a side's functions
 *   measured_profile(model_of_file_3, gmon, sum, &one);  one file's, in
 *                                              sum's symbols and order
 *
 * `like` (may be NULL): a measured profile whose symbols the result takes,
 * in its order (the noise model compares a side's files symbol by
 * symbol); a name of the model it lacks follows them, as a name the paths
 * bring follows gmon's.  The result shares like's strings (its pool) or
 * owns a pool of its own.
 * 0, or -1 (reported) when out of memory.
 */

struct callpath_model;
struct profile;

int measured_profile(const struct callpath_model *m, const struct profile *gmon,
		     const struct profile *like, struct profile **out);

/*
 * The function each frame of m is the run's, as the tables name it: the
 * one gprof's table attributes its code to (report.h's `attributed`),
 * except where gprof left the callee out of its table and its own ELF
 * symbol names it: then a GCC clone's or an OpenMP region's base function
 * when gmon has one (main._omp_fn.0 is main's, "main (+ ._omp_fn.0)" in a
 * diff, as the diff folds clones), else that own name (never the symbol
 * before it in memory).  (*out)[i] for frame i, pointing into m's names or
 * gmon's strings; the caller frees the array.  0, or -1 (reported).
 */
int measured_frame_functions(const struct callpath_model *m, const struct profile *gmon,
			     const char ***out);

#endif
