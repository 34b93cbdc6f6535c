/*
 * test_pprof.c - the profile.proto encoder (export/pprof.c): the wire
 * bytes of each field kind, interning, what is left out, and the gzip
 * stream.  pprof itself reads whole files in t216..t218.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "export/pprof.h"
#include "utils/banned.h"

/* A tiny reader of the wire format: the fields of one message. */
struct field {
	unsigned num, wire;
	uint64_t v;              /* varint */
	const unsigned char *p;  /* length-delimited */
	size_t n;
};

static uint64_t varint(const unsigned char **p, const unsigned char *end)
{
	uint64_t v = 0;
	int shift = 0;

	while (*p < end) {
		unsigned char b = *(*p)++;

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
		shift += 7;
	}
	fail_msg("truncated varint");
	return 0;
}

static size_t fields(const unsigned char *p, size_t n, struct field *out, size_t max)
{
	const unsigned char *end = p + n;
	size_t k = 0;

	while (p < end) {
		uint64_t key = varint(&p, end);

		assert_true(k < max);
		out[k].num = (unsigned)(key >> 3);
		out[k].wire = (unsigned)(key & 7);
		if (out[k].wire == 0) {
			out[k].v = varint(&p, end);
		} else {
			assert_int_equal(out[k].wire, 2);
			out[k].n = varint(&p, end);
			out[k].p = p;
			p += out[k].n;
			assert_true(p <= end);
		}
		k++;
	}
	return k;
}

static struct pprof *small_profile(void)
{
	struct pprof *pp = pprof_new();
	uint64_t m, f, g, l1, l2;

	assert_non_null(pp);
	assert_int_equal(pprof_sample_type(pp, "samples", "count"), 0);
	assert_int_equal(pprof_sample_type(pp, "cpu", "nanoseconds"), 1);
	m = pprof_mapping(pp, 0x1000, 0x2000, "app", "abcd", 1, 1);
	f = pprof_function(pp, "main", "main", "app.c", 10);
	g = pprof_function(pp, "f", "_Z1fv", "app.c", 20);
	l1 = pprof_location(pp, m, 0x1100, f, 10);
	l2 = pprof_location(pp, m, 0x1200, g, 20);
	assert_int_equal(m, 1);
	assert_int_equal(f, 1);
	assert_int_equal(g, 2);
	assert_int_equal(l1, 1);
	assert_int_equal(l2, 2);
	pprof_sample(pp, (uint64_t[]){ l2, l1 }, 2, (int64_t[]){ 3, 30000000 }, NULL, NULL);
	pprof_sample(pp, (uint64_t[]){ l1 }, 1, (int64_t[]){ -1, -10000000 }, "pprof::base", "true");
	return pp;
}

static void test_pprof__the_same_function_and_location_are_one_id(void **state)
{
	struct pprof *pp = small_profile();

	(void)state;
	assert_int_equal(pprof_function(pp, "main", "main", "app.c", 10), 1);
	assert_int_equal(pprof_function(pp, "main", "main", "other.c", 10), 3);
	assert_int_equal(pprof_location(pp, 1, 0x1100, 1, 10), 1);
	assert_int_equal(pprof_location(pp, 2, 0x1100, 1, 10), 3);
	pprof_free(pp);
}

