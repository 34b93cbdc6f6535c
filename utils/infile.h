#ifndef EGPROF_INFILE_H
#define EGPROF_INFILE_H
/*
 * Opening our input files: the one place that decides what a reader of
 * ours accepts, so no reader can be fed an endless file.
 *
 * Only regular files are read (symlinks to them too).  A device (/dev/zero
 * never ends), a FIFO or process substitution (as endless as its writer),
 * a directory or a socket is refused at once, as stock gprof refuses them,
 * with "cannot read 'PATH': not a regular file (a character device)".  A
 * regular file is read up to the size it had when opened, so a file still
 * growing cannot keep a reader going either.
 *
 * No error() here: the call-path runtime links this too (through
 * format/sidecar.c), so messages go into the caller's buffer, naming the
 * file, in our usual form "cannot read 'x': why".
 *
 *   int fd = infile_open(path, &size, err, sizeof(err));   fd or -1
 *   infile_read_all(path, &buf, &len, err, sizeof(err));    malloc'd *buf
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

int infile_open(const char *path, uint64_t *size, char *err, size_t errlen);
/* The whole file in a malloc'd buffer (one spare NUL byte after it, so
 * text can be parsed in place).  0, or -1 with *buf NULL. */
int infile_read_all(const char *path, unsigned char **buf, size_t *len,
		    char *err, size_t errlen);
/* The same as a stdio stream ("rb"), for readers that seek (ELF files):
 * NULL when it cannot be opened or is not a regular file (err says why). */
FILE *infile_fopen(const char *path, char *err, size_t errlen);
/* `len` bytes at offset `off` of a stream opened so (an ELF file's
 * section headers, symbol and string tables), in a malloc'd buffer (1
 * byte for 0); NULL when out of memory, when the stream ends before, or
 * when len is over 1 GiB: no table of a program is, a corrupt header's
 * is. */
void *infile_read_range(FILE *f, uint64_t off, uint64_t len);
/* What a file that is not a regular one is, for those messages: "a
 * directory", "a character device", "a FIFO or pipe"... */
const char *infile_kind(mode_t mode);

#endif
