#ifndef EGPROF_FUZZ_COUNT_STREAM_H
#define EGPROF_FUZZ_COUNT_STREAM_H
/*
 * A stream that counts what is written to it and keeps nothing, for the
 * harnesses that print whole reports (fuzz_reports, fuzz_pathdiff): their
 * size is a property, their text is not.  Needs _GNU_SOURCE (fopencookie)
 * before the first #include of the harness.
 *
 *   size_t n;  FILE *out = count_stream(&n);  ... fclose(out);  n bytes
 */
#include <stdio.h>
#include <sys/types.h>

static ssize_t count_stream_write(void *ctx, const char *buf, size_t n)
{
	(void)buf;
	*(size_t *)ctx += n;
	return (ssize_t)n;
}

static FILE *count_stream(size_t *n)
{
	cookie_io_functions_t io = { NULL, count_stream_write, NULL, NULL };

	*n = 0;
	return fopencookie(n, "w", io);
}

#endif
