/* Unit tests for the profile model and its pipe serialisation. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <malloc.h>
#include "diff/profile.h"
#include "utils/banned.h"

/*
 *   main --3--> f --1--> g      (f also has 7 self ticks, g 2)
 */
static struct profile *make_profile(void)
{
	struct profile *p = profile_new();
	const char *names[] = { "main", "f", "g" };
	size_t i;

	assert_non_null(p);
	p->binary = strdup("a.out");
	p->hz = 100;
	p->input = PROFILE_HAS_HIST | PROFILE_HAS_CG;
	p->total_ticks = 9;
	assert_int_equal(profile_add_gmon_file(p, "gmon.out"), 0);
	for (i = 0; i < 3; i++) {
		struct profile_sym s = { 0 };

		s.name = strdup(names[i]);
		s.print_name = strdup(names[i]);
		s.file = i == 1 ? strdup("f.c") : NULL;
		s.addr = 0x1000 + 0x100 * i;
		s.self_ticks = i == 1 ? 7 : i == 2 ? 2 : 0;
		s.ncalls = i;
		assert_int_equal(profile_add_sym(p, &s), (long)i);
	}
	{
		struct profile_arc a1 = { 0, 1, 3, 0, 0 }, a2 = { 1, 2, 1, 0, 0 };
		assert_int_equal(profile_add_arc(p, &a1), 0);
		assert_int_equal(profile_add_arc(p, &a2), 1);
	}
	return p;
}

static char *serialize(const struct profile *p, size_t *len)
{
	char *buf = NULL;
	FILE *mem = open_memstream(&buf, len);

	assert_non_null(mem);
	assert_int_equal(profile_write(mem, p), 0);
	fclose(mem);
	return buf;
}

/* p written and read back (which must succeed). */
static struct profile *round_trip(const struct profile *p)
{
	struct profile *q;
	size_t len;
	char *buf = serialize(p, &len);
	FILE *in = fmemopen(buf, len, "r");

	assert_non_null(in);
	assert_int_equal(profile_read(in, "test", &q), 0);
	fclose(in);
	free(buf);
	return q;
}

static void test_profile__round_trip_keeps_every_field(void **state)
{
	struct profile *p = make_profile(), *q = round_trip(p);

	(void)state;
	assert_int_equal(q->nsyms, 3);
	assert_int_equal(q->narcs, 2);
	assert_string_equal(q->syms[1].name, "f");
	assert_string_equal(q->syms[1].file, "f.c");
	assert_null(q->syms[0].file);
	assert_true(q->syms[1].self_ticks == 7.0);
	assert_int_equal(q->arcs[0].count, 3);
	assert_int_equal(q->arcs[1].parent, 1);
	assert_string_equal(q->gmon_files[0], "gmon.out");
	assert_true(q->hz == 100.0);
	assert_int_equal(q->rank, -1);
	profile_free(p);
	profile_free(q);
}

static void test_profile__read_rejects_every_truncation(void **state)
{
	struct profile *p = make_profile(), *q;
	size_t len, cut;
	char *buf = serialize(p, &len);

	(void)state;
	for (cut = 0; cut < len; cut++) {
		FILE *in = fmemopen(buf, cut ? cut : 1, "r");

		if (cut == 0)
			fgetc(in); /* an empty stream */
		assert_int_equal(profile_read(in, "test", &q), -1);
		assert_null(q);
		fclose(in);
	}
	free(buf);
	profile_free(p);
}

static void test_profile__read_rejects_arc_to_missing_symbol(void **state)
{
	struct profile *p = make_profile(), *q;
	size_t len;
	char *buf;
	FILE *in;

	(void)state;
	p->arcs[1].child = 17;
	buf = serialize(p, &len);
	in = fmemopen(buf, len, "r");
	assert_int_equal(profile_read(in, "test", &q), -1);
	fclose(in);
	free(buf);
	profile_free(p);
}

static void test_profile__find_tells_static_functions_apart_by_file(void **state)
{
	struct profile *p = make_profile();

	(void)state;
	assert_int_equal(profile_find(p, "f", NULL), 1);
	assert_int_equal(profile_find(p, "f", "f.c"), 1);
	assert_int_equal(profile_find(p, "f", "other.c"), -1);
	assert_int_equal(profile_find(p, "nope", NULL), -1);
	profile_free(p);
}

