/*
 * Directory expansion (gprof-ext/operands.c).  The input describes a
 * directory: entries separated by '\n', each a file name, then optionally
 * '=' and the file's first bytes (a name ending in '/' makes a folder).
 * The harness creates it in a fresh temporary folder and expands it; every
 * name returned must be a regular file of that folder starting with "gmon",
 * returned once, and the expansion must be the same when repeated.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gprof-ext/operands.h"
#include "testsuite/fuzz/fuzz.h"

static char top[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	snprintf(top, sizeof(top), "/tmp/egprof-fuzz-operands.XXXXXX");
	if (!mkdtemp(top))
		abort();
	return 0;
}

static void clear_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char p[4096];

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", path, de->d_name);
		if (unlink(p) < 0) {
			clear_dir(p);
			rmdir(p);
		}
	}
	closedir(d);
}

static void make_entry(const char *dir, const char *entry, size_t n)
{
	const char *eq = memchr(entry, '=', n);
	size_t nlen = eq ? (size_t)(eq - entry) : n;
	char name[256], path[512];
	int fd;

	if (nlen == 0 || nlen >= sizeof(name) || memchr(entry, '\0', nlen))
		return;
	memcpy(name, entry, nlen);
	name[nlen] = '\0';
	if (strchr(name, '/') && (strchr(name, '/') != name + nlen - 1 || nlen == 1))
		return; /* one level only */
	if (!strcmp(name, ".") || !strcmp(name, "..") || !strcmp(name, "./") ||
	    !strcmp(name, "../"))
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (name[nlen - 1] == '/') {
		mkdir(path, 0700);
		return;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return;
	if (eq && write(fd, eq + 1, n - nlen - 1) < 0)
		abort();
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[128];
	char **files = NULL, **again = NULL;
	size_t n = 0, n2 = 0, i, j, start = 0;

	snprintf(dir, sizeof(dir), "%s/d", top);
	clear_dir(top);
	if (mkdir(dir, 0700) < 0)
		abort();
	for (i = 0; i <= size; i++)
		if (i == size || data[i] == '\n') {
			make_entry(dir, (const char *)data + start, i - start);
			start = i + 1;
		}
	if (gmon_operand_expand(dir, &files, &n) == 0) {
		fuzz_assert(gmon_operand_expand(dir, &again, &n2) == 0 && n2 == n);
		for (i = 0; i < n; i++) {
			struct stat st;
			char head[4];
			FILE *fp;

			fuzz_assert(strcmp(files[i], again[i]) == 0);
			fuzz_assert(strncmp(files[i], dir, strlen(dir)) == 0);
			fuzz_assert(stat(files[i], &st) == 0 && S_ISREG(st.st_mode));
			fp = fopen(files[i], "rb");
			fuzz_assert(fp && fread(head, 1, 4, fp) == 4 && !memcmp(head, "gmon", 4));
			fclose(fp);
			for (j = 0; j < i; j++)
				fuzz_assert(strcmp(files[i], files[j]) != 0);
		}
		operands_free(again, n2);
		operands_free(files, n);
	}
	return 0;
}
