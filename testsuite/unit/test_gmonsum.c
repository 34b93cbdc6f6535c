/*
 * test_gmonsum.c - egprof-sum's sums (mpi/gmonsum.c): bins in blocks as
 * narrow as their counts, files read through a window, sums sent as parts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi/gmonsum.h"
#include "utils/banned.h"

#define LOW 0x400000u

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

/* A gmon file of one histogram of nbins bins, bin k = value(k), and one
 * arc (LOW, LOW + 64) of `calls`; cut to `cut` bytes when not 0.  Its
 * path (a temporary file). */
static char *gmon_file(uint32_t nbins, uint16_t (*value)(uint32_t), uint32_t calls, size_t cut)
{
	size_t len = 20 + 41 + 2 * (size_t)nbins + 21;
	unsigned char *b = calloc(1, len), *p;
	char *path = strdup("/tmp/test_gmonsum.XXXXXX");
	int fd = mkstemp(path);

	assert_non_null(b);
	assert_true(fd >= 0);
	memcpy(b, "gmon", 4);
	put32(b + 4, 1);
	p = b + 20;
	*p++ = 0;
	put64(p, LOW);
	put64(p + 8, LOW + 2 * (uint64_t)nbins);
	put32(p + 16, nbins);
	put32(p + 20, 100);
	memcpy(p + 24, "seconds", 7);
	p[39] = 's';
	p += 40;
	for (uint32_t k = 0; k < nbins; k++, p += 2)
		put16(p, value(k));
	*p++ = 1;
	put64(p, LOW);
	put64(p + 8, LOW + 64);
	put32(p + 16, calls);
	assert_int_equal(write(fd, b, cut ? cut : len), (ssize_t)(cut ? cut : len));
	close(fd);
	free(b);
	return path;
}

static uint16_t ramp(uint32_t k)
{
	return (uint16_t)(k % 65536);
}

/* only the second block of 65,536 bins holds counts */
static uint16_t one_block(uint32_t k)
{
	return k / GMONSUM_BLOCK == 1 ? 60000 : 0;
}

static void test_gmonsum__zero_blocks_take_no_memory_and_one_file_stays_16_bits(void **state)
{
	char *f = gmon_file(3 * GMONSUM_BLOCK + 10, one_block, 5, 0);
	struct gmonsum s;

	(void)state;
	gmonsum_init(&s);
	assert_int_equal(gmonsum_read(&s, f), 0);
	assert_int_equal(s.nhists, 1);
	assert_int_equal(s.hists[0].blocks[0].width, 0);
	assert_null(s.hists[0].blocks[0].bins);
	assert_int_equal(s.hists[0].blocks[1].width, 2);
	assert_int_equal(s.hists[0].blocks[2].width, 0);
	assert_int_equal(s.hists[0].blocks[3].width, 0);
	assert_int_equal(gmonsum_bin(&s.hists[0], GMONSUM_BLOCK + 7), 60000);
	assert_int_equal(gmonsum_bin(&s.hists[0], 7), 0);
	unlink(f);
	free(f);
	gmonsum_release(&s);
}

static void test_gmonsum__a_block_widens_as_its_sums_need(void **state)
{
	char *f = gmon_file(3 * GMONSUM_BLOCK + 10, one_block, 0xffffffffu, 0);
	struct gmonsum s;

	(void)state;
	gmonsum_init(&s);
	for (int i = 0; i < 2; i++)
		assert_int_equal(gmonsum_read(&s, f), 0);
	assert_int_equal(s.hists[0].blocks[1].width, 4);
	assert_int_equal(gmonsum_bin(&s.hists[0], GMONSUM_BLOCK + 7), 120000);
	assert_int_equal(s.hists[0].blocks[0].width, 0);
	/* doubled 17 times: 120,000 x 2^17 > 2^32 */
	for (int i = 0; i < 17; i++) {
		struct gmonsum copy;
		unsigned char *b;
		size_t len;

		assert_int_equal(gmonsum_encode(&s, &b, &len), 0);
		assert_int_equal(gmonsum_decode(b, len, &copy), 0);
		assert_int_equal(gmonsum_add(&s, &copy), 0);
		gmonsum_release(&copy);
		free(b);
	}
	assert_int_equal(s.hists[0].blocks[1].width, 8);
	assert_true(gmonsum_bin(&s.hists[0], GMONSUM_BLOCK) == 120000ull << 17);
	assert_int_equal(s.nfiles, 2u << 17);
	assert_int_equal(s.narcs, 1);
	assert_true(s.arcs[0].count == 0xffffffffull * (2u << 17));
	unlink(f);
	free(f);
	gmonsum_release(&s);
}

static void test_gmonsum__a_truncated_histogram_is_refused_before_allocating(void **state)
{
	char *f = gmon_file(1000, ramp, 1, 20 + 41 + 100);
	struct gmonsum s;

	(void)state;
	gmonsum_init(&s);
	assert_int_equal(gmonsum_read(&s, f), -1);
	assert_int_equal(s.nhists, 0);
	unlink(f);
	free(f);
	gmonsum_release(&s);
}

static int add_to(void *ctx, const unsigned char *part, size_t len)
{
	return gmonsum_add_part(ctx, part, len);
}

static int count_part(void *ctx, const unsigned char *part, size_t len)
{
	size_t *most = ctx;

	(void)part;
	if (len > *most)
		*most = len;
	return 0;
}

static void test_gmonsum__parts_carry_the_sum_a_block_at_a_time(void **state)
{
	char *f = gmon_file(5 * GMONSUM_BLOCK, ramp, 3, 0);
	struct gmonsum s, t, u;
	unsigned char *b1, *b2;
	size_t l1, l2, most = 0;

	(void)state;
	gmonsum_init(&s);
	gmonsum_init(&t);
	assert_int_equal(gmonsum_read(&s, f), 0);
	assert_int_equal(gmonsum_read(&s, f), 0);
	/* no part is larger than a block of 16-bit... here 32-bit bins */
	assert_int_equal(gmonsum_parts(&s, count_part, &most), 0);
	assert_true(most <= 1 + 40 + 9 + 4 * (size_t)GMONSUM_BLOCK);
	assert_int_equal(gmonsum_parts(&s, add_to, &t), 0);
	assert_int_equal(t.nfiles, 2);
	for (uint32_t k = 0; k < 5 * GMONSUM_BLOCK; k += 977)
		assert_int_equal(gmonsum_bin(&t.hists[0], k), 2 * ramp(k));
	assert_int_equal(t.arcs[0].count, 6);
	/* encode, decode, encode: the same bytes */
	assert_int_equal(gmonsum_encode(&t, &b1, &l1), 0);
	assert_int_equal(gmonsum_decode(b1, l1, &u), 0);
	assert_int_equal(gmonsum_encode(&u, &b2, &l2), 0);
	assert_int_equal(l1, l2);
	assert_memory_equal(b1, b2, l1);
	/* a cut part is refused */
	gmonsum_release(&u);
	assert_int_equal(gmonsum_decode(b1, l1 - 1, &u), -1);
	free(b1);
	free(b2);
	unlink(f);
	free(f);
	gmonsum_release(&s);
	gmonsum_release(&t);
	gmonsum_release(&u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gmonsum__zero_blocks_take_no_memory_and_one_file_stays_16_bits),
		cmocka_unit_test(test_gmonsum__a_block_widens_as_its_sums_need),
		cmocka_unit_test(test_gmonsum__a_truncated_histogram_is_refused_before_allocating),
		cmocka_unit_test(test_gmonsum__parts_carry_the_sum_a_block_at_a_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