/* A valid binary can have a 2 MiB symbol name (issue 12 item 5): no cap. */
static void test_profile__round_trip_keeps_a_2_mib_name(void **state)
{
	struct profile *p = make_profile(), *q;
	size_t len, n = (size_t)2 << 20;
	char *buf;
	FILE *in;

	(void)state;
	free(p->syms[1].name);
	p->syms[1].name = malloc(n + 1);
	assert_non_null(p->syms[1].name);
	memset(p->syms[1].name, 'x', n);
	p->syms[1].name[n] = '\0';
	buf = serialize(p, &len);
	in = fmemopen(buf, len, "r");
	assert_int_equal(profile_read(in, "test", &q), 0);
	assert_int_equal(strlen(q->syms[1].name), n);
	assert_string_equal(q->syms[1].name, p->syms[1].name);
	fclose(in);
	free(buf);
	profile_free(p);
	profile_free(q);
}

/* A corrupt length of 2^60 costs only the bytes that follow it. */
static void test_profile__read_refuses_a_huge_length_without_allocating_it(void **state)
{
	struct profile *p = make_profile(), *q;
	size_t len;
	char *buf = serialize(p, &len);
	uint64_t huge = (uint64_t)1 << 60;
	FILE *in;

	(void)state;
	/* the binary's name length, after magic and version */
	memcpy(buf + 12, &huge, sizeof(huge));
	in = fmemopen(buf, len, "r");
	assert_int_equal(profile_read(in, "test", &q), -1);
	assert_null(q);
	fclose(in);
	free(buf);
	profile_free(p);
}

/* A name is read into a block of about its size, not into a 64 KiB chunk:
 * a chunk per string touched a page per name, 350 MB and a third of the
 * CPU of a 20,000-function --diff (issue 15). */
static void test_profile__read_allocates_a_short_name_at_its_size(void **state)
{
	struct profile *p = make_profile(), *q = round_trip(p);

	(void)state;
	assert_string_equal(q->syms[0].name, "main");
	assert_true(malloc_usable_size(q->syms[0].name) < 256);
	assert_true(malloc_usable_size(q->syms[1].print_name) < 256);
	profile_free(p);
	profile_free(q);
}

/* What a loader sends (profile_encode) is what profile_write writes, and
 * reads back from memory with every field. */
static void test_profile__encoded_block_is_the_written_stream_and_reads_back(void **state)
{
	struct profile *p = make_profile(), *q;
	size_t len, elen;
	char *buf = serialize(p, &len), *enc;

	(void)state;
	assert_int_equal(profile_encode(p, &enc, &elen), 0);
	assert_int_equal(elen, len);
	assert_memory_equal(enc, buf, len);
	assert_int_equal(profile_read_mem(enc, elen, "test", &q), 0);
	assert_int_equal(q->nsyms, 3);
	assert_int_equal(q->narcs, 2);
	assert_string_equal(q->syms[1].file, "f.c");
	assert_null(q->syms[0].file);
	assert_true(q->syms[2].self_ticks == 2.0);
	assert_int_equal(q->arcs[0].count, 3);
	assert_string_equal(q->gmon_files[0], "gmon.out");
	profile_free(q);
	free(enc);
	free(buf);
	profile_free(p);
}

/* From memory too: every cut is refused, and so are bytes after the
 * trailer (a frame longer than its profile). */
static void test_profile__read_mem_rejects_every_truncation_and_extra_bytes(void **state)
{
	struct profile *p = make_profile(), *q;
	size_t len, cut;
	char *buf = serialize(p, &len), *longer;

	(void)state;
	for (cut = 0; cut < len; cut++) {
		assert_int_equal(profile_read_mem(buf, cut, "test", &q), -1);
		assert_null(q);
	}
	longer = malloc(len + 1);
	assert_non_null(longer);
	memcpy(longer, buf, len);
	longer[len] = 0;
	assert_int_equal(profile_read_mem(longer, len + 1, "test", &q), -1);
	assert_null(q);
	free(longer);
	free(buf);
	profile_free(p);
}

/* A corrupt string length of 2^60 in memory is refused before any
 * allocation of it. */
static void test_profile__read_mem_refuses_a_huge_length(void **state)
{
	struct profile *p = make_profile(), *q;
	size_t len;
	char *buf = serialize(p, &len);
	uint64_t huge = (uint64_t)1 << 60;

	(void)state;
	memcpy(buf + 12, &huge, sizeof(huge));
	assert_int_equal(profile_read_mem(buf, len, "test", &q), -1);
	assert_null(q);
	free(buf);
	profile_free(p);
}

/* p encoded, then read from memory (which must succeed). */
static struct profile *mem_trip(const struct profile *p)
{
	struct profile *q;
	size_t len;
	char *buf;

	assert_int_equal(profile_encode(p, &buf, &len), 0);
	assert_int_equal(profile_read_mem(buf, len, "test", &q), 0);
	free(buf);
	return q;
}

/* Read from memory, every string lies in the profile's one pool (no
 * allocation per string), and a string replaced the documented way
 * (profile_str_free, then an allocated one) is freed with the profile:
 * the sanitizer and valgrind runs see neither a leak nor a bad free. */
