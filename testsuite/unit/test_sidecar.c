/*
 * test_sidecar.c - the call-path sidecar format (format/sidecar.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "format/sidecar.h"
#include "utils/infile.h"
#include "format/sidecar_layout.h"
#include "bench/callpath/collide.h"
#include "utils/banned.h"

/* Addresses of the fixture: call sites 0x1xx, callees 0x2xx. */
enum { MAIN = 0x200, A = 0x210, B = 0x220, C = 0x230 };

/*
 * The fixture tree (count in brackets):
 *
 *   main [1] (called from 0x100)
 *   ├── a [3] (0x101)
 *   │   └── c [3] (0x111)
 *   └── b [9] (0x102)
 *       └── c [7] (0x121)
 */
static struct sidecar *fixture(void)
{
	struct sidecar *sc = sidecar_new();
	uint32_t m, a, b, c;

	assert_non_null(sc);
	assert_int_equal(sidecar_add(sc, SIDECAR_ROOT, 0x100, MAIN, 1, &m), 0);
	assert_int_equal(sidecar_add(sc, m, 0x101, A, 3, &a), 0);
	assert_int_equal(sidecar_add(sc, a, 0x111, C, 3, &c), 0);
	assert_int_equal(sidecar_add(sc, m, 0x102, B, 9, &b), 0);
	assert_int_equal(sidecar_add(sc, b, 0x121, C, 7, &c), 0);
	sc->pid = 4242;
	sc->ppid = 7;
	sc->rank = 3;
	sc->depth = 0;
	sc->threads = 2;
	sc->load_address = 0x555555554000ull;
	sc->program_start = 0x555555554000ull;
	sc->program_end = 0x555555556000ull;
	sc->dropped[SIDECAR_DROP_REENTRY] = 5;
	sc->dropped[SIDECAR_DROP_NODES] = 6;
	sc->failure = SIDECAR_FAIL_MMAP;
	sc->build_id_len = 20;
	for (int i = 0; i < 20; i++)
		sc->build_id[i] = (unsigned char)(0xa0 + i);
	assert_int_equal(sidecar_set_strings(sc, "node17", "/bin/prog"), 0);
	return sc;
}

static unsigned char *encode(const struct sidecar *sc, size_t *len)
{
	unsigned char *buf;

	*len = sidecar_encoded_size(sc);
	buf = malloc(*len);
	assert_non_null(buf);
	sidecar_encode(sc, buf);
	return buf;
}

static void put32le(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32le(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put64le(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/*
 * `sc` as version 3 wrote it (the runtime before issue 21): a 136-byte
 * fixed header, the strings, 48-byte nodes.  Older files must stay
 * readable; this builds them byte by byte, as doc/dev/sidecar-format.md's
 * "Version 3" section lays them out.
 */
static unsigned char *encode_v3(const struct sidecar *sc, size_t *len)
{
	size_t hl = strlen(sc->host), el = strlen(sc->exe);
	size_t hsize = (136 + hl + el + sc->build_id_len + 7) & ~(size_t)7;
	unsigned char *buf, *p;

	*len = hsize + (size_t)sc->nr_nodes * 48;
	buf = calloc(1, *len);
	assert_non_null(buf);
	memcpy(buf, "EGPROFCP", 8);
	put32le(buf + 8, 3);
	put32le(buf + 12, (uint32_t)hsize);
	put32le(buf + 16, 48);
	put32le(buf + 20, sc->flags);
	put64le(buf + 24, sc->nr_nodes);
	put64le(buf + 32, sc->pid);
	put64le(buf + 40, sc->ppid);
	put32le(buf + 48, (uint32_t)sc->rank);
	put32le(buf + 52, sc->depth);
	put32le(buf + 56, sc->failure);
	put32le(buf + 60, sc->threads);
	put64le(buf + 64, sc->load_address);
	for (int d = 0; d < SIDECAR_DROP_NR; d++)
		put64le(buf + 72 + 8 * d, sc->dropped[d]);
	buf[104] = (unsigned char)hl;
	buf[106] = (unsigned char)el;
	buf[108] = (unsigned char)sc->build_id_len;
	put64le(buf + 112, sc->program_start);
	put64le(buf + 120, sc->program_end);
	put32le(buf + 128, sc->sampling);
	put32le(buf + 132, sc->unplaced_samples > UINT32_MAX ? UINT32_MAX
							     : (uint32_t)sc->unplaced_samples);
	memcpy(buf + 136, sc->host, hl);
	memcpy(buf + 136 + hl, sc->exe, el);
	memcpy(buf + 136 + hl + el, sc->build_id, sc->build_id_len);
	p = buf + hsize;
	for (uint32_t i = 0; i < sc->nr_nodes; i++, p += 48) {
		const struct sidecar_node *n = &sc->nodes[i];

		put32le(p, n->parent);
		put32le(p + 4, n->flags);
		put64le(p + 8, n->call_site);
		put64le(p + 16, n->callee);
		put64le(p + 24, n->count);
		put64le(p + 32, n->recursive);
		put64le(p + 40, n->self_samples);
	}
	return buf;
}

/*
 * Version 4's node table is the last section: its records end the file,
 * its 32-byte header (node size at +0) and 16-byte section header (length
 * at +8) come just before them.
 */
static size_t v4_records(const struct sidecar *sc, size_t len, uint32_t node_size)
{
	return len - (size_t)sc->nr_nodes * node_size;
}

/*
 * Leaves, the time metric's name and the samples taken round-trip; a sum
 * moves a leaf in the program with the program and a leaf in a library
 * with its object (issue 22): the second process loaded the program 0x10000
 * higher and the library 0x200000 higher, so both name the same bytes.
 */
static void test_sidecar__leaves_round_trip_and_move_with_their_objects(void **state)
{
	struct sidecar *a = sidecar_new(), *b = sidecar_new(), *back = NULL;
	char err[256] = "";
	uint32_t n, x;
	size_t len;
	unsigned char *buf;

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct sidecar *sc = k ? b : a;
		uint64_t shift = k ? 0x10000 : 0, lib = k ? 0x200000 : 0;

		assert_non_null(sc);
		sc->load_address = 0x400000 + shift;
		sc->program_start = 0x400000 + shift;
		sc->program_end = 0x401000 + shift;
		assert_int_equal(sidecar_add_object(sc, "/proc/self/exe", 0x400000 + shift,
						    0x401000 + shift, 0x400000 + shift,
						    SIDECAR_OBJECT_MAIN, NULL, 0), 0);
		assert_int_equal(sidecar_add_object(sc, "/lib/libm.so.6", 0x7f000000 + lib,
						    0x7f100000 + lib, 0x7f000000 + lib, 0,
						    (const unsigned char *)"\x12\x34", 2), 0);
		assert_int_equal(sidecar_add(sc, SIDECAR_ROOT, 0, 0x400104 + shift, 1, &n), 0);
		assert_int_equal(sidecar_add_leaf(sc, n, SIDECAR_LEAF_PC, 0x400150 + shift, &x), 0);
		sc->nodes[x].self_samples = 3;
		assert_int_equal(sidecar_add_leaf(sc, n, SIDECAR_LEAF_PC, 0x7f000500 + lib, &x), 0);
		sc->nodes[x].self_samples = 5;
		assert_int_equal(sidecar_add_leaf(sc, n, SIDECAR_LEAF_OVERHEAD, 0x7f000500 + lib, &x), 0);
		sc->nodes[x].self_samples = 1;
		sc->time_taken = 4;
		sc->time_period = 1000000;
	}
	assert_int_equal(sidecar_set_time_name(b, "cpu-time"), 0);
	buf = encode(b, &len);
	assert_int_equal(sidecar_decode(buf, len, "mem", &back, err, sizeof(err)), 0);
	free(buf);
	assert_string_equal(back->time_name, "cpu-time");
	assert_int_equal(back->time_taken, 4);
	assert_int_equal(back->nr_nodes, 4);
	assert_true(sidecar_node_is_leaf(&back->nodes[2]));
	assert_int_equal(back->nodes[2].call_site, SIDECAR_LEAF_PC);
	assert_int_equal(back->nodes[2].callee, 0x7f200500);
	assert_int_equal(sidecar_merge(a, back, err, sizeof(err)), 0);
	/* the same three leaves, summed: in a's address space */
	assert_int_equal(a->nr_nodes, 4);
	assert_int_equal(a->nodes[1].callee, 0x400150);
	assert_int_equal(a->nodes[1].self_samples, 6);
	assert_int_equal(a->nodes[2].callee, 0x7f000500);
	assert_int_equal(a->nodes[2].self_samples, 10);
	assert_int_equal(a->nodes[3].call_site, SIDECAR_LEAF_OVERHEAD);
	assert_int_equal(a->nodes[3].self_samples, 2);
	assert_int_equal(a->time_taken, 8);
	assert_int_equal(a->nr_objects, 2);
	sidecar_free(back);
	sidecar_free(a);
	sidecar_free(b);
}


/*
 * A process's sampled paths (sampling mode, no -pg): frames of the program
 * and of libm, no calls counted, the walks' ends.
 *
 *   main (0x400100)
 *   ├── work (0x400200) <- main+0x9
 *   │   └── sin [libm] (lib + 0x500) <- work+0x36, leaf at lib + 0x520
 *   └── [truncated] is a top-level sibling: callee 0, leaf at 0x4001f0
 */
static struct sidecar *sampled_process(uint64_t shift, uint64_t lib)
{
	struct sidecar *sc = sidecar_new();
	uint32_t m, w, s, t, x;

	assert_non_null(sc);
	sc->flags = SIDECAR_F_SAMPLED;
	sc->load_address = 0x400000 + shift;
	sc->program_start = 0x400000 + shift;
	sc->program_end = 0x401000 + shift;
	assert_int_equal(sidecar_add_object(sc, "/proc/self/exe", 0x400000 + shift,
					    0x401000 + shift, 0x400000 + shift,
					    SIDECAR_OBJECT_MAIN, NULL, 0), 0);
	assert_int_equal(sidecar_add_object(sc, "/lib/libm.so.6", 0x7f000000 + lib,
					    0x7f100000 + lib, 0x7f000000 + lib, 0,
					    (const unsigned char *)"\x12\x34", 2), 0);
	assert_int_equal(sidecar_add(sc, SIDECAR_ROOT, 0, 0x400100 + shift, 0, &m), 0);
	assert_int_equal(sidecar_add(sc, m, 0x400109 + shift, 0x400200 + shift, 0, &w), 0);
	assert_int_equal(sidecar_add(sc, w, 0x400236 + shift, 0x7f000500 + lib, 0, &s), 0);
	assert_int_equal(sidecar_add_leaf(sc, s, SIDECAR_LEAF_PC, 0x7f000520 + lib, &x), 0);
	sc->nodes[x].self_samples = 40;
	assert_int_equal(sidecar_add(sc, SIDECAR_ROOT, 0, 0, 0, &t), 0);
	assert_int_equal(sidecar_add_leaf(sc, t, SIDECAR_LEAF_PC, 0x4001f0 + shift, &x), 0);
	sc->nodes[x].self_samples = 2;
	sc->sampling = SIDECAR_SAMPLING_SELF;
	sc->unwind.max_frames = 512;
	sc->unwind.walked = 11;
	sc->unwind.ends[SIDECAR_UNWIND_COMPLETE] = 10;
	sc->unwind.ends[SIDECAR_UNWIND_NO_OBJECT] = 1;
	return sc;
}

static void test_sidecar__sampled_paths_round_trip_with_their_walks(void **state)
{
	struct sidecar *sc = sampled_process(0, 0), *back = NULL;
	char err[256] = "";
	size_t len;
	unsigned char *buf;

	(void)state;
	buf = encode(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "mem", &back, err, sizeof(err)), 0);
	assert_true(back->flags & SIDECAR_F_SAMPLED);
	assert_false(SIDECAR_CALLS_MEASURED(back->flags));
	assert_int_equal(back->unwind.max_frames, 512);
	assert_int_equal(back->unwind.walked, 11);
	assert_int_equal(back->unwind.ends[SIDECAR_UNWIND_COMPLETE], 10);
	assert_int_equal(back->unwind.ends[SIDECAR_UNWIND_NO_OBJECT], 1);
	assert_int_equal(back->nr_nodes, sc->nr_nodes);
	assert_int_equal(sidecar_total(back), 0);
	assert_int_equal(sidecar_total_samples(back), 42);
	free(buf);
	sidecar_free(back);
	sidecar_free(sc);
}

/* An old reader knows no sampled section: it is required, so such a
 * reader refuses the file rather than show its zeros as calls. */
static void test_sidecar__sampled_section_is_required(void **state)
{
	struct sidecar *sc = sampled_process(0, 0), *back = NULL;
	char err[256] = "";
	size_t len, at = SIDECAR_V4_FILE_HDR;
	unsigned char *buf;

	(void)state;
	buf = encode(sc, &len);
	/* find the section; its flags say required */
	while (at < len && get32le(buf + at) != SIDECAR_SECT_UNWIND) {
		uint64_t slen = 0;

		for (int i = 7; i >= 0; i--)
			slen = slen << 8 | buf[at + 8 + i];
		at += SIDECAR_V4_SECT_HDR + slen;
	}
	assert_true(at < len);
	assert_int_equal(get32le(buf + at + 4), SIDECAR_SECT_REQUIRED);
	/* as a reader that does not know the tag sees it */
	put32le(buf + at, 99);
	assert_int_equal(sidecar_decode(buf, len, "mem", &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "unsupported section 99"));
	free(buf);
	sidecar_free(sc);
}

/* The header says sampled: the section must be there, and no node may
 * count a call. */
static void test_sidecar__sampled_file_must_be_consistent(void **state)
{
	struct sidecar *sc = sampled_process(0, 0), *back = NULL;
	char err[256] = "";
	size_t len;
	unsigned char *buf;

	(void)state;
	sc->nodes[1].count = 3;
	buf = encode(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "mem", &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "has calls in a file of sampled paths"));
	free(buf);
	sc->nodes[1].count = 0;
	/* a sampled section in a file whose header does not say sampled */
	buf = encode(sc, &len);
	put32le(buf + 16, get32le(buf + 16) & ~(uint32_t)SIDECAR_F_SAMPLED);
	assert_int_equal(sidecar_decode(buf, len, "mem", &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "bad sampled section"));
	free(buf);
	sidecar_free(sc);
}

