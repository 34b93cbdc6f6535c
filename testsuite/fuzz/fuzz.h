#ifndef EGPROF_FUZZ_H
#define EGPROF_FUZZ_H
/*
 * Shared by the libFuzzer harnesses (testsuite/fuzz/fuzz_*.c, doc/dev/reliability.md).
 * Our readers report bad input with error() on stdio's stderr; a fuzzer feeds
 * millions of bad inputs, so the harnesses point stdio's stderr at /dev/null.
 * Sanitizer and libFuzzer reports write to file descriptor 2 directly and
 * still appear.  A failed property calls fuzz_fail(), which aborts: libFuzzer
 * saves the input as a crash.
 */
#include <stdio.h>
#include <stdlib.h>

static inline void fuzz_quiet(void)
{
	FILE *null = fopen("/dev/null", "w");

	if (null)
		stderr = null;
}

/* The LLVMFuzzerInitialize of a harness that needs nothing else. */
#define FUZZ_QUIET_INITIALIZE \
	int LLVMFuzzerInitialize(int *argc, char ***argv) \
	{ \
		(void)argc; \
		(void)argv; \
		fuzz_quiet(); \
		return 0; \
	}

#define fuzz_fail(what) \
	do { \
		fprintf(fdopen(2, "w"), "fuzz property failed: %s (%s:%d)\n", \
			what, __FILE__, __LINE__); \
		abort(); \
	} while (0)

#define fuzz_assert(cond) \
	do { \
		if (!(cond)) \
			fuzz_fail(#cond); \
	} while (0)

#endif
