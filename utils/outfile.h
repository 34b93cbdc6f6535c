#ifndef EGPROF_OUTFILE_H
#define EGPROF_OUTFILE_H
/*
 * Output files written atomically: outfile_open() creates a temporary file in
 * the destination's folder; outfile_commit() flushes, fsyncs and renames it
 * over the destination; outfile_abort() removes it.  A reader never sees a
 * half-written file and a failed run leaves no file behind.
 *
 *   struct outfile of;
 *   if (outfile_open(&of, "out.gml") < 0) return -1;
 *   fprintf(of.fp, ...);
 *   return ok ? outfile_commit(&of) : (outfile_abort(&of), -1);
 *
 * The struct owns fp and both paths until commit or abort releases them.
 */
#include <stdio.h>

struct outfile {
	FILE *fp;
	char *path;     /* destination */
	char *tmp_path; /* where we write until commit */
};

int outfile_open(struct outfile *of, const char *path);
int outfile_commit(struct outfile *of);
void outfile_abort(struct outfile *of);

/* For writers that open the file by name themselves (libxml2, cgraph): a
 * temporary name in the destination's folder, to rename with
 * outfile_rename_into_place().  Returns a malloc'd string or NULL. */
char *outfile_temp_name(const char *path);
int outfile_rename_into_place(const char *tmp_path, const char *path);

#endif
