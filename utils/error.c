#include <stdio.h>
#include <string.h>
#include "utils/error.h"
#include "utils/banned.h"

/* The one piece of process-wide state outside the upstream adapter: the name
 * messages start with, as gprof's own messages start with argv[0]. */
static const char *program_name = "gprof";

void error_set_program(const char *name)
{
	if (name && *name)
		program_name = name;
}

const char *error_program(void)
{
	return program_name;
}

int verror(const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", program_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	return -1;
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	fprintf(stderr, "%s: warning: ", program_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}