static void test_profile__read_mem_puts_strings_in_one_pool(void **state)
{
	struct profile *p = make_profile(), *q = mem_trip(p);
	const struct profile_pool *pool = q->pools[0];
	size_t i;

	(void)state;
	assert_non_null(pool);
	assert_null(q->pools[1]);
	for (i = 0; i < q->nsyms; i++) {
		assert_true(q->syms[i].name >= pool->bytes &&
			    q->syms[i].name < pool->bytes + pool->used);
		assert_true(q->syms[i].print_name >= pool->bytes &&
			    q->syms[i].print_name < pool->bytes + pool->used);
	}
	assert_string_equal(q->syms[1].file, "f.c");
	assert_true(q->binary >= pool->bytes && q->binary < pool->bytes + pool->used);
	profile_str_free(q, q->syms[1].print_name);
	q->syms[1].print_name = strdup("f (renamed)");
	assert_non_null(q->syms[1].print_name);
	profile_free(q);
	profile_free(p);
}

/* What a loader's worker sends: p without the strings of its symbols. */
static char *encode_without_names(struct profile *p, size_t *len)
{
	struct profile_sym saved[8];
	char *buf;
	size_t i;

	assert_true(p->nsyms <= 8);
	for (i = 0; i < p->nsyms; i++) {
		saved[i] = p->syms[i];
		p->syms[i].name = p->syms[i].print_name = NULL;
		p->syms[i].file = p->syms[i].unit = NULL;
	}
	assert_int_equal(profile_encode(p, &buf, len), 0);
	for (i = 0; i < p->nsyms; i++)
		p->syms[i] = saved[i];
	return buf;
}

/* The per-file profiles of one loader take their names from its symbol
 * table, sent once: the same strings (one copy for both sides of a diff),
 * which outlive the table's own profile; a cycle after the table's
 * symbols keeps its own name. */
static void test_profile__numbers_take_the_symbol_tables_names(void **state)
{
	struct profile *p = make_profile(), *table = mem_trip(p), *q;
	struct profile_sym cyc = { 0 };
	size_t len, i;
	char *buf;

	(void)state;
	p->syms[2].self_ticks = 5; /* this file's own numbers */
	cyc.name = strdup("<cycle 1 as a whole>");
	cyc.print_name = strdup("<cycle 1 as a whole>");
	cyc.flags = PSYM_CYCLE;
	cyc.cycle = 1;
	assert_int_equal(profile_add_sym(p, &cyc), 3);
	/* without the strings of the table's three symbols */
	{
		struct profile_sym saved[3];

		for (i = 0; i < 3; i++) {
			saved[i] = p->syms[i];
			p->syms[i].name = p->syms[i].print_name = NULL;
			p->syms[i].file = p->syms[i].unit = NULL;
		}
		assert_int_equal(profile_encode(p, &buf, &len), 0);
		for (i = 0; i < 3; i++)
			p->syms[i] = saved[i];
	}
	assert_int_equal(profile_read_mem_names(buf, len, "test", table, &q), 0);
	assert_int_equal(q->nsyms, 4);
	for (i = 0; i < 3; i++) {
		assert_ptr_equal(q->syms[i].name, table->syms[i].name);
		assert_ptr_equal(q->syms[i].print_name, table->syms[i].print_name);
		assert_ptr_equal(q->syms[i].file, table->syms[i].file);
	}
	assert_true(q->syms[2].self_ticks == 5.0);
	assert_string_equal(q->syms[3].name, "<cycle 1 as a whole>");
	profile_free(table); /* q still holds the names */
	assert_string_equal(q->syms[1].name, "f");
	assert_string_equal(q->syms[1].file, "f.c");
	profile_free(q);
	free(buf);
	profile_free(p);
}

/* A frame that is not of the table is refused: another address, a symbol
 * that brings its own name where the table has one, fewer symbols than
 * the table, a symbol of its own without a name. */
static void test_profile__numbers_of_another_table_are_refused(void **state)
{
	struct profile *p = make_profile(), *table = mem_trip(p), *q;
	size_t len;
	char *buf;

	(void)state;
	p->syms[1].addr += 4;
	buf = encode_without_names(p, &len);
	assert_int_equal(profile_read_mem_names(buf, len, "test", table, &q), -1);
	assert_null(q);
	free(buf);
	p->syms[1].addr -= 4;

	assert_int_equal(profile_encode(p, &buf, &len), 0); /* with names */
	assert_int_equal(profile_read_mem_names(buf, len, "test", table, &q), -1);
	assert_null(q);
	free(buf);

	p->nsyms = 2;
	p->narcs = 1;
	buf = encode_without_names(p, &len);
	assert_int_equal(profile_read_mem_names(buf, len, "test", table, &q), -1);
	assert_null(q);
	free(buf);
	p->nsyms = 3;
	p->narcs = 2;

	{
		struct profile_sym extra = { 0 };

		extra.addr = 0x2000;
		assert_int_equal(profile_add_sym(p, &extra), 3);
		buf = encode_without_names(p, &len);
		assert_int_equal(profile_read_mem_names(buf, len, "test", table, &q), -1);
		assert_null(q);
		free(buf);
	}
	profile_free(table);
	profile_free(p);
}

