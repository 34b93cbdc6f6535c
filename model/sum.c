/*
 * sum.c - sum the sidecars of several gmon files (model/sum.h).
 */
#include "model/sum.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/sidecar.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/banned.h"

#define MERGE_PREFIX "cannot merge sidecars: "

/* sidecar_merge() cannot name files; we can, so drop its generic prefix. */
static const char *merge_reason(const char *err)
{
	size_t k = sizeof(MERGE_PREFIX) - 1;

	return strncmp(err, MERGE_PREFIX, k) ? err : err + k;
}

int callpath_pair_check(const struct sidecar *sc, const char *sidecar,
			const char *gmon, int force)
{
	char why[4400];

	if (sidecar_belongs_to(sc, gmon, why, sizeof(why)))
		return 0;
	if (force) {
		warning("%s: does not belong to '%s' (%s): read anyway (--force)",
			sidecar, gmon, why);
		return 0;
	}
	return error("%s: does not belong to '%s': %s (a sidecar left from another "
		     "run? --force reads it anyway)", sidecar, gmon, why);
}

int callpath_sum_identify(struct sidecar *sc, const char *gmon_sum)
{
	struct stat st;

	sc->id.flags = SIDECAR_ID_SUM;
	sc->id.gmon_size = sc->id.gmon_hash = 0;
	sc->id.snapshot = 0;
	if (sidecar_set_gmon_name(sc, gmon_sum ? gmon_sum : "") < 0)
		return error("out of memory");
	if (!gmon_sum || stat(gmon_sum, &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	if (sidecar_hash_file(gmon_sum, &sc->id.gmon_size, &sc->id.gmon_hash) != 0)
		return error("%s: cannot read: %s", gmon_sum, strerror(errno));
	sc->id.flags |= SIDECAR_ID_HASHED;
	return 0;
}

int callpath_sum_read(char *const *gmon_files, size_t n, int force,
		      struct sidecar **out, size_t *missing)
{
	struct sidecar *total = NULL;
	char first[4096], name[4096], err[4096];

	*out = NULL;
	*missing = n;
	for (size_t i = 0; i < n; i++) {
		struct sidecar *sc;
		int r;

		if (sidecar_name_for(gmon_files[i], name, sizeof(name)) < 0) {
			sidecar_free(total);
			return error("%s: file name too long", gmon_files[i]);
		}
		if (access(name, F_OK) != 0 && errno == ENOENT) {
			if (*missing == n)
				*missing = i;
			continue;
		}
		if (sidecar_read(name, &sc, err, sizeof(err)) < 0) {
			sidecar_free(total);
			return error("%s", err);
		}
		if (callpath_pair_check(sc, name, gmon_files[i], force) < 0) {
			sidecar_free(sc);
			sidecar_free(total);
			return -1;
		}
		if (!total) {
			total = sc;
			snprintf(first, sizeof(first), "%s", name);
			continue;
		}
		r = sidecar_merge(total, sc, err, sizeof(err));
		sidecar_free(sc);
		if (r < 0) {
			sidecar_free(total);
			return error("%s: cannot sum with '%s': %s", name, first,
				     merge_reason(err));
		}
		if (r > 0)
			warning("%s: %s", name, SIDECAR_SATURATED);
	}
	*out = total;
	return 0;
}

/* Nothing is written: a sum of an earlier run must not stay beside the new
 * gmon sum.  Says so when the user could expect one. */
static int remove_stale(struct outset *set, const char *out_path, int tell)
{
	if (set) {
		/* with the command's outputs, when it succeeded */
		if (tell && access(out_path, F_OK) == 0)
			warning("removing '%s' of an earlier run: it does not match "
				"the new gmon sum", out_path);
		return outset_remove(set, out_path);
	}
	if (unlink(out_path) == 0) {
		if (tell)
			warning("removed '%s' of an earlier run: it does not match "
				"the new gmon sum", out_path);
		return 0;
	}
	if (errno == ENOENT)
		return 0;
	return error("%s: cannot remove this sum of an earlier run, which does not match "
		     "the new gmon sum: %s", out_path, strerror(errno));
}

static int write_sidecar(FILE *fp, const void *sc)
{
	return sidecar_write_fp(sc, fp);
}

int callpath_sum_store(struct outset *set, const char *out_path,
		       const struct sidecar *sc, const char *missing, int some)
{
	if (!some)
		return remove_stale(set, out_path, 0);
	if (missing) {
		warning("not writing '%s': '%s' has no call-path sidecar, and a sum "
			"without its calls would not match the gmon sum",
			out_path, missing);
		return remove_stale(set, out_path, 1);
	}
	if (!sc)
		return error("internal error: no sidecar sum to write to '%s'", out_path);
	/* like every output: staged, committed with the command's others */
	return outfile_write(set, out_path, write_sidecar, sc);
}

int callpath_sum_write(char *const *gmon_files, size_t n, int force,
		       const char *out_path)
{
	struct sidecar *sc;
	size_t missing, len = strlen(out_path), k = strlen(SIDECAR_SUFFIX);
	char gmon_sum[4096];
	int ret;

	if (callpath_sum_read(gmon_files, n, force, &sc, &missing) < 0) {
		remove_stale(NULL, out_path, 1);
		return -1;
	}
	/* the gmon sum is the sidecar's name without its suffix */
	snprintf(gmon_sum, sizeof(gmon_sum), "%.*s",
		 (int)(len > k && !strcmp(out_path + len - k, SIDECAR_SUFFIX) ? len - k : len),
		 out_path);
	if (sc && callpath_sum_identify(sc, gmon_sum) < 0) {
		sidecar_free(sc);
		return -1;
	}
	ret = callpath_sum_store(NULL, out_path, sc,
				 missing == n ? NULL : gmon_files[missing], sc != NULL);
	sidecar_free(sc);
	return ret;
}
