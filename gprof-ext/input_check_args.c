/*
 * The files upstream's main opens for a gprof command line, checked
 * (input_check.h).  Apart from input_check.c because it reads the command
 * line with upstream's own option table.
 */
#include <stddef.h>
#include "gprof-ext/input_check.h"
#include "gprof-ext/gmon_check.h"
#include "gprof-ext/cmdline.h"
#include "utils/banned.h"

int input_check_cmdline(const struct cmdline *cl)
{
	const char *map = NULL, *symtab = NULL;
	size_t i;
	int ret;

	/* the last one given is the one upstream reads */
	for (i = 0; i < cl->nopts; i++) {
		if (cl->opts[i].val == 'R')
			map = cl->opts[i].arg;
		if (cl->opts[i].val == 'S')
			symtab = cl->opts[i].arg;
	}
	/* in upstream's order: the program, its map, then -S */
	ret = input_check(cl->noperands ? cl->operands[0] : "a.out", INPUT_IMAGE);
	if (ret == 0 && map)
		ret = input_check(map, INPUT_MAP);
	if (ret == 0 && symtab)
		ret = input_check(symtab, INPUT_SYMTAB);
	return ret;
}

int input_check_gprof_args(int argc, char **argv)
{
	struct cmdline cl;
	size_t i;
	int ret;

	if (cmdline_split_quiet(&cl, argc, argv) < 0)
		return 0; /* upstream reports the bad option */
	for (i = 0; i < cl.nopts; i++)
		if (cl.opts[i].val == 'v' || cl.opts[i].val == 'h') {
			cmdline_release(&cl);
			return 0; /* upstream opens no file */
		}
	ret = input_check_cmdline(&cl);
	for (i = 1; i < cl.noperands && ret == 0; i++)
		ret = gmon_check(cl.operands[i], GMON_CHECK_LIMITS);
	if (ret == 0 && cl.noperands < 2)
		ret = gmon_check("gmon.out", GMON_CHECK_LIMITS);
	cmdline_release(&cl);
	return ret;
}
