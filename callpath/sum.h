#ifndef CALLPATH_SUM_H
#define CALLPATH_SUM_H
/*
 * sum.h - the sidecars beside several gmon files as one tree.
 *
 * Used where gprof sums gmon files: a profile of several files reads their
 * sidecars summed, and `gprof -s` writes gmon.sum.callpath beside gmon.sum.
 *
 * Sidecars of one PIE program run at different load addresses: each is
 * rebased to the first one's load address before merging, so a function
 * has one address in the sum.  Sidecars with different build-ids come from
 * different binaries and are refused.
 *
 *   struct sidecar *sc;
 *   size_t missing;
 *   if (callpath_sum_read(files, n, &sc, &missing) < 0) return -1;
 *   if (!sc) ... no gmon file has a sidecar ...
 *   else if (missing != n) ... files[missing] has none, the others do ...
 *   sidecar_free(sc);
 *
 * Ownership: *out is a new tree owned by the caller.  Errors are reported
 * with error() (the reader's message names the file).
 */
#include <stddef.h>

struct sidecar;

/*
 * Read and sum the sidecars of `gmon_files` (sidecar_name_for).  *out is
 * NULL when none exists; *missing is the index of the first gmon file
 * without one, or n.  0, or -1 when a sidecar cannot be read or merged.
 */
int callpath_sum_read(char *const *gmon_files, size_t n, struct sidecar **out,
		      size_t *missing);

/*
 * Add `src` to `dst`, rebasing src's addresses to dst's load address and
 * refusing a different build-id.  `name` names src in messages.  0 or -1.
 */
int callpath_sum_add(struct sidecar *dst, const struct sidecar *src,
		     const char *name);

/*
 * `gprof -s`: when every gmon file has a sidecar, write their sum to
 * `out_path` atomically.  When none has one, do nothing; when only some
 * have one, warn and write nothing (a partial sum would not match
 * gmon.sum).  0, or -1 on unreadable input or a failed write.
 */
int callpath_sum_write(char *const *gmon_files, size_t n, const char *out_path);

#endif