/* Two processes' sampled paths sum path by path, the library's frames
 * moved with the library; a file of counted calls is not summed in. */
static void test_sidecar__merge_of_sampled_paths_moves_library_frames(void **state)
{
	struct sidecar *a = sampled_process(0, 0), *b = sampled_process(0x10000, 0x200000);
	struct sidecar *pg = fixture();
	char err[256] = "";

	(void)state;
	assert_int_equal(sidecar_merge(a, b, err, sizeof(err)), 0);
	/* the same six nodes, samples summed: sin's frame lined up */
	assert_int_equal(a->nr_nodes, 6);
	assert_int_equal(sidecar_total_samples(a), 84);
	assert_int_equal(a->nodes[2].callee, 0x7f000500);
	assert_int_equal(a->unwind.walked, 22);
	assert_int_equal(a->unwind.ends[SIDECAR_UNWIND_COMPLETE], 20);
	assert_true(a->flags & SIDECAR_F_SAMPLED);
	assert_int_equal(sidecar_merge(a, pg, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "sampled paths"));
	assert_int_equal(sidecar_merge(pg, b, err, sizeof(err)), -1);
	sidecar_free(a);
	sidecar_free(b);
	sidecar_free(pg);
}

static void test_sidecar__round_trip_keeps_header_and_tree(void **state)
{
	struct sidecar *sc = fixture(), *back = NULL;
	char err[256] = "";
	size_t len;
	unsigned char *buf = encode(sc, &len);

	(void)state;
	assert_int_equal(sidecar_decode(buf, len, "mem", &back, err, sizeof(err)), 0);
	assert_int_equal(back->version, SIDECAR_VERSION);
	assert_int_equal(back->pid, 4242);
	assert_int_equal(back->ppid, 7);
	assert_int_equal(back->rank, 3);
	assert_int_equal(back->threads, 2);
	assert_int_equal(back->load_address, 0x555555554000ull);
	assert_int_equal(back->program_start, 0x555555554000ull);
	assert_int_equal(back->program_end, 0x555555556000ull);
	assert_int_equal(back->dropped[SIDECAR_DROP_REENTRY], 5);
	assert_int_equal(back->dropped[SIDECAR_DROP_NODES], 6);
	assert_int_equal(back->failure, SIDECAR_FAIL_MMAP);
	assert_string_equal(back->host, "node17");
	assert_string_equal(back->exe, "/bin/prog");
	assert_int_equal(back->build_id_len, 20);
	assert_memory_equal(back->build_id, sc->build_id, 20);
	assert_int_equal(back->nr_nodes, 5);
	for (uint32_t i = 0; i < 5; i++) {
		assert_int_equal(back->nodes[i].parent, sc->nodes[i].parent);
		assert_int_equal(back->nodes[i].call_site, sc->nodes[i].call_site);
		assert_int_equal(back->nodes[i].callee, sc->nodes[i].callee);
		assert_int_equal(back->nodes[i].count, sc->nodes[i].count);
	}
	assert_int_equal(sidecar_total(back), 23);
	free(buf);
	sidecar_free(back);
	sidecar_free(sc);
}

static void test_sidecar__rejects_every_truncation(void **state)
{
	struct sidecar *sc = fixture(), *back;
	char err[256];
	size_t len;
	unsigned char *buf = encode(sc, &len);

	(void)state;
	for (size_t cut = 0; cut < len; cut++) {
		/* a copy of exactly `cut` bytes, so ASan sees any over-read */
		unsigned char *part = malloc(cut ? cut : 1);

		memcpy(part, buf, cut);
		err[0] = '\0';
		back = (struct sidecar *)1;
		assert_int_equal(sidecar_decode(part, cut, "x.callpath", &back,
						err, sizeof(err)), -1);
		assert_null(back);
		assert_non_null(strstr(err, "x.callpath: truncated"));
		free(part);
	}
	free(buf);
	sidecar_free(sc);
}

static void test_sidecar__truncated_node_table_names_the_byte(void **state)
{
	struct sidecar *sc = fixture(), *back;
	char err[256], want[128];
	size_t len;
	unsigned char *buf = encode(sc, &len);

	(void)state;
	assert_int_equal(sidecar_decode(buf, len - 3, "x.callpath", &back, err,
					sizeof(err)), -1);
	snprintf(want, sizeof(want),
		 "x.callpath: truncated node table at byte %zu", len - 3);
	assert_string_equal(err, want);
	free(buf);
	/* and in version 3 */
	buf = encode_v3(sc, &len);
	assert_int_equal(sidecar_decode(buf, len - 3, "x.callpath", &back, err,
					sizeof(err)), -1);
	snprintf(want, sizeof(want),
		 "x.callpath: truncated node table at byte %zu", len - 3);
	assert_string_equal(err, want);
	free(buf);
	sidecar_free(sc);
}

static void test_sidecar__rejects_bad_magic(void **state)
{
	struct sidecar *sc = fixture(), *back;
	char err[256];
	size_t len;
	unsigned char *buf = encode(sc, &len);

	(void)state;
	memcpy(buf, "gmon\0\0\0\0", 8);
	assert_int_equal(sidecar_decode(buf, len, "gmon.out", &back, err,
					sizeof(err)), -1);
	assert_string_equal(err,
		"gmon.out: bad magic (not a call-path sidecar)");
	free(buf);
	sidecar_free(sc);
}

static void test_sidecar__rejects_future_version(void **state)
{
	struct sidecar *sc = fixture(), *back;
	char err[256];
	size_t len;
	unsigned char *buf = encode(sc, &len);

	(void)state;
	put32le(buf + 8, SIDECAR_VERSION + 1);
	assert_int_equal(sidecar_decode(buf, len, "new.callpath", &back, err,
					sizeof(err)), -1);
	assert_string_equal(err,
		"new.callpath: unsupported version 5 (this reader knows 1 to 4)");
	free(buf);
	sidecar_free(sc);
}

static void test_sidecar__rejects_trailing_data(void **state)
{
	struct sidecar *sc = fixture(), *back;
	char err[256];
	size_t len;
	unsigned char *buf = encode(sc, &len), *longer = calloc(1, len + 8);

	(void)state;
	memcpy(longer, buf, len);
	assert_int_equal(sidecar_decode(longer, len + 8, "t", &back, err,
					sizeof(err)), -1);
	assert_non_null(strstr(err, "trailing data"));
	free(longer);
	free(buf);
	sidecar_free(sc);
}

static void test_sidecar__rejects_a_parent_after_its_child(void **state)
{
	struct sidecar *sc = fixture(), *back;
	char err[256];
	size_t len;
	unsigned char *buf = encode(sc, &len);
	size_t recs = v4_records(sc, len, SIDECAR_NODE_SIZE_V3);

	(void)state;
	/* node 1 (a) claims node 3 (b) as its parent: a cycle risk */
	put32le(buf + recs + SIDECAR_NODE_SIZE_V3, 3);
	assert_int_equal(sidecar_decode(buf, len, "c", &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "node 1 has bad parent 3"));
	free(buf);
	buf = encode_v3(sc, &len);
	put32le(buf + get32le(buf + 12) + SIDECAR_NODE_SIZE_V3, 3);
	assert_int_equal(sidecar_decode(buf, len, "c", &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "node 1 has bad parent 3"));
	free(buf);
	sidecar_free(sc);
}

static void test_sidecar__skips_extension_bytes_of_larger_nodes(void **state)
{
	struct sidecar *sc = fixture(), *back = NULL;
	char err[256];
	size_t len, wlen;
	unsigned char *buf = encode(sc, &len), *wide;
	uint32_t hsize = (uint32_t)v4_records(sc, len, SIDECAR_NODE_SIZE_V3);

	(void)state;
	/* the same file with 56-byte node records (8 extension bytes each):
	 * the node size, the section's length and the file's size change */
	wlen = hsize + (size_t)sc->nr_nodes * 56;
	wide = calloc(1, wlen);
	memcpy(wide, buf, hsize);
	put32le(wide + hsize - 32, 56);
	put64le(wide + hsize - 40, 32 + (uint64_t)sc->nr_nodes * 56);
	put64le(wide + 24, wlen);
	for (uint32_t i = 0; i < sc->nr_nodes; i++) {
		memcpy(wide + hsize + i * 56, buf + hsize + i * SIDECAR_NODE_SIZE_V3,
		       SIDECAR_NODE_SIZE_V3);
		memset(wide + hsize + i * 56 + SIDECAR_NODE_SIZE_V3, 0x5a, 8);
	}
	assert_int_equal(sidecar_decode(wide, wlen, "w", &back, err, sizeof(err)), 0);
	assert_int_equal(back->nr_nodes, 5);
	assert_int_equal(back->nodes[4].count, 7);
	assert_int_equal(back->nodes[4].callee, C);
	sidecar_free(back);
	free(wide);
	free(buf);
	/* version 3 */
	buf = encode_v3(sc, &len);
	hsize = get32le(buf + 12);
	wlen = hsize + (size_t)sc->nr_nodes * 56;
	wide = calloc(1, wlen);
	memcpy(wide, buf, hsize);
	put32le(wide + 16, 56);
	for (uint32_t i = 0; i < sc->nr_nodes; i++) {
		memcpy(wide + hsize + i * 56, buf + hsize + i * SIDECAR_NODE_SIZE_V3,
		       SIDECAR_NODE_SIZE_V3);
		memset(wide + hsize + i * 56 + SIDECAR_NODE_SIZE_V3, 0x5a, 8);
	}
	assert_int_equal(sidecar_decode(wide, wlen, "w", &back, err, sizeof(err)), 0);
	assert_int_equal(back->nodes[4].count, 7);
	sidecar_free(back);
	free(wide);
	free(buf);
	sidecar_free(sc);
}

