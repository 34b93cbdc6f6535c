/*
 * egprof-record - run a program under libcallpath, as perf record and
 * uftrace record run theirs (doc/record.md, egprof-record(1)).
 *
 *   egprof-record [OPTIONS] [--] PROGRAM [ARGS...]
 *
 * It sets the runtime up in the environment of the program it starts
 * (LD_PRELOAD, GMON_OUT_PREFIX into the output directory, CALLPATH_*), so
 * that a build with -pg is instrumented and one without is sampled, each
 * process of the run writing its own pair into the directory; waits; says
 * where the profile is and the command that reads it; and exits as the
 * program did (its exit status, or the same signal).  Under an MPI
 * launcher each rank runs its own egprof-record: the files carry the rank
 * in their names, and rank 0 alone prints the summary.
 *
 * The launcher is not profiled itself (the preload is in its child's
 * environment only) and changes nothing else the program sees.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "utils/banned.h"

#ifndef EGPROF_RECORD_LIBDIR
#define EGPROF_RECORD_LIBDIR "/usr/local/lib"
#endif
#define DEFAULT_DIR "egprof.data"

/* One table drives parsing and --help. */
enum opt_id {
	O_OUTPUT = 'o', O_FREQ = 'F', O_EVENTS = 'e', O_QUIET = 'q', O_HELP = 'h',
	O_VERSION = 'V', O_CLOCK = 256, O_MODE, O_SNAPSHOT, O_SNAPSHOT_SIGNAL, O_DEPTH,
	O_RECURSION, O_RUNTIME, O_NO_ENDS,
};

struct opt {
	int id;
	const char *name;
	const char *arg;	/* NULL: no argument */
	const char *env;	/* the runtime's variable it sets, or NULL */
	const char *help;
};

static const struct opt opts[] = {
	{ O_OUTPUT, "output", "DIR", NULL,
	  "write the profiles into DIR (default\n" DEFAULT_DIR "; an earlier run's is moved to\n"
	  "DIR.old), one gmon file and sidecar a process" },
	{ O_MODE, "mode", "MODE", "CALLPATH_MODE",
	  "auto (default: -pg builds instrumented,\nothers sampled), sample or instrument" },
	{ O_FREQ, "freq", "HZ", "CALLPATH_HZ",
	  "samples a second of each thread's CPU\ntime (10 to 10000; default 1000)" },
	{ O_CLOCK, "clock", "CLOCK", "CALLPATH_CLOCK",
	  "cpu (default), or wall: also the time\nthreads spend off the CPU" },
	{ O_EVENTS, "events", "EV[@PERIOD],...", "CALLPATH_EVENTS",
	  "PAPI events counted per calling context" },
	{ O_SNAPSHOT, "snapshot", "SECONDS", "CALLPATH_SNAPSHOT",
	  "a cumulative snapshot every SECONDS" },
	{ O_SNAPSHOT_SIGNAL, "snapshot-signal", "SIGNAL", "CALLPATH_SNAPSHOT_SIGNAL",
	  "a snapshot each time SIGNAL (USR2, ...)\narrives" },
	{ O_DEPTH, "depth", "K", "CALLPATH_DEPTH", "keep the last K frames of each path" },
	{ O_RECURSION, "recursion", "HOW", "CALLPATH_RECURSION",
	  "folded (default) or full" },
	{ O_NO_ENDS, "no-ends", NULL, "CALLPATH_ENDS",
	  "write no profile when the program is killed" },
	{ O_RUNTIME, "runtime", "PATH", NULL,
	  "the libcallpath.so to preload (default:\nthe one installed with egprof-record)" },
	{ O_QUIET, "quiet", NULL, NULL, "print nothing after the run" },
	{ O_HELP, "help", NULL, NULL, "print this help and exit" },
	{ O_VERSION, "version", NULL, NULL, "print the version and exit" },
};
#define NOPTS (sizeof(opts) / sizeof(opts[0]))

