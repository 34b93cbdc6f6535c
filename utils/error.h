#ifndef EGPROF_ERROR_H
#define EGPROF_ERROR_H
/*
 * Error reporting for library code (git's error()): print
 * "<program>: <message>" on stderr and return -1, so a caller can write
 * `return error("cannot read '%s': %s", path, why);`.  Only main() decides to
 * exit.  The program name is set once by main() with error_set_program().
 *
 * One format, gprof's: a message about a file names the file first,
 * "<program>: FILE: reason" (error("%s: %s", path, strerror(errno)) prints
 * "gprof: gmon.3.out: No such file or directory"); other messages say what
 * is wrong first, the subject in quotes ("option '--noise' needs ...").
 */
#include <stdarg.h>

void error_set_program(const char *name);
const char *error_program(void);

int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int verror(const char *fmt, va_list ap);
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
