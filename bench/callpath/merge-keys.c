/*
 * merge-keys.c - write the sidecars bench/callpath/merge.sh sums.
 *
 *   merge-keys N colliding.callpath random.callpath
 *
 * Both are main with N children under one call site; in the first the
 * callees are keys that all collide in the hash index sidecars had before
 * session 3 (collide.h), in the second they are spread as a hash likes.
 */
#include <stdio.h>
#include <stdlib.h>

#include "format/sidecar.h"
#include "bench/callpath/collide.h"

static int write_tree(const char *path, uint32_t n, int colliding)
{
	struct sidecar *sc = sidecar_new();
	char err[512];
	uint32_t m, x;
	uint64_t seed = 88172645463325252ull;

	if (!sc || sidecar_add(sc, SIDECAR_ROOT, 0, 0x1000, 1, &m) < 0)
		return -1;
	for (uint32_t r = 1; r <= n; r++) {
		uint64_t callee;

		seed ^= seed << 13;	/* xorshift64 */
		seed ^= seed >> 7;
		seed ^= seed << 17;
		callee = colliding ? collide_callee(m, 0x1010, r) : seed;
		if (sidecar_add(sc, m, 0x1010, callee, 1, &x) < 0)
			return -1;
	}
	sc->threads = 1;
	if (sidecar_write_atomic(sc, path, err, sizeof(err)) < 0) {
		fprintf(stderr, "merge-keys: %s\n", err);
		return -1;
	}
	sidecar_free(sc);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: merge-keys N colliding.callpath random.callpath\n");
		return 2;
	}
	if (write_tree(argv[2], (uint32_t)strtoul(argv[1], NULL, 10), 1) < 0 ||
	    write_tree(argv[3], (uint32_t)strtoul(argv[1], NULL, 10), 0) < 0)
		return 1;
	return 0;
}
