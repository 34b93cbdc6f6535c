/*
 * sum.c - sum the sidecars of several gmon files.
 */
#include "callpath/sum.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callpath/sidecar.h"
#include "utils/error.h"
#include "utils/banned.h"

static int same_build(const struct sidecar *a, const struct sidecar *b)
{
	if (!a->build_id_len || !b->build_id_len)
		return 1;	/* nothing to compare */
	return a->build_id_len == b->build_id_len &&
	       !memcmp(a->build_id, b->build_id, a->build_id_len);
}

/*
 * sidecar_merge() pairs nodes by run-time address; two runs of a PIE
 * program load it at different addresses, so move src to dst's first.
 */
static struct sidecar *rebased(const struct sidecar *src, uint64_t load)
{
	struct sidecar *sc = sidecar_new();
	uint32_t *map = malloc(((size_t)src->nr_nodes + 1) * sizeof(*map));
	uint64_t shift = load - src->load_address;	/* modulo 2^64 */

	if (!sc || !map)
		goto fail;
	for (uint32_t i = 0; i < src->nr_nodes; i++) {
		const struct sidecar_node *n = &src->nodes[i];
		uint32_t parent = n->parent == SIDECAR_ROOT ? SIDECAR_ROOT
							    : map[n->parent];

		if (sidecar_add(sc, parent, n->call_site + shift, n->callee + shift,
				n->count, &map[i]) < 0)
			goto fail;
	}
	memcpy(sc->dropped, src->dropped, sizeof(sc->dropped));
	sc->threads = src->threads;
	sc->flags = src->flags;
	sc->pid = src->pid;
	sc->failure = src->failure;
	sc->load_address = load;
	free(map);
	return sc;
fail:
	free(map);
	sidecar_free(sc);
	return NULL;
}

int callpath_sum_add(struct sidecar *dst, const struct sidecar *src,
		     const char *name)
{
	struct sidecar *moved = NULL;
	char err[4096];
	int ret;

	if (!same_build(dst, src))
		return error("cannot sum '%s': it comes from another binary "
			     "(build-id differs)", name);
	if (src->load_address != dst->load_address) {
		moved = rebased(src, dst->load_address);
		if (!moved)
			return error("out of memory while summing '%s'", name);
		src = moved;
	}
	ret = sidecar_merge(dst, src, err, sizeof(err));
	sidecar_free(moved);
	if (ret < 0)
		return error("%s", err);
	return 0;
}

int callpath_sum_read(char *const *gmon_files, size_t n, struct sidecar **out,
		      size_t *missing)
{
	struct sidecar *total = NULL;
	char name[4096], err[4096];

	*out = NULL;
	*missing = n;
	for (size_t i = 0; i < n; i++) {
		struct sidecar *sc;

		if (sidecar_name_for(gmon_files[i], name, sizeof(name)) < 0) {
			sidecar_free(total);
			return error("file name too long: '%s'", gmon_files[i]);
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
		if (!total) {
			total = sc;
			continue;
		}
		if (callpath_sum_add(total, sc, name) < 0) {
			sidecar_free(sc);
			sidecar_free(total);
			return -1;
		}
		sidecar_free(sc);
	}
	*out = total;
	return 0;
}

int callpath_sum_write(char *const *gmon_files, size_t n, const char *out_path)
{
	struct sidecar *sc;
	size_t missing;
	char err[4096];
	int ret = 0;

	if (callpath_sum_read(gmon_files, n, &sc, &missing) < 0)
		return -1;
	if (!sc)
		return 0;
	if (missing != n) {
		warning("not writing '%s': '%s' has no call-path sidecar",
			out_path, gmon_files[missing]);
	} else if (sidecar_write_atomic(sc, out_path, err, sizeof(err)) < 0) {
		ret = error("%s", err);
	}
	sidecar_free(sc);
	return ret;
}
