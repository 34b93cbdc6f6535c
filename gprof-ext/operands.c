#define _GNU_SOURCE /* strverscmp */
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "format/sidecar.h"
#include "gprof-ext/operands.h"
#include "utils/array.h"
#include "utils/error.h"
#include "utils/banned.h"

int gmon_operand_is_dir(const char *operand)
{
	struct stat st;

	return stat(operand, &st) == 0 && S_ISDIR(st.st_mode);
}

void operands_free(char **files, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
}



static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

#define GMON_HEADER 20 /* "gmon", version, 12 spare bytes (gmon_out.h) */

/*
 * Is this member of a directory a gmon file?  1 yes; 0 no, with *why
 * saying why it is skipped; -1 when it starts as a gmon file does but
 * ends before the header does (a rank that died while writing it), which
 * is an error: summing the others would silently drop a rank.
 */
static int classify_member(const char *path, const char **why)
{
	unsigned char head[GMON_HEADER];
	FILE *fp = fopen(path, "rb");
	size_t n;

	if (!fp) {
		*why = "it cannot be read";
		return 0;
	}
	n = fread(head, 1, sizeof(head), fp);
	fclose(fp);
	if (n == 0) {
		*why = "it is empty";
		return 0;
	}
	if (memcmp(head, "gmon", n < 4 ? n : 4) != 0) {
		*why = "it is not a gmon file (no \"gmon\" magic)";
		return 0;
	}
	if (n < GMON_HEADER)
		return -1;
	return 1;
}

/* Name a skipped member and why, unless asked to be quiet. */
static void skipped(int quiet, const char *operand, const char *name, const char *why)
{
	if (!quiet)
		warning("skipping '%s/%s': %s", operand, name, why);
}

/* A sidecar whose gmon file is there is read with it, not skipped. */
static int sidecar_has_gmon(const char *path)
{
	size_t k = strlen(path) - strlen(".callpath");
	char *gmon = strndup(path, k);
	struct stat st;
	int ok = gmon && stat(gmon, &st) == 0;

	free(gmon);
	return ok;
}

static int cmp_natural(const void *pa, const void *pb)
{
	const char *a = *(char *const *)pa, *b = *(char *const *)pb;

	/* strverscmp orders digit runs by value: gmon.9 < gmon.10 */
	return strverscmp(a, b);
}

/*
 * A runtime's snapshot, "<gmon name>.snap<K>" (doc/snapshots.md): a
 * cumulative profile of a run that also left (or will leave) its final
 * gmon file, so a directory's sum must not take it.
 */
static int is_snapshot(const char *name)
{
	const char *p = strstr(name, ".snap");
	const char *last = NULL;

	for (; p; p = strstr(p + 1, ".snap"))
		last = p;
	if (!last || !last[5])
		return 0;
	for (p = last + 5; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 1;
}

/*
 * A quoted pattern that names no file ('run/gmon.*.snap3'): the gmon files
 * it matches, as a directory's members are taken but for snapshots, which
 * the pattern names on purpose.  A set of snapshots (every rank's third)
 * is one side of --diff this way.
 */
static int expand_pattern(const char *operand, char ***filesp, size_t *np, int quiet)
{
	glob_t g;
	char **files = NULL;
	size_t n = 0, cap = 0;
	int r = glob(operand, 0, NULL, &g);

	if (r == GLOB_NOMATCH)
		return quiet ? -1 : error("%s: no such file, and no file matches it "
					  "as a pattern", operand);
	if (r != 0)
		return quiet ? -1 : error("%s: cannot match this pattern", operand);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *path = g.gl_pathv[i], *why = NULL;
		struct stat st;
		int kind;

		if (ends_with(path, ".callpath"))
			continue;	/* read with its gmon file */
		if (strstr(path, ".tmp."))
			why = "a temporary file";
		else if (ends_with(path, ".sum"))
			why = "a sum (its runs would count twice)";
		else if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
			why = "it is not a regular file";
		else if ((kind = classify_member(path, &why)) < 0) {
			if (!quiet)
				error("%s: truncated gmon file (%lld bytes, shorter than "
				      "the %d-byte gmon header)", path,
				      (long long)st.st_size, GMON_HEADER);
			goto fail;
		}
		if (why) {
			if (!quiet)
				warning("skipping '%s' (matched by '%s'): %s", path,
					operand, why);
			continue;
		}
		if (array_grow(&files, &cap, n + 1, sizeof(*files)) < 0 ||
		    !(files[n] = strdup(path))) {
			if (!quiet)
				error("out of memory");
			goto fail;
		}
		n++;
	}
	globfree(&g);
	if (n == 0) {
		free(files);
		return quiet ? -1 : error("%s: no gmon files match this pattern", operand);
	}
	qsort(files, n, sizeof(char *), cmp_natural);
	*filesp = files;
	*np = n;
	return 0;
fail:
	globfree(&g);
	operands_free(files, n);
	return -1;
}

