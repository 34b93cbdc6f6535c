#define _GNU_SOURCE /* strverscmp */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "callpath/sidecar.h"
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

static int is_gmon_file(const char *path)
{
	char magic[4];
	FILE *fp = fopen(path, "rb");
	int ok;

	if (!fp)
		return 0;
	ok = fread(magic, 1, 4, fp) == 4 && !memcmp(magic, "gmon", 4);
	fclose(fp);
	return ok;
}

static int cmp_natural(const void *pa, const void *pb)
{
	const char *a = *(char *const *)pa, *b = *(char *const *)pb;

	/* strverscmp orders digit runs by value: gmon.9 < gmon.10 */
	return strverscmp(a, b);
}

int gmon_operand_expand(const char *operand, char ***filesp, size_t *np)
{
	struct stat st;
	DIR *dir;
	struct dirent *de;
	char **files = NULL;
	size_t n = 0, cap = 0;

	*filesp = NULL;
	*np = 0;
	if (stat(operand, &st) < 0)
		return error("cannot read '%s': %s", operand, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		files = malloc(sizeof(char *));
		if (!files || !(files[0] = strdup(operand))) {
			free(files);
			return error("out of memory");
		}
		*filesp = files;
		*np = 1;
		return 0;
	}
	dir = opendir(operand);
	if (!dir)
		return error("cannot read directory '%s': %s", operand, strerror(errno));
	while ((de = readdir(dir))) {
		size_t len;
		char *path;
		struct stat fst;

		if (de->d_name[0] == '.' || ends_with(de->d_name, ".sum") ||
		    ends_with(de->d_name, ".callpath") || strstr(de->d_name, ".tmp."))
			continue;
		len = strlen(operand) + strlen(de->d_name) + 2;
		path = malloc(len);
		if (!path)
			goto oom;
		snprintf(path, len, "%s/%s", operand, de->d_name);
		if (stat(path, &fst) < 0 || !S_ISREG(fst.st_mode) || !is_gmon_file(path)) {
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
		return error("'%s': no gmon files in this directory", operand);
	}
	qsort(files, n, sizeof(char *), cmp_natural);
	*filesp = files;
	*np = n;
	return 0;
oom:
	closedir(dir);
	operands_free(files, n);
	return error("out of memory");
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
