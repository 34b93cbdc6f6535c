/*
 * test_gmon_out.c - gmon.out as glibc 2.36 writes it (runtime/gmon_out.c).
 *
 * Two kinds of expected bytes: written out by hand from glibc's structs
 * (gmon/sys/gmon_out.h, gmon/gmon.c), and made by a model of glibc's own
 * tables: model_call() is glibc's __mcount_internal (gmon/mcount.c) line for
 * line, model_write() its write_call_graph, so a random call sequence
 * gives the file glibc would write for it.  (t480 checks the same against
 * real -pg runs.)
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/gmon_out.h"
#include "utils/banned.h"

/* ---- a file in memory ---- */

static int memfile(void)
{
	int fd = memfd_create("gmon", 0);

	assert_true(fd >= 0);
	return fd;
}

/* The bytes of `fd` into buf (at most len), their number. */
static size_t contents(int fd, unsigned char *buf, size_t len)
{
	off_t end = lseek(fd, 0, SEEK_END);

	assert_true(end >= 0 && (size_t)end <= len);
	assert_int_equal(pread(fd, buf, (size_t)end, 0), end);
	return (size_t)end;
}

/* ---- an arc source over an array ---- */

struct list {
	const struct gmon_arc *arcs;
	size_t n, i;
};

static int list_next(void *ctx, struct gmon_arc *arc)
{
	struct list *l = ctx;

	if (l->i == l->n)
		return 0;
	*arc = l->arcs[l->i++];
	return 1;
}

#define SOURCE(name, array)                                                   \
	struct list name##_list = { array, sizeof(array) / sizeof(array[0]), 0 }; \
	struct gmon_arc_source name = { list_next, &name##_list,               \
					sizeof(array) / sizeof(array[0]), 0 }

/* Text 0x1000..0x1100 at run time, loaded at 0x1000 (a PIE). */
static struct gmon_geometry text(void)
{
	struct gmon_geometry g;

	gmon_geometry_compute(0x1000, 0x1100, &g);
	return g;
}

/* Write the arcs of `srcs` only (no header, no histogram) into buf. */
static size_t arcs_only(struct gmon_arc_source **srcs, size_t n, uint64_t load,
			unsigned char *buf, size_t len, int *ret)
{
	struct gmon_geometry g = text();
	struct gmon_out_opts o = {
		.geom = &g, .load_address = load, .parts = GMON_OUT_ARCS,
		.sources = srcs, .nsources = n,
	};
	int fd = memfile();
	size_t got;

	*ret = gmon_out_write(fd, &o);
	got = contents(fd, buf, len);
	close(fd);
	return got;
}

/* One arc record as glibc writes it (tag, from_pc, self_pc, int32 count). */
static unsigned char *record(unsigned char *p, uint64_t from, uint64_t self,
			     uint32_t count)
{
	*p++ = 1;
	memcpy(p, &from, 8);
	memcpy(p + 8, &self, 8);
	memcpy(p + 16, &count, 4);
	return p + 20;
}

static void test_gmon_out__header_and_histogram_are_glibc_bytes(void **state)
{
	struct gmon_geometry g;
	uint16_t bins[16];
	unsigned char got[256], want[256] = {
		'g', 'm', 'o', 'n', 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0,				/* GMON_TAG_TIME_HIST */
		0x00, 0, 0, 0, 0, 0, 0, 0,	/* low_pc 0x1000 - load 0x1000 */
		0x40, 0, 0, 0, 0, 0, 0, 0,	/* high_pc */
		16, 0, 0, 0,			/* hist_size: 0x20 bytes / 2 */
		100, 0, 0, 0,			/* prof_rate */
		's', 'e', 'c', 'o', 'n', 'd', 's', 0, 0, 0, 0, 0, 0, 0, 0, 's',
	};
	struct gmon_out_opts o = {
		.geom = &g, .load_address = 0x1000, .kcount = bins,
		.prof_rate = 100, .parts = GMON_OUT_ALL,
	};
	int fd = memfile();
	size_t n;

	(void)state;
	gmon_geometry_compute(0x1001, 0x103f, &g);	/* rounded to 0x1000, 0x1040 */
	assert_int_equal(g.kcountsize, 0x20);
	for (int i = 0; i < 16; i++)
		bins[i] = (uint16_t)(i * 257);
	memcpy(want + 61, bins, sizeof(bins));
	assert_int_equal(gmon_out_write(fd, &o), 0);
	n = contents(fd, got, sizeof(got));
	assert_int_equal(n, 20 + 41 + 32);
	assert_memory_equal(got, want, n);
	close(fd);
}

