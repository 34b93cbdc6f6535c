#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "utils/array.h"
#include "utils/banned.h"

int array_grow(void *arrp, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap ? *cap : 16;
	void *old, *q;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return -1;
		c *= 2;
	}
	if (elem && c > SIZE_MAX / elem)
		return -1;
	memcpy(&old, arrp, sizeof(old));
	q = realloc(old, c * elem);
	if (!q)
		return -1;
	memcpy(arrp, &q, sizeof(q));
	*cap = c;
	return 0;
}

int array_index_grow(size_t **slots, size_t *nslots, size_t n,
		     size_t (*hash_of)(const void *ctx, size_t i), const void *ctx)
{
	size_t size = *nslots ? 2 * *nslots : 1024, i;
	size_t *ns;

	if (size < *nslots || size > SIZE_MAX / sizeof(*ns))
		return -1;
	ns = calloc(size, sizeof(*ns));
	if (!ns)
		return -1;
	for (i = 0; i < n; i++) {
		size_t j = hash_of(ctx, i) & (size - 1);

		while (ns[j])
			j = (j + 1) & (size - 1);
		ns[j] = i + 1;
	}
	free(*slots);
	*slots = ns;
	*nslots = size;
	return 0;
}