static void test_sidecar__add_counts_an_existing_child_once(void **state)
{
	struct sidecar *sc = fixture();
	uint32_t idx, again;

	(void)state;
	assert_int_equal(sidecar_add(sc, 0, 0x102, B, 1, &idx), 0);
	assert_int_equal(idx, 3);
	assert_int_equal(sc->nodes[3].count, 10);
	assert_int_equal(sc->nr_nodes, 5);
	/* same callee from another call site is another path */
	assert_int_equal(sidecar_add(sc, 0, 0x103, B, 1, &again), 0);
	assert_int_equal(again, 5);
	assert_int_equal(sidecar_find(sc, 0, 0x103, B), 5);
	assert_int_equal(sidecar_find(sc, 0, 0x104, B), SIDECAR_ROOT);
	assert_int_equal(sidecar_add(sc, 99, 0x1, 0x2, 1, &idx), -1);
	sidecar_free(sc);
}

/*
 * Merging the fixture with
 *
 *   main [1] (0x100)
 *   ├── b [2] (0x102)
 *   │   └── c [2] (0x121)        same path: counts add up
 *   └── c [4] (0x103)            new path: appended
 *
 * gives main 2, a 3, a/c 3, b 11, b/c 9, c 4.
 */
static void test_sidecar__merge_sums_matching_paths_and_appends_new(void **state)
{
	struct sidecar *dst = fixture(), *src = sidecar_new();
	uint32_t m, b, c;
	char err[256];

	(void)state;
	sidecar_add(src, SIDECAR_ROOT, 0x100, MAIN, 1, &m);
	sidecar_add(src, m, 0x102, B, 2, &b);
	sidecar_add(src, b, 0x121, C, 2, &c);
	sidecar_add(src, m, 0x103, C, 4, &c);
	src->pid = 4243;
	src->threads = 1;
	src->load_address = dst->load_address;
	src->dropped[SIDECAR_DROP_REENTRY] = 1;
	assert_int_equal(sidecar_merge(dst, src, err, sizeof(err)), 0);
	assert_int_equal(dst->nr_nodes, 6);
	assert_int_equal(dst->nodes[0].count, 2);
	assert_int_equal(dst->nodes[1].count, 3);
	assert_int_equal(dst->nodes[2].count, 3);
	assert_int_equal(dst->nodes[3].count, 11);
	assert_int_equal(dst->nodes[4].count, 9);
	assert_int_equal(dst->nodes[5].count, 4);
	assert_int_equal(dst->nodes[5].parent, 0);
	assert_int_equal(dst->threads, 3);
	assert_int_equal(dst->dropped[SIDECAR_DROP_REENTRY], 6);
	assert_true(dst->flags & SIDECAR_F_MERGED);
	assert_int_equal(sidecar_total(dst), 23 + 9);
	sidecar_free(src);
	sidecar_free(dst);
}

/* The fixture's tree recorded by another process of the same PIE, loaded
 * `shift` bytes higher (or lower, for a negative shift). */
static struct sidecar *fixture_moved(int64_t shift)
{
	struct sidecar *sc = fixture(), *moved = sidecar_new();
	uint32_t idx;

	assert_non_null(moved);
	for (uint32_t i = 0; i < sc->nr_nodes; i++) {
		const struct sidecar_node *n = &sc->nodes[i];

		assert_int_equal(sidecar_add(moved, n->parent,
					     n->call_site + (uint64_t)shift,
					     n->callee + (uint64_t)shift, n->count,
					     &idx), 0);
		assert_int_equal(idx, i);
	}
	moved->pid = sc->pid + 1;
	moved->rank = sc->rank;
	moved->threads = 1;
	moved->load_address = sc->load_address + (uint64_t)shift;
	/* no program range, as read from a version-1 file: every address moves */
	moved->build_id_len = sc->build_id_len;
	memcpy(moved->build_id, sc->build_id, sc->build_id_len);
	sidecar_free(sc);
	return moved;
}

/* Same tree, loaded 0x10000 higher, then 0x20000 lower: one tree with
 * doubled then tripled counts, in dst's addresses (main at MAIN). */
static void test_sidecar__merge_rebases_pie_load_address(void **state)
{
	struct sidecar *dst = fixture(), *up = fixture_moved(0x10000),
		       *down = fixture_moved(-0x20000);
	char err[256];

	(void)state;
	assert_int_equal(sidecar_merge(dst, up, err, sizeof(err)), 0);
	assert_int_equal(sidecar_merge(dst, down, err, sizeof(err)), 0);
	assert_int_equal(dst->nr_nodes, 5);
	assert_int_equal(sidecar_total(dst), 3 * 23);
	assert_int_equal(dst->nodes[0].count, 3);
	assert_int_equal(dst->nodes[0].call_site, 0x100);
	assert_int_equal(dst->nodes[0].callee, MAIN);
	assert_int_equal(dst->nodes[4].callee, C);
	assert_int_equal(dst->nodes[4].count, 21);
	assert_int_equal(dst->load_address, 0x555555554000ull);
	assert_true(dst->flags & SIDECAR_F_MERGED);
	sidecar_free(up);
	sidecar_free(down);
	sidecar_free(dst);
}

/* Threads of one process (the runtime's exit-time sum) share the load
 * address: nothing moves, and one pid is not a multi-process sum. */
static void test_sidecar__merge_of_one_process_keeps_addresses(void **state)
{
	struct sidecar *dst = fixture(), *src = fixture();
	char err[256];

	(void)state;
	assert_int_equal(sidecar_merge(dst, src, err, sizeof(err)), 0);
	assert_int_equal(dst->nr_nodes, 5);
	for (uint32_t i = 0; i < 5; i++) {
		assert_int_equal(dst->nodes[i].call_site, src->nodes[i].call_site);
		assert_int_equal(dst->nodes[i].callee, src->nodes[i].callee);
		assert_int_equal(dst->nodes[i].count, 2 * src->nodes[i].count);
	}
	assert_false(dst->flags & SIDECAR_F_MERGED);
	assert_int_equal(dst->rank, 3);
	sidecar_free(src);
	sidecar_free(dst);
}

static void test_sidecar__merge_refuses_other_build_id(void **state)
{
	struct sidecar *dst = fixture(), *src = fixture_moved(0x10000);
	char err[256];

	(void)state;
	src->build_id[19] ^= 0xff;
	assert_int_equal(sidecar_merge(dst, src, err, sizeof(err)), -1);
	/* both build-ids, in full, so the user can tell the binaries apart */
	assert_non_null(strstr(err, "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3"));
	assert_non_null(strstr(err, "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b24c"));
	assert_non_null(strstr(err, "build-id"));
	/* dst untouched */
	assert_int_equal(dst->nr_nodes, 5);
	assert_int_equal(sidecar_total(dst), 23);
	assert_int_equal(dst->threads, 2);
	assert_false(dst->flags & SIDECAR_F_MERGED);
	sidecar_free(src);
	sidecar_free(dst);
}

/* A side without a build-id cannot be checked, so it is accepted; the sum
 * then carries the one it met, and checks later sources against it. */
static void test_sidecar__merge_adopts_the_first_build_id_it_meets(void **state)
{
	struct sidecar *dst = fixture(), *src = fixture(), *other = fixture();
	char err[256];

	(void)state;
	dst->build_id_len = 0;
	assert_int_equal(sidecar_merge(dst, src, err, sizeof(err)), 0);
	assert_int_equal(dst->build_id_len, 20);
	assert_memory_equal(dst->build_id, src->build_id, 20);
	other->build_id[0] = 0;
	assert_int_equal(sidecar_merge(dst, other, err, sizeof(err)), -1);
	other->build_id_len = 0;
	assert_int_equal(sidecar_merge(dst, other, err, sizeof(err)), 0);
	assert_int_equal(sidecar_total(dst), 3 * 23);
	sidecar_free(other);
	sidecar_free(src);
	sidecar_free(dst);
}

static void test_sidecar__merge_of_two_ranks_has_no_rank(void **state)
{
	struct sidecar *dst = fixture(), *src = fixture_moved(0);
	char err[256];

	(void)state;
	src->rank = 4;
	assert_int_equal(sidecar_merge(dst, src, err, sizeof(err)), 0);
	assert_int_equal(dst->rank, -1);
	assert_int_equal(dst->pid, 4242);	/* other identity fields stay dst's */
	assert_string_equal(dst->host, "node17");
	sidecar_free(src);
	sidecar_free(dst);
}

/*
 * The fixture as an older version would have written it: fixed header of
 * `fixed` bytes (112 for version 1, 128 for version 2), 40-byte nodes
 * without the recursive and self_samples fields.
 */
static unsigned char *encode_old(const struct sidecar *sc, uint32_t version,
				 size_t *len)
{
	size_t len3, fixed = version == 1 ? 112 : 128;
	unsigned char *buf = encode_v3(sc, &len3), *old;
	uint32_t hsize = get32le(buf + 12), strings = hsize - 136;

	*len = fixed + strings + (size_t)sc->nr_nodes * SIDECAR_NODE_SIZE_V1;
	old = calloc(1, *len);
	assert_non_null(old);
	memcpy(old, buf, fixed);
	memcpy(old + fixed, buf + 136, strings);
	put32le(old + 8, version);
	put32le(old + 12, (uint32_t)(fixed + strings));
	put32le(old + 16, SIDECAR_NODE_SIZE_V1);
	for (uint32_t i = 0; i < sc->nr_nodes; i++)
		memcpy(old + fixed + strings + i * SIDECAR_NODE_SIZE_V1,
		       buf + hsize + i * SIDECAR_NODE_SIZE_V3, 32);
	free(buf);
	return old;
}

/* A version-1 file (112-byte fixed header, no program range) is still read. */
static void test_sidecar__reads_version_1(void **state)
{
	struct sidecar *sc = fixture(), *back = NULL;
	char err[256] = "";
	size_t len1;
	unsigned char *v1;

	(void)state;
	v1 = encode_old(sc, 1, &len1);
	assert_int_equal(sidecar_decode(v1, len1, "old", &back, err, sizeof(err)), 0);
	assert_int_equal(back->version, 1);
	assert_string_equal(back->host, "node17");
	assert_string_equal(back->exe, "/bin/prog");
	assert_memory_equal(back->build_id, sc->build_id, 20);
	assert_int_equal(back->program_start, 0);
	assert_int_equal(back->program_end, 0);
	assert_int_equal(back->nr_nodes, 5);
	assert_int_equal(back->nodes[4].callee, C);
	sidecar_free(back);
	free(v1);
	sidecar_free(sc);
}

/* A version-2 file (40-byte nodes, no recursion field) is still read. */
static void test_sidecar__reads_version_2_without_recursion_or_samples(void **state)
{
	struct sidecar *sc = fixture(), *back = NULL;
	char err[256] = "";
	size_t len2;
	unsigned char *v2;

	(void)state;
	sc->nodes[1].recursive = 99;	/* cannot be in a version-2 file */
	v2 = encode_old(sc, 2, &len2);
	assert_int_equal(sidecar_decode(v2, len2, "v2", &back, err, sizeof(err)), 0);
	assert_int_equal(back->version, 2);
	assert_int_equal(back->program_end, 0x555555556000ull);
	assert_int_equal(back->nr_nodes, 5);
	assert_int_equal(back->nodes[1].count, 3);
	assert_int_equal(back->nodes[1].recursive, 0);
	assert_int_equal(back->nodes[1].self_samples, 0);
	assert_int_equal(back->sampling, 0);
	assert_int_equal(sidecar_total(back), 23);
	sidecar_free(back);
	free(v2);
	sidecar_free(sc);
}

/*
 * Sampled paths came with version 4's sampled section: a version 3 file
 * with the sampled flag is refused (it decoded with its calls, and its
 * encoding, a sampled version 4 file with calls, did not: the fuzzer).
 */
static void test_sidecar__a_sampled_flag_before_version_4_is_refused(void **state)
{
	struct sidecar *sc = fixture(), *back = NULL;
	char err[256] = "";
	size_t len;
	unsigned char *buf;

	(void)state;
	sc->flags |= SIDECAR_F_SAMPLED;
	buf = encode_v3(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "old.callpath", &back, err, sizeof(err)), -1);
	assert_null(back);
	assert_non_null(strstr(err, "old.callpath: header flag 0x10 (sampled paths) in a version 3 file"));
	free(buf);
	sidecar_free(sc);
}

