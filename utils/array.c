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
