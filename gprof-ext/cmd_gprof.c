/*
 * gprof with extensions on a single profile: upstream prints exactly what
 * it always prints, then, with its state still in this process, we write
 * the graph files and the call-path profile the options ask for.
 */
#include <stdio.h>
#include <stdlib.h>
#include "gprof-ext/commands.h"
#include "gprof-ext/upstream.h"
#include "diff/profile.h"
#include "gml/graph_cli.h"
#include "callpath/cmd_callpath.h"
#include "utils/error.h"
#include "utils/banned.h"

int cmd_gprof(struct egprof_opts *o)
{
	struct profile *p = NULL;
	int status;

	status = upstream_main(o->argc, o->argv);
	if (status != 0)
		return status;
	fflush(stdout);
	if (upstream_current_profile(&p) < 0)
		return 1;
	/* Exports and call-path reports are added here by their modules. */
	if (graph_export_profile_cli(o, p) < 0)
		status = 1;
	/* call paths: --callpath[=FILE], --folded FILE (callpath/cmd_callpath.h) */
	if (callpath_cmd_gprof(o, p) != 0)
		status = 1;
	profile_free(p);
	return status;
}