/* Version 3 keeps the folded recursion, the samples and the sampling state. */
static void test_sidecar__versions_3_and_4_round_trip_recursion_and_samples(void **state)
{
	struct sidecar *sc = fixture(), *back = NULL;
	char err[256] = "";
	size_t len;
	unsigned char *buf;

	uint32_t f;
	uint64_t into[6];

	(void)state;
	/* a calls itself 7049154 times from 0x1a1, folded into a's node */
	assert_int_equal(sidecar_add(sc, 1, 0x1a1, A, 0, &f), 0);
	sc->nodes[f].flags = SIDECAR_NODE_FOLDED;
	sc->nodes[f].recursive = 7049154;
	sc->nodes[2].self_samples = 12;
	sc->sampling = SIDECAR_SAMPLING_SELF;
	buf = encode_v3(sc, &len);
	assert_int_equal(get32le(buf + 16), SIDECAR_NODE_SIZE_V3);
	assert_int_equal(sidecar_decode(buf, len, "v3", &back, err, sizeof(err)), 0);
	assert_int_equal(back->version, 3);
	assert_int_equal(back->nodes[f].recursive, 7049154);
	assert_int_equal(back->nodes[2].self_samples, 12);
	sidecar_free(back);
	free(buf);
	buf = encode(sc, &len);
	/* one metric, the time samples: 48-byte records as in version 3 */
	assert_int_equal(get32le(buf + v4_records(sc, len, 48) - 32), SIDECAR_NODE_SIZE_V3);
	assert_int_equal(sidecar_decode(buf, len, "v4", &back, err, sizeof(err)), 0);
	assert_int_equal(back->version, 4);
	assert_int_equal(back->nodes[f].flags, SIDECAR_NODE_FOLDED);
	assert_int_equal(back->nodes[f].recursive, 7049154);
	assert_int_equal(back->nodes[2].self_samples, 12);
	assert_int_equal(back->sampling, SIDECAR_SAMPLING_SELF);
	assert_true(sidecar_folds_recursion(back));
	assert_int_equal(sidecar_total(back), 23 + 7049154);
	sidecar_folded_sums(back, into);
	assert_int_equal(into[1], 7049154);
	assert_int_equal(into[0], 0);
	sidecar_free(back);
	free(buf);
	sidecar_free(sc);
}

/* The stream writer (sums through utils/outfile.h) writes what the file
 * writer writes: version 3 nodes, all of them, read back whole (it wrote
 * version 1-sized nodes: a truncated sum, past its buffer). */
static void test_sidecar__write_fp_writes_whole_version_3_nodes(void **state)
{
	struct sidecar *sc = fixture(), *back = NULL;
	char err[256] = "", *mem = NULL;
	size_t memlen = 0, len;
	unsigned char *buf;
	FILE *fp;

	(void)state;
	sc->nodes[2].self_samples = 5;
	fp = open_memstream(&mem, &memlen);
	assert_non_null(fp);
	assert_int_equal(sidecar_write_fp(sc, fp), 0);
	assert_int_equal(fclose(fp), 0);
	buf = encode(sc, &len);
	assert_int_equal(memlen, len);
	assert_memory_equal(mem, buf, len);
	assert_int_equal(sidecar_decode(mem, memlen, "fp", &back, err, sizeof(err)), 0);
	assert_int_equal(back->nr_nodes, sc->nr_nodes);
	assert_int_equal(back->nodes[2].self_samples, 5);
	sidecar_free(back);
	free(buf);
	free(mem);
	sidecar_free(sc);
}

/* A folded-recursion node has no children and calls its parent's function. */
static void test_sidecar__rejects_bad_folded_recursion_nodes(void **state)
{
	struct sidecar *sc = fixture(), *back = NULL;
	char err[256] = "";
	size_t len;
	unsigned char *buf;
	uint32_t f, g;

	(void)state;
	assert_int_equal(sidecar_add(sc, 1, 0x1a1, B, 0, &f), 0);
	sc->nodes[f].flags = SIDECAR_NODE_FOLDED;	/* a's child calling b */
	buf = encode(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "f", &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "f: folded-recursion node 5 does "
				    "not call its parent's function"));
	free(buf);
	sc->nodes[f].callee = A;
	assert_int_equal(sidecar_add(sc, f, 0x1a2, C, 1, &g), 0);
	buf = encode(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "f", &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "node 6 is a child of folded-recursion node 5"));
	free(buf);
	sidecar_free(sc);
}

/* Two children of one parent with one (call site, callee) are refused. */
static void test_sidecar__version_3_rejects_duplicate_children(void **state)
{
	struct sidecar *sc = fixture(), *back = NULL;
	char err[256] = "";
	size_t len;
	unsigned char *buf;

	(void)state;
	sc->nodes[3].call_site = 0x101;	/* b becomes a second (main, 0x101, a) */
	sc->nodes[3].callee = A;
	buf = encode_v3(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "dup", &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "dup: node 3 duplicates node 1"));
	assert_null(back);
	free(buf);
	sidecar_free(sc);
}

/*
 * The index agrees with a plain search: random keys from a small range (so
 * that many repeat, under several parents), each added with sidecar_add,
 * land on the node a linear scan finds, and no key is stored twice.
 */
static void test_sidecar__index_finds_what_a_linear_scan_finds(void **state)
{
	struct sidecar *sc = sidecar_new();
	uint32_t seed = 12345, idx;

	(void)state;
	assert_non_null(sc);
	assert_int_equal(sidecar_add(sc, SIDECAR_ROOT, 0, MAIN, 1, &idx), 0);
	for (int k = 0; k < 20000; k++) {
		uint32_t parent, want = SIDECAR_ROOT;
		uint64_t site, callee;

		seed = seed * 1103515245u + 12345u;
		parent = (seed >> 16) % sc->nr_nodes;
		if (parent > 40)
			parent %= 41;	/* a few parents get many children */
		seed = seed * 1103515245u + 12345u;
		site = 0x100 + ((seed >> 16) & 7);
		callee = 0x200 + ((seed >> 20) & 63);
		for (uint32_t i = 0; i < sc->nr_nodes; i++)
			if (sc->nodes[i].parent == parent && sc->nodes[i].call_site == site &&
			    sc->nodes[i].callee == callee)
				want = i;
		assert_int_equal(sidecar_find(sc, parent, site, callee), want);
		assert_int_equal(sidecar_add(sc, parent, site, callee, 1, &idx), 0);
		if (want != SIDECAR_ROOT)
			assert_int_equal(idx, want);
		else
			assert_int_equal(idx, sc->nr_nodes - 1);
	}
	assert_int_equal(sidecar_total(sc), 20001);
	for (uint32_t i = 0; i < sc->nr_nodes; i++)
		assert_int_equal(sidecar_find(sc, sc->nodes[i].parent, sc->nodes[i].call_site,
					      sc->nodes[i].callee), i);
	sidecar_free(sc);
}

/*
 * Keys that all collided in the old hash index (bench/callpath/collide.h):
 * N children of main.  Decoding (with its duplicate check), and summing the
 * tree into an empty one and into a copy of itself, stay within a balanced
 * tree's bound of comparisons: per node one lookup and one insertion, and
 * about two more insertions for the rehashes on the way, each at most
 * 1.44 log2(N + 2) < 24 deep; the old table probed every earlier key,
 * about N/2 per node.  The sums are right.
 * (bench/callpath/merge.sh prints the times.)
 */
enum { COLLIDE_N = 20000 };

static struct sidecar *colliding_tree(void)
{
	struct sidecar *sc = sidecar_new();
	uint32_t m, x;

	assert_non_null(sc);
	assert_int_equal(sidecar_add(sc, SIDECAR_ROOT, 0, MAIN, 1, &m), 0);
	for (uint32_t r = 1; r <= COLLIDE_N; r++) {
		uint64_t callee = collide_callee(m, 0x101, r);

		assert_int_equal(collide_old_hash(m, 0x101, callee), 0);
		assert_int_equal(sidecar_add(sc, m, 0x101, callee, r, &x), 0);
	}
	return sc;
}

static void test_sidecar__merge_of_colliding_keys_is_n_log_n(void **state)
{
	struct sidecar *src = colliding_tree(), *back = NULL, *dst = sidecar_new();
	const uint64_t bound = (uint64_t)(COLLIDE_N + 1) * 4 * 24;
	uint64_t total = 1 + (uint64_t)COLLIDE_N * (COLLIDE_N + 1) / 2;
	char err[256] = "";
	size_t len;
	unsigned char *buf;

	(void)state;
	assert_true(sidecar_index_comparisons(src) <= bound);
	buf = encode(src, &len);
	assert_int_equal(sidecar_decode(buf, len, "collide", &back, err, sizeof(err)), 0);
	assert_true(sidecar_index_comparisons(back) <= bound);
	assert_int_equal(sidecar_merge(dst, back, err, sizeof(err)), 0);
	assert_int_equal(sidecar_merge(dst, src, err, sizeof(err)), 0);
	assert_int_equal(dst->nr_nodes, COLLIDE_N + 1);
	assert_int_equal(sidecar_total(dst), 2 * total);
	assert_true(sidecar_index_comparisons(dst) <= 3 * bound);
	for (uint32_t r = 1; r <= COLLIDE_N; r += 997) {
		uint32_t i = sidecar_find(dst, 0, 0x101, collide_callee(0, 0x101, r));

		assert_int_not_equal(i, SIDECAR_ROOT);
		assert_int_equal(dst->nodes[i].count, 2 * r);
	}
	free(buf);
	sidecar_free(src);
	sidecar_free(back);
	sidecar_free(dst);
}

/* A duplicate among colliding keys, far from its first copy, is refused. */
static void test_sidecar__version_3_rejects_a_duplicate_among_colliding_keys(void **state)
{
	struct sidecar *sc = colliding_tree(), *back = NULL;
	char err[256] = "";
	size_t len;
	unsigned char *buf;

	(void)state;
	sc->nodes[COLLIDE_N].callee = sc->nodes[7].callee;
	buf = encode_v3(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "dup", &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "dup: node 20000 duplicates node 7 "));
	assert_null(back);
	free(buf);
	sidecar_free(sc);
}

/* /dev/zero would be read until memory runs out: only regular files. */
static void test_sidecar__read_refuses_what_is_not_a_regular_file(void **state)
{
	struct sidecar *back = NULL;
	char err[256] = "";

	(void)state;
	assert_int_equal(sidecar_read("/dev/zero", &back, err, sizeof(err)), -1);
	assert_string_equal(err, "/dev/zero: not a regular file (a character device)");
	assert_int_equal(sidecar_read(".", &back, err, sizeof(err)), -1);
	assert_string_equal(err, ".: not a regular file (a directory)");
	assert_null(back);
}

/* Folded and full recursion trees are not summed: their keys collide. */
static void test_sidecar__merge_refuses_folded_with_full_recursion(void **state)
{
	struct sidecar *dst = fixture(), *src = fixture();
	char err[256];

	(void)state;
	src->flags |= SIDECAR_F_RECURSION_FULL;
	assert_int_equal(sidecar_merge(dst, src, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "one folds recursion"));
	assert_int_equal(sidecar_total(dst), 23);
	sidecar_free(src);
	sidecar_free(dst);
}

/* A merge sums the folded recursion and the samples path by path. */
static void test_sidecar__merge_sums_recursion_and_samples(void **state)
{
	struct sidecar *dst = fixture(), *src = fixture();
	char err[256];

	(void)state;
	dst->nodes[2].recursive = 5;
	src->nodes[2].recursive = 6;
	src->nodes[2].self_samples = 4;
	src->sampling = SIDECAR_SAMPLING_SELF;
	assert_int_equal(sidecar_merge(dst, src, err, sizeof(err)), 0);
	assert_int_equal(dst->nr_nodes, 5);
	assert_int_equal(dst->nodes[2].count, 6);
	assert_int_equal(dst->nodes[2].recursive, 11);
	assert_int_equal(dst->nodes[2].self_samples, 4);
	assert_int_equal(dst->sampling, SIDECAR_SAMPLING_SELF);
	sidecar_free(src);
	sidecar_free(dst);
}