static int expand(const char *operand, char ***filesp, size_t *np, int quiet)
{
	struct stat st;
	DIR *dir;
	struct dirent *de;
	char **files = NULL;
	size_t n = 0, cap = 0;

	*filesp = NULL;
	*np = 0;
	if (stat(operand, &st) < 0) {
		if (errno == ENOENT && strpbrk(operand, "*?["))
			return expand_pattern(operand, filesp, np, quiet);
		return quiet ? -1 : error("%s: %s", operand, strerror(errno));
	}
	if (!S_ISDIR(st.st_mode)) {
		files = malloc(sizeof(char *));
		if (!files || !(files[0] = strdup(operand))) {
			free(files);
			return quiet ? -1 : error("out of memory");
		}
		*filesp = files;
		*np = 1;
		return 0;
	}
	dir = opendir(operand);
	if (!dir)
		return quiet ? -1 : error("%s: %s", operand,
					  strerror(errno));
	while ((de = readdir(dir))) {
		size_t len;
		char *path;
		struct stat fst;
		const char *why = NULL;
		int kind;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		len = strlen(operand) + strlen(de->d_name) + 2;
		path = malloc(len);
		if (!path)
			goto oom;
		snprintf(path, len, "%s/%s", operand, de->d_name);
		if (ends_with(de->d_name, ".callpath")) {
			if (!sidecar_has_gmon(path))
				skipped(quiet, operand, de->d_name,
					"a call-path sidecar without its gmon file");
			free(path);
			continue;
		}
		if (de->d_name[0] == '.')
			why = "a hidden file";
		else if (ends_with(de->d_name, ".sum"))
			why = "a sum (its runs would count twice)";
		else if (strstr(de->d_name, ".tmp."))
			why = "a temporary file";
		else if (is_snapshot(de->d_name))
			why = "a snapshot (the run's profile so far: it would count "
			      "that run twice; name snapshots to use them, "
			      "e.g. 'DIR/gmon.*.snap3')";
		else if (stat(path, &fst) < 0 || !S_ISREG(fst.st_mode))
			why = "it is not a regular file";
		if (why) {
			skipped(quiet, operand, de->d_name, why);
			free(path);
			continue;
		}
		kind = classify_member(path, &why);
		if (kind < 0) {
			if (!quiet)
				error("%s: truncated gmon file (%lld bytes, "
				      "shorter than the %d-byte gmon header)", path,
				      (long long)fst.st_size, GMON_HEADER);
			free(path);
			closedir(dir);
			operands_free(files, n);
			return -1;
		}
		if (kind == 0) {
			skipped(quiet, operand, de->d_name, why);
			free(path);
			continue;
		}
		if (array_grow(&files, &cap, n + 1, sizeof(*files)) < 0) {
			free(path);
			goto oom;
		}
		files[n++] = path;
	}
	closedir(dir);
	if (n == 0) {
		free(files);
		return quiet ? -1 : error("%s: no gmon files in this directory", operand);
	}
	qsort(files, n, sizeof(char *), cmp_natural);
	*filesp = files;
	*np = n;
	return 0;
oom:
	closedir(dir);
	operands_free(files, n);
	return quiet ? -1 : error("out of memory");
}

