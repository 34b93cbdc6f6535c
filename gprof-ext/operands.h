#ifndef EGPROF_OPERANDS_H
#define EGPROF_OPERANDS_H
/*
 * GMON operands: a gmon file, or a directory of them (one per MPI rank or
 * per run, as GMON_OUT_PREFIX=dir/gmon leaves them).
 *
 * A directory's members are its regular files that start with gmon's magic
 * "gmon", except sums (*.sum, which would count ranks twice), sidecars
 * (*.callpath, read with their gmon files), hidden and temporary files
 * (*.tmp.*) and the runtime's snapshots (*.snapK: cumulative, they would
 * count their run again).  An operand that names no file but holds a
 * pattern character (* ? [) is matched with glob(3): the gmon files it
 * matches, snapshots included, are the set (a quoted 'run/gmon.*.snap3'
 * is every rank's third snapshot, one side of --diff).  Every other file skipped is named in a warning with the
 * reason; a file that starts like a gmon file but is shorter than its
 * header (a rank that died writing it) is an error naming it.  They are sorted by name with
 * numbers compared as numbers (gmon.9 before gmon.10), so rank order is
 * stable.  An empty directory is an error naming it.
 *
 * On success *files is a malloc'd array of *n malloc'd paths; free with
 * operands_free().
 */
#include <stddef.h>

int gmon_operand_expand(const char *operand, char ***files, size_t *n);
/* The same without a word on stderr (for looking ahead: -1 on any problem). */
int gmon_operand_expand_quiet(const char *operand, char ***files, size_t *n);
/* Every operand expanded, in order, into one array (same ownership);
 * call-path sidecars among them go with their gmon files
 * (gmon_operands_drop_sidecars() below). */
int gmon_operand_expand_all(char *const *operands, size_t noperands,
			    char ***files, size_t *n);
int gmon_operand_is_dir(const char *operand);
void operands_free(char **files, size_t n);

/*
 * Call-path sidecars among the operands (issue 14: `gprof -s app run1/gmon.*`
 * matches gmon.4181.callpath too).  A sidecar is recognised by its magic,
 * not its name, and is taken as its gmon file's sidecar, which every mode
 * finds beside the gmon file anyway: it is dropped from ops[] (compacted in
 * place, *n updated).  Its gmon file (the name without ".callpath") must be
 * among the operands, else the sidecar would be silently ignored: error.
 * Returns how many were dropped, or -1 after an error naming the file.
 */
int operand_is_sidecar(const char *path);
int gmon_operands_drop_sidecars(char **ops, size_t *n);

#endif
