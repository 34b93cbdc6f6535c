/*
 * Plain gprof, plus one thing for rank files: `gprof -s` also sums the
 * call-path sidecars of its inputs into gmon.sum.callpath.
 *
 * Upstream's -s must stay byte for byte what it is, so when the inputs have
 * no sidecar (always, for programs not linked with libcallpath) this is
 * upstream_main and nothing else.  With sidecars, upstream runs in a child
 * (same stdout, stderr and exit status); only when it succeeded, and so
 * wrote gmon.sum, do we write the sidecar sum beside it.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "callpath/sidecar.h"
#include "diff/ranks.h"
#include "gprof-ext/commands.h"
#include "gprof-ext/upstream.h"
#include "utils/error.h"
#include "utils/banned.h"

#define SUM_NAME "gmon.sum" /* upstream's GMONSUM */

/*
 * Does this command line ask upstream for -s, and which are its gmon files?
 * Parsed as upstream will (its own tables), silently: anything odd is left
 * for upstream to report.  *gmons points into `copy`, which the caller frees.
 */
static int wants_sum(int argc, char **argv, char ***copyp, char ***gmons, size_t *ngmon)
{
	static char default_gmon[] = "gmon.out";
	static char *default_list[] = { default_gmon };
	const char *optstring;
	const struct option *longopts;
	char **copy;
	int c, sum = 0, saved_opterr = opterr;

	*copyp = NULL;
	if (upstream_option_spec(&optstring, &longopts) < 0)
		return 0;
	copy = calloc((size_t)argc + 1, sizeof(char *));
	if (!copy)
		return 0;
	memcpy(copy, argv, (size_t)argc * sizeof(char *));
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, copy, optstring, longopts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			sum = 0;
			break;
		}
		if (c == 's')
			sum = 1;
	}
	opterr = saved_opterr;
	if (sum) {
		/* Operands: the image, then gmon files (gmon.out when none). */
		if (argc - optind >= 2) {
			*gmons = copy + optind + 1;
			*ngmon = (size_t)(argc - optind - 1);
		} else {
			*gmons = default_list;
			*ngmon = 1;
		}
	}
	optind = 0; /* a fresh getopt session for upstream */
	*copyp = copy;
	return sum;
}

static int any_sidecar(char *const *gmons, size_t n)
{
	char path[4096];
	struct stat st;
	size_t i;

	for (i = 0; i < n; i++)
		if (sidecar_name_for(gmons[i], path, sizeof(path)) >= 0 &&
		    stat(path, &st) == 0 && S_ISREG(st.st_mode))
			return 1;
	return 0;
}

int cmd_sum(struct egprof_opts *o)
{
	char **copy = NULL, **gmons = NULL;
	size_t ngmon = 0;
	int status;
	pid_t pid;

	if (!wants_sum(o->argc, o->argv, &copy, &gmons, &ngmon) ||
	    !any_sidecar(gmons, ngmon)) {
		free(copy);
		return upstream_main(o->argc, o->argv);
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		free(copy);
		return error("cannot fork: %s", strerror(errno)) ? 1 : 1;
	}
	if (pid == 0)
		exit(upstream_main(o->argc, o->argv));
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			free(copy);
			return error("cannot wait for gprof: %s", strerror(errno)) ? 1 : 1;
		}
	if (WIFSIGNALED(status)) {
		free(copy);
		signal(WTERMSIG(status), SIG_DFL);
		raise(WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	status = WEXITSTATUS(status);
	if (status == 0 &&
	    ranks_write_sidecar_sum(gmons, ngmon, SUM_NAME SIDECAR_SUFFIX) < 0)
		status = 1;
	free(copy);
	return status;
}
