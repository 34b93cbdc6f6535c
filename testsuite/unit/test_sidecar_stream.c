/*
 * test_sidecar_stream.c - the signal-safe sidecar encoder
 * (runtime/sidecar_stream.c) writes format/sidecar.c's bytes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "format/sidecar.h"
#include "format/sidecar_layout.h"
#include "runtime/sidecar_stream.h"
#include "utils/banned.h"

/* A tree with every kind of field set: strings of odd lengths (padding),
 * objects, identity, an extra metric, a folded node, samples. */
static struct sidecar *fixture(int extra_metric)
{
	static const unsigned char id[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
	struct sidecar *sc = sidecar_new();
	uint32_t m, a, r, f;

	assert_non_null(sc);
	assert_int_equal(sidecar_set_strings(sc, "host-x", "/usr/bin/program.odd"), 0);
	assert_int_equal(sidecar_set_gmon_name(sc, "gmon.out.snap3"), 0);
	assert_int_equal(sidecar_add_object(sc, "/proc/self/exe", 0x1000, 0x9000, 0x555500000000ull,
					    SIDECAR_OBJECT_MAIN, id, sizeof(id)), 0);
	assert_int_equal(sidecar_add_object(sc, "/lib/x86_64-linux-gnu/libc.so.6",
					    0x7f0000, 0x7f9000, 0x7f0000, 0, id, 5), 0);
	sc->pid = 4242;
	sc->ppid = 17;
	sc->rank = 3;
	sc->depth = 0;
	sc->failure = 0;
	sc->threads = 2;
	sc->flags = SIDECAR_F_FENTRY;
	sc->load_address = 0x555500000000ull;
	sc->program_start = 0x1000;
	sc->program_end = 0x9000;
	memcpy(sc->build_id, id, sizeof(id));
	sc->build_id_len = sizeof(id);
	for (int d = 0; d < SIDECAR_DROP_NR; d++)
		sc->dropped[d] = 10u + (unsigned)d;
	sc->sampling = SIDECAR_SAMPLING_SELF;
	sc->unplaced_samples = 7;
	sc->time_period = 10000000;
	sc->id.flags = SIDECAR_ID_HASHED;
	sc->id.snapshot = 3;
	sc->id.gmon_size = 1234;
	sc->id.gmon_hash = 0x1122334455667788ull;
	sc->id.run_id = 99;
	sc->id.time_ns = 1700000000000000000ull;
	if (extra_metric)
		assert_int_equal(sidecar_add_metric(sc, "PAPI_TOT_CYC", "events",
						    SIDECAR_METRIC_EVENTS, 0, 1000000), 0);
	assert_int_equal(sidecar_add(sc, SIDECAR_ROOT, 0, 0x1200, 1, &m), 0);
	assert_int_equal(sidecar_add(sc, m, 0x1301, 0x1400, 5, &a), 0);
	assert_int_equal(sidecar_add(sc, m, 0x1302, 0x1500, 2, &r), 0);
	assert_int_equal(sidecar_add(sc, r, 0x1501, 0x1500, 0, &f), 0);
	sc->nodes[f].flags = SIDECAR_NODE_FOLDED;
	sc->nodes[f].recursive = 40;
	sc->nodes[a].self_samples = 31;
	sc->nodes[r].self_samples = 9;
	if (extra_metric)
		sc->extra_values[a * sc->nr_extra] = 123456;
	return sc;
}

static int get_node(void *ctx, uint64_t i, struct sidecar_node *n, uint64_t *extra)
{
	const struct sidecar *sc = ctx;

	*n = sc->nodes[i];
	for (uint32_t k = 0; k < sc->nr_extra; k++)
		extra[k] = sc->extra_values[i * sc->nr_extra + k];
	return 0;
}

/* The stream's bytes, written through a buffer of `buflen` bytes. */
static unsigned char *stream(const struct sidecar *sc,
			     const struct sidecar_stream_table *t, size_t nt,
			     size_t buflen, size_t *len)
{
	unsigned char *buf = malloc(buflen), *out;
	FILE *tmp = tmpfile();
	long n;

	assert_non_null(buf);
	assert_non_null(tmp);
	assert_int_equal(sidecar_stream_write(fileno(tmp), sc, t, nt, buf, buflen), 0);
	n = ftell(tmp);
	assert_int_equal(fseek(tmp, 0, SEEK_END), 0);
	n = ftell(tmp);
	assert_true(n > 0);
	out = malloc((size_t)n);
	assert_non_null(out);
	rewind(tmp);
	assert_int_equal(fread(out, 1, (size_t)n, tmp), (size_t)n);
	fclose(tmp);
	free(buf);
	*len = (size_t)n;
	return out;
}

static void same_bytes_of(struct sidecar *sc, size_t buflen);

static void same_bytes(int extra_metric, size_t buflen)
{
	same_bytes_of(fixture(extra_metric), buflen);
}

static void same_bytes_of(struct sidecar *sc, size_t buflen)
{
	struct sidecar_stream_table t = {
		SIDECAR_NODES_PROCESS, sc->threads, 0, sc->nr_nodes, get_node, sc,
	};
	size_t want_len = sidecar_encoded_size(sc), got_len;
	unsigned char *want = malloc(want_len), *got;

	assert_non_null(want);
	sidecar_encode(sc, want);
	assert_int_equal(sidecar_stream_size(sc, &t, 1), want_len);
	got = stream(sc, &t, 1, buflen, &got_len);
	assert_int_equal(got_len, want_len);
	assert_memory_equal(got, want, want_len);
	free(got);
	free(want);
	sidecar_free(sc);
}

static void test_sidecar_stream__one_table_is_the_encoders_bytes(void **state)
{
	(void)state;
	same_bytes(0, 65536);
}

static void test_sidecar_stream__same_bytes_through_a_small_buffer(void **state)
{
	(void)state;
	same_bytes(0, 64);
	same_bytes(0, 67);
}

/* A host read from a file with a NUL inside: its recorded length counts */
static void test_sidecar_stream__same_bytes_with_a_nul_inside_the_host(void **state)
{
	struct sidecar *sc = fixture(0);

	(void)state;
	free(sc->host);
	sc->host = malloc(6);
	assert_non_null(sc->host);
	memcpy(sc->host, "ab\0cd", 6);
	sc->host_len = 5;
	same_bytes_of(sc, 64);
}

/* Sampling mode's file: its sampled section streamed as encoded. */
static void test_sidecar_stream__same_bytes_for_sampled_paths(void **state)
{
	struct sidecar *sc = fixture(1);

	(void)state;
	sc->flags |= SIDECAR_F_SAMPLED;
	for (uint32_t i = 0; i < sc->nr_nodes; i++)
		sc->nodes[i].count = sc->nodes[i].recursive = 0;
	sc->unwind.max_frames = 512;
	sc->unwind.walked = 1000;
	sc->unwind.ends[SIDECAR_UNWIND_COMPLETE] = 990;
	sc->unwind.ends[SIDECAR_UNWIND_BAD_RETURN] = 10;
	same_bytes_of(sc, 64);
}

static void test_sidecar_stream__same_bytes_with_an_extra_metric(void **state)
{
	(void)state;
	same_bytes(1, 64);
	same_bytes(1, 4096);
}

/*
 * The process's CPU time (optional section 7, which the readers' coverage
 * line needs): the stream writes it as the encoder does, and it reads back.
 */
static void test_sidecar_stream__same_bytes_with_the_process_cpu_time(void **state)
{
	struct sidecar *sc = fixture(1), *back = NULL;
	struct sidecar_stream_table t = {
		SIDECAR_NODES_PROCESS, sc->threads, 0, sc->nr_nodes, get_node, sc,
	};
	unsigned char *got;
	size_t got_len;
	char err[256];

	(void)state;
	sc->process_cpu.valid = 1;
	sc->process_cpu.user_ns = 1234567890123ull;
	sc->process_cpu.sys_ns = 98765ull;
	got = stream(sc, &t, 1, 64, &got_len);
	assert_int_equal(sidecar_decode(got, got_len, "cpu", &back, err, sizeof(err)), 0);
	assert_true(back->process_cpu.valid);
	assert_int_equal(back->process_cpu.user_ns, 1234567890123ull);
	assert_int_equal(back->process_cpu.sys_ns, 98765ull);
	sidecar_free(back);
	free(got);
	same_bytes_of(sc, 64);
}

/* Two tables (a thread's, the retired tree) read back as their sum. */
static void test_sidecar_stream__two_tables_read_back_as_the_sum(void **state)
{
	struct sidecar *sc = fixture(0), *back = NULL;
	struct sidecar_stream_table t[2] = {
		{ SIDECAR_NODES_THREAD, 1, 77, sc->nr_nodes, get_node, sc },
		{ SIDECAR_NODES_RETIRED, 1, 0, sc->nr_nodes, get_node, sc },
	};
	char err[256];
	size_t len;
	unsigned char *bytes;

	(void)state;
	bytes = stream(sc, t, 2, 100, &len);
	assert_int_equal(len, sidecar_stream_size(sc, t, 2));
	assert_int_equal(sidecar_decode(bytes, len, "two", &back, err, sizeof(err)), 0);
	assert_int_equal(back->nr_nodes, sc->nr_nodes);
	for (uint32_t i = 0; i < sc->nr_nodes; i++) {
		assert_int_equal(back->nodes[i].count, 2 * sc->nodes[i].count);
		assert_int_equal(back->nodes[i].recursive, 2 * sc->nodes[i].recursive);
		assert_int_equal(back->nodes[i].self_samples, 2 * sc->nodes[i].self_samples);
	}
	assert_int_equal(back->id.snapshot, 3);
	assert_string_equal(back->id.gmon_name, "gmon.out.snap3");
	sidecar_free(back);
	free(bytes);
	sidecar_free(sc);
}

/* A node's calls and samples, no extra values (a thread's tree). */
static int get_calls(void *ctx, uint64_t i, struct sidecar_node *n, uint64_t *extra)
{
	const struct sidecar *sc = ctx;

	*n = sc->nodes[i];
	memset(extra, 0, 8 * (size_t)sc->nr_extra);
	return 0;
}

/* A node's path and extra values only (the ended threads' events, kept
 * by path: runtime/snapshot.c kept_get). */
static int get_values(void *ctx, uint64_t i, struct sidecar_node *n, uint64_t *extra)
{
	get_node(ctx, i, n, extra);
	n->count = n->recursive = n->self_samples = 0;
	return 0;
}

/*
 * The events of threads that ended, streamed as a table of their paths
 * that carries values only, read back onto the nodes of the same paths:
 * the file reads as the exit's one table does.
 */
static void test_sidecar_stream__a_table_of_values_only_adds_them_to_the_same_paths(void **state)
{
	struct sidecar *sc = fixture(1), *back = NULL;
	struct sidecar_stream_table t[2] = {
		{ SIDECAR_NODES_THREAD, 1, 77, sc->nr_nodes, get_calls, sc },
		{ SIDECAR_NODES_RETIRED, 0, 0, sc->nr_nodes, get_values, sc },
	};
	char err[256];
	size_t len;
	unsigned char *bytes;

	(void)state;
	bytes = stream(sc, t, 2, 4096, &len);
	assert_int_equal(sidecar_decode(bytes, len, "values", &back, err, sizeof(err)), 0);
	assert_int_equal(back->nr_nodes, sc->nr_nodes);
	assert_int_equal(back->nr_extra, 1);
	for (uint32_t i = 0; i < sc->nr_nodes; i++) {
		assert_int_equal(back->nodes[i].flags, sc->nodes[i].flags);
		assert_int_equal(back->nodes[i].count, sc->nodes[i].count);
		assert_int_equal(back->nodes[i].recursive, sc->nodes[i].recursive);
		assert_int_equal(back->nodes[i].self_samples, sc->nodes[i].self_samples);
		assert_int_equal(back->extra_values[i], sc->extra_values[i]);
	}
	assert_int_equal(back->extra_values[1], 123456);
	sidecar_free(back);
	free(bytes);
	sidecar_free(sc);
}

/* The layout's sizes (format/sidecar_layout.h), one definition for the
 * two writers, add up to the encoder's file. */
static void test_sidecar_stream__layout_sizes_are_the_encoders(void **state)
{
	(void)state;
	for (int extra = 0; extra < 2; extra++) {
		struct sidecar *sc = fixture(extra);

		assert_int_equal(sidecar_v4_head_size(sc) + sidecar_v4_table_size(sc, sc->nr_nodes),
				 sidecar_encoded_size(sc));
		assert_int_equal(sidecar_v4_node_size(sc), 48u + 8u * (unsigned)extra);
		sidecar_free(sc);
	}
}

static int failing(void *ctx, uint64_t i, struct sidecar_node *n, uint64_t *extra)
{
	(void)ctx;
	(void)n;
	(void)extra;
	return i == 2 ? -1 : 0;
}

static void test_sidecar_stream__a_failing_source_is_an_error(void **state)
{
	struct sidecar *sc = fixture(0);
	struct sidecar_stream_table t = { 0, 1, 0, 5, failing, NULL };
	unsigned char buf[64];
	FILE *tmp = tmpfile();

	(void)state;
	assert_non_null(tmp);
	assert_true(sidecar_stream_write(fileno(tmp), sc, &t, 1, buf, sizeof(buf)) < 0);
	assert_true(sidecar_stream_write(fileno(tmp), sc, &t, 1, buf, 10) < 0);
	fclose(tmp);
	sidecar_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sidecar_stream__one_table_is_the_encoders_bytes),
		cmocka_unit_test(test_sidecar_stream__same_bytes_through_a_small_buffer),
		cmocka_unit_test(test_sidecar_stream__same_bytes_with_an_extra_metric),
		cmocka_unit_test(test_sidecar_stream__same_bytes_for_sampled_paths),
		cmocka_unit_test(test_sidecar_stream__same_bytes_with_a_nul_inside_the_host),
		cmocka_unit_test(test_sidecar_stream__same_bytes_with_the_process_cpu_time),
		cmocka_unit_test(test_sidecar_stream__two_tables_read_back_as_the_sum),
		cmocka_unit_test(test_sidecar_stream__a_table_of_values_only_adds_them_to_the_same_paths),
		cmocka_unit_test(test_sidecar_stream__layout_sizes_are_the_encoders),
		cmocka_unit_test(test_sidecar_stream__a_failing_source_is_an_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
