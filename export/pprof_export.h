#ifndef EGPROF_PPROF_EXPORT_H
#define EGPROF_PPROF_EXPORT_H
/*
 * `--pprof FILE`: a profile, or a differential profile, as pprof's
 * profile.proto (export/pprof.h), from the same models the other outputs
 * read.  doc/pprof.md says what each sample type means.
 *
 * From gmon.out alone (pprof_from_profile): sample types samples
 * (histogram samples), calls (count) and cpu (nanoseconds), the last the
 * one pprof and speedscope show first; each
 * function's self time is a one-frame sample, each arc of the call graph a
 * two-frame sample (callee, caller) holding its calls.
 *
 * From call paths (pprof_from_callpath): one sample per frame of the
 * calling-context tree, its whole path as the stack, with a value per
 * metric of the model (pprof_metrics(): time and samples when the sidecar
 * has samples, calls always); a frame of folded recursion is the path of
 * its parent plus the function again, holding the recursive calls.  A
 * sidecar without samples takes its time from gmon.out, as above.
 *
 * A diff (pprof_from_diff) is one profile in pprof's own representation
 * of a difference, which `pprof -diff_base` builds internally: the second
 * run's samples as they are, the baseline's negated and labelled
 * pprof::base=true.  So pprof shows second minus baseline (the opposite
 * sign of egprof's text), its percentages of the baseline's total.
 * Functions are named as the diff matched them (clones, statics).
 *
 * `in` (may be NULL: everything) is the --focus/--root/--exclude selection
 * of a profile's symbols or a diff's entries (filter/filter_models.h);
 * call-path models come filtered already (filter_callpath).
 *
 * Each returns 0, or -1 reported (out of memory).
 */
#include "export/pprof.h"

struct profile;
struct diff;
struct callpath_model;

/* A metric of a calling-context tree as a pprof sample type. */
struct pprof_metric {
	const char *type, *unit;
	int64_t (*value)(const struct callpath_model *m, uint32_t frame);
};
#define PPROF_MAX_METRICS 8
/* The model's metrics, the one a viewer shows first last; their number. */
size_t pprof_metrics(const struct callpath_model *m, struct pprof_metric *out, size_t max);

int pprof_from_profile(const struct profile *p, const char *in, struct pprof **out);
/* in: for the time a model without samples takes from gmon.out */
struct line_profile;
/* lp: the run's source lines (model/lines.h), NULL: none; each frame's
 * self time is then split over its function's lines, each line a
 * location with its line number (shares of the function's lines over all
 * its contexts), calls staying on the function's location */
int pprof_from_callpath(const struct profile *p, const char *in,
			const struct callpath_model *m, const struct line_profile *lp,
			struct pprof **out);
/* m[s]: side s's call paths, or NULL when either side has none (then
 * both sides come from their gmon files). */
int pprof_from_diff(const struct diff *d, const char *in,
		    const struct callpath_model *const m[2],
		    const struct line_profile *const lp[2], struct pprof **out);

/* Write pp to path (utils/outfile.h), with the command's other outputs. */
struct outset;
int pprof_save(struct outset *set, const char *path, const struct pprof *pp);

#endif
