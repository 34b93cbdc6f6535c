/*
 * Opening our input files (infile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "utils/infile.h"
#include "utils/bigalloc.h"
#include "utils/banned.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

const char *infile_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISFIFO(m))
		return "a FIFO or pipe";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a file";
}

int infile_open(const char *path, uint64_t *size, char *err, size_t errlen)
{
	struct stat st;
	int fd;

	/* O_NONBLOCK: opening a FIFO without a writer must not wait; it is
	 * refused below anyway */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return fail(err, errlen, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		return fail(err, errlen, "%s: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return fail(err, errlen, "%s: not a regular file (%s)",
			    path, infile_kind(st.st_mode));
	}
	/* regular files never block; reads after this are ordinary */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	if (size)
		*size = (uint64_t)st.st_size;
	return fd;
}

FILE *infile_fopen(const char *path, char *err, size_t errlen)
{
	int fd = infile_open(path, NULL, err, errlen);
	FILE *f;

	if (fd < 0)
		return NULL;
	if (!(f = fdopen(fd, "rb"))) {
		fail(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

int infile_read_all(const char *path, unsigned char **bufp, size_t *lenp,
		    char *err, size_t errlen)
{
	uint64_t size;
	unsigned char *buf;
	size_t len = 0;
	int fd;

	*bufp = NULL;
	*lenp = 0;
	fd = infile_open(path, &size, err, errlen);
	if (fd < 0)
		return -1;
	if (size >= SIZE_MAX) {
		close(fd);
		return fail(err, errlen, "%s: too large", path);
	}
	buf = bigalloc((size_t)size + 1);
	if (!buf) {
		close(fd);
		return fail(err, errlen, "%s: out of memory", path);
	}
	while (len < size) {
		ssize_t n = read(fd, buf + len, (size_t)size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			close(fd);
			return fail(err, errlen, "%s: %s", path, strerror(e));
		}
		if (n == 0)
			break; /* shrank while we read: what is there */
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

void *infile_read_range(FILE *f, uint64_t off, uint64_t len)
{
	void *p;

	if (len > (1u << 30) || off > (uint64_t)INT64_MAX)
		return NULL;
	p = malloc(len ? len : 1);
	if (p && (fseeko(f, (off_t)off, SEEK_SET) || fread(p, 1, len, f) != len)) {
		free(p);
		p = NULL;
	}
	return p;
}
