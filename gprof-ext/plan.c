/*
 * The output plan (commands.h): which files a command reads and which it
 * writes, from the command line alone, before anything runs.  A path the
 * command will reject (missing, unreadable) is still planned: the command
 * reports it in its own words.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "format/sidecar.h"
#include "gprof-ext/cmdline.h"
#include "gprof-ext/commands.h"
#include "gprof-ext/input_check.h"
#include "gprof-ext/operands.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/banned.h"

/* A gmon file and the sidecar a call-path report or -s would read. */
static int plan_gmon(struct outset *set, const char *gmon)
{
	char sidecar[4096];

	if (outset_input(set, gmon) < 0)
		return -1;
	if (sidecar_name_for(gmon, sidecar, sizeof(sidecar)) < 0)
		return 0; /* too long to exist; the reader says so */
	return outset_input(set, sidecar);
}

/* A GMON operand: the file, or each gmon file of a directory (the
 * directory's own problems are the command's to report). */
static int plan_gmon_operand(struct outset *set, const char *operand)
{
	char **files;
	size_t n, i;
	int ret = 0;

	if (!gmon_operand_is_dir(operand))
		return plan_gmon(set, operand);
	if (gmon_operand_expand_quiet(operand, &files, &n) < 0)
		return 0;
	for (i = 0; i < n && ret == 0; i++)
		ret = plan_gmon(set, files[i]);
	operands_free(files, n);
	return ret;
}

static int plan_inputs(const struct egprof_opts *o, const struct cmdline *cl,
		       struct outset *set)
{
	size_t i;

	if (o->callpath_file && outset_input(set, o->callpath_file) < 0)
		return -1;
	if (o->mode == MODE_DIFF) {
		/* APP1 GMON1 APP2 GMON2, or APP GMON1 GMON2 */
		for (i = 0; i < cl->noperands; i++) {
			int is_app = i == 0 || (cl->noperands == 4 && i == 2);

			if (is_app ? outset_input(set, cl->operands[i]) < 0
				   : plan_gmon_operand(set, cl->operands[i]) < 0)
				return -1;
		}
		return 0;
	}
	/* gprof: the image (a.out without operands), then gmon files
	 * (gmon.out without any) */
	if (outset_input(set, cl->noperands ? cl->operands[0] : "a.out") < 0)
		return -1;
	if (cl->noperands < 2)
		return plan_gmon(set, "gmon.out");
	for (i = 1; i < cl->noperands; i++)
		if (plan_gmon_operand(set, cl->operands[i]) < 0)
			return -1;
	return 0;
}

/*
 * An output can be written where it is named: its folder exists and takes
 * a new file (a regular file is written beside itself and renamed in), or
 * it is a device or FIFO that opens for writing.  Checked with the plan, so
 * that a typo in a folder name fails at once, not after the analysis.
 */
static int check_writable(const char *path, const char *what)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (!strcmp(path, "-"))
		return 0;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return error("%s: is a directory (%s needs a file name, e.g. "
				     "'%s/out')", path, what, path);
		if (!S_ISREG(st.st_mode))
			return access(path, W_OK) == 0 ? 0 :
			       error("%s: cannot write (%s): %s", path, what, strerror(errno));
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else if (snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path) >= (int)sizeof(dir))
		return 0; /* too long to exist: the writer says so */
	if (stat(dir, &st) < 0)
		return error("%s: cannot write (%s): no folder '%s' (create it first, "
			     "or name another)", path, what, dir);
	if (!S_ISDIR(st.st_mode))
		return error("%s: cannot write (%s): '%s' is not a folder", path, what, dir);
	if (access(dir, W_OK | X_OK) != 0)
		return error("%s: cannot write (%s): folder '%s': %s", path, what, dir,
			     strerror(errno));
	return 0;
}

static int plan_output(struct outset *set, const char *path, const char *what)
{
	if (!path)
		return 0;
	if (check_writable(path, what) < 0)
		return -1;
	return outset_output(set, path, what);
}

/* What an operand is, for --diff's order: a directory or a pattern of gmon
 * files counts as gmon files. */
static enum file_kind operand_kind(const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return KIND_GMON;
	if (stat(path, &st) < 0 && strpbrk(path, "*?["))
		return KIND_GMON;
	return input_file_kind(path);
}

/*
 * --diff's operands in the wrong order: a program where a gmon file
 * belongs, or the reverse.  Said in those words, with the command line
 * that was probably meant, before anything is read (the loaders would say
 * "not a gmon file" of a program).  Operands that are neither are left to
 * the command, which names what is wrong with them.
 */
