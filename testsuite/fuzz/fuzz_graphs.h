#ifndef EGPROF_FUZZ_GRAPHS_H
#define EGPROF_FUZZ_GRAPHS_H
/*
 * The set-up of the harnesses of our graph writers (fuzz_writers.c,
 * fuzz_names.c): besides stdio's stderr (fuzz.h), libxml2 and cgraph print
 * their own complaints about what they read back, which are the harness's
 * to judge, not to print.
 */
#include <graphviz/cgraph.h>
#include <libxml/parser.h>
#include "testsuite/fuzz/fuzz.h"

static inline void fuzz_xml_quiet(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

/* The LLVMFuzzerInitialize of a graph writer's harness. */
#define FUZZ_GRAPHS_INITIALIZE \
	int LLVMFuzzerInitialize(int *argc, char ***argv) \
	{ \
		(void)argc; \
		(void)argv; \
		fuzz_quiet(); \
		xmlSetGenericErrorFunc(NULL, fuzz_xml_quiet); \
		agseterr(AGMAX); \
		return 0; \
	}

#endif