static void test_pprof__wire_format_of_every_field_kind(void **state)
{
	struct pprof *pp = small_profile();
	unsigned char *buf;
	size_t len, n, i, nstr = 0, nsample = 0;
	struct field top[64], sub[16], lab[4];
	const char *strings[32] = { NULL };
	size_t slen[32] = { 0 };

	(void)state;
	assert_int_equal(pprof_encode(pp, &buf, &len), 0);
	n = fields(buf, len, top, 64);
	for (i = 0; i < n; i++)
		if (top[i].num == 6) {
			strings[nstr] = (const char *)top[i].p;
			slen[nstr++] = top[i].n;
		}
	/* string_table[0] is "", and every string is written once */
	assert_true(nstr > 5);
	assert_int_equal(slen[0], 0);
	for (i = 0; i < n; i++) {
		size_t k;

		if (top[i].num != 2)
			continue;
		k = fields(top[i].p, top[i].n, sub, 16);
		if (nsample++ == 0) {
			const unsigned char *p;

			/* packed location ids, then the values */
			assert_int_equal(k, 2);
			assert_int_equal(sub[0].num, 1);
			assert_int_equal(sub[0].n, 2);
			assert_int_equal(sub[0].p[0], 2);
			assert_int_equal(sub[0].p[1], 1);
			p = sub[1].p;
			assert_int_equal(varint(&p, sub[1].p + sub[1].n), 3);
			assert_int_equal(varint(&p, sub[1].p + sub[1].n), 30000000);
		} else {
			const unsigned char *p = sub[1].p;

			/* an int64 -1 is ten bytes of two's complement */
			assert_int_equal(sub[1].n, 10 + 10);
			assert_int_equal(varint(&p, sub[1].p + sub[1].n), UINT64_MAX);
			assert_int_equal(sub[2].num, 3);
			assert_int_equal(fields(sub[2].p, sub[2].n, lab, 4), 2);
			assert_int_equal(slen[lab[0].v], strlen("pprof::base"));
			assert_memory_equal(strings[lab[0].v], "pprof::base", 11);
			assert_memory_equal(strings[lab[1].v], "true", 4);
		}
	}
	assert_int_equal(nsample, 2);
	free(buf);
	pprof_free(pp);
}

static void test_pprof__all_zero_samples_are_left_out(void **state)
{
	struct pprof *pp = small_profile();
	unsigned char *buf;
	size_t len, n, i, nsample = 0;
	struct field top[64];

	(void)state;
	pprof_sample(pp, (uint64_t[]){ 1 }, 1, (int64_t[]){ 0, 0 }, NULL, NULL);
	assert_int_equal(pprof_encode(pp, &buf, &len), 0);
	n = fields(buf, len, top, 64);
	for (i = 0; i < n; i++)
		nsample += top[i].num == 2;
	assert_int_equal(nsample, 2);
	/* no default_sample_type unless asked: viewers show the last type */
	for (i = 0; i < n; i++)
		assert_int_not_equal(top[i].num, 14);
	free(buf);
	pprof_free(pp);
}

static void test_pprof__the_file_is_gzip_of_the_message(void **state)
{
	struct pprof *pp = small_profile();
	unsigned char *buf, out[4096];
	size_t len, flen;
	char *file = NULL;
	FILE *fp = open_memstream(&file, &flen);
	z_stream z;

	(void)state;
	assert_non_null(fp);
	assert_int_equal(pprof_write(fp, pp), 0);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal((unsigned char)file[0], 0x1f);
	assert_int_equal((unsigned char)file[1], 0x8b);
	memset(&z, 0, sizeof(z));
	assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = (unsigned char *)file;
	z.avail_in = (uInt)flen;
	z.next_out = out;
	z.avail_out = sizeof(out);
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	assert_int_equal(pprof_encode(pp, &buf, &len), 0);
	assert_int_equal(z.total_out, len);
	assert_memory_equal(out, buf, len);
	inflateEnd(&z);
	free(buf);
	free(file);
	pprof_free(pp);
}

static void test_pprof__a_write_error_is_reported(void **state)
{
	struct pprof *pp = small_profile();
	FILE *fp = fopen("/dev/full", "w");

	(void)state;
	if (!fp)
		skip();
	setvbuf(fp, NULL, _IONBF, 0);
	assert_int_equal(pprof_write(fp, pp), -1);
	fclose(fp);
	pprof_free(pp);
}

/*
 * Stacks share their callers: a chain of 100,000 frames is 100,000 stacks,
 * and its deepest sample's location list (longer than a piece the encoder
 * hands on at once) is written whole, leaf first, with the messages after
 * it intact; the gzipped file holds the same bytes.
 */
