#ifndef EGPROF_PRINTABLE_H
#define EGPROF_PRINTABLE_H
/*
 * Names as text every file format of ours can carry.  Symbol and file
 * names are any bytes but NUL; our files are read by parsers that are not
 * so lenient (XML 1.0 forbids most control characters even as entities,
 * a newline ends a folded stack, dot warns on bad UTF-8).  Printable text
 * is valid UTF-8 of the characters XML 1.0 allows, without control
 * characters but tab; every other byte is shown as the four characters
 * \xNN, so names stay distinct and readable.  Each writer then needs only
 * its format's own quoting.
 */
#include <stddef.h>

/* Length of the printable character at s (1 to 4), 0 when s[0] must be
 * shown as \xNN.  s is NUL-terminated. */
size_t printable_char(const unsigned char *s);
/* *s made printable in place: replaced by a new malloc'd string when it
 * has to change (the old one freed).  0, or -1 when out of memory (*s is
 * unchanged).  NULL stays NULL. */
int printable_fix(char **s);

#endif
