#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "format/sidecar.h"
#include "diff/ranks.h"
#include "utils/error.h"
#include "utils/banned.h"

static char *sidecar_path_of(const char *gmon)
{
	size_t len = strlen(gmon) + sizeof(SIDECAR_SUFFIX);
	char *path = malloc(len);

	if (path && sidecar_name_for(gmon, path, len) < 0) {
		free(path);
		path = NULL;
	}
	return path;
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* "gmon.12345" -> 12345: glibc's "<prefix>.<pid>". */
static uint64_t pid_from_name(const char *path)
{
	const char *dot = strrchr(base_name(path), '.');
	char *end;
	unsigned long long v;

	if (!dot || !dot[1])
		return 0;
	errno = 0;
	v = strtoull(dot + 1, &end, 10);
	return errno || *end ? 0 : (uint64_t)v;
}

static char *format(const char *fmt, long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), fmt, v);
	return strdup(buf);
}

/* Read the sidecar of one file; on failure warn and leave the rank unknown,
 * since a damaged sidecar must not stop the analysis of the gmon files. */
static void identify_one(struct rank_id *id)
{
	char *path = sidecar_path_of(id->gmon);
	struct sidecar *sc = NULL;
	char err[4400];

	if (!path || !exists(path)) {
		free(path);
		return;
	}
	if (sidecar_read_head(path, &sc, err, sizeof(err)) < 0) {
		warning("%s; labelling '%s' by its name", err, id->gmon);
		free(path);
		return;
	}
	/* another run's sidecar would give this file another run's rank */
	if (!sidecar_belongs_to(sc, id->gmon, err, sizeof(err))) {
		warning("%s: does not belong to '%s' (%s); labelling '%s' by its name",
			path, id->gmon, err, id->gmon);
		sidecar_free(sc);
		free(path);
		return;
	}
	id->sidecar = path;
	id->rank = sc->rank;
	id->pid = sc->pid;
	sidecar_free(sc);
}

int ranks_identify(char *const *files, size_t n, struct rank_id **out)
{
	struct rank_id *ids = calloc(n ? n : 1, sizeof(*ids));
	size_t i, *order = NULL;

	*out = NULL;
	if (!ids)
		return error("out of memory");
	for (i = 0; i < n; i++) {
		struct rank_id *id = &ids[i];

		id->rank = -1;
		id->gmon = strdup(files[i]);
		if (!id->gmon)
			goto oom;
		identify_one(id);
		if (!id->sidecar)
			id->pid = pid_from_name(files[i]);
		if (id->rank >= 0) {
			id->label = format("rank %ld", id->rank);
			id->tag = format("%ld", id->rank);
		} else {
			id->label = strdup(base_name(files[i]));
			id->tag = format("#%ld", (long)i);
		}
		if (!id->label || !id->tag)
			goto oom;
	}
	/* Duplicate ranks: two runs mixed in one directory, most likely. */
	order = malloc((n ? n : 1) * sizeof(*order));
	if (!order)
		goto oom;
	ranks_sort(ids, n, order);
	for (i = 1; i < n; i++) {
		const struct rank_id *a = &ids[order[i - 1]], *b = &ids[order[i]];

		if (a->rank >= 0 && a->rank == b->rank) {
			warning("'%s' and '%s' both claim rank %d: are two runs in one directory?",
				a->gmon, b->gmon, a->rank);
			break;
		}
	}
	free(order);
	*out = ids;
	return 0;
oom:
	ranks_free(ids, n);
	return error("out of memory");
}

void ranks_free(struct rank_id *ids, size_t n)
{
	size_t i;

	if (!ids)
		return;
	for (i = 0; i < n; i++) {
		free(ids[i].gmon);
		free(ids[i].sidecar);
		free(ids[i].label);
		free(ids[i].tag);
	}
	free(ids);
}

int ranks_paired(const struct rank_id *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!ids[i].sidecar)
			return 0;
	return n > 0;
}

size_t ranks_known(const struct rank_id *ids, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		k += ids[i].rank >= 0;
	return k;
}

static int cmp_order(const void *pa, const void *pb, void *ctx)
{
	const struct rank_id *ids = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int ra = ids[a].rank, rb = ids[b].rank;

	if ((ra < 0) != (rb < 0))
		return ra < 0 ? 1 : -1;
	if (ra != rb)
		return ra < rb ? -1 : 1;
	return a < b ? -1 : a > b;
}

void ranks_sort(const struct rank_id *ids, size_t n, size_t *order)
{
	size_t i;

	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), cmp_order, (void *)ids);
}
