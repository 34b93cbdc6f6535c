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
static int split(struct cmdline *cl, int argc, char **argv, int quiet)
{
	const char *optstring;
	const struct option *longopts;
	char **copy;
	int c, longind, saved_opterr = opterr;
	size_t nmax = 1;

	memset(cl, 0, sizeof(*cl));
	if (upstream_option_spec(&optstring, &longopts) < 0)
		return -1;
	copy = calloc((size_t)argc + 1, sizeof(char *));
	/* One element can hold many options ("-bbbb", "-DDz"): at most one per
	 * character after its dash. */
	for (c = 1; c < argc; c++)
		nmax += strlen(argv[c]);
	cl->opts = calloc(nmax, sizeof(*cl->opts));
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
			int ret = quiet ? -1 :
				  error("unrecognized option or missing argument near '%s'", bad);

			opterr = saved_opterr;
			optind = 0; /* leave getopt fresh for upstream */
			free(copy);
			free(cl->opts);
			memset(cl, 0, sizeof(*cl));
			return ret;
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

int cmdline_split(struct cmdline *cl, int argc, char **argv)
{
	return split(cl, argc, argv, 0);
}

int cmdline_split_quiet(struct cmdline *cl, int argc, char **argv)
{
	return split(cl, argc, argv, 1);
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

static const struct cmdline_rule *rule_of(const struct cmdline_opt *co,
					  const struct cmdline_rule *rules, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (rules[i].name ? co->name && !strcmp(co->name, rules[i].name)
				  : co->val == rules[i].val)
			return &rules[i];
	}
	return NULL;
}

int cmdline_check(const struct cmdline *cl, const char *mode,
		  const struct cmdline_rule *rules, size_t nrules,
		  const char *other_why)
{
	size_t i;

	for (i = 0; i < cl->nopts; i++) {
		const struct cmdline_rule *r = rule_of(&cl->opts[i], rules, nrules);
		char spell[64];

		if (r && !r->why)
			continue;
		return error("option '%s' cannot be used with %s (%s)",
			     cmdline_opt_spelling(&cl->opts[i], spell, sizeof(spell)),
			     mode, r ? r->why : other_why);
	}
	return 0;
}
