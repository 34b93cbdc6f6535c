/*
 * gmon_out.c - gmon.out as glibc 2.36's write_gmon writes it (gmon_out.h).
 *
 * The arcs are merged into glibc's keys (bucket, selfpc) in an open-
 * addressing table over the working memory, then sorted by (bucket
 * ascending, stamp descending, first yield ascending) with a heapsort (in
 * place, no recursion, O(n log n) whatever the input) and written through
 * a buffer in the working memory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gmon_out.h"
#include "utils/banned.h"

#define EMPTY UINT32_MAX
#define OUT_BUFSIZE 65536u	/* a multiple of 4096: whole pages out */
#define ARC_RECORD 21u		/* tag + from_pc + self_pc + int32 count */
#define HIST_RECORD 41u		/* tag + struct gmon_hist_hdr */
#define HEADER 20u		/* struct gmon_hdr */
#define MAX_ARCS (UINT32_MAX / 4)	/* slot indices are 32-bit */

struct entry {
	uint64_t bucket;
	uint64_t selfpc;
	uint64_t count;		/* sums modulo 2^64: see gmon_out.h */
	uint64_t stamp;
	uint32_t seq;		/* order of first yield */
	uint32_t pad;
};

struct work {
	struct entry *entries;
	uint32_t nentries;
	uint32_t *slots;
	uint64_t nslots;	/* a power of two, at least twice the arcs */
	unsigned char *buf;	/* OUT_BUFSIZE bytes */
	size_t used;
	int fd;
};

static uint64_t slots_for(uint64_t max_arcs)
{
	uint64_t n = 16;

	while (n < 2 * max_arcs)
		n *= 2;
	return n;
}

static size_t align64(size_t n)
{
	return (n + 63) & ~(size_t)63;
}

size_t gmon_out_work_size(uint64_t max_arcs)
{
	if (max_arcs > MAX_ARCS)
		return SIZE_MAX;
	return align64((size_t)max_arcs * sizeof(struct entry)) +
	       align64((size_t)slots_for(max_arcs) * sizeof(uint32_t)) + OUT_BUFSIZE;
}

static void work_layout(struct work *w, void *mem, uint64_t max_arcs)
{
	unsigned char *p = mem;

	w->entries = (struct entry *)p;
	p += align64((size_t)max_arcs * sizeof(struct entry));
	w->nslots = slots_for(max_arcs);
	w->slots = (uint32_t *)p;
	p += align64((size_t)w->nslots * sizeof(uint32_t));
	w->buf = p;
	w->nentries = 0;
	w->used = 0;
	memset(w->slots, 0xff, (size_t)w->nslots * sizeof(uint32_t));
}

/* ---- output ---- */

static int write_all(int fd, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n) {
		ssize_t k = write(fd, c, n);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (k == 0)
			return -EIO;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

static int flush(struct work *w)
{
	int r = write_all(w->fd, w->buf, w->used);

	w->used = 0;
	return r;
}

static int put(struct work *w, const void *p, size_t n)
{
	if (w->used + n > OUT_BUFSIZE) {
		int r = flush(w);

		if (r < 0)
			return r;
	}
	memcpy(w->buf + w->used, p, n);
	w->used += n;
	return 0;
}

static int put_header(struct work *w)
{
	unsigned char h[HEADER] = { 'g', 'm', 'o', 'n' };
	int32_t version = 1;	/* GMON_VERSION */

	memcpy(h + 4, &version, 4);
	return put(w, h, sizeof(h));
}

static int put_hist(struct work *w, const struct gmon_out_opts *o)
{
	const struct gmon_geometry *g = o->geom;
	unsigned char r[HIST_RECORD] = { 0 };	/* tag GMON_TAG_TIME_HIST */
	uint64_t low = g->lowpc - o->load_address, high = g->highpc - o->load_address;
	int32_t size = (int32_t)(g->kcountsize / GMON_HISTCOUNTER_SIZE);
	int ret;

	if (g->kcountsize == 0)
		return 0;	/* glibc writes no histogram then */
	memcpy(r + 1, &low, 8);
	memcpy(r + 9, &high, 8);
	memcpy(r + 17, &size, 4);
	memcpy(r + 21, &o->prof_rate, 4);
	/* strncpy(dimen, "seconds", 15): zero padded */
	memcpy(r + 25, "seconds", 7);
	r[40] = 's';
	ret = put(w, r, sizeof(r));
	if (ret == 0)
		ret = flush(w);
	if (ret == 0)
		ret = write_all(w->fd, o->kcount, g->kcountsize);
	return ret;
}

static int put_arc(struct work *w, uint64_t from, uint64_t self, uint32_t count)
{
	unsigned char r[ARC_RECORD];

	r[0] = 1;	/* GMON_TAG_CG_ARC */
	memcpy(r + 1, &from, 8);
	memcpy(r + 9, &self, 8);
	memcpy(r + 17, &count, 4);
	return put(w, r, sizeof(r));
}

/* ---- merging into glibc's keys ---- */

static uint64_t hash2(uint64_t bucket, uint64_t selfpc)
{
	uint64_t h = (bucket * 0x9e3779b97f4a7c15ull) ^ (selfpc * 0xc2b2ae3d27d4eb4full);

	return h ^ (h >> 29);
}

static void add(struct work *w, uint64_t bucket, const struct gmon_arc *a,
		int subtract)
{
	uint64_t mask = w->nslots - 1, h = hash2(bucket, a->selfpc);
	struct entry *e;

	for (;; h++) {
		uint32_t i = w->slots[h & mask];

		if (i == EMPTY) {
			i = w->nentries++;
			w->slots[h & mask] = i;
			e = &w->entries[i];
			e->bucket = bucket;
			e->selfpc = a->selfpc;
			e->count = 0;
			e->stamp = 0;
			e->seq = i;
			e->pad = 0;
			break;
		}
		e = &w->entries[i];
		if (e->bucket == bucket && e->selfpc == a->selfpc)
			break;
	}
	if (subtract) {
		e->count -= a->count;
	} else {
		e->count += a->count;
		if (a->stamp > e->stamp)
			e->stamp = a->stamp;
	}
}

static int merge(struct work *w, const struct gmon_out_opts *o)
{
	for (size_t s = 0; s < o->nsources; s++) {
		struct gmon_arc_source *src = o->sources[s];
		struct gmon_arc a;
		uint64_t yielded = 0;

		while (src->next(src->ctx, &a) > 0) {
			int64_t b;

			if (++yielded > src->max_arcs)
				return -E2BIG;
			if (a.count == 0)
				continue;
			b = gmon_geometry_bucket(o->geom, a.frompc);
			if (b < 0)
				continue;	/* glibc drops calls from outside */
			add(w, (uint64_t)b, &a, src->subtract);
		}
	}
	return 0;
}

/* ---- ordering: bucket ascending, most recent first, then first yielded ---- */

static int before(const struct entry *a, const struct entry *b)
{
	if (a->bucket != b->bucket)
		return a->bucket < b->bucket;
	if (a->stamp != b->stamp)
		return a->stamp > b->stamp;
	return a->seq < b->seq;
}

static void swap(struct entry *a, struct entry *b)
{
	struct entry t = *a;

	*a = *b;
	*b = t;
}

static void sift_down(struct entry *e, size_t root, size_t n)
{
	for (;;) {
		size_t child = 2 * root + 1;

		if (child >= n)
			return;
		if (child + 1 < n && before(&e[child], &e[child + 1]))
			child++;
		if (!before(&e[root], &e[child]))
			return;
		swap(&e[root], &e[child]);
		root = child;
	}
}

static void sort_entries(struct entry *e, size_t n)
{
	if (n < 2)
		return;
	for (size_t i = n / 2; i-- > 0;)
		sift_down(e, i, n);
	for (size_t end = n - 1; end > 0; end--) {
		swap(&e[0], &e[end]);
		sift_down(e, 0, end);
	}
}

/* Drop the arcs that came to nothing (or below: more subtracted than added). */
static uint32_t compact(struct entry *e, uint32_t n)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < n; i++)
		if ((int64_t)e[i].count > 0)
			e[k++] = e[i];
	return k;
}