struct sunk {
	char *bytes;
	size_t len;
	size_t calls;
};

static int sink_into(void *ctx, const void *bytes, size_t n)
{
	struct sunk *k = ctx;

	k->bytes = realloc(k->bytes, k->len + n);
	assert_non_null(k->bytes);
	memcpy(k->bytes + k->len, bytes, n);
	k->len += n;
	k->calls++;
	return 0;
}

static int sink_fails(void *ctx, const void *bytes, size_t n)
{
	(void)ctx;
	(void)bytes;
	(void)n;
	return -1;
}

static void send_parts(struct profile_sender *ps, const struct profile *p)
{
	size_t i;

	profile_send_head(ps, p);
	profile_send_count(ps, p->nsyms);
	for (i = 0; i < p->nsyms; i++)
		profile_send_sym(ps, &p->syms[i]);
	profile_send_count(ps, p->narcs);
	for (i = 0; i < p->narcs; i++)
		profile_send_arc(ps, &p->arcs[i]);
}

/* A worker's sender gives, part by part, the bytes profile_encode gives
 * for the whole profile: counted first (the length it sends ahead), then
 * streamed to its pipe in blocks, a name longer than a block whole; and a
 * failing sink is reported. */
static void test_profile__sender_gives_the_encoded_bytes(void **state)
{
	struct profile *p = make_profile();
	struct profile_sender *ps;
	struct sunk k = { NULL, 0, 0 };
	size_t len, big = (size_t)300 << 10;
	uint64_t counted = 0;
	char *enc;

	(void)state;
	free(p->syms[2].print_name); /* longer than one 256 KiB block */
	p->syms[2].print_name = malloc(big + 1);
	assert_non_null(p->syms[2].print_name);
	memset(p->syms[2].print_name, 'g', big);
	p->syms[2].print_name[big] = '\0';
	assert_int_equal(profile_encode(p, &enc, &len), 0);
	assert_int_equal(profile_encoded_size(p), len);

	assert_non_null(ps = profile_sender_new(NULL, NULL));
	send_parts(ps, p);
	assert_int_equal(profile_sender_end(ps, &counted), 0);
	assert_int_equal(counted, len);

	assert_non_null(ps = profile_sender_new(sink_into, &k));
	send_parts(ps, p);
	assert_int_equal(profile_sender_end(ps, NULL), 0);
	assert_int_equal(k.len, len);
	assert_memory_equal(k.bytes, enc, len);
	assert_true(k.calls >= 2);
	free(k.bytes);

	k = (struct sunk){ NULL, 0, 0 };
	assert_int_equal(profile_encode_to(p, sink_into, &k), 0);
	assert_int_equal(k.len, len);
	assert_memory_equal(k.bytes, enc, len);
	free(k.bytes);

	assert_non_null(ps = profile_sender_new(sink_fails, NULL));
	send_parts(ps, p);
	assert_int_equal(profile_sender_end(ps, NULL), -1);
	assert_int_equal(profile_encode_to(p, sink_fails, NULL), -1);
	free(enc);
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile__round_trip_keeps_every_field),
		cmocka_unit_test(test_profile__read_rejects_every_truncation),
		cmocka_unit_test(test_profile__read_rejects_arc_to_missing_symbol),
		cmocka_unit_test(test_profile__round_trip_keeps_a_2_mib_name),
		cmocka_unit_test(test_profile__read_allocates_a_short_name_at_its_size),
		cmocka_unit_test(test_profile__read_refuses_a_huge_length_without_allocating_it),
		cmocka_unit_test(test_profile__find_tells_static_functions_apart_by_file),
		cmocka_unit_test(test_profile__encoded_block_is_the_written_stream_and_reads_back),
		cmocka_unit_test(test_profile__read_mem_rejects_every_truncation_and_extra_bytes),
		cmocka_unit_test(test_profile__read_mem_refuses_a_huge_length),
		cmocka_unit_test(test_profile__read_mem_puts_strings_in_one_pool),
		cmocka_unit_test(test_profile__numbers_take_the_symbol_tables_names),
		cmocka_unit_test(test_profile__numbers_of_another_table_are_refused),
		cmocka_unit_test(test_profile__sender_gives_the_encoded_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