static void test_gmon_out__no_histogram_record_without_text(void **state)
{
	struct gmon_geometry g;
	unsigned char got[64];
	struct gmon_out_opts o = { .geom = &g, .parts = GMON_OUT_ALL };
	int fd = memfile();

	(void)state;
	gmon_geometry_compute(0x1000, 0x1000, &g);
	assert_int_equal(g.kcountsize, 0);
	assert_int_equal(gmon_out_write(fd, &o), 0);
	assert_int_equal(contents(fd, got, sizeof(got)), 20);
	close(fd);
}

static void test_gmon_out__calls_of_one_bucket_are_one_arc_at_its_start(void **state)
{
	static const struct gmon_arc arcs[] = {
		{ 0x1013, 0x1081, 2, 1 },	/* two call sites in 0x1010..0x101f */
		{ 0x101f, 0x1081, 3, 2 },
		{ 0x1020, 0x1081, 7, 3 },	/* the next bucket */
	};
	SOURCE(src, arcs);
	struct gmon_arc_source *srcs[] = { &src };
	unsigned char got[256], want[256], *p = want;
	int ret;
	size_t n;

	(void)state;
	p = record(p, 0x10, 0x81, 5);	/* load 0x1000 subtracted */
	p = record(p, 0x20, 0x81, 7);
	n = arcs_only(srcs, 1, 0x1000, got, sizeof(got), &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(n, (size_t)(p - want));
	assert_memory_equal(got, want, n);
}

static void test_gmon_out__calls_from_outside_the_text_are_dropped(void **state)
{
	static const struct gmon_arc arcs[] = {
		{ 0x0fff, 0x1040, 1, 1 },	/* below lowpc */
		{ 0x1101, 0x1040, 1, 2 },	/* above highpc */
		{ 0x1100, 0x1040, 1, 3 },	/* == highpc: glibc's froms[16], never written */
		{ 0x7f0000001234, 0x1040, 1, 4 },	/* a library */
		{ 0x10ff, 0x7f0000005678, 9, 5 },	/* into a library: kept */
	};
	SOURCE(src, arcs);
	struct gmon_arc_source *srcs[] = { &src };
	unsigned char got[256], want[64];
	int ret;
	size_t n;

	(void)state;
	record(want, 0x10f0, 0x7f0000005678, 9);
	n = arcs_only(srcs, 1, 0, got, sizeof(got), &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(n, 21);
	assert_memory_equal(got, want, n);
}

static void test_gmon_out__highpc_is_kept_when_the_table_has_its_bucket(void **state)
{
	struct gmon_geometry g;

	(void)state;
	/* textsize 0x104: 17 buckets, the last holding 0x1100..0x1104 */
	gmon_geometry_compute(0x1000, 0x1104, &g);
	assert_int_equal(gmon_geometry_buckets(&g), 17);
	assert_int_equal(gmon_geometry_bucket(&g, 0x1104), 16);
	assert_int_equal(gmon_geometry_bucket(&g, 0x1105), -1);
	/* textsize 0x100: 16 buckets, 0x1100 would be the 17th */
	gmon_geometry_compute(0x1000, 0x1100, &g);
	assert_int_equal(gmon_geometry_bucket(&g, 0x10ff), 15);
	assert_int_equal(gmon_geometry_bucket(&g, 0x1100), -1);
}

static void test_gmon_out__buckets_ascend_and_recent_calls_come_first(void **state)
{
	static const struct gmon_arc arcs[] = {
		{ 0x1050, 0x1001, 1, 10 },
		{ 0x1021, 0x1002, 1, 5 },
		{ 0x1022, 0x1003, 1, 9 },	/* last called: first of its bucket */
		{ 0x1023, 0x1004, 1, 7 },
	};
	SOURCE(src, arcs);
	struct gmon_arc_source *srcs[] = { &src };
	unsigned char got[256], want[256], *p = want;
	int ret;
	size_t n;

	(void)state;
	p = record(p, 0x1020, 0x1003, 1);
	p = record(p, 0x1020, 0x1004, 1);
	p = record(p, 0x1020, 0x1002, 1);
	p = record(p, 0x1050, 0x1001, 1);
	n = arcs_only(srcs, 1, 0, got, sizeof(got), &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(n, (size_t)(p - want));
	assert_memory_equal(got, want, n);
}

static void test_gmon_out__equal_stamps_keep_the_order_of_first_yield(void **state)
{
	static const struct gmon_arc first[] = {
		{ 0x1030, 0x1009, 1, 0 },
		{ 0x1031, 0x1007, 1, 0 },
	};
	static const struct gmon_arc second[] = {
		{ 0x1032, 0x1008, 1, 0 },
		{ 0x1033, 0x1009, 2, 0 },	/* merges into the first arc */
	};
	SOURCE(a, first);
	SOURCE(b, second);
	struct gmon_arc_source *srcs[] = { &a, &b };
	unsigned char got[256], want[256], *p = want;
	int ret;
	size_t n;

	(void)state;
	p = record(p, 0x1030, 0x1009, 3);
	p = record(p, 0x1030, 0x1007, 1);
	p = record(p, 0x1030, 0x1008, 1);
	n = arcs_only(srcs, 2, 0, got, sizeof(got), &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(n, (size_t)(p - want));
	assert_memory_equal(got, want, n);
}

static void test_gmon_out__counts_above_32_bits_are_records_gprof_sums(void **state)
{
	static const struct gmon_arc arcs[] = {
		{ 0x1040, 0x1001, 0xffffffffull, 3 },		/* fits: one record */
		{ 0x1050, 0x1002, 0x100000000ull, 2 },		/* glibc writes 0 */
		{ 0x1060, 0x1003, 2 * 0xffffffffull + 5, 1 },	/* glibc writes 3 */
	};
	SOURCE(src, arcs);
	struct gmon_arc_source *srcs[] = { &src };
	unsigned char got[512], want[512], *p = want;
	int ret;
	size_t n;

	(void)state;
	p = record(p, 0x1040, 0x1001, 0xffffffffu);
	p = record(p, 0x1050, 0x1002, 0xffffffffu);
	p = record(p, 0x1050, 0x1002, 1);
	p = record(p, 0x1060, 0x1003, 0xffffffffu);
	p = record(p, 0x1060, 0x1003, 0xffffffffu);
	p = record(p, 0x1060, 0x1003, 5);
	n = arcs_only(srcs, 1, 0, got, sizeof(got), &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(n, (size_t)(p - want));
	assert_memory_equal(got, want, n);
}

static void test_gmon_out__subtracted_calls_are_taken_away(void **state)
{
	static const struct gmon_arc counted[] = {
		{ 0x1040, 0x1001, 10, 4 },
		{ 0x1050, 0x1002, 6, 5 },
		{ 0x1060, 0x1003, 0, 6 },	/* count 0: never written */
	};
	static const struct gmon_arc off[] = {
		{ 0x1041, 0x1001, 4, 0 },	/* same bucket and callee */
		{ 0x1050, 0x1002, 6, 0 },	/* all of them: no arc left */
	};
	SOURCE(a, counted);
	SOURCE(b, off);
	struct gmon_arc_source *srcs[] = { &b, &a };	/* order does not matter */
	unsigned char got[256], want[64];
	int ret;
	size_t n;

	(void)state;
	b.subtract = 1;
	record(want, 0x1040, 0x1001, 6);
	n = arcs_only(srcs, 2, 0, got, sizeof(got), &ret);
	assert_int_equal(ret, 0);
	assert_int_equal(n, 21);
	assert_memory_equal(got, want, n);
}

static void test_gmon_out__more_arcs_than_announced_write_nothing(void **state)
{
	static const struct gmon_arc arcs[] = {
		{ 0x1040, 0x1001, 1, 1 }, { 0x1050, 0x1002, 1, 2 },
	};
	SOURCE(src, arcs);
	struct gmon_arc_source *srcs[] = { &src };
	struct gmon_geometry g = text();
	uint16_t bins[0x80] = { 0 };
	struct gmon_out_opts o = {
		.geom = &g, .kcount = bins, .parts = GMON_OUT_ALL,
		.sources = srcs, .nsources = 1,
	};
	unsigned char got[64];
	int fd = memfile();

	(void)state;
	src.max_arcs = 1;
	assert_int_equal(gmon_out_write(fd, &o), -E2BIG);
	assert_int_equal(contents(fd, got, sizeof(got)), 0);
	close(fd);
}

/* An opener (gmon_out_opts.open_fd) that counts its calls. */
struct opener {
	int fd;
	int calls;
};

static int open_counted(void *ctx)
{
	struct opener *op = ctx;

	op->calls++;
	return op->fd;
}

static void test_gmon_out__the_file_is_opened_only_once_the_arcs_fit(void **state)
{
	static const struct gmon_arc arcs[] = {
		{ 0x1040, 0x1001, 1, 1 }, { 0x1050, 0x1002, 1, 2 },
	};
	SOURCE(src, arcs);
	struct gmon_arc_source *srcs[] = { &src };
	struct gmon_geometry g = text();
	uint16_t bins[0x80] = { 0 };
	struct opener op = { memfile(), 0 };
	struct gmon_out_opts o = {
		.geom = &g, .kcount = bins, .parts = GMON_OUT_ALL,
		.sources = srcs, .nsources = 1,
		.open_fd = open_counted, .open_ctx = &op,
	};
	unsigned char got[512];

	(void)state;
	/* too many arcs: the file is never opened (a truncating open would
	 * have emptied it) */
	src.max_arcs = 1;
	assert_int_equal(gmon_out_write(-1, &o), -E2BIG);
	assert_int_equal(op.calls, 0);
	/* they fit: opened once, the whole file written into it */
	src.max_arcs = 2;
	src_list.i = 0;
	assert_int_equal(gmon_out_write(-1, &o), 0);
	assert_int_equal(op.calls, 1);
	assert_true(contents(op.fd, got, sizeof(got)) > 20 + 2 * 21);
	assert_memory_equal(got, "gmon", 4);
	close(op.fd);
}

static void test_gmon_out__histogram_without_bins_is_refused(void **state)
{
	struct gmon_geometry g = text();
	struct gmon_out_opts o = { .geom = &g, .parts = GMON_OUT_ALL };
	struct gmon_out_opts none = { .parts = GMON_OUT_ARCS };

	(void)state;
	assert_int_equal(gmon_out_write(1, &o), -EINVAL);
	assert_int_equal(gmon_out_write(1, &none), -EINVAL);
}

static void test_gmon_out__caller_work_memory_is_used_or_refused(void **state)
{
	static const struct gmon_arc arcs[] = { { 0x1040, 0x1001, 1, 1 } };
	SOURCE(src, arcs);
	struct gmon_arc_source *srcs[] = { &src };
	struct gmon_geometry g = text();
	size_t need = gmon_out_work_size(1);
	void *work = mmap(NULL, need, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct gmon_out_opts o = {
		.geom = &g, .parts = GMON_OUT_ARCS, .sources = srcs, .nsources = 1,
		.work = work, .work_size = need - 1,
	};
	unsigned char got[64];
	int fd = memfile();

	(void)state;
	assert_true(work != MAP_FAILED);
	assert_int_equal(gmon_out_write(fd, &o), -ENOMEM);
	o.work = (char *)work + 4;
	o.work_size = need;
	assert_int_equal(gmon_out_write(fd, &o), -EINVAL);
	o.work = work;
	assert_int_equal(gmon_out_write(fd, &o), 0);
	assert_int_equal(contents(fd, got, sizeof(got)), 21);
	assert_int_equal(gmon_out_work_size(UINT64_MAX), SIZE_MAX);
	munmap(work, need);
	close(fd);
}

static void test_gmon_out__errno_is_kept(void **state)
{
	struct gmon_geometry g = text();
	uint16_t bins[0x80] = { 0 };
	struct gmon_out_opts o = {
		.geom = &g, .kcount = bins, .parts = GMON_OUT_ALL,
	};

	(void)state;
	errno = 1234;
	assert_true(gmon_out_write(-1, &o) == -EBADF);
	assert_int_equal(errno, 1234);
}

/* ---- glibc's tables, as gmon/mcount.c and write_call_graph keep them ---- */

struct tostruct {
	uint64_t selfpc;
	long count;
	uint64_t link;
};

struct model {
	struct gmon_geometry g;
	uint64_t *froms;
	struct tostruct *tos;
	int overflow;
};

static void model_init(struct model *m, uint64_t lowpc, uint64_t highpc)
{
	gmon_geometry_compute(lowpc, highpc, &m->g);
	m->froms = calloc(m->g.fromssize / 8 + 1, 8);
	m->tos = calloc((size_t)m->g.tolimit, sizeof(*m->tos));
	assert_non_null(m->froms);
	assert_non_null(m->tos);
	m->overflow = 0;
}

/* __mcount_internal, its statements in its order. */
static void model_call(struct model *m, uint64_t frompc, uint64_t selfpc)
{
	uint64_t *frompcindex, toindex;
	struct tostruct *top, *prevtop;

	frompc -= m->g.lowpc;
	if (frompc > m->g.textsize)
		return;
	frompcindex = &m->froms[frompc >> m->g.log_hashfraction];
	toindex = *frompcindex;
	if (toindex == 0) {
		toindex = ++m->tos[0].link;
		if (toindex >= (uint64_t)m->g.tolimit)
			goto overflow;
		*frompcindex = toindex;
		top = &m->tos[toindex];
		top->selfpc = selfpc;
		top->count = 1;
		top->link = 0;
		return;
	}
	top = &m->tos[toindex];
	if (top->selfpc == selfpc) {
		top->count++;
		return;
	}
	for (;;) {
		if (top->link == 0) {
			toindex = ++m->tos[0].link;
			if (toindex >= (uint64_t)m->g.tolimit)
				goto overflow;
			top = &m->tos[toindex];
			top->selfpc = selfpc;
			top->count = 1;
			top->link = *frompcindex;
			*frompcindex = toindex;
			return;
		}
		prevtop = top;
		top = &m->tos[top->link];
		if (top->selfpc == selfpc) {
			top->count++;
			toindex = prevtop->link;
			prevtop->link = top->link;
			top->link = *frompcindex;
			*frompcindex = toindex;
			return;
		}
	}
overflow:
	m->overflow = 1;
}

/* write_call_graph's records. */
static size_t model_write(const struct model *m, uint64_t load, unsigned char *buf)
{
	unsigned char *p = buf;

	for (uint64_t i = 0; i < m->g.fromssize / 8; i++) {
		uint64_t frompc = m->g.lowpc + i * m->g.hashfraction * 8;

		for (uint64_t t = m->froms[i]; t; t = m->tos[t].link)
			p = record(p, frompc - load, m->tos[t].selfpc - load,
				   (uint32_t)m->tos[t].count);
	}
	return (size_t)(p - buf);
}

/* The same calls, each (frompc, selfpc) counted with its last call's number. */
struct exact {
	struct gmon_arc arcs[4096];
	size_t n, i;
	uint64_t seq;
};

static void exact_call(struct exact *e, uint64_t frompc, uint64_t selfpc)
{
	e->seq++;
	for (size_t i = 0; i < e->n; i++)
		if (e->arcs[i].frompc == frompc && e->arcs[i].selfpc == selfpc) {
			e->arcs[i].count++;
			e->arcs[i].stamp = e->seq;
			return;
		}
	assert_true(e->n < 4096);
	e->arcs[e->n++] = (struct gmon_arc){ frompc, selfpc, 1, e->seq };
}

static int exact_next(void *ctx, struct gmon_arc *arc)
{
	struct exact *e = ctx;

	if (e->i == e->n)
		return 0;
	/* from the end: the writer's order must not depend on the source's */
	*arc = e->arcs[e->n - 1 - e->i++];
	return 1;
}

static void test_gmon_out__random_calls_give_glibc_mcount_bytes(void **state)
{
	/* 64 KiB of text (room for 1967 arcs), its end not a multiple of 16;
	 * half the call sites crowd 8 buckets, some lie outside the text */
	const uint64_t lowpc = 0x400000, highpc = 0x410037, load = 0x400000;
	static unsigned char want[1 << 20], got[1 << 20];
	static struct exact e;
	unsigned seed = 12345;

	(void)state;
	for (int round = 0; round < 20; round++) {
		struct model m;
		struct gmon_arc_source src = { exact_next, &e, 0, 0 };
		struct gmon_arc_source *srcs[] = { &src };
		uint64_t sites[40], callees[25];
		int calls = 200 + round * 300, ret;
		size_t nw, ng;

		model_init(&m, lowpc, highpc);
		memset(&e, 0, sizeof(e));
		for (int i = 0; i < 40; i++) {
			seed = seed * 1103515245u + 12345u;
			sites[i] = i < 20 ? lowpc + 0x100 + (seed >> 8) % 128
					  : lowpc - 0x800 + (seed >> 8) % 0x11000;
		}
		for (int i = 0; i < 25; i++)
			callees[i] = lowpc + 0x640 * (uint64_t)i + 9;
		for (int c = 0; c < calls; c++) {
			uint64_t from, self;

			seed = seed * 1103515245u + 12345u;
			from = sites[(seed >> 8) % (round < 10 ? 40 : 6)];
			seed = seed * 1103515245u + 12345u;
			self = callees[(seed >> 8) % 25];
			model_call(&m, from, self);
			exact_call(&e, from, self);
		}
		assert_false(m.overflow);
		nw = model_write(&m, load, want);
		src.max_arcs = e.n;
		{
			struct gmon_out_opts o = {
				.geom = &m.g, .load_address = load, .parts = GMON_OUT_ARCS,
				.sources = srcs, .nsources = 1,
			};
			int fd = memfile();

			ret = gmon_out_write(fd, &o);
			ng = contents(fd, got, sizeof(got));
			close(fd);
		}
		assert_int_equal(ret, 0);
		assert_int_equal(ng, nw);
		assert_memory_equal(got, want, nw);
		free(m.froms);
		free(m.tos);
	}
}

/* ---- a large file through a pipe: every byte arrives ---- */

struct drain {
	int fd;
	size_t n;
};

static void *drain(void *arg)
{
	struct drain *d = arg;
	char buf[4096];
	ssize_t k;

	while ((k = read(d->fd, buf, sizeof(buf))) > 0)
		d->n += (size_t)k;
	return NULL;
}

struct many {
	uint64_t i, n;
};

static int many_next(void *ctx, struct gmon_arc *arc)
{
	struct many *m = ctx;

	if (m->i == m->n)
		return 0;
	/* every callee from its own bucket of a large text */
	*arc = (struct gmon_arc){ 0x100000 + 16 * m->i, 0x100000 + m->i, 1, m->i };
	m->i++;
	return 1;
}

static void test_gmon_out__a_large_file_reaches_a_pipe_whole(void **state)
{
	struct many m = { 0, 100000 };
	struct gmon_arc_source src = { many_next, &m, 100000, 0 };
	struct gmon_arc_source *srcs[] = { &src };
	struct gmon_geometry g;
	uint16_t *bins;
	struct drain d = { -1, 0 };
	pthread_t t;
	int p[2];

	(void)state;
	gmon_geometry_compute(0x100000, 0x100000 + 16 * 100000, &g);
	bins = calloc(g.kcountsize, 1);
	assert_non_null(bins);
	assert_int_equal(pipe(p), 0);
	d.fd = p[0];
	assert_int_equal(pthread_create(&t, NULL, drain, &d), 0);
	{
		struct gmon_out_opts o = {
			.geom = &g, .kcount = bins, .prof_rate = 100,
			.parts = GMON_OUT_ALL, .sources = srcs, .nsources = 1,
		};

		assert_int_equal(gmon_out_write(p[1], &o), 0);
	}
	close(p[1]);
	pthread_join(t, NULL);
	close(p[0]);
	assert_int_equal(d.n, 20 + 41 + g.kcountsize + 21 * 100000);
	free(bins);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gmon_out__header_and_histogram_are_glibc_bytes),
		cmocka_unit_test(test_gmon_out__no_histogram_record_without_text),
		cmocka_unit_test(test_gmon_out__calls_of_one_bucket_are_one_arc_at_its_start),
		cmocka_unit_test(test_gmon_out__calls_from_outside_the_text_are_dropped),
		cmocka_unit_test(test_gmon_out__highpc_is_kept_when_the_table_has_its_bucket),
		cmocka_unit_test(test_gmon_out__buckets_ascend_and_recent_calls_come_first),
		cmocka_unit_test(test_gmon_out__equal_stamps_keep_the_order_of_first_yield),
		cmocka_unit_test(test_gmon_out__counts_above_32_bits_are_records_gprof_sums),
		cmocka_unit_test(test_gmon_out__subtracted_calls_are_taken_away),
		cmocka_unit_test(test_gmon_out__more_arcs_than_announced_write_nothing),
		cmocka_unit_test(test_gmon_out__the_file_is_opened_only_once_the_arcs_fit),
		cmocka_unit_test(test_gmon_out__histogram_without_bins_is_refused),
		cmocka_unit_test(test_gmon_out__caller_work_memory_is_used_or_refused),
		cmocka_unit_test(test_gmon_out__errno_is_kept),
		cmocka_unit_test(test_gmon_out__random_calls_give_glibc_mcount_bytes),
		cmocka_unit_test(test_gmon_out__a_large_file_reaches_a_pipe_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
