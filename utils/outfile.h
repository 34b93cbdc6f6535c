#ifndef EGPROF_OUTFILE_H
#define EGPROF_OUTFILE_H
/*
 * Every file egprof writes goes through this module, so one set of rules
 * holds for all of them (doc/dev/HACKING.md, "Output files"):
 *
 *  - a regular file, or a path that does not exist yet, is written to a
 *    temporary file in the same folder and renamed over it at commit: a
 *    reader never sees half a file and a failed run leaves it as it was.
 *    A symlink to a regular file is written through: its target is
 *    replaced, the symlink stays;
 *  - anything else (a device such as /dev/null or /dev/full, a FIFO,
 *    /dev/stdout, /dev/fd/N and process substitution `>(...)`) is never
 *    renamed over nor unlinked: it is opened at outfile_open() (so a bad
 *    path fails before anything is written) and written in place at commit;
 *  - "-" is standard output.
 * In place, what is written is kept in memory until commit, so a command
 * that fails writes nothing there either.  Commit checks every write, the
 * flush and the close, and names the file ("standard output" for "-").
 *
 *   struct outfile of;
 *   if (outfile_open(&of, "out.gml") < 0) return -1;
 *   fprintf(of.fp, ...);
 *   return ok ? outfile_commit(&of) : (outfile_abort(&of), -1);
 *
 * The struct owns fp and its paths until commit or abort releases them.
 *
 * A command with several outputs commits them together, only when it
 * succeeded (struct outset below); an output that names an input, or two
 * outputs that name one file, are refused before anything is written.
 */
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

enum outfile_kind {
	OUTFILE_RENAME,   /* regular or new file: temporary, renamed at commit */
	OUTFILE_IN_PLACE, /* device, FIFO, /dev/fd/N: written at commit */
	OUTFILE_STDOUT,   /* "-": our standard output stream */
};

struct outfile {
	FILE *fp;         /* write here */
	char *path;       /* as the user named it, for messages */
	char *tmp_path;   /* OUTFILE_RENAME: where we write until commit */
	char *dest;       /* OUTFILE_RENAME: what is replaced (a symlink's target) */
	enum outfile_kind kind;
	int fd;           /* OUTFILE_IN_PLACE: the open destination, else -1 */
	char *mem;        /* in place and stdout: what fp wrote (open_memstream) */
	size_t memlen;
};

int outfile_open(struct outfile *of, const char *path);
/* outfile_finish() then outfile_publish(); 0 or -1 (reported, released). */
int outfile_commit(struct outfile *of);
void outfile_abort(struct outfile *of);
/* The two halves of commit, for committing several files together:
 * finish checks and closes what was written (nothing visible changes);
 * publish renames or writes it into place.  Each releases `of` on error. */
int outfile_finish(struct outfile *of);
int outfile_publish(struct outfile *of);

/*
 * Write one output with `write_fp(fp, ctx)` (which returns 0, or -1 after a
 * failed write: it need not report it): through `set` when given (committed
 * with the set's other outputs), else committed at once.  A failure is
 * reported naming the file.  0 or -1.
 */
struct outset;
int outfile_write(struct outset *set, const char *path,
		  int (*write_fp)(FILE *fp, const void *ctx), const void *ctx);

/* "standard output" for "-", else the path quoted: for messages. */
const char *outfile_display(const char *path, char *buf, size_t len);
/* Flush standard output and report a failed write (`>/dev/full`) as
 * "cannot write standard output: ...".  0 or -1.  Every command of ours
 * calls it last. */
int outfile_close_stdout(void);

/* For writers that open the file by name themselves (libxml2, cgraph): a
 * temporary name in the destination's folder, to rename with
 * outfile_rename_into_place().  Returns a malloc'd string or NULL.
 * Only for regular destinations: prefer outfile_open(). */
char *outfile_temp_name(const char *path);
int outfile_rename_into_place(const char *tmp_path, const char *path);

/*
 * A command's outputs and inputs, planned before anything is written, and
 * its outputs committed together at the end.
 *
 *   struct outset set = OUTSET_INIT;
 *   outset_input(&set, "app"); outset_input(&set, "gmon.out"); ...
 *   outset_output(&set, "cg.dot", "--dot"); ...
 *   if (outset_check(&set) < 0) fail: nothing was written
 *   ... outset_open(&set, &of, "cg.dot") and write of->fp ...
 *   status == 0 ? outset_commit(&set) : outset_abort(&set);
 *   outset_release(&set);
 *
 * outset_check refuses an output that names an input (same device and
 * inode, or the same path once symlinks are followed, a dangling one to
 * the file it would create) and two outputs that name one file.  Only
 * outputs that would be replaced are checked: writing to a device or a
 * FIFO destroys nothing.  The set owns copies of the paths and the open
 * outfiles; outset_open's *of points into the set until commit or abort.
 */
struct outset_entry {
	char *path;        /* as named */
	char *canon;       /* absolute, symlinks resolved, a dangling one
			      followed to the name it would create */
	const char *what;  /* option or role, for messages (static) */
	dev_t dev;
	ino_t ino;
	int exists;        /* dev/ino are known */
	int replaced;      /* an output that is a regular or new file */
	int rereads;       /* an output the command may also read */
};

struct outset {
	struct outset_entry *inputs, *outputs;
	size_t ninputs, inputs_cap, noutputs, outputs_cap;
	struct outfile **open;  /* opened, not yet committed */
	size_t nopen, open_cap;
	char **removals;        /* files to remove at commit */
	size_t nremovals, removals_cap;
};
#define OUTSET_INIT { 0 }

int outset_input(struct outset *set, const char *path);
int outset_output(struct outset *set, const char *path, const char *what);
/* An output the command may legitimately read first (upstream's gprof -s
 * adds an existing gmon.sum into the new one): an input named by the same
 * name (folder resolved, last component as named) is allowed; the same
 * file named otherwise (gmon.sum a link to an input g1, or a hard link) is
 * refused as for any output. */
int outset_output_rereads(struct outset *set, const char *path, const char *what);
int outset_check(const struct outset *set);
/* Opened now, committed by outset_commit with the others. */
int outset_open(struct outset *set, struct outfile **of, const char *path);
/* A file to remove at commit, with the outputs (one an earlier run left
 * that would not match them); nothing happens if the command fails. */
int outset_remove(struct outset *set, const char *path);
/* Finish every output (checks every write), then publish them: in-place
 * outputs first (a full device fails there), renames last, then the
 * removals.  0 or -1. */
int outset_commit(struct outset *set);
void outset_abort(struct outset *set);
void outset_release(struct outset *set);

#endif