static void usage(FILE *out)
{
	fputs("Usage: egprof-record [OPTIONS] [--] PROGRAM [ARGS...]\n"
	      "Run PROGRAM with the call-path runtime: a build with -pg is instrumented\n"
	      "(every call counted in its calling context), a build without it is\n"
	      "sampled (the call path of each sample, from the stack).  Every process\n"
	      "of the run writes its gmon file and sidecar into the output directory;\n"
	      "the exit status is the program's.\n\nOptions:\n", out);
	for (size_t i = 0; i < NOPTS; i++) {
		const struct opt *o = &opts[i];
		char head[64];
		const char *h = o->help, *nl;

		if (o->id < 256)
			snprintf(head, sizeof(head), "-%c, --%s%s%s", o->id, o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
		else
			snprintf(head, sizeof(head), "    --%s%s%s", o->name, o->arg ? " " : "",
				 o->arg ? o->arg : "");
		fprintf(out, "  %-28s", head);
		if (strlen(head) > 27)
			fprintf(out, "\n%30s", "");
		for (int first = 1; h; first = 0) {
			nl = strchr(h, '\n');
			fprintf(out, "%*s%.*s\n", first ? 0 : 30, "",
				(int)(nl ? (size_t)(nl - h) : strlen(h)), h);
			h = nl ? nl + 1 : NULL;
		}
		if (o->env)
			fprintf(out, "%30s(sets %s)\n", "", o->env);
	}
	fputs("\nRead the profile with the command printed at the end (doc/record.md).\n", out);
}

static int die(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "egprof-record: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return 2;
}

/* The MPI rank of this process (the launcher's variables), or -1. */
static long mpi_rank(void)
{
	static const char *const vars[] = {
		"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID",
	};

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *s = getenv(vars[i]);
		char *end;
		long v;

		if (!s || !*s)
			continue;
		errno = 0;
		v = strtol(s, &end, 10);
		if (!errno && !*end && v >= 0)
			return v;
	}
	return -1;
}

/* The runtime beside this program: the build tree's, else the installed one. */
static int find_runtime(char *out, size_t len)
{
	char self[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			if (snprintf(out, len, "%s/../callpath/libcallpath.so", self) < (int)len &&
			    access(out, R_OK) == 0)
				return 0;
		}
	}
	if (snprintf(out, len, "%s/libcallpath.so.1", EGPROF_RECORD_LIBDIR) >= (int)len)
		return -1;
	return 0;
}

/* Does `dir` hold files of an earlier run (gmon files, sidecars)? */
static int has_profiles(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d)))
		found = !strncmp(e->d_name, "gmon", 4);
	closedir(d);
	return found;
}

/*
 * An earlier run's directory becomes DIR.old, as perf record keeps
 * perf.data.old: the one before it is removed if it holds nothing but
 * profiles.  0, or 2 (said).
 */
static int keep_old(const char *dir)
{
	char old[PATH_MAX + 8];
	DIR *d;
	struct dirent *e;

	snprintf(old, sizeof(old), "%s.old", dir);
	d = opendir(old);
	if (d) {
		while ((e = readdir(d))) {
			char p[2 * PATH_MAX + 16];

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			if (strncmp(e->d_name, "gmon", 4)) {
				closedir(d);
				return die("'%s' holds files that are no profiles: remove it, or "
					   "give another --output than '%s'", old, dir);
			}
			snprintf(p, sizeof(p), "%s/%s", old, e->d_name);
			unlink(p);
		}
		closedir(d);
		if (rmdir(old) < 0)
			return die("cannot remove '%s': %s", old, strerror(errno));
	}
	if (rename(dir, old) < 0)
		return die("cannot move '%s' aside: %s", dir, strerror(errno));
	return 0;
}

