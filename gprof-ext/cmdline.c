#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gprof-ext/cmdline.h"
#include "gprof-ext/upstream.h"
#include "utils/error.h"
#include "utils/banned.h"

/*
 * glibc's getopt_long with upstream's tables, on a copy of argv: it permutes
 * the copy so options and their arguments come first and operands last,
 * exactly as upstream's own parse will see them.
 */
int cmdline_split(struct cmdline *cl, int argc, char **argv)
{
	const char *optstring;
	const struct option *longopts;
	char **copy;
	int c, longind, saved_opterr = opterr;

	memset(cl, 0, sizeof(*cl));
	if (upstream_option_spec(&optstring, &longopts) < 0)
		return -1;
	copy = calloc((size_t)argc + 1, sizeof(char *));
	cl->opts = calloc((size_t)argc + 1, sizeof(*cl->opts));
	if (!copy || !cl->opts) {
		free(copy);
		free(cl->opts);
		return error("out of memory");
	}
	memcpy(copy, argv, (size_t)argc * sizeof(char *));
	opterr = 0;
	optind = 0;
	for (;;) {
		int start = optind ? optind : 1;

		longind = -1;
		c = getopt_long(argc, copy, optstring, longopts, &longind);
		if (c == -1)
			break;
		if (c == '?' || c == ':') {
			const char *bad = copy[optind > 1 ? optind - 1 : 1];
			opterr = saved_opterr;
			free(copy);
			free(cl->opts);
			memset(cl, 0, sizeof(*cl));
			return error("unrecognized option or missing argument near '%s'", bad);
		}
		cl->opts[cl->nopts].val = c;
		cl->opts[cl->nopts].name = longind >= 0 ? longopts[longind].name : NULL;
		cl->opts[cl->nopts].arg = optarg;
		cl->opts[cl->nopts].argi = start;
		cl->nopts++;
	}
	opterr = saved_opterr;
	cl->args = copy + 1;
	cl->nargs = (size_t)(optind - 1);
	cl->operands = copy + optind;
	cl->noperands = (size_t)(argc - optind);
	optind = 0; /* leave getopt fresh for upstream */
	return 0;
}

void cmdline_release(struct cmdline *cl)
{
	if (cl->args)
		free(cl->args - 1);
	free(cl->opts);
	memset(cl, 0, sizeof(*cl));
}

const char *cmdline_opt_spelling(const struct cmdline_opt *o, char *buf, size_t n)
{
	if (o->name)
		snprintf(buf, n, "--%s", o->name);
	else
		snprintf(buf, n, "-%c", o->val);
	return buf;
}
