#ifndef CALLPATH_SUM_H
#define CALLPATH_SUM_H
/*
 * sum.h - the sidecars beside several gmon files as one tree.
 *
 * The one place that turns gmon file names into a sum of their sidecars:
 * a profile of several gmon files reads their sidecars summed (--callpath,
 * --folded, and each side of --diff, where a directory side is its rank
 * files), and `gprof -s` writes gmon.sum.callpath beside gmon.sum.
 *
 * Summing itself is sidecar_merge() (format/sidecar.h): sidecars of one
 * PIE program, recorded at different load addresses, are rebased to the
 * first one's, and sidecars of another binary (build-id) are refused.  This
 * module adds the file names, the messages naming them, and the policy for
 * gmon files without a sidecar, shared by `gprof -s` and egprof-sum:
 *   every gmon file has a sidecar: their sum is written beside the gmon sum;
 *   none has one: nothing (a program not linked with libcallpath);
 *   only some have one: a warning naming the first without, nothing written
 *     (a sum of some files' call paths would not match the gmon sum of all).
 * Whenever nothing is written, a sidecar sum left at that name by an earlier
 * run is removed: it would sit beside the new gmon sum and not match it.
 *
 *   struct sidecar *sc;
 *   size_t missing;
 *   if (callpath_sum_read(files, n, force, &sc, &missing) < 0) return -1;
 *   if (!sc) ... no gmon file has a sidecar ...
 *   else if (missing != n) ... files[missing] has none, the others do ...
 *   sidecar_free(sc);
 *
 * Every sidecar read beside a gmon file is first checked to belong to it
 * (callpath_pair_check below): the one rule for plain profiles, each side
 * of --diff, the rank files of --rank-stats and the inputs of `gprof -s`
 * and egprof-sum, with one gmon file or many.
 *
 * Ownership: *out is a new tree owned by the caller.  Errors are reported
 * with error() and name the files involved.
 */
#include <stddef.h>
#include <stdint.h>

struct sidecar;

/*
 * Does sidecar `sc`, read from `sidecar`, belong to the gmon file `gmon`?
 * A sidecar of version 4 records the size and hash of the gmon file it was
 * written with (doc/dev/sidecar-format.md, "Identity"); a gmon file with other
 * bytes is another run's, whatever the counts say.  0: it belongs, or
 * nothing can tell (an older sidecar without identity, a gmon file that is
 * not a regular file: upstream reports what is wrong with it).  -1: it
 * does not, reported naming both files and what differs; with `force` a
 * warning instead, and 0.  (The test itself is sidecar_belongs_to(), for
 * readers to whom a sidecar is optional.)
 */
int callpath_pair_check(const struct sidecar *sc, const char *sidecar,
			const char *gmon, int force);

/*
 * The identity of a sum's sidecar: the gmon sum written beside it
 * (`gmon_sum`, a file, whose size and hash are read; NULL or not a
 * regular file: no hash recorded).  0, or -1 when the file cannot be read.
 */
int callpath_sum_identify(struct sidecar *sc, const char *gmon_sum);

/*
 * Read and sum the sidecars of `gmon_files` (sidecar_name_for), in order,
 * each checked against its gmon file (callpath_pair_check, `force` as
 * there): the sum is in the first sidecar's address space and carries its
 * header.  *out is NULL when none exists; *missing is the index of the
 * first gmon file without one, or n.  0, or -1 when a sidecar cannot be
 * read, does not belong to its gmon file or cannot be merged (e.g.
 * another binary's).
 */
int callpath_sum_read(char *const *gmon_files, size_t n, int force,
		      struct sidecar **out, size_t *missing);

/*
 * `gprof -s`: callpath_sum_read(), then callpath_sum_store(), the sum's
 * identity being `out_path` without its suffix (the gmon sum upstream
 * wrote).  0, or -1 on unreadable input or a failed write or removal.
 */
int callpath_sum_write(char *const *gmon_files, size_t n, int force,
		       const char *out_path);

/*
 * The policy above, once the inputs are known (egprof-sum finds them out
 * across its processes): `missing` is the first gmon file without a
 * sidecar, NULL when every one has one; `some` says whether any has one;
 * `sc` is the sum of all of them (used only when `missing` is NULL), its
 * identity set by the caller (callpath_sum_identify) to the gmon sum it
 * goes with.  Writes `out_path` (utils/outfile.h) or removes a stale one
 * (saying so when `some`): as outputs of `set`, done when it is
 * committed, or at once when set is NULL.  0, or -1 after reporting a
 * failed write or removal.
 */
struct outset;
int callpath_sum_store(struct outset *set, const char *out_path,
		       const struct sidecar *sc,
		       const char *missing, int some);

#endif