/* PROGRAM as the shell would find it (for the command printed at the end). */
static void resolve(const char *prog, char *out, size_t len)
{
	const char *path = getenv("PATH");

	snprintf(out, len, "%s", prog);
	if (strchr(prog, '/') || !path)
		return;
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);
		char cand[PATH_MAX];

		if (snprintf(cand, sizeof(cand), "%.*s/%s", (int)n, n ? path : ".", prog) <
			    (int)sizeof(cand) &&
		    access(cand, X_OK) == 0) {
			snprintf(out, len, "%s", cand);
			return;
		}
		path += n + (colon ? 1 : 0);
	}
}

static volatile pid_t child;

/* Signals meant for the run go to the program. */
static void forward(int sig)
{
	if (child > 0)
		kill(child, sig);
}

/* The gmon files of this run in `dir` (written since `t0`), the first's
 * name in `first`. */
static int count_profiles(const char *dir, const char *prefix, time_t t0, char *first,
			  size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	size_t pl = strlen(prefix);

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char p[2 * PATH_MAX + 16];
		struct stat st;
		const char *tail = e->d_name + pl;

		if (strncmp(e->d_name, prefix, pl) || tail[0] != '.' || strchr(tail + 1, '.'))
			continue;	/* gmon.PID only: not sidecars, not snapshots */
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (stat(p, &st) < 0 || st.st_mtime < t0)
			continue;
		if (!n++ || strverscmp(e->d_name, first + strlen(dir) + 1) < 0)
			snprintf(first, len, "%s", p);
	}
	closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	struct option lopts[NOPTS + 1];
	char shorts[64] = "+", runtime[PATH_MAX] = "", dir[PATH_MAX] = DEFAULT_DIR;
	char absdir[PATH_MAX], prefix[PATH_MAX + 128], base[64], prog[PATH_MAX];
	char first[2 * PATH_MAX + 16] = "", *preload;
	const char *old_preload = getenv("LD_PRELOAD");
	struct sigaction ign, fwd, save_int, save_quit;
	int quiet = 0, c, status, n;
	long rank = mpi_rank();
	time_t t0 = time(NULL);
	size_t k = 1;

	for (size_t i = 0; i < NOPTS; i++) {
		lopts[i] = (struct option){ opts[i].name, opts[i].arg ? required_argument
								      : no_argument, NULL, opts[i].id };
		if (opts[i].id < 256) {
			shorts[k++] = (char)opts[i].id;
			if (opts[i].arg)
				shorts[k++] = ':';
		}
	}
	lopts[NOPTS] = (struct option){ NULL, 0, NULL, 0 };
	shorts[k] = '\0';
	while ((c = getopt_long(argc, argv, shorts, lopts, NULL)) != -1) {
		const struct opt *o = NULL;

		for (size_t i = 0; i < NOPTS; i++)
			if (opts[i].id == c)
				o = &opts[i];
		if (!o) {
			fputs("Try 'egprof-record --help'.\n", stderr);
			return 2;
		}
		switch (c) {
		case O_HELP:
			usage(stdout);
			return 0;
		case O_VERSION:
			printf("egprof-record (egprof) %s\n", EGPROF_VERSION);
			return 0;
		case O_QUIET:
			quiet = 1;
			break;
		case O_OUTPUT:
			if (!*optarg || strlen(optarg) >= sizeof(dir))
				return die("bad --output '%s'%s", optarg, "");
			snprintf(dir, sizeof(dir), "%s", optarg);
			break;
		case O_RUNTIME:
			snprintf(runtime, sizeof(runtime), "%s", optarg);
			break;
		case O_NO_ENDS:
			setenv(o->env, "off", 1);
			break;
		default:
			/* the runtime checks the value and says when it is bad */
			setenv(o->env, optarg, 1);
			break;
		}
	}
	if (optind >= argc) {
		fputs("egprof-record: no program to run\nTry 'egprof-record --help'.\n", stderr);
		return 2;
	}
	if (!*runtime && find_runtime(runtime, sizeof(runtime)) < 0)
		return die("cannot name the runtime library%s%s", "", "");
	if (access(runtime, R_OK) < 0)
		return die("cannot read the runtime '%s': %s (--runtime PATH)", runtime,
			   strerror(errno));
	/* ranks share the directory: only a run of one process moves an
	 * earlier one aside */
	if (rank < 0 && has_profiles(dir) && keep_old(dir))
		return 2;
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return die("cannot create '%s': %s", dir, strerror(errno));
	if (!realpath(dir, absdir))
		return die("cannot find '%s': %s", dir, strerror(errno));
	snprintf(base, sizeof(base), rank >= 0 ? "gmon.r%ld" : "gmon", rank);
	snprintf(prefix, sizeof(prefix), "%s/%s", absdir, base);
	if (!realpath(runtime, prog))
		snprintf(prog, sizeof(prog), "%s", runtime);
	if (old_preload && *old_preload) {
		if (asprintf(&preload, "%s:%s", prog, old_preload) < 0)
			return die("out of memory%s%s", "", "");
	} else {
		preload = strdup(prog);
	}
	if (!preload || setenv("LD_PRELOAD", preload, 1) < 0 ||
	    setenv("GMON_OUT_PREFIX", prefix, 1) < 0)
		return die("cannot set the environment: %s%s", strerror(errno), "");
	free(preload);
	resolve(argv[optind], prog, sizeof(prog));

	/* a terminal's ^C and ^\ reach the program (its process group): the
	 * launcher waits for it instead of dying first; signals sent to the
	 * launcher alone (a batch system's TERM, a snapshot's USR2) are the
	 * program's */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	memset(&fwd, 0, sizeof(fwd));
	fwd.sa_handler = forward;
	sigaction(SIGINT, &ign, &save_int);
	sigaction(SIGQUIT, &ign, &save_quit);
	child = fork();
	if (child < 0)
		return die("cannot start '%s': %s", argv[optind], strerror(errno));
	if (child == 0) {
		sigaction(SIGINT, &save_int, NULL);
		sigaction(SIGQUIT, &save_quit, NULL);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "egprof-record: cannot run '%s': %s\n", argv[optind],
			strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction cur;

		/* what a batch system or a user sends to stop or snapshot a run */
		if (sig == SIGTERM || sig == SIGHUP || sig == SIGUSR1 || sig == SIGUSR2 ||
		    sig == SIGXCPU || sig == SIGALRM)
			if (sigaction(sig, NULL, &cur) == 0 && cur.sa_handler != SIG_IGN)
				sigaction(sig, &fwd, NULL);
	}
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			return die("cannot wait for '%s': %s", argv[optind], strerror(errno));
	if (!quiet && rank <= 0) {
		n = count_profiles(absdir, base, t0, first, sizeof(first));
		if (!n)
			fprintf(stderr, "egprof-record: no profile in '%s/' (the runtime said why "
				"above)\n", dir);
		else if (n == 1 && rank < 0)
			fprintf(stderr, "egprof-record: profile in '%s/': %s and its sidecar\n"
				"  gprof --callpath %s %s\n", dir, strrchr(first, '/') + 1, prog,
				first);
		else
			fprintf(stderr, "egprof-record: %d%s profiles in '%s/' (a gmon file and "
				"sidecar per process)\n"
				"  gprof --rank-stats %s %s          (per process)\n"
				"  gprof --callpath %s %s            (one of them)\n",
				n, rank >= 0 ? "+" : "", dir, prog, absdir, prog, first);
	}
	if (WIFSIGNALED(status)) {
		/* die of the same signal, so that the caller sees what it would */
		int sig = WTERMSIG(status);
		struct sigaction dfl;

		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		sigaction(sig, &dfl, NULL);
		fflush(NULL);
		raise(sig);
		return 128 + sig;
	}
	return WEXITSTATUS(status);
}