/* Unplaced samples and the stopped bit: header word 132, summed, saturating. */
static void test_sidecar__unplaced_samples_round_trip_sum_and_saturate(void **state)
{
	struct sidecar *sc = fixture(), *src = fixture(), *back = NULL;
	char err[256] = "";
	size_t len;
	unsigned char *buf;

	(void)state;
	sc->sampling = SIDECAR_SAMPLING_SELF;
	sc->unplaced_samples = 7;
	src->sampling = SIDECAR_SAMPLING_SELF | SIDECAR_SAMPLING_STOPPED;
	src->unplaced_samples = 5;
	assert_int_equal(sidecar_merge(sc, src, err, sizeof(err)), 0);
	assert_int_equal(sc->unplaced_samples, 12);
	assert_int_equal(sc->sampling, SIDECAR_SAMPLING_SELF | SIDECAR_SAMPLING_STOPPED);
	buf = encode(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "u", &back, err, sizeof(err)), 0);
	assert_int_equal(back->unplaced_samples, 12);
	assert_int_equal(back->sampling, SIDECAR_SAMPLING_SELF | SIDECAR_SAMPLING_STOPPED);
	sidecar_free(back);
	free(buf);
	/* 64 bits in version 4 ... */
	sc->unplaced_samples = (uint64_t)1 << 40;
	buf = encode(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "u", &back, err, sizeof(err)), 0);
	assert_int_equal(back->unplaced_samples, (uint64_t)1 << 40);
	sidecar_free(back);
	free(buf);
	/* ... 32, saturated, in version 3's header word 132 */
	buf = encode_v3(sc, &len);
	assert_int_equal(get32le(buf + 132), UINT32_MAX);
	assert_int_equal(sidecar_decode(buf, len, "u", &back, err, sizeof(err)), 0);
	assert_int_equal(back->unplaced_samples, UINT32_MAX);
	assert_int_equal(back->sampling, SIDECAR_SAMPLING_SELF | SIDECAR_SAMPLING_STOPPED);
	sidecar_free(back);
	free(buf);
	sidecar_free(src);
	sidecar_free(sc);
}

static void test_sidecar__rejects_a_program_range_that_ends_before_it_starts(void **state)
{
	struct sidecar *sc = fixture(), *back;
	char err[256];
	size_t len;
	unsigned char *buf;

	(void)state;
	sc->program_start = 0x2000;
	sc->program_end = 0x1000;
	buf = encode(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "r", &back, err, sizeof(err)), -1);
	assert_string_equal(err, "r: bad program range 0x2000-0x1000");
	free(buf);
	sidecar_free(sc);
}

/* Program text of the PIE below, link-time: main 0x1100, a 0x1200,
 * b 0x1300; the image spans [0, 0x4000). */
enum { P_MAIN = 0x1100, P_A = 0x1200, P_B = 0x1300, P_SIZE = 0x4000 };

/*
 * One process of a PIE loaded at `load`, as the runtime writes it: call
 * sites outside the program are 0, whatever address the C library had.
 * `with_b`: this process also calls b (rank 0 of an MPI job calling a
 * function the others do not).
 *
 *   main [1] (external: __libc_start_call_main)
 *   ├── a [2] (main+0x10)
 *   │   └── b [1] (external: a callback from qsort)   only with_b
 *   └── b [3] (main+0x20)                             only with_b
 */
static struct sidecar *pie_process(uint64_t load, uint64_t pid, int with_b)
{
	struct sidecar *sc = sidecar_new();
	uint32_t m, a, x;

	assert_non_null(sc);
	sc->pid = pid;
	sc->rank = (int32_t)pid;
	sc->threads = 1;
	sc->load_address = load;
	sc->program_start = load;
	sc->program_end = load + P_SIZE;
	assert_int_equal(sidecar_add(sc, SIDECAR_ROOT, 0, load + P_MAIN + 4, 1, &m), 0);
	assert_int_equal(sidecar_add(sc, m, load + P_MAIN + 0x10, load + P_A + 4, 2, &a), 0);
	if (with_b) {
		assert_int_equal(sidecar_add(sc, a, 0, load + P_B + 4, 1, &x), 0);
		assert_int_equal(sidecar_add(sc, m, load + P_MAIN + 0x20, load + P_B + 4, 3, &x), 0);
	}
	return sc;
}

/*
 * Four processes of one PIE, each loaded elsewhere, whose roots are called
 * from the C library (external call site 0): the sum is one tree, the union
 * of theirs (4 nodes, not 4 + 2 + 2 + 2), in the first one's addresses.
 */
static void test_sidecar__merge_of_pie_processes_lines_up_external_roots(void **state)
{
	struct sidecar *dst = pie_process(0x555555554000ull, 100, 1);
	static const uint64_t loads[] = {
		0x55aa00000000ull, 0x560012345000ull, 0x5500f0000000ull,
	};
	char err[256];

	(void)state;
	for (int i = 0; i < 3; i++) {
		struct sidecar *src = pie_process(loads[i], 101 + (uint64_t)i, 0);

		assert_int_equal(sidecar_merge(dst, src, err, sizeof(err)), 0);
		sidecar_free(src);
	}
	assert_int_equal(dst->nr_nodes, 4);
	assert_int_equal(dst->nodes[0].parent, SIDECAR_ROOT);
	assert_int_equal(dst->nodes[0].call_site, 0);
	assert_int_equal(dst->nodes[0].callee, 0x555555554000ull + P_MAIN + 4);
	assert_int_equal(dst->nodes[0].count, 4);
	assert_int_equal(dst->nodes[1].call_site, 0x555555554000ull + P_MAIN + 0x10);
	assert_int_equal(dst->nodes[1].count, 8);
	assert_int_equal(dst->nodes[2].call_site, 0);	/* the callback stays external */
	assert_int_equal(dst->nodes[2].parent, 1);
	assert_int_equal(dst->nodes[3].count, 3);
	assert_int_equal(sidecar_total(dst), 4 + 8 + 1 + 3);
	assert_int_equal(dst->program_start, 0x555555554000ull);
	assert_int_equal(dst->threads, 4);
	assert_int_equal(dst->rank, -1);
	sidecar_free(dst);
}

/* Addresses outside the program range (callees in an instrumented shared
 * library) are not rebased; 0 is never moved. */
static void test_sidecar__merge_rebases_only_the_program(void **state)
{
	struct sidecar *dst = pie_process(0x555555554000ull, 1, 0),
		       *src = pie_process(0x556000000000ull, 2, 0);
	uint32_t idx;
	char err[256];

	(void)state;
	/* main calls lib_f, a function of an instrumented libfoo.so */
	assert_int_equal(sidecar_add(src, 0, 0x556000000000ull + P_MAIN + 0x30,
				     0x7f0000001004ull, 5, &idx), 0);
	assert_int_equal(sidecar_merge(dst, src, err, sizeof(err)), 0);
	assert_int_equal(dst->nr_nodes, 3);
	assert_int_equal(dst->nodes[0].count, 2);
	assert_int_equal(dst->nodes[2].call_site, 0x555555554000ull + P_MAIN + 0x30);
	assert_int_equal(dst->nodes[2].callee, 0x7f0000001004ull);
	sidecar_free(src);
	sidecar_free(dst);
}

/* Outside a known program range a call site is external (0); without a
 * range nothing changes. */
static void test_sidecar__canonical_site_is_0_outside_the_program(void **state)
{
	struct sidecar *sc = pie_process(0x555555554000ull, 1, 0);

	(void)state;
	assert_int_equal(sidecar_canonical_site(sc, 0x7f1234567890ull), 0);
	assert_int_equal(sidecar_canonical_site(sc, 0x555555554000ull + P_SIZE), 0);
	assert_int_equal(sidecar_canonical_site(sc, 0x555555554000ull + P_MAIN),
			 0x555555554000ull + P_MAIN);
	sc->program_start = sc->program_end = 0;
	assert_int_equal(sidecar_canonical_site(sc, 0x7f1234567890ull), 0x7f1234567890ull);
	sidecar_free(sc);
}

