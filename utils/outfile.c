/*
 * Output files: one mechanism for every file egprof writes (outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include "utils/array.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/banned.h"

#define MAX_SYMLINKS 40 /* as the kernel's ELOOP limit */

const char *outfile_display(const char *path, char *buf, size_t len)
{
	if (!strcmp(path, "-"))
		snprintf(buf, len, "standard output");
	else
		snprintf(buf, len, "'%s'", path);
	return buf;
}

/* "FILE: cannot write: why", as every message names its file (utils/error.h) */
static int write_error(const char *path, int e)
{
	if (strcmp(path, "-") == 0)
		return error("cannot write standard output: %s", strerror(e ? e : EIO));
	return error("%s: cannot write: %s", path, strerror(e ? e : EIO));
}

/*
 * Why standard output failed, when the stream remembers only that it did:
 * an earlier flush (upstream's report, a command's) failed, and glibc
 * dropped what it held and errno moved on.  Asked of the descriptor
 * without writing a byte: a write of nothing fails as the writes did on a
 * closed descriptor or a device that takes nothing (/dev/full); a pipe
 * whose reader is gone polls as an error; a regular file's filesystem has
 * no block left.  0 when none of these says.
 */
static int stdout_failure(void)
{
	int fd = fileno(stdout);
	struct pollfd pfd = { fd, POLLOUT, 0 };
	struct statvfs vfs;
	struct stat st;

	if (fd < 0)
		return EBADF;
	errno = 0;
	if (write(fd, "", 0) < 0)
		return errno ? errno : EIO;
	if (fstat(fd, &st) != 0)
		return errno;
	if ((S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) && poll(&pfd, 1, 0) == 1 &&
	    (pfd.revents & (POLLERR | POLLHUP)))
		return EPIPE;
	if (S_ISREG(st.st_mode) && fstatvfs(fd, &vfs) == 0 && vfs.f_bavail == 0)
		return ENOSPC;
	return 0;
}

int outfile_close_stdout(void)
{
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		int e = errno ? errno : stdout_failure();

		if (e)
			return error("cannot write standard output: %s", strerror(e));
		return error("cannot write standard output: a write failed earlier, and the "
			     "system no longer says why");
	}
	return 0;
}

/*
 * /dev/fd/N, /dev/stdout's target /proc/self/fd/N: a descriptor we already
 * hold, written through a duplicate of it (as the shell's `>&N`) so that
 * process substitution and redirections keep their offset.  -1 otherwise.
 */
static int fd_of_path(const char *p)
{
	static const char *const prefixes[] = { "/dev/fd/", "/proc/self/fd/",
						"/proc/thread-self/fd/" };
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t k = strlen(prefixes[i]);
		char *end;
		long fd;

		if (strncmp(p, prefixes[i], k) || p[k] < '0' || p[k] > '9')
			continue;
		errno = 0;
		fd = strtol(p + k, &end, 10);
		if (*end || errno || fd > INT_MAX)
			return -1;
		return (int)fd;
	}
	return -1;
}

/* A symlink's target as a path usable from here: relative targets are
 * relative to the link's folder.  Malloc'd, or NULL (errno set). */
static char *follow_link(const char *link)
{
	char target[PATH_MAX];
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	const char *slash;
	char *out;
	size_t len;

	if (n < 0)
		return NULL;
	target[n] = '\0';
	slash = strrchr(link, '/');
	if (target[0] == '/' || !slash)
		return strdup(target);
	len = (size_t)(slash - link) + 1 + (size_t)n + 1;
	out = malloc(len);
	if (out)
		snprintf(out, len, "%.*s/%s", (int)(slash - link), link, target);
	return out;
}

/* The permissions gmon.out gets: 0666 less the umask. */
static mode_t default_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* A fresh temporary beside dest, opened exclusively (never through a
 * symlink someone left with the same name). */
