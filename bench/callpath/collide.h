/*
 * collide.h - adversarial sidecar keys for the merge benchmark
 * (bench/callpath/merge.sh) and its unit test (test_sidecar.c).
 *
 * Until session 3 the sidecar index was an open-addressing hash table of
 * (parent, call site, callee) with the hash below; keys whose hashes all
 * collide made every sum of trees quadratic (200,000 nodes: 32 s).
 * collide_callee(parent, call_site, r) returns a callee for which that hash
 * of (parent, call_site, callee) is 0, a different callee for each r, by
 * running the hash backwards from a value whose two 32-bit halves are equal.
 */
#ifndef BENCH_CALLPATH_COLLIDE_H
#define BENCH_CALLPATH_COLLIDE_H

#include <stdint.h>

/* The old index's hash, kept here to show what the keys defeat. */
static inline uint32_t collide_old_hash(uint32_t parent, uint64_t call_site,
					uint64_t callee)
{
	uint64_t h = call_site * 0x9e3779b97f4a7c15ull;

	h ^= callee + 0x632be59bd9b4e019ull + (h << 6) + (h >> 2);
	h ^= (uint64_t)parent * 0xc2b2ae3d27d4eb4full;
	h ^= h >> 29;
	return (uint32_t)(h ^ (h >> 32));
}

static inline uint64_t collide_callee(uint32_t parent, uint64_t call_site,
				      uint32_t r)
{
	uint64_t h0 = call_site * 0x9e3779b97f4a7c15ull;
	uint64_t h3 = ((uint64_t)r << 32) | r;	/* h3 ^ (h3 >> 32) has low half 0 */
	uint64_t h2 = h3 ^ (h3 >> 29) ^ (h3 >> 58);	/* undo h ^= h >> 29 */
	uint64_t h1 = h2 ^ (uint64_t)parent * 0xc2b2ae3d27d4eb4full;

	return (h1 ^ h0) - 0x632be59bd9b4e019ull - (h0 << 6) - (h0 >> 2);
}

#endif
