#include "utils/radixsort.h"
#include <string.h>
#include "utils/banned.h"

unsigned radix_bits(uint64_t max)
{
	return max ? 64 - (unsigned)__builtin_clzll(max) : 0;
}

void radix_key_push(struct radix_key *k, uint64_t v, unsigned bits)
{
	if (!bits)
		return;
	if (bits >= 64) {
		k->hi = k->lo;
		k->lo = v;
	} else {
		k->hi = k->hi << bits | k->lo >> (64 - bits);
		k->lo = k->lo << bits | v;
	}
	k->bits += bits;
}

static unsigned digit(const struct radix_item *it, unsigned byte)
{
	return (unsigned)((byte < 8 ? it->lo >> (8 * byte) : it->hi >> (8 * (byte - 8))) & 0xff);
}

struct radix_item *radix_sort(struct radix_item *a, struct radix_item *tmp,
			      size_t n, unsigned key_bits)
{
	unsigned bytes = (key_bits + 7) / 8;

	for (unsigned b = 0; b < bytes && b < 16; b++) {
		size_t count[256] = { 0 }, pos = 0;
		struct radix_item *t;

		for (size_t i = 0; i < n; i++)
			count[digit(&a[i], b)]++;
		if (n && count[digit(&a[0], b)] == n)
			continue;	/* one digit throughout: order kept */
		for (unsigned d = 0; d < 256; d++) {
			size_t c = count[d];

			count[d] = pos;
			pos += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[digit(&a[i], b)]++] = a[i];
		t = a;
		a = tmp;
		tmp = t;
	}
	return a;
}
