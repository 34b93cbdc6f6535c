#ifndef EGPROF_GMON_OWNER_H
#define EGPROF_GMON_OWNER_H
/*
 * Does a gmon file belong to a binary?  Upstream gprof reads any gmon file
 * with any binary, and with PIE every histogram starts near 0, so a profile
 * of another program (or of another build of this one) silently turns into
 * plausible numbers under the wrong names.  The commands that compare or
 * draw profiles (--diff, --rank-stats, the graph exports) check each file
 * before upstream reads it and refuse a foreign one; plain `gprof app gmon`
 * prints what upstream prints and warns, one line on stderr (from the
 * binary's own ELF symbols: gmon_image_read), and --force skips the check.
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
 *    one and it was written with this gmon file (its identity), records
 *    the build-id of the program that wrote both.
 *
 *   struct gmon_image img = { ... from the binary ... };
 *   if (gmon_owner_check(&img, "gmon.out") < 0) ... reported, naming both files
 */
#include <stddef.h>
#include <stdint.h>

struct gmon_image {
	const char *binary;        /* for messages */
	uint64_t text_lo, text_hi; /* __executable_start (or the text
				      section's start) and etext; text_hi 0:
				      no range check */
	const uint64_t *entry;     /* function entry addresses, ascending */
	size_t nentry;
	uint64_t *owned;           /* gmon_image_read's entries */
	int sidecar_elsewhere;     /* the caller checks the sidecars' build-id
				      when it reads them: not read here */
};

/* 0, or -1 (reported) when gmon does not belong to the image or cannot be
 * read; a file that is not a gmon file is left to upstream's reader. */
int gmon_owner_check(const struct gmon_image *img, const char *gmon);

/* The same without a word: 1 when gmon does not belong (why says how, in
 * a clause: "its histogram covers ..."), 0 when it does or nothing can
 * tell, -1 when it cannot be read. */
int gmon_owner_why(const struct gmon_image *img, const char *gmon, char *why, size_t n);

/* The image's facts from its ELF64 symbol table (no BFD: plain gprof's
 * check runs before upstream opens the binary).  0, or -1 when it is not
 * an ELF64 file that can be read (the image is then empty: no check);
 * release with gmon_image_release. */
int gmon_image_read(const char *binary, struct gmon_image *img);
void gmon_image_release(struct gmon_image *img);

#endif