static void test_sidecar__path_lists_nodes_from_the_root(void **state)
{
	struct sidecar *sc = fixture();
	uint32_t path[8];

	(void)state;
	assert_int_equal(sidecar_path(sc, 4, path, 8), 3);
	assert_int_equal(path[0], 0);
	assert_int_equal(path[1], 3);
	assert_int_equal(path[2], 4);
	assert_int_equal(sidecar_path(sc, 0, NULL, 0), 1);
	sidecar_free(sc);
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/* The head of a file: its rank, pid and identity without its contexts;
 * a file cut short or with a bad section length is refused, named. */
static void test_sidecar__head_identifies_without_contexts_and_refuses_damage(void **state)
{
	char dir[] = "/tmp/test_sidecar.XXXXXX", path[128], err[256];
	struct sidecar *sc = fixture(), *back = NULL;
	unsigned char *buf;
	size_t len;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/gmon.7.callpath", dir);
	sc->rank = 7;
	sc->pid = 4242;
	sc->id.flags = SIDECAR_ID_HASHED;
	sc->id.gmon_size = 1234;
	sc->id.gmon_hash = 0xabcdef;
	assert_int_equal(sidecar_write_atomic(sc, path, err, sizeof(err)), 0);
	assert_int_equal(sidecar_read_head(path, &back, err, sizeof(err)), 0);
	assert_int_equal(back->rank, 7);
	assert_int_equal(back->pid, 4242);
	assert_int_equal(back->id.gmon_size, 1234);
	assert_int_equal(back->id.gmon_hash, 0xabcdef);
	assert_int_equal(back->nr_nodes, 0);
	sidecar_free(back);

	/* cut short by 8 bytes: the header's size says so */
	assert_int_equal(infile_read_all(path, &buf, &len, err, sizeof(err)), 0);
	assert_non_null(fp = fopen(path, "wb"));
	assert_int_equal(fwrite(buf, 1, len - 8, fp), len - 8);
	fclose(fp);
	assert_int_equal(sidecar_read_head(path, &back, err, sizeof(err)), -1);
	assert_null(back);
	assert_non_null(strstr(err, "gmon.7.callpath: bad file size"));

	/* the first section's length made odd */
	buf[32 + 8] ^= 1;
	assert_non_null(fp = fopen(path, "wb"));
	assert_int_equal(fwrite(buf, 1, len, fp), len);
	fclose(fp);
	assert_int_equal(sidecar_read_head(path, &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "gmon.7.callpath: bad section length at byte 40"));
	free(buf);
	unlink(path);
	rmdir(dir);
	sidecar_free(sc);
}

static void test_sidecar__write_atomic_then_read_from_a_file(void **state)
{
	char dir[] = "/tmp/test_sidecar.XXXXXX", path[128], err[256];
	struct sidecar *sc = fixture(), *back = NULL;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/gmon.out.callpath", dir);
	assert_int_equal(sidecar_write_atomic(sc, path, err, sizeof(err)), 0);
	assert_int_equal(count_entries(dir), 1);	/* no temporary left */
	assert_int_equal(sidecar_read(path, &back, err, sizeof(err)), 0);
	assert_int_equal(back->nr_nodes, 5);
	assert_int_equal(sidecar_total(back), 23);
	sidecar_free(back);
	unlink(path);

	/* a missing file is named in the message */
	assert_int_equal(sidecar_read(path, &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "gmon.out.callpath: No such file"));
	/* a folder that does not exist: no file, an error */
	snprintf(path, sizeof(path), "%s/none/x.callpath", dir);
	assert_int_equal(sidecar_write_atomic(sc, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot create"));
	rmdir(dir);
	sidecar_free(sc);
}

static void test_sidecar__empty_tree_round_trips(void **state)
{
	struct sidecar *sc = sidecar_new(), *back = NULL;
	char err[256];
	size_t len;
	unsigned char *buf = encode(sc, &len);

	(void)state;
	assert_int_equal(sidecar_decode(buf, len, "e", &back, err, sizeof(err)), 0);
	assert_int_equal(back->nr_nodes, 0);
	assert_int_equal(back->rank, -1);
	assert_string_equal(back->host, "");
	sidecar_free(back);
	free(buf);
	sidecar_free(sc);
}

static void test_sidecar__name_for_appends_the_suffix(void **state)
{
	char buf[32];

	(void)state;
	assert_int_equal(sidecar_name_for("gmon.out", buf, sizeof(buf)), 17);
	assert_string_equal(buf, "gmon.out.callpath");
	assert_int_equal(sidecar_name_for("run.1234", buf, sizeof(buf)), 17);
	assert_string_equal(buf, "run.1234.callpath");
	assert_int_equal(sidecar_name_for("a-very-long-prefix-name.99", buf,
					  sizeof(buf)), -1);
}


/* ---- version 4 ---- */

/* The identity (which gmon file the sidecar belongs to) round-trips. */
static void test_sidecar__identity_round_trips(void **state)
{
	struct sidecar *sc = fixture(), *back = NULL;
	char err[256] = "";
	size_t len;
	unsigned char *buf;

	(void)state;
	sc->id.flags = SIDECAR_ID_HASHED;
	sc->id.snapshot = 3;
	sc->id.gmon_size = 123456;
	sc->id.gmon_hash = 0xfedcba9876543210ull;
	sc->id.run_id = 0x0123456789abcdefull;
	sc->id.time_ns = 1700000000123456789ull;
	assert_int_equal(sidecar_set_gmon_name(sc, "out/gmon.4242"), 0);
	buf = encode(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "i", &back, err, sizeof(err)), 0);
	assert_int_equal(back->id.flags, SIDECAR_ID_HASHED);
	assert_int_equal(back->id.snapshot, 3);
	assert_int_equal(back->id.gmon_size, 123456);
	assert_int_equal(back->id.gmon_hash, 0xfedcba9876543210ull);
	assert_int_equal(back->id.run_id, 0x0123456789abcdefull);
	assert_int_equal(back->id.time_ns, 1700000000123456789ull);
	assert_string_equal(back->id.gmon_name, "out/gmon.4242");
	sidecar_free(back);
	free(buf);
	sidecar_free(sc);
}

/* A sum pairs with no one process's gmon file: merging marks it a sum. */
static void test_sidecar__merge_makes_the_identity_a_sum(void **state)
{
	struct sidecar *dst = fixture(), *src = fixture();
	char err[256] = "";

	(void)state;
	dst->id.flags = SIDECAR_ID_HASHED;
	dst->id.gmon_hash = 1;
	assert_int_equal(sidecar_merge(dst, src, err, sizeof(err)), 0);
	assert_int_equal(dst->id.flags, SIDECAR_ID_SUM);
	sidecar_free(src);
	sidecar_free(dst);
}

/*
 * Metrics beyond the time samples keep their description and per-node
 * values, and sums add them by name, appending a metric one side lacks.
 */
static void test_sidecar__extra_metrics_round_trip_and_sum_by_name(void **state)
{
	struct sidecar *sc = fixture(), *src = fixture(), *back = NULL;
	char err[256] = "";
	size_t len;
	unsigned char *buf;
	int cyc, cyc2, l1;

	(void)state;
	cyc = sidecar_add_metric(sc, "PAPI_TOT_CYC", "events", SIDECAR_METRIC_EVENTS,
				 SIDECAR_METRIC_MULTIPLEXED, 1000000);
	assert_int_equal(cyc, 0);
	sc->extra_values[2 * sc->nr_extra + (uint32_t)cyc] = 40;
	sc->extra_metrics[cyc].unplaced = 2;
	sc->nodes[2].self_samples = 9;
	sc->sampling = SIDECAR_SAMPLING_SELF;
	buf = encode(sc, &len);
	/* 40 bytes + 8 per metric: the time samples and PAPI_TOT_CYC */
	assert_int_equal(get32le(buf + v4_records(sc, len, 56) - 32), 56);
	assert_int_equal(sidecar_decode(buf, len, "m", &back, err, sizeof(err)), 0);
	assert_int_equal(back->nr_extra, 1);
	assert_string_equal(back->extra_metrics[0].name, "PAPI_TOT_CYC");
	assert_string_equal(back->extra_metrics[0].unit, "events");
	assert_int_equal(back->extra_metrics[0].kind, SIDECAR_METRIC_EVENTS);
	assert_int_equal(back->extra_metrics[0].flags, SIDECAR_METRIC_MULTIPLEXED);
	assert_int_equal(back->extra_metrics[0].period, 1000000);
	assert_int_equal(back->extra_metrics[0].unplaced, 2);
	assert_int_equal(back->extra_values[2], 40);
	assert_int_equal(back->nodes[2].self_samples, 9);
	assert_int_equal(back->sampling, SIDECAR_SAMPLING_SELF);
	/* src has L1 misses first, then cycles: summed by name */
	l1 = sidecar_add_metric(src, "PAPI_L1_DCM", "events", SIDECAR_METRIC_EVENTS, 0, 100);
	cyc2 = sidecar_add_metric(src, "PAPI_TOT_CYC", "events", SIDECAR_METRIC_EVENTS,
				  0, 1000000);
	assert_int_equal(l1, 0);
	assert_int_equal(cyc2, 1);
	src->extra_values[2 * 2 + 1] = 2;	/* node 2, cycles */
	src->extra_values[4 * 2 + 0] = 7;	/* node 4, L1 misses */
	assert_int_equal(sidecar_merge(back, src, err, sizeof(err)), 0);
	assert_int_equal(back->nr_extra, 2);
	assert_string_equal(back->extra_metrics[1].name, "PAPI_L1_DCM");
	assert_int_equal(back->extra_values[2 * 2 + 0], 42);
	assert_int_equal(back->extra_values[4 * 2 + 1], 7);
	assert_int_equal(back->extra_values[4 * 2 + 0], 0);
	sidecar_free(back);
	free(buf);
	sidecar_free(src);
	sidecar_free(sc);
}

/* The loaded objects round-trip; a sum adds those the first file lacks. */
static void test_sidecar__objects_round_trip_and_sum_as_a_union(void **state)
{
	static const unsigned char bid[4] = { 1, 2, 3, 4 };
	struct sidecar *sc = fixture(), *src = fixture(), *back = NULL;
	char err[256] = "";
	size_t len;
	unsigned char *buf;

	(void)state;
	assert_int_equal(sidecar_add_object(sc, "/bin/prog", 0x555555554000ull,
					    0x555555556000ull, 0x555555554000ull,
					    SIDECAR_OBJECT_MAIN, sc->build_id, 20), 0);
	assert_int_equal(sidecar_add_object(sc, "/lib/libm.so.6", 0x7f0000000000ull,
					    0x7f0000100000ull, 0x7f0000000000ull, 0, bid, 4), 0);
	buf = encode(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "o", &back, err, sizeof(err)), 0);
	assert_int_equal(back->nr_objects, 2);
	assert_string_equal(back->objects[0].path, "/bin/prog");
	assert_int_equal(back->objects[0].flags, SIDECAR_OBJECT_MAIN);
	assert_int_equal(back->objects[1].start, 0x7f0000000000ull);
	assert_int_equal(back->objects[1].end, 0x7f0000100000ull);
	assert_int_equal(back->objects[1].bias, 0x7f0000000000ull);
	assert_int_equal(back->objects[1].build_id_len, 4);
	assert_memory_equal(back->objects[1].build_id, bid, 4);
	assert_int_equal(sidecar_add_object(src, "/lib/libm.so.6", 0x7f1000000000ull,
					    0x7f1000100000ull, 0x7f1000000000ull, 0, bid, 4), 0);
	assert_int_equal(sidecar_add_object(src, "/lib/libz.so.1", 1, 2, 0, 0, NULL, 0), 0);
	assert_int_equal(sidecar_merge(back, src, err, sizeof(err)), 0);
	assert_int_equal(back->nr_objects, 3);
	assert_string_equal(back->objects[2].path, "/lib/libz.so.1");
	assert_int_equal(back->objects[1].start, 0x7f0000000000ull);	/* the first's */
	sidecar_free(back);
	free(buf);
	sidecar_free(src);
	sidecar_free(sc);
}

/*
 * A file with a node table per thread: the reader sums the tables into one
 * tree (a key repeated within a table too), as the runtime's exit merge
 * would.  Built from the fixture's encoding with a second node table
 * appended: main [1] -> b [9] -> c [7] again, and main -> b twice more.
 */
static void test_sidecar__sums_several_node_tables_and_repeated_keys(void **state)
{
	struct sidecar *sc = fixture(), *back = NULL;
	char err[256] = "";
	size_t len, len2;
	unsigned char *buf = encode(sc, &len), *two, *p;
	static const struct { uint32_t parent; uint64_t site, callee, count, samples; } t[] = {
		{ SIDECAR_ROOT, 0x100, MAIN, 1, 0 },
		{ 0, 0x102, B, 9, 5 },
		{ 1, 0x121, C, 7, 1 },
		{ 0, 0x102, B, 2, 0 },	/* repeats (main, 0x102, b) */
	};
	size_t n = sizeof(t) / sizeof(t[0]);

	(void)state;
	len2 = len + 16 + 32 + n * 48;
	two = calloc(1, len2);
	assert_non_null(two);
	memcpy(two, buf, len);
	put32le(two + 20, get32le(buf + 20) + 1);	/* section count */
	put64le(two + 24, len2);			/* file size */
	p = two + len;
	put32le(p, 5);				/* node table, required */
	put32le(p + 4, 1);
	put64le(p + 8, 32 + n * 48);
	put32le(p + 16, 48);			/* node size */
	put32le(p + 20, 1);			/* metrics */
	put64le(p + 24, n);
	put32le(p + 32, 1);			/* one thread's */
	p += 48;
	for (size_t i = 0; i < n; i++, p += 48) {
		put32le(p, t[i].parent);
		put64le(p + 8, t[i].site);
		put64le(p + 16, t[i].callee);
		put64le(p + 24, t[i].count);
		put64le(p + 40, t[i].samples);
	}
	assert_int_equal(sidecar_decode(two, len2, "threads", &back, err, sizeof(err)), 0);
	assert_int_equal(back->nr_nodes, 5);
	assert_int_equal(back->nodes[0].count, 2);
	assert_int_equal(back->nodes[3].count, 9 + 9 + 2);
	assert_int_equal(back->nodes[3].self_samples, 5);
	assert_int_equal(back->nodes[4].count, 14);
	assert_int_equal(back->nodes[4].self_samples, 1);
	assert_int_equal(sidecar_total(back), 23 + 1 + 9 + 7 + 2);
	sidecar_free(back);
	free(two);
	free(buf);
	sidecar_free(sc);
}

/* A section a reader does not know is skipped, unless marked required. */
static void test_sidecar__skips_unknown_sections_refuses_required_ones(void **state)
{
	struct sidecar *sc = fixture(), *back = NULL;
	char err[256] = "";
	size_t len, len2;
	unsigned char *buf = encode(sc, &len), *more;

	(void)state;
	len2 = len + 16 + 8;
	more = calloc(1, len2);
	assert_non_null(more);
	memcpy(more, buf, len);
	put32le(more + 20, get32le(buf + 20) + 1);
	put64le(more + 24, len2);
	put32le(more + len, 99);
	put64le(more + len + 8, 8);
	memset(more + len + 16, 0x77, 8);
	assert_int_equal(sidecar_decode(more, len2, "x", &back, err, sizeof(err)), 0);
	assert_int_equal(back->nr_nodes, 5);
	sidecar_free(back);
	put32le(more + len + 4, 1);	/* required */
	assert_int_equal(sidecar_decode(more, len2, "x", &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "x: unsupported section 99 at byte"));
	free(more);
	free(buf);
	sidecar_free(sc);
}

/*
 * The process's CPU time (the optional section 7, after the node table):
 * read back as written; a file without it (every runtime before it) reads
 * with process_cpu.valid 0 and takes the same bytes as before; a second
 * one is refused; a sum has the sum only when every file had it; the
 * coverage is the samples' time over it.
 */
static void test_sidecar__process_cpu_section_round_trips_and_is_optional(void **state)
{
	struct sidecar *sc = fixture(), *back = NULL, *other;
	char err[256] = "";
	size_t len0, len, len2;
	unsigned char *buf0 = encode(sc, &len0), *buf, *twice;

	(void)state;
	sc->time_period = 1000000;
	sc->process_cpu.valid = 1;
	sc->process_cpu.user_ns = 300000000;
	sc->process_cpu.sys_ns = 100000000;
	buf = encode(sc, &len);
	assert_int_equal(len, len0 + 16 + 24);
	/* before the node table: the head's last section */
	assert_int_equal(get32le(buf + v4_records(sc, len, 48) - 32 - 16 - 16 - 24), 7);
	assert_int_equal(sidecar_decode(buf, len, "c", &back, err, sizeof(err)), 0);
	assert_int_equal(back->process_cpu.valid, 1);
	assert_true(back->process_cpu.user_ns == 300000000 && back->process_cpu.sys_ns == 100000000);
	assert_int_equal(back->nr_nodes, 5);
	/* 380 samples of 1 ms for 0.4 s of CPU */
	assert_true(sidecar_cpu_coverage(back, 380) > 0.949 && sidecar_cpu_coverage(back, 380) < 0.951);
	sidecar_free(back);

	/* an older file: no section, no coverage */
	assert_int_equal(sidecar_decode(buf0, len0, "old", &back, err, sizeof(err)), 0);
	assert_int_equal(back->process_cpu.valid, 0);
	assert_true(sidecar_cpu_coverage(back, 380) < 0);
	sidecar_free(back);

	/* twice: refused */
	len2 = len + 16 + 24;
	twice = calloc(1, len2);
	assert_non_null(twice);
	memcpy(twice, buf, len);
	memcpy(twice + len, buf + v4_records(sc, len, 48) - 32 - 16 - 16 - 24, 16 + 24);
	put32le(twice + 20, get32le(buf + 20) + 1);
	put64le(twice + 24, len2);
	assert_int_equal(sidecar_decode(twice, len2, "t", &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "t: bad second process CPU section"));

	/* sums */
	other = fixture();
	other->process_cpu = sc->process_cpu;
	assert_int_equal(sidecar_merge(other, sc, err, sizeof(err)), 0);
	assert_true(other->process_cpu.valid && other->process_cpu.user_ns == 600000000 &&
		    other->process_cpu.sys_ns == 200000000);
	sc->process_cpu.valid = 0;
	assert_int_equal(sidecar_merge(other, sc, err, sizeof(err)), 0);
	assert_int_equal(other->process_cpu.valid, 0);
	sidecar_free(other);
	free(twice);
	free(buf);
	free(buf0);
	sidecar_free(sc);
}

/* A node table whose records do not fill it exactly is refused. */
static void test_sidecar__rejects_a_node_count_that_is_not_the_tables(void **state)
{
	struct sidecar *sc = fixture(), *back = NULL;
	char err[256] = "";
	size_t len;
	unsigned char *buf = encode(sc, &len);
	size_t recs = v4_records(sc, len, 48);

	(void)state;
	put64le(buf + recs - 24, 4);
	assert_int_equal(sidecar_decode(buf, len, "n", &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "n: bad node count"));
	assert_null(back);
	free(buf);
	sidecar_free(sc);
}

/*
 * The hash is defined on bytes (doc/dev/sidecar-format.md): fixed values that
 * another implementation must reproduce (a Python transcription of the
 * definition gives these three), and the same whatever pieces the
 * bytes come in.
 */
static void test_sidecar__hash_is_fixed_and_piecewise(void **state)
{
	unsigned char data[1000];
	struct sidecar_hash hs;
	uint64_t whole;

	(void)state;
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (unsigned char)(i * 7 + 3);
	sidecar_hash_begin(&hs);
	assert_int_equal(sidecar_hash_end(&hs), 0x9ca066f1a4ab2eeaull);
	sidecar_hash_add(&hs, "gmon", 4);
	assert_int_equal(sidecar_hash_end(&hs), 0x64c3f85726a3584cull);
	sidecar_hash_begin(&hs);
	sidecar_hash_add(&hs, data, sizeof(data));
	whole = sidecar_hash_end(&hs);
	assert_int_equal(whole, 0xe948673037994176ull);
	for (size_t step = 1; step < 20; step++) {
		sidecar_hash_begin(&hs);
		for (size_t at = 0; at < sizeof(data); at += step)
			sidecar_hash_add(&hs, data + at,
					 sizeof(data) - at < step ? sizeof(data) - at : step);
		assert_int_equal(sidecar_hash_end(&hs), whole);
	}
	/* one byte more or one byte changed is another hash */
	sidecar_hash_begin(&hs);
	sidecar_hash_add(&hs, data, sizeof(data) - 1);
	assert_true(sidecar_hash_end(&hs) != whole);
	data[500] ^= 1;
	sidecar_hash_begin(&hs);
	sidecar_hash_add(&hs, data, sizeof(data));
	assert_true(sidecar_hash_end(&hs) != whole);
}

static void test_sidecar__hash_file_reads_a_regular_file_only(void **state)
{
	char dir[] = "/tmp/test_sidecar_hXXXXXX", path[64];
	struct sidecar_hash hs;
	uint64_t size = 0, hash = 0;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/gmon.out", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < 20000; i++)
		fputc(i % 251, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(sidecar_hash_file(path, &size, &hash), 0);
	assert_int_equal(size, 20000);
	sidecar_hash_begin(&hs);
	for (int i = 0; i < 20000; i++) {
		unsigned char c = (unsigned char)(i % 251);

		sidecar_hash_add(&hs, &c, 1);
	}
	assert_int_equal(hash, sidecar_hash_end(&hs));
	assert_int_equal(sidecar_hash_file(dir, &size, &hash), -1);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(sidecar_hash_file(path, &size, &hash), -1);
	assert_int_equal(rmdir(dir), 0);
}

/*
 * The runtime's writer treats the sidecar's path as glibc treats gmon.out:
 * a symbolic link is refused and left alone, a FIFO is written into, a
 * new file gets 0666 less the umask (without the umask being changed).
 */
static void test_sidecar__write_atomic_refuses_symlinks_writes_into_fifos(void **state)
{
	char dir[] = "/tmp/test_sidecar_wXXXXXX", path[64], target[64], err[512];
	struct sidecar *sc = fixture(), *back = NULL;
	unsigned char *buf, got[4096];
	size_t len, have = 0;
	struct stat st;
	mode_t old = umask(022);
	pid_t pid;
	int fd, status;
	ssize_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/gmon.out.callpath", dir);
	snprintf(target, sizeof(target), "%s/target", dir);
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(sidecar_write_atomic(sc, path, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "gmon.out.callpath: not written: it is a symbolic link"));
	assert_int_equal(access(target, F_OK), -1);	/* nothing behind it */
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(unlink(path), 0);

	assert_int_equal(mkfifo(path, 0600), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(sidecar_write_atomic(sc, path, err, sizeof(err)) == 0 ? 0 : 1);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	while ((n = read(fd, got + have, sizeof(got) - have)) > 0)
		have += (size_t)n;
	close(fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	buf = encode(sc, &len);
	assert_int_equal(have, len);
	assert_memory_equal(got, buf, len);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));	/* still the FIFO */
	assert_int_equal(unlink(path), 0);

	assert_int_equal(sidecar_write_atomic(sc, path, err, sizeof(err)), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_int_equal(umask(old), 022);	/* as we set it */
	assert_int_equal(sidecar_read(path, &back, err, sizeof(err)), 0);
	assert_int_equal(back->nr_nodes, 5);
	sidecar_free(back);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
	free(buf);
	sidecar_free(sc);
}

/*
 * The process section's load address and program range are the objects
 * section's main program's: two bytes of a real file's load address
 * zeroed named its addresses as other functions (and made --folded-calls
 * write past a buffer); such a file is refused, naming the field.  A file
 * without objects (version 3, or none listed) cannot be checked.
 */
static void test_sidecar__a_load_address_not_the_main_objects_is_refused(void **state)
{
	struct sidecar *sc = fixture(), *back = NULL;
	char err[256] = "";
	unsigned char *buf;
	size_t len;

	(void)state;
	assert_int_equal(sidecar_add_object(sc, "/bin/prog", 0x555555554000ull,
					    0x555555556000ull, 0x555555554000ull,
					    SIDECAR_OBJECT_MAIN, NULL, 0), 0);
	buf = encode(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "ok", &back, err, sizeof(err)), 0);
	sidecar_free(back);
	free(buf);
	sc->load_address = 0x555500004000ull;	/* bytes 2 and 3 zeroed */
	buf = encode(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "x", &back, err, sizeof(err)), -1);
	assert_null(back);
	assert_string_equal(err, "x: bad load address 0x555500004000 (the objects section's "
				 "main program is loaded at 0x555555554000)");
	free(buf);
	sc->load_address = 0x555555554000ull;
	sc->program_end = 0x555555557000ull;	/* a byte of the end changed */
	buf = encode(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "x", &back, err, sizeof(err)), -1);
	assert_string_equal(err, "x: bad program range 0x555555554000-0x555555557000 (the "
				 "objects section's main program spans "
				 "0x555555554000-0x555555556000)");
	free(buf);
	sidecar_free(sc);
	/* without a main program among the objects: nothing to compare */
	sc = fixture();
	sc->load_address = 0x555500004000ull;
	buf = encode(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "x", &back, err, sizeof(err)), 0);
	sidecar_free(back);
	free(buf);
	sidecar_free(sc);
}