int gmon_operand_expand(const char *operand, char ***filesp, size_t *np)
{
	return expand(operand, filesp, np, 0);
}

int gmon_operand_expand_quiet(const char *operand, char ***filesp, size_t *np)
{
	return expand(operand, filesp, np, 1);
}

int gmon_operand_expand_all(char *const *given, size_t noperands,
			    char ***filesp, size_t *np)
{
	char **all = NULL, **operands;
	size_t n = 0, cap = 0, i;

	*filesp = NULL;
	*np = 0;
	/* sidecars among the operands (run1/gmon.*) go with their gmon files */
	operands = malloc((noperands + 1) * sizeof(*operands));
	if (!operands)
		return error("out of memory");
	memcpy(operands, given, noperands * sizeof(*operands));
	if (gmon_operands_drop_sidecars(operands, &noperands) < 0)
		goto fail;
	for (i = 0; i < noperands; i++) {
		char **files;
		size_t k;

		if (gmon_operand_expand(operands[i], &files, &k) < 0)
			goto fail;
		if (n + k < n || array_grow(&all, &cap, n + k, sizeof(*all)) < 0) {
			operands_free(files, k);
			error("out of memory");
			goto fail;
		}
		memcpy(all + n, files, k * sizeof(*files));
		n += k;
		free(files); /* the paths moved to `all` */
	}
	free(operands);
	*filesp = all;
	*np = n;
	return 0;
fail:
	free(operands);
	operands_free(all, n);
	return -1;
}

int operand_is_sidecar(const char *path)
{
	char magic[sizeof(SIDECAR_MAGIC) - 1];
	struct stat st;
	FILE *fp;
	int ok;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || !(fp = fopen(path, "rb")))
		return 0;
	ok = fread(magic, 1, sizeof(magic), fp) == sizeof(magic) &&
	     !memcmp(magic, SIDECAR_MAGIC, sizeof(magic));
	fclose(fp);
	return ok;
}

/* Whether `gmon` names one of ops[] (as given, or the same file). */
static int among(char *const *ops, size_t n, const char *gmon)
{
	struct stat a, b;
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(ops[i], gmon))
			return 1;
	if (stat(gmon, &a) < 0)
		return 0;
	for (i = 0; i < n; i++)
		if (stat(ops[i], &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return 1;
	return 0;
}

int gmon_operands_drop_sidecars(char **ops, size_t *np)
{
	size_t n = *np, i, k;
	char *is_sc = calloc(n ? n : 1, 1);
	int dropped = 0;

	if (!is_sc)
		return error("out of memory");
	for (i = 0; i < n; i++)
		is_sc[i] = (char)operand_is_sidecar(ops[i]);
	for (i = 0; i < n; i++) {
		size_t len = strlen(ops[i]), sl = strlen(SIDECAR_SUFFIX);
		char *gmon;
		int found;

		if (!is_sc[i])
			continue;
		if (len <= sl || strcmp(ops[i] + len - sl, SIDECAR_SUFFIX) != 0) {
			free(is_sc);
			return error("'%s' is a call-path sidecar, not a gmon file; a sidecar "
				     "is named after its gmon file ('GMON%s')", ops[i],
				     SIDECAR_SUFFIX);
		}
		if (!(gmon = strndup(ops[i], len - sl))) {
			free(is_sc);
			return error("out of memory");
		}
		found = among(ops, n, gmon);
		if (!found) {
			error("'%s' is a call-path sidecar, and its gmon file '%s' is not "
			      "among the operands", ops[i], gmon);
			free(gmon);
			free(is_sc);
			return -1;
		}
		free(gmon);
	}
	for (i = k = 0; i < n; i++) {
		if (is_sc[i])
			dropped++;
		else
			ops[k++] = ops[i];
	}
	*np = k;
	free(is_sc);
	return dropped;
}
