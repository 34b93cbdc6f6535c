#ifndef EGPROF_GMON_OWNER_H
#define EGPROF_GMON_OWNER_H
/*
 * Does a gmon file belong to a binary?  Upstream gprof reads any gmon file
 * with any binary, and with PIE every histogram starts near 0, so a profile
 * of another program (or of another build of this one) silently turns into
 * plausible numbers under the wrong names.  The commands that compare or
 * draw profiles (--diff, --rank-stats, the graph exports) check each file
 * before upstream reads it; plain `gprof app gmon` does not (it stays GNU
 * gprof), and --force skips the check.
 *
 * The evidence, from the file alone:
 *  - the histogram: glibc writes the range [__executable_start, etext]
 *    rounded to 4 bytes; a file whose range starts where the binary's text
 *    starts must end where it ends, and any range must lie inside the
 *    binary's text (crafted files cover a part of it);
 *  - the arcs: mcount records the callee's address just after the call in
 *    its prologue, so every selfpc lies a few bytes after a function entry;
 *    when more than a tenth of the arcs do not, the functions are not where
 *    the file's program had them;
 *  - the sidecar beside it (libcallpath's gmon.out.callpath), when there is
 *    one, records the build-id of the program that wrote both.
 *
 *   struct gmon_image img = { ... from the binary ... };
 *   if (gmon_owner_check(&img, "gmon.out") < 0) ... reported, naming both files
 */
#include <stddef.h>
#include <stdint.h>

struct gmon_image {
	const char *binary;        /* for messages */
	uint64_t text_lo, text_hi; /* __executable_start (or the text
				      section's start) and etext */
	const uint64_t *entry;     /* function entry addresses, ascending */
	size_t nentry;
	int sidecar_elsewhere;     /* the caller checks the sidecars' build-id
				      when it reads them: not read here */
};

/* 0, or -1 (reported) when gmon does not belong to the image or cannot be
 * read; a file that is not a gmon file is left to upstream's reader. */
int gmon_owner_check(const struct gmon_image *img, const char *gmon);

#endif