static int put_arcs(struct work *w, const struct gmon_out_opts *o)
{
	for (uint32_t i = 0; i < w->nentries; i++) {
		const struct entry *e = &w->entries[i];
		uint64_t from = gmon_geometry_bucket_pc(o->geom, e->bucket) - o->load_address;
		uint64_t self = e->selfpc - o->load_address;
		uint64_t left = e->count;
		int r;

		/* glibc's int32 would wrap: several records gprof adds up */
		while (left > UINT32_MAX) {
			r = put_arc(w, from, self, UINT32_MAX);
			if (r < 0)
				return r;
			left -= UINT32_MAX;
		}
		r = put_arc(w, from, self, (uint32_t)left);
		if (r < 0)
			return r;
	}
	return 0;
}

static int write_parts(struct work *w, const struct gmon_out_opts *o)
{
	int r;

	if (o->parts & GMON_OUT_ARCS) {
		r = merge(w, o);
		if (r < 0)
			return r;
		w->nentries = compact(w->entries, w->nentries);
		sort_entries(w->entries, w->nentries);
	}
	/* nothing is written, or opened, before the arcs are known to fit */
	if (w->fd < 0 && o->open_fd && (w->fd = o->open_fd(o->open_ctx)) < 0)
		return w->fd;
	if ((o->parts & GMON_OUT_HEADER) && (r = put_header(w)) < 0)
		return r;
	if ((o->parts & GMON_OUT_HIST) && (r = put_hist(w, o)) < 0)
		return r;
	if ((o->parts & GMON_OUT_ARCS) && (r = put_arcs(w, o)) < 0)
		return r;
	return flush(w);
}

int gmon_out_write(int fd, const struct gmon_out_opts *o)
{
	uint64_t max = 0;
	size_t need;
	void *mem = o->work, *mapped = NULL;
	struct work w;
	int saved = errno, r;

	if (!o->geom || ((o->parts & GMON_OUT_HIST) && o->geom->kcountsize &&
			 !o->kcount))
		return -EINVAL;
	if (o->parts & GMON_OUT_ARCS)
		for (size_t s = 0; s < o->nsources; s++) {
			max += o->sources[s]->max_arcs;
			if (max > MAX_ARCS)
				return -E2BIG;
		}
	need = gmon_out_work_size(max);
	if (!mem) {
		mapped = mmap(NULL, need, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (mapped == MAP_FAILED) {
			errno = saved;
			return -ENOMEM;
		}
		mem = mapped;
	} else if (o->work_size < need) {
		return -ENOMEM;
	} else if ((uintptr_t)mem % 8) {
		return -EINVAL;	/* the entries hold 64-bit fields */
	}
	work_layout(&w, mem, max);
	w.fd = fd;
	r = write_parts(&w, o);
	if (mapped)
		munmap(mapped, need);
	errno = saved;
	return r;
}