static int check_diff_order(const struct cmdline *cl, const char *argv0)
{
	static const char form[] = "--diff takes APP1 GMON1 APP2 GMON2, or APP GMON1 GMON2";
	enum file_kind k[4];
	char *const *op = cl->operands;
	size_t i, n = cl->noperands;

	if (n != 3 && n != 4)
		return 0;
	for (i = 0; i < n; i++)
		k[i] = operand_kind(op[i]);
	if (n == 4 && k[0] == KIND_GMON && k[1] == KIND_ELF && k[2] == KIND_GMON &&
	    k[3] == KIND_ELF)
		return error("did you swap APP and GMON? '%s' and '%s' are gmon files, "
			     "'%s' and '%s' programs: %s (%s --diff %s %s %s %s)", op[0], op[2],
			     op[1], op[3], form, argv0, op[1], op[0], op[3], op[2]);
	if (n == 4 && k[0] == KIND_ELF && k[1] == KIND_ELF && k[2] == KIND_GMON &&
	    k[3] == KIND_GMON)
		return error("both programs come first here: %s (%s --diff %s %s %s %s)",
			     form, argv0, op[0], op[2], op[1], op[3]);
	if (n == 3 && k[0] == KIND_GMON && k[1] == KIND_ELF)
		return error("did you swap APP and GMON? '%s' is a gmon file and '%s' a "
			     "program: %s (%s --diff %s %s %s)", op[0], op[1], form, argv0,
			     op[1], op[0], op[2]);
	if (n == 3 && k[0] == KIND_GMON && k[2] == KIND_ELF)
		return error("the program comes first: %s (%s --diff %s %s %s)", form,
			     argv0, op[2], op[0], op[1]);
	for (i = 0; i < n; i++) {
		int is_app = i == 0 || (n == 4 && i == 2);

		if (is_app && k[i] == KIND_GMON)
			return error("'%s' is %s where --diff expects a program: %s", op[i],
				     gmon_operand_is_dir(op[i]) ? "a folder of gmon files" :
				     "a gmon file", form);
		if (!is_app && k[i] == KIND_ELF)
			return error("'%s' is a program where --diff expects a gmon file: %s",
				     op[i], form);
	}
	return 0;
}

/* Every gmon file of a GMON operand has its sidecar, or the first that
 * lacks one is named with what to do (before upstream prints anything). */
static int need_sidecars(const char *operand)
{
	char **files, name[4096];
	size_t n, i;
	int ret = 0;

	if (gmon_operand_expand_quiet(operand, &files, &n) < 0)
		return 0; /* the command says what is wrong with the operand */
	for (i = 0; i < n && ret == 0; i++) {
		struct stat st;

		if (sidecar_name_for(files[i], name, sizeof(name)) < 0 || stat(files[i], &st) < 0)
			continue;
		if (access(name, F_OK) != 0)
			ret = error("%s: %s (run the program with libcallpath to record call "
				    "paths: LD_PRELOAD=libcallpath.so.1 ./PROGRAM, or link "
				    "with -lcallpath)", name, strerror(ENOENT));
	}
	operands_free(files, n);
	return ret;
}

/* The call-path reports read the sidecars of every gmon file (an explicit
 * --callpath=FILE aside): gprof's --callpath, --folded, --folded-calls and
 * --flamegraph, and --diff --callpath and --flamegraph (a diff's folded
 * files are left out, with a warning, when a side has none; its flame
 * graph, a picture of the paths alone, is refused: gmon.out's call graph
 * holds no stacks to draw). */
static int check_sidecars(const struct egprof_opts *o, const struct cmdline *cl)
{
	size_t i, first = o->mode == MODE_DIFF ? 0 : 1;

	if (o->callpath_file)
		return 0; /* the sidecar named is the one read */
	if (o->mode == MODE_GPROF
	    ? !((o->callpath && !o->callpath_file) || o->folded_path || o->folded_calls_path ||
		o->flamegraph_path)
	    : o->mode != MODE_DIFF || !(o->callpath || o->flamegraph_path) || o->callpath_file)
		return 0;
	if (o->mode == MODE_GPROF && cl->noperands < 2)
		return need_sidecars("gmon.out");
	for (i = first; i < cl->noperands; i++) {
		int is_app = o->mode == MODE_DIFF && (i == 0 || (cl->noperands == 4 && i == 2));

		if (!is_app && need_sidecars(cl->operands[i]) < 0)
			return -1;
	}
	return 0;
}

int plan_outputs(const struct egprof_opts *o, struct outset *set)
{
	struct cmdline cl;
	size_t i;
	int ret = -1, sum = 0;

	/* a command line upstream refuses is upstream's to report */
	if (cmdline_split_quiet(&cl, o->argc, o->argv) < 0)
		return 0;
	for (i = 0; i < cl.nopts; i++)
		sum |= cl.opts[i].val == 's';
	if (plan_inputs(o, &cl, set) < 0)
		goto out;
	if (o->mode == MODE_DIFF && check_diff_order(&cl, o->argv[0]) < 0)
		goto out;
	if (plan_output(set, o->gml_path, "--gml") < 0 ||
	    plan_output(set, o->dot_path, "--dot") < 0 ||
	    plan_output(set, o->graphml_path, "--graphml") < 0 ||
	    plan_output(set, o->folded_path, "--folded") < 0 ||
	    plan_output(set, o->folded_calls_path, "--folded-calls") < 0 ||
	    plan_output(set, o->flamegraph_path, "--flamegraph") < 0 ||
	    plan_output(set, o->svg_path, "--svg") < 0 ||
	    plan_output(set, o->png_path, "--png") < 0 ||
	    plan_output(set, o->pprof_path, "--pprof") < 0 ||
	    plan_output(set, o->html_path, "--html") < 0)
		goto out;
	if (check_sidecars(o, &cl) < 0)
		goto out;
	if (sum && o->mode == MODE_GPROF &&
	    (outset_output_rereads(set, "gmon.sum", "-s") < 0 ||
	     outset_output_rereads(set, "gmon.sum" SIDECAR_SUFFIX, "-s") < 0))
		goto out;
	ret = outset_check(set);
out:
	cmdline_release(&cl);
	return ret;
}

int plan_check_plain(const struct egprof_opts *o)
{
	struct outset set = OUTSET_INIT;
	int ret = plan_outputs(o, &set);

	outset_release(&set);
	return ret;
}