static int open_temp(struct outfile *of, mode_t mode)
{
	size_t n = strlen(of->dest) + 48;
	unsigned i;
	int fd;

	of->tmp_path = malloc(n);
	if (!of->tmp_path)
		return error("out of memory");
	for (i = 0; i < 100; i++) {
		if (i == 0)
			snprintf(of->tmp_path, n, "%s.tmp.%ld", of->dest, (long)getpid());
		else
			snprintf(of->tmp_path, n, "%s.tmp.%ld.%u", of->dest,
				 (long)getpid(), i);
		fd = open(of->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		int e = errno;

		free(of->tmp_path);
		of->tmp_path = NULL;
		return write_error(of->path, e);
	}
	/* O_CREAT's mode is cut by the umask; the file we replace keeps
	 * its own permissions */
	if (fchmod(fd, mode) < 0 || !(of->fp = fdopen(fd, "w"))) {
		int e = errno;

		close(fd);
		unlink(of->tmp_path);
		free(of->tmp_path);
		of->tmp_path = NULL;
		return write_error(of->path, e);
	}
	return 0;
}

/*
 * Decide how `of->path` is written (outfile.h) and open it: follow the
 * symlinks of the last component ourselves, so that /dev/stdout ->
 * /proc/self/fd/1 is seen as a descriptor and a link to a regular file
 * is written through to its target.
 */
static int open_destination(struct outfile *of)
{
	char *p = strdup(of->path);
	struct stat st;
	int hops, fd;

	if (!p)
		return error("out of memory");
	for (hops = 0;; hops++) {
		char *next;

		fd = fd_of_path(p);
		if (fd >= 0) {
			free(p);
			if (fd == STDOUT_FILENO) {
				of->kind = OUTFILE_STDOUT;
				return 0;
			}
			of->kind = OUTFILE_IN_PLACE;
			of->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
			if (of->fd < 0)
				return write_error(of->path, errno);
			return 0;
		}
		if (lstat(p, &st) < 0) {
			if (errno != ENOENT) {
				int e = errno;

				free(p);
				return write_error(of->path, e);
			}
			of->kind = OUTFILE_RENAME;
			of->dest = p;
			return open_temp(of, default_mode());
		}
		if (!S_ISLNK(st.st_mode))
			break;
		if (hops >= MAX_SYMLINKS || !(next = follow_link(p))) {
			int e = hops >= MAX_SYMLINKS ? ELOOP : errno;

			free(p);
			return write_error(of->path, e);
		}
		free(p);
		p = next;
	}
	if (S_ISREG(st.st_mode)) {
		of->kind = OUTFILE_RENAME;
		of->dest = p;
		return open_temp(of, st.st_mode & 07777);
	}
	free(p);
	if (S_ISDIR(st.st_mode))
		return write_error(of->path, EISDIR);
	/* a device, FIFO or socket: open it now so a bad one fails before
	 * anything is written (a FIFO waits for its reader, as with `>`) */
	of->kind = OUTFILE_IN_PLACE;
	of->fd = open(of->path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (of->fd < 0)
		return write_error(of->path, errno);
	return 0;
}

int outfile_open(struct outfile *of, const char *path)
{
	memset(of, 0, sizeof(*of));
	of->fd = -1;
	of->path = strdup(path);
	if (!of->path)
		return error("out of memory");
	if (!*path) {
		error("cannot write '': empty file name");
		goto fail;
	}
	if (!strcmp(path, "-"))
		of->kind = OUTFILE_STDOUT;
	else if (open_destination(of) < 0)
		goto fail;
	if (of->kind != OUTFILE_RENAME) {
		/* kept until commit: a failed command writes nothing */
		of->fp = open_memstream(&of->mem, &of->memlen);
		if (!of->fp) {
			error("out of memory");
			goto fail;
		}
	}
	return 0;
fail:
	outfile_abort(of);
	return -1;
}

int outfile_finish(struct outfile *of)
{
	int e = 0, bad;

	if (!of->fp)
		return 0;
	errno = 0;
	bad = fflush(of->fp) != 0 || ferror(of->fp);
	if (bad)
		e = errno;
	if (!bad && of->kind == OUTFILE_RENAME && fsync(fileno(of->fp)) != 0) {
		bad = 1;
		e = errno;
	}
	if (fclose(of->fp) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	of->fp = NULL;
	if (bad) {
		write_error(of->path, e);
		outfile_abort(of);
		return -1;
	}
	return 0;
}

int outfile_publish(struct outfile *of)
{
	int ret = 0;

	switch (of->kind) {
	case OUTFILE_RENAME:
		if (rename(of->tmp_path, of->dest) < 0) {
			ret = write_error(of->path, errno);
			break;
		}
		free(of->tmp_path);
		of->tmp_path = NULL; /* it is the destination now */
		break;
	case OUTFILE_IN_PLACE: {
		FILE *fp;

		fflush(stdout); /* the terminal or pipe may be ours too */
		if (!(fp = fdopen(of->fd, "w"))) {
			ret = write_error(of->path, errno);
			break;
		}
		of->fd = -1; /* fp's now */
		errno = 0;
		if ((of->memlen && fwrite(of->mem, 1, of->memlen, fp) != of->memlen) ||
		    fflush(fp) != 0)
			ret = write_error(of->path, errno);
		if (fclose(fp) != 0 && ret == 0)
			ret = write_error(of->path, errno);
		break;
	}
	case OUTFILE_STDOUT:
		if (of->memlen && fwrite(of->mem, 1, of->memlen, stdout) != of->memlen)
			ret = write_error("-", errno);
		else if (outfile_close_stdout() < 0)
			ret = -1;
		break;
	}
	outfile_abort(of);
	return ret;
}

int outfile_commit(struct outfile *of)
{
	if (outfile_finish(of) < 0)
		return -1;
	return outfile_publish(of);
}

void outfile_abort(struct outfile *of)
{
	if (of->fp)
		fclose(of->fp);
	if (of->tmp_path)
		unlink(of->tmp_path);
	if (of->fd >= 0)
		close(of->fd);
	free(of->tmp_path);
	free(of->dest);
	free(of->path);
	free(of->mem);
	memset(of, 0, sizeof(*of));
	of->fd = -1;
}

int outfile_write(struct outset *set, const char *path,
		  int (*write_fp)(FILE *fp, const void *ctx), const void *ctx)
{
	struct outfile one, *of = &one;

	if (set ? outset_open(set, &of, path) < 0 : outfile_open(of, path) < 0)
		return -1;
	errno = 0;
	if (write_fp(of->fp, ctx) < 0 || ferror(of->fp)) {
		int e = errno, stream = ferror(of->fp);

		if (!set)
			outfile_abort(of);
		/* a writer that failed for a reason of its own (out of memory
		 * building the output) said it; no reason is made up for it */
		if (!stream && !e)
			return error("%s: not written", path);
		return write_error(path, e);
	}
	return set ? 0 : outfile_commit(of);
}

char *outfile_temp_name(const char *path)
{
	size_t n = strlen(path) + 32;
	char *tmp = malloc(n);

	if (tmp)
		snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
	return tmp;
}

int outfile_rename_into_place(const char *tmp_path, const char *path)
{
	if (rename(tmp_path, path) < 0) {
		int e = errno;
		unlink(tmp_path);
		return error("%s: cannot write: %s", path, strerror(e));
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Output sets                                                              */

/*
 * An absolute path with the folder's symlinks resolved and the last
 * component as named: the name an output is known by, whatever it is a
 * link to.  Malloc'd, or NULL when out of memory; the path itself when its
 * folder cannot be resolved.
 */
static char *canonical_folder(const char *path)
{
	char *copy1 = strdup(path), *copy2 = strdup(path), *dir, *out = NULL;
	const char *base;
	size_t n;

	if (!copy1 || !copy2)
		goto out;
	dir = realpath(dirname(copy1), NULL);
	base = basename(copy2);
	if (!dir) {
		out = strdup(path);
		goto out;
	}
	n = strlen(dir) + strlen(base) + 2;
	out = malloc(n);
	if (out)
		snprintf(out, n, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", base);
	free(dir);
out:
	free(copy1);
	free(copy2);
	return out;
}

/*
 * An absolute path with every symlink resolved, to compare names of files
 * that may not exist yet: a dangling symlink is followed to the name it
 * would create (`link -> out`, out not written yet, is out), as
 * open_destination() writes through it; then the folder is resolved and
 * the last component kept.
 */
static char *canonical(const char *path)
{
	char *full = realpath(path, NULL), *p, *out;
	struct stat st;
	int hops;

	if (full)
		return full;
	if (!(p = strdup(path)))
		return NULL;
	for (hops = 0; hops < MAX_SYMLINKS && lstat(p, &st) == 0 &&
		       S_ISLNK(st.st_mode); hops++) {
		char *next = follow_link(p);

		if (!next)
			break;
		free(p);
		p = next;
	}
	out = canonical_folder(p);
	free(p);
	return out;
}

static int add_entry(struct outset_entry **arr, size_t *n, size_t *cap,
		     const char *path, const char *what, int is_output)
{
	struct outset_entry *e;
	struct stat st;

	if (array_grow(arr, cap, *n + 1, sizeof(**arr)) < 0)
		return error("out of memory");
	e = &(*arr)[*n];
	memset(e, 0, sizeof(*e));
	e->what = what;
	e->path = strdup(path);
	if (strcmp(path, "-") != 0 && fd_of_path(path) < 0) {
		e->canon = canonical(path);
		if (stat(path, &st) == 0) {
			e->exists = 1;
			e->dev = st.st_dev;
			e->ino = st.st_ino;
			e->replaced = S_ISREG(st.st_mode);
		} else {
			e->replaced = errno == ENOENT;
		}
		if (!e->canon) {
			free(e->path);
			return error("out of memory");
		}
	}
	if (!e->path) {
		free(e->canon);
		return error("out of memory");
	}
	if (!is_output)
		e->replaced = 0;
	(*n)++;
	return 0;
}

int outset_input(struct outset *set, const char *path)
{
	return add_entry(&set->inputs, &set->ninputs, &set->inputs_cap, path, NULL, 0);
}

int outset_output(struct outset *set, const char *path, const char *what)
{
	return add_entry(&set->outputs, &set->noutputs, &set->outputs_cap, path, what, 1);
}

int outset_output_rereads(struct outset *set, const char *path, const char *what)
{
	if (outset_output(set, path, what) < 0)
		return -1;
	set->outputs[set->noutputs - 1].rereads = 1;
	return 0;
}

static int same_file(const struct outset_entry *a, const struct outset_entry *b)
{
	if (a->exists && b->exists)
		return a->dev == b->dev && a->ino == b->ino;
	return a->canon && b->canon && !strcmp(a->canon, b->canon);
}

/* Named alike: the same folder and last component, whatever it links to
 * (worked out only for the rare pair that is one file: a plan of 100,000
 * rank files keeps its entries for the whole command).  -1 when out of
 * memory. */
static int same_name(const struct outset_entry *a, const struct outset_entry *b)
{
	char *na = canonical_folder(a->path), *nb = canonical_folder(b->path);
	int same = na && nb ? !strcmp(na, nb) : -1;

	free(na);
	free(nb);
	return same;
}

int outset_check(const struct outset *set)
{
	size_t i, j;

	for (i = 0; i < set->noutputs; i++) {
		const struct outset_entry *o = &set->outputs[i];

		if (!o->replaced)
			continue;
		/* an output that rereads itself is read by its own name: the
		 * same file named otherwise (gmon.sum -> g1, g1 an input) is
		 * an input it would replace */
		for (j = 0; j < set->ninputs; j++) {
			int by_name;

			if (!same_file(o, &set->inputs[j]))
				continue;
			by_name = o->rereads ? same_name(o, &set->inputs[j]) : 0;
			if (by_name < 0)
				return error("out of memory");
			if (!by_name)
				return error("refusing to write '%s' (%s): it is '%s', "
					     "an input of this command", o->path,
					     o->what, set->inputs[j].path);
		}
		for (j = 0; j < i; j++)
			if (set->outputs[j].replaced && same_file(o, &set->outputs[j]))
				return error("refusing to write '%s' (%s): %s writes "
					     "'%s', the same file", o->path, o->what,
					     set->outputs[j].what, set->outputs[j].path);
	}
	return 0;
}

int outset_open(struct outset *set, struct outfile **ofp, const char *path)
{
	struct outfile *of;

	*ofp = NULL;
	if (array_grow(&set->open, &set->open_cap, set->nopen + 1, sizeof(*set->open)) < 0)
		return error("out of memory");
	of = malloc(sizeof(*of));
	if (!of)
		return error("out of memory");
	if (outfile_open(of, path) < 0) {
		free(of);
		return -1;
	}
	set->open[set->nopen++] = of;
	*ofp = of;
	return 0;
}

int outset_remove(struct outset *set, const char *path)
{
	char *copy = strdup(path);

	if (!copy || array_grow(&set->removals, &set->removals_cap, set->nremovals + 1,
				sizeof(*set->removals)) < 0) {
		free(copy);
		return error("out of memory");
	}
	set->removals[set->nremovals++] = copy;
	return 0;
}

int outset_commit(struct outset *set)
{
	size_t i;
	int pass, ret = 0;

	for (i = 0; i < set->nopen && ret == 0; i++)
		if (outfile_finish(set->open[i]) < 0)
			ret = -1;
	/* in place first: a full device or a closed pipe fails there, and
	 * then no regular file has been replaced yet */
	for (pass = 0; pass < 2 && ret == 0; pass++)
		for (i = 0; i < set->nopen && ret == 0; i++) {
			struct outfile *of = set->open[i];

			if (!of->path || (of->kind == OUTFILE_RENAME) != pass)
				continue; /* released, or not this pass */
			if (outfile_publish(of) < 0)
				ret = -1;
		}
	for (i = 0; i < set->nremovals && ret == 0; i++)
		if (unlink(set->removals[i]) < 0 && errno != ENOENT)
			ret = error("cannot remove '%s': %s", set->removals[i],
				    strerror(errno));
	outset_abort(set);
	return ret;
}

void outset_abort(struct outset *set)
{
	size_t i;

	for (i = 0; i < set->nopen; i++) {
		outfile_abort(set->open[i]);
		free(set->open[i]);
	}
	free(set->open);
	set->open = NULL;
	set->nopen = set->open_cap = 0;
	for (i = 0; i < set->nremovals; i++)
		free(set->removals[i]);
	free(set->removals);
	set->removals = NULL;
	set->nremovals = set->removals_cap = 0;
}

static void entries_free(struct outset_entry *arr, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(arr[i].path);
		free(arr[i].canon);
	}
	free(arr);
}

void outset_release(struct outset *set)
{
	outset_abort(set);
	entries_free(set->inputs, set->ninputs);
	entries_free(set->outputs, set->noutputs);
	memset(set, 0, sizeof(*set));
}
