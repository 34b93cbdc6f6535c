/*
 * The output plan (commands.h): which files a command reads and which it
 * writes, from the command line alone, before anything runs.  A path the
 * command will reject (missing, unreadable) is still planned: the command
 * reports it in its own words.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "callpath/sidecar.h"
#include "gprof-ext/cmdline.h"
#include "gprof-ext/commands.h"
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
	if ((o->gml_path && outset_output(set, o->gml_path, "--gml") < 0) ||
	    (o->dot_path && outset_output(set, o->dot_path, "--dot") < 0) ||
	    (o->graphml_path && outset_output(set, o->graphml_path, "--graphml") < 0) ||
	    (o->folded_path && outset_output(set, o->folded_path, "--folded") < 0) ||
	    (o->folded_calls_path &&
	     outset_output(set, o->folded_calls_path, "--folded-calls") < 0) ||
	    (o->svg_path && outset_output(set, o->svg_path, "--svg") < 0) ||
	    (o->png_path && outset_output(set, o->png_path, "--png") < 0) ||
	    (o->pprof_path && outset_output(set, o->pprof_path, "--pprof") < 0) ||
	    (o->html_path && outset_output(set, o->html_path, "--html") < 0))
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