/* A folded-recursion node's calls are its parent's recursive calls (its
 * `recursive`); a count of its own was calls that no output showed (a
 * folded line counts `recursive`), while the totals had them: refused, as
 * calls of a leaf are (found by fuzz_reports). */
static void test_sidecar__a_folded_node_with_calls_is_refused(void **state)
{
	struct sidecar *sc = fixture(), *back = NULL;
	char err[256] = "";
	unsigned char *buf;
	size_t len;
	uint32_t f;

	(void)state;
	assert_int_equal(sidecar_add(sc, 1, 0x105, A, 0, &f), 0);	/* a -> a */
	sc->nodes[f].flags |= SIDECAR_NODE_FOLDED;
	sc->nodes[f].recursive = 4;
	buf = encode(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "ok", &back, err, sizeof(err)), 0);
	sidecar_free(back);
	free(buf);
	sc->nodes[f].count = 55552;
	buf = encode(sc, &len);
	assert_int_equal(sidecar_decode(buf, len, "x", &back, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "x: folded-recursion node 5 has calls of its own at byte "));
	free(buf);
	sidecar_free(sc);
}


/*
 * The fixture with per-thread values: thread 11 (main) called main and a
 * and c under a once, thread 12 called b three times and c under it twice
 * with 5 samples there; the rest of every node is "other threads".
 */
static struct sidecar *fixture_threads(void)
{
	struct sidecar *sc = fixture();
	int t1, t2;

	sc->nodes[4].self_samples = 9;	/* main;b;c */
	sc->threads = 4;
	t1 = sidecar_thread_new(sc, 11, SIDECAR_THREAD_MAIN, 1, "prog");
	t2 = sidecar_thread_new(sc, 12, 0, 1, "worker-b");
	assert_true(t1 == 0 && t2 == 1);
	assert_int_equal(sidecar_thread_add(sc, 0, 0, 1, 0), 0);
	assert_int_equal(sidecar_thread_add(sc, 0, 1, 1, 0), 0);
	assert_int_equal(sidecar_thread_add(sc, 0, 2, 1, 0), 0);
	/* repeats sum, zeros go */
	assert_int_equal(sidecar_thread_add(sc, 1, 4, 1, 2), 0);
	assert_int_equal(sidecar_thread_add(sc, 1, 3, 3, 0), 0);
	assert_int_equal(sidecar_thread_add(sc, 1, 4, 1, 3), 0);
	assert_int_equal(sidecar_threads_finish(sc, 2), 0);
	sc->thread_limit = 2;
	return sc;
}

