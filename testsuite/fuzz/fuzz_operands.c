/*
 * Directory expansion (gprof-ext/operands.c).  The input describes a
 * directory: entries separated by '\n', each a file name, then optionally
 * '=' and the file's first bytes (a name ending in '/' makes a folder).
 * The harness creates it and expands it with the real code (opendir, stat,
 * reads), and checks the result against its own model of the directory:
 * exactly the regular files whose name is not hidden, a sum, a temporary
 * file or a sidecar and whose bytes start with a whole gmon header, in
 * strverscmp order; an error when one starts like a gmon file but is shorter
 * than the header, or when none is left.
 *
 * Speed (doc/dev/reliability.md): the folder lives on tmpfs (/dev/shm) and
 * stays; each input removes only the entries the previous one made, by
 * name, and the model replaces reading the files back.  Creating files in a
 * journalled /tmp and re-reading them cost 85% of the time (300 exec/s).
 */
#define _GNU_SOURCE /* strverscmp */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gprof-ext/operands.h"
#include "testsuite/fuzz/fuzz.h"

#define GMON_HEADER 20 /* "gmon", version, 12 spare bytes (gmon_out.h) */

struct entry {
	char name[256];
	int is_dir;
	const uint8_t *bytes; /* the file's content (the last write wins) */
	size_t len;
};

static char dir[128];
static struct entry *made; /* what the previous input created */
static size_t nmade;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct stat st;
	char top[64];

	(void)argc;
	(void)argv;
	fuzz_quiet();
	snprintf(top, sizeof(top), "%s/egprof-fuzz-operands.XXXXXX",
		 stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp");
	if (!mkdtemp(top))
		abort();
	snprintf(dir, sizeof(dir), "%s/d", top);
	if (mkdir(dir, 0700) < 0)
		abort();
	return 0;
}

static struct entry *find(struct entry *e, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(e[i].name, name))
			return &e[i];
	return NULL;
}

static void remove_previous(void)
{
	char path[512];
	size_t i;

	for (i = 0; i < nmade; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, made[i].name);
		if ((made[i].is_dir ? rmdir(path) : unlink(path)) < 0)
			fuzz_fail("removing the previous input's entry");
	}
	nmade = 0;
}

/* Creates one entry and records it in the model (made[]). */
static void make_entry(const char *entry, size_t n)
{
	const char *eq = memchr(entry, '=', n);
	size_t nlen = eq ? (size_t)(eq - entry) : n;
	struct entry *e;
	char name[256], path[512];
	int is_dir, fd;

	if (nlen == 0 || nlen >= sizeof(name) || memchr(entry, '\0', nlen))
		return;
	memcpy(name, entry, nlen);
	name[nlen] = '\0';
	if (strchr(name, '/') && (strchr(name, '/') != name + nlen - 1 || nlen == 1))
		return; /* one level only */
	is_dir = name[nlen - 1] == '/';
	if (is_dir)
		name[nlen - 1] = '\0';
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return;
	e = find(made, nmade, name);
	if (e && (e->is_dir || is_dir))
		return; /* mkdir or open of an existing other kind fails */
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (is_dir) {
		fuzz_assert(mkdir(path, 0700) == 0);
	} else {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		fuzz_assert(fd >= 0);
		if (eq && write(fd, eq + 1, n - nlen - 1) < 0)
			abort();
		close(fd);
	}
	if (!e) {
		e = &made[nmade++];
		memcpy(e->name, name, strlen(name) + 1);
		e->is_dir = is_dir;
	}
	e->bytes = eq ? (const uint8_t *)eq + 1 : NULL;
	e->len = eq ? n - nlen - 1 : 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* A runtime's snapshot: the name ends in ".snap" and digits. */
static int snapshot_name(const char *name)
{
	const char *last = NULL, *p;

	for (p = strstr(name, ".snap"); p; p = strstr(p + 1, ".snap"))
		last = p;
	if (!last || !last[5])
		return 0;
	return strspn(last + 5, "0123456789") == strlen(last + 5);
}

/* The model: 1 expanded, 0 skipped, -1 an error (a truncated gmon file). */
static int expected(const struct entry *e)
{
	if (e->is_dir || e->name[0] == '.' || ends_with(e->name, ".callpath") ||
	    ends_with(e->name, ".sum") || strstr(e->name, ".tmp.") || e->len == 0 ||
	    snapshot_name(e->name))
		return 0;
	if (memcmp(e->bytes, "gmon", e->len < 4 ? e->len : 4) != 0)
		return 0;
	return e->len < GMON_HEADER ? -1 : 1;
}

static void check(int rc, char **files, size_t n)
{
	size_t i, want = 0, dlen = strlen(dir);
	int truncated = 0;

	for (i = 0; i < nmade; i++) {
		int x = expected(&made[i]);

		truncated |= x < 0;
		want += x > 0;
	}
	if (truncated || want == 0) {
		fuzz_assert(rc < 0);
		return;
	}
	fuzz_assert(rc == 0 && n == want);
	for (i = 0; i < n; i++) {
		const struct entry *e;

		fuzz_assert(strncmp(files[i], dir, dlen) == 0 && files[i][dlen] == '/');
		e = find(made, nmade, files[i] + dlen + 1);
		fuzz_assert(e && expected(e) == 1);
		/* strictly increasing: sorted, and each file once */
		fuzz_assert(i == 0 || strverscmp(files[i - 1], files[i]) < 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char **files = NULL;
	size_t n = 0, i, start = 0;
	int rc;

	remove_previous();
	free(made);
	made = calloc(size / 2 + 1, sizeof(*made)); /* an entry takes 2 bytes */
	fuzz_assert(made != NULL);
	for (i = 0; i <= size; i++)
		if (i == size || data[i] == '\n') {
			make_entry((const char *)data + start, i - start);
			start = i + 1;
		}
	rc = gmon_operand_expand(dir, &files, &n);
	check(rc, files, n);
	operands_free(files, n);
	return 0;
}
