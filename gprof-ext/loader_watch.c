#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "gprof-ext/loader_watch.h"
#include "utils/error.h"
#include "utils/banned.h"

enum { FILE_WAITING, FILE_READING, FILE_READ };

struct loader_watch {
	double seconds;
	size_t nfiles;
	size_t cap;           /* bytes of state mapped */
	unsigned char *state; /* shared with the loader: FILE_* per file */
	int sampled;
	unsigned long long cpu, rchar; /* at the last sample */
	uint64_t bytes;
	double last, since; /* the last sample; the last progress */
};

double loader_watch_seconds(void)
{
	const char *s = getenv("EGPROF_LOADER_STALL");
	char *end;
	double v;

	if (!s || !*s)
		return LOADER_WATCH_DEFAULT_SECONDS;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !(v > 0)) {
		warning("EGPROF_LOADER_STALL='%s' is not a number of seconds > 0: "
			"using %g", s, LOADER_WATCH_DEFAULT_SECONDS);
		return LOADER_WATCH_DEFAULT_SECONDS;
	}
	return v;
}

struct loader_watch *loader_watch_new(size_t nfiles, double seconds)
{
	struct loader_watch *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->seconds = seconds;
	w->nfiles = nfiles;
	w->cap = nfiles ? nfiles : 1;
	/* only the pages written are ever backed */
	w->state = mmap(NULL, w->cap, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (w->state == MAP_FAILED) {
		free(w);
		return NULL;
	}
	return w;
}

void loader_watch_free(struct loader_watch *w)
{
	if (!w)
		return;
	munmap(w->state, w->cap);
	free(w);
}

void loader_watch_limit(struct loader_watch *w, size_t nfiles)
{
	if (w && nfiles < w->cap)
		w->nfiles = nfiles;
}

void loader_watch_reading(struct loader_watch *w, size_t i)
{
	if (w && i < w->nfiles)
		w->state[i] = FILE_READING;
}

void loader_watch_read(struct loader_watch *w, size_t i)
{
	if (w && i < w->nfiles)
		w->state[i] = FILE_READ;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The loader's children (its workers), from /proc/PID/task/PID/children
 * (a space-separated list); up to max. */
static size_t children(pid_t pid, pid_t *out, size_t max)
{
	char path[64];
	FILE *fp;
	size_t n = 0;
	long c;

	snprintf(path, sizeof(path), "/proc/%ld/task/%ld/children", (long)pid, (long)pid);
	fp = fopen(path, "r");
	if (!fp)
		return 0;
	while (n < max && fscanf(fp, "%ld", &c) == 1)
		out[n++] = (pid_t)c;
	fclose(fp);
	return n;
}

/* State letter and utime + stime + cutime + cstime of pid; -1 if gone. */
static int proc_stat(pid_t pid, char *state, unsigned long long *cpu)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st, cut, cst;
	FILE *fp;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if (!(fp = fopen(path, "r")))
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	/* the command name may hold spaces and ')': skip to the last ')' */
	if (!(p = strrchr(buf, ')')) ||
	    sscanf(p + 1, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
		   state, &ut, &st, &cut, &cst) != 5)
		return -1;
	*cpu = ut + st + cut + cst;
	return 0;
}

static unsigned long long proc_rchar(pid_t pid)
{
	char path[64], line[128];
	unsigned long long v = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%ld/io", (long)pid);
	if (!(fp = fopen(path, "r")))
		return 0; /* unreadable: CPU and output still count */
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "rchar: %llu", &v) == 1)
			break;
	fclose(fp);
	return v;
}

#define MAX_PROCS 257 /* the loader and up to 256 workers */

static size_t loader_procs(pid_t pid, pid_t *procs)
{
	procs[0] = pid;
	return 1 + children(pid, procs + 1, MAX_PROCS - 1);
}

int loader_watch_stalled(struct loader_watch *w, pid_t pid, uint64_t bytes)
{
	pid_t procs[MAX_PROCS];
	unsigned long long cpu = 0, rchar = 0, c;
	size_t n, i;
	double t = now();
	char st;

	if (!w)
		return 0;
	n = loader_procs(pid, procs);
	for (i = 0; i < n; i++) {
		if (proc_stat(procs[i], &st, &c) == 0)
			cpu += c;
		rchar += proc_rchar(procs[i]);
	}
	/* Progress, a first look, or a look after the front end was busy
	 * elsewhere (the loader may have waited for it): start again. */
	if (!w->sampled || cpu != w->cpu || rchar != w->rchar || bytes != w->bytes ||
	    t - w->last > 5.0)
		w->since = t;
	w->sampled = 1;
	w->cpu = cpu;
	w->rchar = rchar;
	w->bytes = bytes;
	w->last = t;
	return t - w->since >= w->seconds;
}

static const char *state_name(char s)
{
	switch (s) {
	case 'R': return "running";
	case 'S': return "sleeping";
	case 'D': return "in uninterruptible wait";
	case 'T': return "stopped";
	case 't': return "traced";
	case 'Z': return "a zombie";
	default: return "in an unknown state";
	}
}

void loader_watch_report(const struct loader_watch *w, pid_t pid, const char *binary,
			 char *const *files)
{
	pid_t procs[MAX_PROCS];
	char what[4096] = "", states[1024] = "";
	size_t n = loader_procs(pid, procs), i, len = 0, slen = 0;

	for (i = 0; w && i < w->nfiles && len < sizeof(what) - 1; i++)
		if (w->state[i] == FILE_READING)
			len += (size_t)snprintf(what + len, sizeof(what) - len, "%s'%s'",
						len ? ", " : "", files[i]);
	if (!len)
		snprintf(what, sizeof(what), "the binary '%s'", binary);
	for (i = 0; i < n && slen < sizeof(states) - 1; i++) {
		char path[64], wchan[128] = "", st = '?';
		unsigned long long cpu;
		FILE *fp;

		proc_stat(procs[i], &st, &cpu);
		snprintf(path, sizeof(path), "/proc/%ld/wchan", (long)procs[i]);
		if ((fp = fopen(path, "r"))) {
			if (!fgets(wchan, sizeof(wchan), fp))
				wchan[0] = '\0';
			fclose(fp);
		}
		slen += (size_t)snprintf(states + slen, sizeof(states) - slen,
					 "%s%s %ld %s%s%s", slen ? "; " : "",
					 i ? "worker" : "loader", (long)procs[i],
					 state_name(st),
					 wchan[0] && strcmp(wchan, "0") ? ", waiting in " : "",
					 wchan[0] && strcmp(wchan, "0") ? wchan : "");
	}
	error("reading the profiles of '%s' failed: its loader made no progress for "
	      "%g s (no output, no CPU time, no reads) while reading %s (%s); it was "
	      "ended (EGPROF_LOADER_STALL sets the time)", binary, w ? w->seconds : 0.0,
	      what, states);
}

void loader_watch_kill(pid_t pid)
{
	pid_t procs[MAX_PROCS];
	size_t n = loader_procs(pid, procs), i;

	/* the workers first: killed after the loader, they would be orphans */
	for (i = n; i-- > 0;)
		kill(procs[i], SIGKILL);
}