static void test_sidecar__threads_round_trip_and_add_up_to_every_node(void **state)
{
	struct sidecar *sc = fixture_threads(), *back = NULL;
	char err[256] = "";
	size_t len;
	unsigned char *buf = encode(sc, &len);
	const struct sidecar_thread *o;

	(void)state;
	assert_int_equal(sc->nr_thread_views, 3);
	o = &sc->thread_views[2];
	assert_true(o->flags & SIDECAR_THREAD_OTHER);
	assert_int_equal(o->threads, 2);
	/* main 1-1 (none left), a 3-1, c 3-1, b 9-3, c 7-2 calls, 9-5 samples */
	assert_int_equal(o->nr_values, 4);
	assert_int_equal(o->values[0].node, 1);
	assert_int_equal(o->values[2].node, 3);
	assert_int_equal(o->values[2].calls, 6);
	assert_int_equal(o->values[3].calls, 5);
	assert_int_equal(o->values[3].samples, 4);
	assert_int_equal(sidecar_decode(buf, len, "mem", &back, err, sizeof(err)), 0);
	assert_int_equal(back->nr_thread_views, 3);
	assert_int_equal(back->thread_limit, 2);
	for (uint32_t i = 0; i < 3; i++) {
		const struct sidecar_thread *a = &sc->thread_views[i], *b = &back->thread_views[i];

		assert_int_equal(a->tid, b->tid);
		assert_int_equal(a->flags, b->flags);
		assert_int_equal(a->threads, b->threads);
		assert_string_equal(a->name, b->name);
		assert_int_equal(a->nr_values, b->nr_values);
		for (uint32_t k = 0; k < a->nr_values; k++) {
			assert_int_equal(a->values[k].node, b->values[k].node);
			assert_int_equal(a->values[k].calls, b->values[k].calls);
			assert_int_equal(a->values[k].samples, b->values[k].samples);
		}
	}
	assert_int_equal(sidecar_threads_check(back, err, sizeof(err)), 0);
	assert_int_equal(back->thread_views[1].nr_values, 2);
	assert_int_equal(back->thread_views[1].values[1].calls, 2);
	assert_int_equal(back->thread_views[1].values[1].samples, 5);
	free(buf);
	sidecar_free(back);
	sidecar_free(sc);
}

/* The stream writer (sidecar_write_fp, the runtime's) writes what encode does. */
static void test_sidecar__threads_written_as_encoded(void **state)
{
	struct sidecar *sc = fixture_threads();
	size_t len, got;
	unsigned char *buf = encode(sc, &len), *file = malloc(len + 1);
	FILE *fp = tmpfile();

	(void)state;
	assert_non_null(fp);
	assert_int_equal(sidecar_write_fp(sc, fp), 0);
	rewind(fp);
	got = fread(file, 1, len + 1, fp);
	assert_int_equal(got, len);
	assert_memory_equal(file, buf, len);
	fclose(fp);
	free(file);
	free(buf);
	sidecar_free(sc);
}

/* Where the threads section starts in an encoding of `sc`. */
static size_t threads_at(const unsigned char *buf, size_t len)
{
	size_t at = SIDECAR_V4_FILE_HDR;

	while (at + SIDECAR_V4_SECT_HDR <= len) {
		uint32_t tag = (uint32_t)buf[at] | (uint32_t)buf[at + 1] << 8;
		uint64_t slen = 0;

		for (int i = 7; i >= 0; i--)
			slen = slen << 8 | buf[at + 8 + i];
		if (tag == SIDECAR_SECT_THREADS)
			return at;
		at += SIDECAR_V4_SECT_HDR + slen;
	}
	fail_msg("no threads section");
	return 0;
}

static void test_sidecar__threads_that_do_not_add_up_are_refused(void **state)
{
	struct sidecar *sc = fixture_threads(), *back = NULL;
	char err[256] = "";
	size_t len, at;
	unsigned char *buf = encode(sc, &len);

	(void)state;
	at = threads_at(buf, len);
	/* thread 0's first record (node 0): 1 call becomes 2 */
	buf[at + SIDECAR_V4_SECT_HDR + SIDECAR_V4_THREADS_FIXED + SIDECAR_V4_THREAD_FIXED + 8 + 8] = 2;
	assert_int_equal(sidecar_decode(buf, len, "x.callpath", &back, err, sizeof(err)), -1);
	assert_null(back);
	assert_string_equal(err, "x.callpath: bad threads section: the threads' values of "
			    "node 0 (2 calls, 0 samples) are not the node's (1 calls, 0 samples)");
	free(buf);
	sidecar_free(sc);
}

/*
 * Every byte of the threads section changed, and every cut of the file:
 * read, or refused naming the file, never a crash (ASan) nor values that
 * do not add up.
 */
static void test_sidecar__threads_section_damaged_anywhere_is_read_or_refused(void **state)
{
	struct sidecar *sc = fixture_threads(), *back;
	char err[256];
	size_t len, at;
	unsigned char *buf = encode(sc, &len);

	(void)state;
	at = threads_at(buf, len);
	for (size_t i = at + 16; i < len; i++)
		for (int v = 0; v < 3; v++) {
			unsigned char *copy = malloc(len), vals[3] = { 0, 0xff, 0x7f };

			memcpy(copy, buf, len);
			if (copy[i] == vals[v])
				vals[v] ^= 1;
			copy[i] = vals[v];
			err[0] = '\0';
			back = NULL;
			if (sidecar_decode(copy, len, "x.callpath", &back, err, sizeof(err)) == 0)
				assert_int_equal(sidecar_threads_check(back, err, sizeof(err)), 0);
			else
				assert_non_null(strstr(err, "x.callpath: "));
			sidecar_free(back);
			free(copy);
		}
	for (size_t cut = at; cut < len; cut++) {
		unsigned char *part = malloc(cut);

		memcpy(part, buf, cut);
		back = (struct sidecar *)1;
		assert_int_equal(sidecar_decode(part, cut, "x.callpath", &back, err,
						sizeof(err)), -1);
		assert_null(back);
		assert_non_null(strstr(err, "x.callpath: truncated"));
		free(part);
	}
	free(buf);
	sidecar_free(sc);
}

/* Per-thread values are one process's: a sum keeps none. */
static void test_sidecar__merge_drops_per_thread_values(void **state)
{
	struct sidecar *a = fixture_threads(), *b = fixture_threads();
	char err[256];

	(void)state;
	assert_int_equal(sidecar_merge(a, b, err, sizeof(err)), 0);
	assert_int_equal(a->nr_thread_views, 0);
	sidecar_free(a);
	sidecar_free(b);
}

/* A writer whose threads hold more than the tree gets no section at all. */
static void test_sidecar__threads_finish_drops_values_beyond_the_tree(void **state)
{
	struct sidecar *sc = fixture();

	(void)state;
	assert_int_equal(sidecar_thread_new(sc, 5, 0, 1, "t"), 0);
	assert_int_equal(sidecar_thread_add(sc, 0, 1, 4, 0), 0);	/* a has 3 */
	assert_int_equal(sidecar_threads_finish(sc, 0), 1);
	assert_int_equal(sc->nr_thread_views, 0);
	sidecar_free(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sidecar__round_trip_keeps_header_and_tree),
		cmocka_unit_test(test_sidecar__leaves_round_trip_and_move_with_their_objects),
		cmocka_unit_test(test_sidecar__unplaced_samples_round_trip_sum_and_saturate),
		cmocka_unit_test(test_sidecar__rejects_every_truncation),
		cmocka_unit_test(test_sidecar__truncated_node_table_names_the_byte),
		cmocka_unit_test(test_sidecar__rejects_bad_magic),
		cmocka_unit_test(test_sidecar__rejects_future_version),
		cmocka_unit_test(test_sidecar__rejects_trailing_data),
		cmocka_unit_test(test_sidecar__rejects_a_parent_after_its_child),
		cmocka_unit_test(test_sidecar__skips_extension_bytes_of_larger_nodes),
		cmocka_unit_test(test_sidecar__add_counts_an_existing_child_once),
		cmocka_unit_test(test_sidecar__merge_sums_matching_paths_and_appends_new),
		cmocka_unit_test(test_sidecar__merge_rebases_pie_load_address),
		cmocka_unit_test(test_sidecar__merge_of_one_process_keeps_addresses),
		cmocka_unit_test(test_sidecar__merge_refuses_other_build_id),
		cmocka_unit_test(test_sidecar__merge_adopts_the_first_build_id_it_meets),
		cmocka_unit_test(test_sidecar__merge_of_two_ranks_has_no_rank),
		cmocka_unit_test(test_sidecar__reads_version_1),
		cmocka_unit_test(test_sidecar__reads_version_2_without_recursion_or_samples),
		cmocka_unit_test(test_sidecar__versions_3_and_4_round_trip_recursion_and_samples),
		cmocka_unit_test(test_sidecar__write_fp_writes_whole_version_3_nodes),
		cmocka_unit_test(test_sidecar__merge_sums_recursion_and_samples),
		cmocka_unit_test(test_sidecar__rejects_bad_folded_recursion_nodes),
		cmocka_unit_test(test_sidecar__version_3_rejects_duplicate_children),
		cmocka_unit_test(test_sidecar__index_finds_what_a_linear_scan_finds),
		cmocka_unit_test(test_sidecar__merge_of_colliding_keys_is_n_log_n),
		cmocka_unit_test(test_sidecar__version_3_rejects_a_duplicate_among_colliding_keys),
		cmocka_unit_test(test_sidecar__read_refuses_what_is_not_a_regular_file),
		cmocka_unit_test(test_sidecar__merge_refuses_folded_with_full_recursion),
		cmocka_unit_test(test_sidecar__rejects_a_program_range_that_ends_before_it_starts),
		cmocka_unit_test(test_sidecar__merge_of_pie_processes_lines_up_external_roots),
		cmocka_unit_test(test_sidecar__merge_rebases_only_the_program),
		cmocka_unit_test(test_sidecar__canonical_site_is_0_outside_the_program),
		cmocka_unit_test(test_sidecar__path_lists_nodes_from_the_root),
		cmocka_unit_test(test_sidecar__write_atomic_then_read_from_a_file),
		cmocka_unit_test(test_sidecar__head_identifies_without_contexts_and_refuses_damage),
		cmocka_unit_test(test_sidecar__empty_tree_round_trips),
		cmocka_unit_test(test_sidecar__name_for_appends_the_suffix),
		cmocka_unit_test(test_sidecar__identity_round_trips),
		cmocka_unit_test(test_sidecar__merge_makes_the_identity_a_sum),
		cmocka_unit_test(test_sidecar__extra_metrics_round_trip_and_sum_by_name),
		cmocka_unit_test(test_sidecar__objects_round_trip_and_sum_as_a_union),
		cmocka_unit_test(test_sidecar__sums_several_node_tables_and_repeated_keys),
		cmocka_unit_test(test_sidecar__skips_unknown_sections_refuses_required_ones),
		cmocka_unit_test(test_sidecar__rejects_a_node_count_that_is_not_the_tables),
		cmocka_unit_test(test_sidecar__process_cpu_section_round_trips_and_is_optional),
		cmocka_unit_test(test_sidecar__hash_is_fixed_and_piecewise),
		cmocka_unit_test(test_sidecar__hash_file_reads_a_regular_file_only),
		cmocka_unit_test(test_sidecar__write_atomic_refuses_symlinks_writes_into_fifos),
		cmocka_unit_test(test_sidecar__sampled_paths_round_trip_with_their_walks),
		cmocka_unit_test(test_sidecar__sampled_section_is_required),
		cmocka_unit_test(test_sidecar__sampled_file_must_be_consistent),
		cmocka_unit_test(test_sidecar__merge_of_sampled_paths_moves_library_frames),
		cmocka_unit_test(test_sidecar__a_load_address_not_the_main_objects_is_refused),
		cmocka_unit_test(test_sidecar__a_folded_node_with_calls_is_refused),
		cmocka_unit_test(test_sidecar__a_sampled_flag_before_version_4_is_refused),
		cmocka_unit_test(test_sidecar__threads_round_trip_and_add_up_to_every_node),
		cmocka_unit_test(test_sidecar__threads_written_as_encoded),
		cmocka_unit_test(test_sidecar__threads_that_do_not_add_up_are_refused),
		cmocka_unit_test(test_sidecar__threads_section_damaged_anywhere_is_read_or_refused),
		cmocka_unit_test(test_sidecar__merge_drops_per_thread_values),
		cmocka_unit_test(test_sidecar__threads_finish_drops_values_beyond_the_tree),
	};

	return cmocka_run_group_tests_name("sidecar", tests, NULL, NULL);
}
