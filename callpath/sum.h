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
 * Summing itself is sidecar_merge() (callpath/sidecar.h): sidecars of one
 * PIE program, recorded at different load addresses, are rebased to the
 * first one's, and sidecars of another binary (build-id) are refused.  This
 * module adds the file names, the messages naming them, and the policy for
 * gmon files without a sidecar.
 *
 *   struct sidecar *sc;
 *   size_t missing;
 *   if (callpath_sum_read(files, n, &sc, &missing) < 0) return -1;
 *   if (!sc) ... no gmon file has a sidecar ...
 *   else if (missing != n) ... files[missing] has none, the others do ...
 *   sidecar_free(sc);
 *
 * Ownership: *out is a new tree owned by the caller.  Errors are reported
 * with error() and name the files involved.
 */
#include <stddef.h>

struct sidecar;

/*
 * Read and sum the sidecars of `gmon_files` (sidecar_name_for), in order:
 * the sum is in the first sidecar's address space and carries its header.
 * *out is NULL when none exists; *missing is the index of the first gmon
 * file without one, or n.  0, or -1 when a sidecar cannot be read or
 * merged (e.g. another binary's).
 */
int callpath_sum_read(char *const *gmon_files, size_t n, struct sidecar **out,
		      size_t *missing);

/*
 * `gprof -s`: when every gmon file has a sidecar, write their sum to
 * `out_path` atomically.  When none has one, do nothing (a program not
 * linked with libcallpath).  When only some have one, warn and write
 * nothing: a sum of some files would not match the gmon sum of all.
 * 0, or -1 on unreadable input or a failed write.
 */
int callpath_sum_write(char *const *gmon_files, size_t n, const char *out_path);

#endif
