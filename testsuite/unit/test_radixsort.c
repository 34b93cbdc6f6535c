/* Unit tests for the radix sort of packed keys (utils/radixsort.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "utils/radixsort.h"
#include "utils/banned.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Records with three fields, sorted by (a desc, b asc, c desc) */
struct rec {
	uint64_t a, b;
	uint32_t c;
	uint32_t id;
};

static int cmp_rec(const void *pa, const void *pb)
{
	const struct rec *x = pa, *y = pb;

	if (x->a != y->a)
		return x->a > y->a ? -1 : 1;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	if (x->c != y->c)
		return x->c > y->c ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;	/* radix sort is stable */
}

/* Sort n records with fields below the given maxima both ways and compare. */
static void sorts_as_qsort(size_t n, uint64_t amax, uint64_t bmax, uint32_t cmax)
{
	struct rec *r = calloc(n + 1, sizeof(*r)), *want = calloc(n + 1, sizeof(*want));
	struct radix_item *a = calloc(n + 1, sizeof(*a)), *t = calloc(n + 1, sizeof(*t));
	const struct radix_item *got;
	uint64_t ma = 0, mb = 0, mc = 0;
	unsigned ba, bb, bc;

	assert_non_null(r);
	assert_non_null(want);
	assert_non_null(a);
	assert_non_null(t);
	for (size_t i = 0; i < n; i++) {
		r[i].a = amax ? next() % amax : 0;
		r[i].b = bmax ? next() % bmax : 0;
		r[i].c = cmax ? (uint32_t)(next() % cmax) : 0;
		r[i].id = (uint32_t)i;
		ma = r[i].a > ma ? r[i].a : ma;
		mb = r[i].b > mb ? r[i].b : mb;
		mc = r[i].c > mc ? r[i].c : mc;
	}
	memcpy(want, r, n * sizeof(*r));
	qsort(want, n, sizeof(*want), cmp_rec);
	ba = radix_bits(ma);
	bb = radix_bits(mb);
	bc = radix_bits(mc);
	assert_true(ba + bb + bc <= RADIX_KEY_MAX_BITS);
	for (size_t i = 0; i < n; i++) {
		struct radix_key k = RADIX_KEY_INIT;

		radix_key_push(&k, ma - r[i].a, ba);
		radix_key_push(&k, r[i].b, bb);
		radix_key_push(&k, mc - r[i].c, bc);
		assert_int_equal(k.bits, ba + bb + bc);
		a[i] = (struct radix_item){ k.lo, k.hi, (uint32_t)i };
	}
	got = radix_sort(a, t, n, ba + bb + bc);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(got[i].value, want[i].id);
	free(r);
	free(want);
	free(a);
	free(t);
}

static void test_radixsort__bits_are_the_width_of_the_largest_value(void **state)
{
	(void)state;
	assert_int_equal(radix_bits(0), 0);
	assert_int_equal(radix_bits(1), 1);
	assert_int_equal(radix_bits(255), 8);
	assert_int_equal(radix_bits(256), 9);
	assert_int_equal(radix_bits(UINT64_MAX), 64);
}

static void test_radixsort__pushed_fields_pack_most_significant_first(void **state)
{
	struct radix_key k = RADIX_KEY_INIT;

	(void)state;
	radix_key_push(&k, 0x5, 3);
	radix_key_push(&k, 0xffffffffffffffffull, 64);
	radix_key_push(&k, 0x1, 2);
	/* 101 | 64 ones | 01: hi holds the top 5 bits of the 69 */
	assert_int_equal(k.bits, 69);
	assert_int_equal(k.hi, 0x17);	/* 1 0111: 101 and the first two ones */
	assert_true(k.lo == 0xfffffffffffffffdull);	/* 62 ones then 01 */
}

static void test_radixsort__orders_as_qsort_on_narrow_keys(void **state)
{
	(void)state;
	sorts_as_qsort(1000, 10, 1000, 3);
	sorts_as_qsort(50000, 2, 0, 0);	/* many ties: stability decides */
	sorts_as_qsort(1, 5, 5, 5);
	sorts_as_qsort(0, 5, 5, 5);
}

static void test_radixsort__orders_as_qsort_on_keys_over_64_bits(void **state)
{
	(void)state;
	/* 40 + 50 + 32 bits: the key spans both words */
	sorts_as_qsort(20000, (uint64_t)1 << 40, (uint64_t)1 << 50, UINT32_MAX);
	sorts_as_qsort(20000, UINT64_MAX, UINT64_MAX, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_radixsort__bits_are_the_width_of_the_largest_value),
		cmocka_unit_test(test_radixsort__pushed_fields_pack_most_significant_first),
		cmocka_unit_test(test_radixsort__orders_as_qsort_on_narrow_keys),
		cmocka_unit_test(test_radixsort__orders_as_qsort_on_keys_over_64_bits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