static void test_pprof__a_deep_stack_is_written_whole_from_shared_callers(void **state)
{
	enum { DEPTH = 100000 };
	struct pprof *pp = pprof_new();
	unsigned char *buf, *out = malloc(4 * DEPTH + 65536);
	uint64_t m, l_main, l_down, s;
	size_t len, n, i, nsample = 0, nloc = 0, flen;
	struct field top[64], sub[8];
	char *file = NULL;
	FILE *fp = open_memstream(&file, &flen);
	z_stream z;

	(void)state;
	assert_non_null(pp);
	assert_non_null(out);
	assert_non_null(fp);
	assert_int_equal(pprof_sample_type(pp, "calls", "count"), 0);
	m = pprof_mapping(pp, 0x1000, 0x2000, "app", "", 0, 0);
	l_main = pprof_location(pp, m, 0x1100, pprof_function(pp, "main", "main", NULL, 0), 0);
	l_down = pprof_location(pp, m, 0x1200, pprof_function(pp, "down", "down", NULL, 0), 0);
	s = pprof_stack(pp, 0, l_main);
	assert_int_equal(s, 1);
	for (i = 1; i < DEPTH; i++)
		s = pprof_stack(pp, s, l_down);
	assert_int_equal(s, DEPTH);
	pprof_sample_stack(pp, s, (int64_t[]){ 7 }, NULL, NULL);
	pprof_sample_stack(pp, 1, (int64_t[]){ 1 }, "k", "v");
	assert_int_equal(pprof_encode(pp, &buf, &len), 0);
	n = fields(buf, len, top, 64);
	for (i = 0; i < n; i++) {
		const unsigned char *p, *end;
		size_t k;

		if (top[i].num == 4)
			nloc++;
		if (top[i].num != 2)
			continue;
		k = fields(top[i].p, top[i].n, sub, 8);
		assert_int_equal(sub[0].num, 1);
		p = sub[0].p;
		end = p + sub[0].n;
		if (nsample++ == 0) {
			/* DEPTH - 1 frames of down, then main */
			for (size_t d = 0; d < DEPTH - 1; d++)
				assert_int_equal(varint(&p, end), l_down);
			assert_int_equal(varint(&p, end), l_main);
			assert_true(p == end);
			assert_int_equal(k, 2);
		} else {
			assert_int_equal(varint(&p, end), l_main);
			assert_true(p == end);
			assert_int_equal(k, 3);	/* and its label */
		}
	}
	assert_int_equal(nsample, 2);
	assert_int_equal(nloc, 2);
	assert_int_equal(pprof_write(fp, pp), 0);
	assert_int_equal(fclose(fp), 0);
	memset(&z, 0, sizeof(z));
	assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = (unsigned char *)file;
	z.avail_in = (uInt)flen;
	z.next_out = out;
	z.avail_out = 4 * DEPTH + 65536;
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	assert_int_equal(z.total_out, len);
	assert_memory_equal(out, buf, len);
	inflateEnd(&z);
	free(out);
	free(file);
	free(buf);
	pprof_free(pp);
}

static void test_pprof__a_stack_of_an_unknown_caller_is_a_failure(void **state)
{
	struct pprof *pp = small_profile();
	unsigned char *buf;
	size_t len;

	(void)state;
	/* small_profile's two samples made three stacks */
	assert_int_equal(pprof_stack(pp, 99, 1), 0);
	assert_int_equal(pprof_encode(pp, &buf, &len), -1);
	pprof_free(pp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pprof__the_same_function_and_location_are_one_id),
		cmocka_unit_test(test_pprof__wire_format_of_every_field_kind),
		cmocka_unit_test(test_pprof__all_zero_samples_are_left_out),
		cmocka_unit_test(test_pprof__the_file_is_gzip_of_the_message),
		cmocka_unit_test(test_pprof__a_write_error_is_reported),
		cmocka_unit_test(test_pprof__a_deep_stack_is_written_whole_from_shared_callers),
		cmocka_unit_test(test_pprof__a_stack_of_an_unknown_caller_is_a_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
