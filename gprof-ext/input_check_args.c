/*
 * The files upstream's main opens for a gprof command line, checked
 * (input_check.h).  Apart from input_check.c because it reads the command
 * line with upstream's own option table.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "gprof-ext/input_check.h"
#include "gprof-ext/gmon_check.h"
#include "gprof-ext/gmon_owner.h"
#include "gprof-ext/cmdline.h"
#include "utils/error.h"
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

enum file_kind input_file_kind(const char *path)
{
	unsigned char m[4];
	struct stat st;
	FILE *fp;
	size_t n;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || !(fp = fopen(path, "rb")))
		return KIND_OTHER;
	n = fread(m, 1, sizeof(m), fp);
	fclose(fp);
	if (n == 4 && !memcmp(m, "\x7f" "ELF", 4))
		return KIND_ELF;
	if (n == 4 && !memcmp(m, "gmon", 4))
		return KIND_GMON;
	return KIND_OTHER;
}

void input_warn_plain(int argc, char **argv)
{
	struct cmdline cl;
	struct gmon_image img;
	const char *image;
	size_t i, ngmon;
	char *const *gmon;
	static char *const dflt[] = { (char *)"gmon.out" };

	if (cmdline_split_quiet(&cl, argc, argv) < 0)
		return;
	for (i = 0; i < cl.nopts; i++)
		if (cl.opts[i].val == 'v' || cl.opts[i].val == 'h')
			goto out; /* upstream opens no file */
	image = cl.noperands ? cl.operands[0] : "a.out";
	gmon = cl.noperands > 1 ? cl.operands + 1 : dflt;
	ngmon = cl.noperands > 1 ? cl.noperands - 1 : 1;
	if (gmon_image_read(image, &img) < 0)
		goto out;
	/* one line: the first gmon file that does not belong says it all */
	for (i = 0; i < ngmon; i++) {
		char why[256];

		if (gmon_owner_why(&img, gmon[i], why, sizeof(why)) == 1) {
			warning("%s: does not belong to '%s': %s; the profile below is "
				"probably wrong (a gmon file of another program or build)",
				gmon[i], image, why);
			break;
		}
	}
	gmon_image_release(&img);
out:
	cmdline_release(&cl);
}
