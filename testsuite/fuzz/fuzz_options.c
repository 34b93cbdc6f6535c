/*
 * Option parsing (gprof-ext/options.c, gprof-ext/cmdline.c): argv is the
 * input split at NUL bytes.  Parsing never crashes; what is left for
 * upstream is the input minus our options, in order (argv[0] first); the
 * split into upstream's options and operands accounts for every element.
 * Upstream's real option table is linked in (gprof-ext/upstream.c):
 * abbreviations and unknown names are resolved against both tables.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gprof-ext/cmdline.h"
#include "gprof-ext/options.h"
#include "gprof-ext/upstream.h"
#include "testsuite/fuzz/fuzz.h"

#define MAX_ARGS 64

FUZZ_QUIET_INITIALIZE

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1);
	char *argv[MAX_ARGS + 2];
	int argc = 0, i, j;
	size_t k, start = 0;
	struct egprof_opts o;
	struct cmdline cl;
	static char arg0[] = "gprof";
	static const struct option *longopts;
	const char *optstring;

	fuzz_assert(copy != NULL);
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[argc++] = arg0;
	for (k = 0; k <= size && argc <= MAX_ARGS; k++)
		if (k == size || copy[k] == '\0') {
			argv[argc++] = copy + start;
			start = k + 1;
		}
	argv[argc] = NULL;

	/* upstream's table read once, in this process (options_parse would
	 * fork a child per input to read it) */
	if (!longopts)
		fuzz_assert(upstream_option_spec(&optstring, &longopts) == 0);
	options_init(&o);
	if (options_parse_with(&o, argc, argv, longopts) == 0) {
		/* upstream's argv is a subsequence of ours, argv[0] first */
		fuzz_assert(o.argc >= 1 && o.argc <= argc && o.argv[0] == argv[0]);
		for (i = 1, j = 1; i < o.argc; i++) {
			while (j < argc && argv[j] != o.argv[i])
				j++;
			fuzz_assert(j < argc);
			j++;
		}
		if (cmdline_split_quiet(&cl, o.argc, o.argv) == 0) {
			fuzz_assert(cl.nargs + cl.noperands <= (size_t)o.argc);
			for (k = 0; k < cl.nopts; k++)
				fuzz_assert(cl.opts[k].argi >= 1 && cl.opts[k].argi < o.argc);
			cmdline_release(&cl);
		}
	}
	options_release(&o);
	free(copy);
	return 0;
}
