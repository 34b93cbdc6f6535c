#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mpi/gmonsum.h"
#include "utils/array.h"
#include "utils/error.h"
#include "utils/infile.h"
#include "utils/outfile.h"
#include "utils/satmath.h"
#include "utils/banned.h"

enum { TAG_HIST = 0, TAG_ARC = 1, TAG_BB = 2 };
#define HIST_HDR 40 /* lowpc, highpc, nbins, rate, dimen[15], abbrev */
#define ARC_REC 20  /* from, self, u32 count */

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

static void put32(unsigned char *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

/* A histogram record's header: the same bytes in a gmon file and on the wire. */
static void get_hist_hdr(const unsigned char *p, struct gmonsum_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->lowpc = get64(p);
	h->highpc = get64(p + 8);
	h->nbins = get32(p + 16);
	h->rate = get32(p + 20);
	memcpy(h->dimen, p + 24, 15);
	h->abbrev = (char)p[39];
}

static void put_hist_hdr(unsigned char *p, const struct gmonsum_hist *h)
{
	put64(p, h->lowpc);
	put64(p + 8, h->highpc);
	put32(p + 16, h->nbins);
	put32(p + 20, h->rate);
	memcpy(p + 24, h->dimen, 15);
	p[39] = (unsigned char)h->abbrev;
}

void gmonsum_init(struct gmonsum *s)
{
	memset(s, 0, sizeof(*s));
}

static uint32_t nblocks_of(uint32_t nbins)
{
	return (uint32_t)(((uint64_t)nbins + GMONSUM_BLOCK - 1) / GMONSUM_BLOCK);
}

void gmonsum_release(struct gmonsum *s)
{
	size_t i;

	for (i = 0; i < s->nhists; i++) {
		uint32_t b, nb = nblocks_of(s->hists[i].nbins);

		for (b = 0; s->hists[i].blocks && b < nb; b++)
			free(s->hists[i].blocks[b].bins);
		free(s->hists[i].blocks);
	}
	free(s->hists);
	free(s->arcs);
	free(s->slots);
	gmonsum_init(s);
}

/* ------------------------------------------------------------------------ */
/* Bins in blocks as narrow as their counts                                  */

static uint64_t block_get(const struct gmonsum_block *b, uint32_t i)
{
	switch (b->width) {
	case 2:
		return ((const uint16_t *)b->bins)[i];
	case 4:
		return ((const uint32_t *)b->bins)[i];
	case 8:
		return ((const uint64_t *)b->bins)[i];
	}
	return 0;
}

uint64_t gmonsum_bin(const struct gmonsum_hist *h, uint32_t k)
{
	return k < h->nbins ? block_get(&h->blocks[k / GMONSUM_BLOCK], k % GMONSUM_BLOCK) : 0;
}

/* Bins a block of h holds: GMONSUM_BLOCK but for the last. */
static uint32_t block_len(const struct gmonsum_hist *h, uint32_t b)
{
	uint64_t left = (uint64_t)h->nbins - (uint64_t)b * GMONSUM_BLOCK;

	return left < GMONSUM_BLOCK ? (uint32_t)left : GMONSUM_BLOCK;
}

/* Make block b of h `width` bytes a bin (wider than it is).  0 or -1. */
static int block_widen(struct gmonsum_hist *h, uint32_t b, unsigned width)
{
	struct gmonsum_block *blk = &h->blocks[b];
	uint32_t n = block_len(h, b), i;
	void *nb = calloc(n, width);

	if (!nb)
		return -1;
	for (i = 0; blk->width && i < n; i++) {
		uint64_t v = block_get(blk, i);

		if (width == 4)
			((uint32_t *)nb)[i] = (uint32_t)v;
		else
			((uint64_t *)nb)[i] = v;
	}
	free(blk->bins);
	blk->bins = nb;
	blk->width = (unsigned char)width;
	return 0;
}

/* Bin k of h += v, the block widened as the sum needs (saturating at
 * 2^64 - 1; gmonsum_write refuses anything above gprof's int).  0 or -1. */
static int bin_add(struct gmonsum_hist *h, uint32_t k, uint64_t v)
{
	struct gmonsum_block *blk = &h->blocks[k / GMONSUM_BLOCK];
	uint32_t i = k % GMONSUM_BLOCK;
	uint64_t sum;

	if (!v)
		return 0;
	if (!blk->width && block_widen(h, k / GMONSUM_BLOCK, 2) < 0)
		return -1;
	sum = sat_add_u64(block_get(blk, i), v);
	if ((blk->width == 2 && sum > UINT16_MAX) || (blk->width == 4 && sum > UINT32_MAX))
		if (block_widen(h, k / GMONSUM_BLOCK, sum > UINT32_MAX ? 8 : 4) < 0)
			return -1;
	switch (blk->width) {
	case 2:
		((uint16_t *)blk->bins)[i] = (uint16_t)sum;
		break;
	case 4:
		((uint32_t *)blk->bins)[i] = (uint32_t)sum;
		break;
	default:
		((uint64_t *)blk->bins)[i] = sum;
	}
	return 0;
}

/* n (within one block) little-endian 16-bit counts at p added to bins
 * k.. of h: a block of 16-bit bins adds them in place while they fit. */
static int bins_add16(struct gmonsum_hist *h, uint32_t k, const unsigned char *p, uint32_t n)
{
	struct gmonsum_block *blk = &h->blocks[k / GMONSUM_BLOCK];
	uint32_t j;

	for (j = 0; j < n; j++) {
		uint32_t v = (uint32_t)(p[2 * j] | p[2 * j + 1] << 8);
		uint16_t *b16;

		if (!v)
			continue;
		if (blk->width == 2 &&
		    (b16 = &((uint16_t *)blk->bins)[(k + j) % GMONSUM_BLOCK], *b16 + v <= UINT16_MAX)) {
			*b16 = (uint16_t)(*b16 + v);
			continue;
		}
		if (bin_add(h, k + j, v) < 0)
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------------ */

/*
 * The histogram h's counts are added into: the sum's histogram for h's
 * range, made (every block zero) when it has none.  NULL (reported) when h
 * does not fit it or when out of memory; `what` names h's source in the
 * message.
 */
static struct gmonsum_hist *sum_hist(struct gmonsum *s, const struct gmonsum_hist *h,
				     const char *what)
{
	struct gmonsum_hist *d = NULL;
	size_t i;

	/* gprof -s's rules (upstream hist.c, read_histogram_header and
	 * hist_read_rec), so that what it refuses, this refuses too */
	for (i = 0; i < s->nhists; i++) {
		const struct gmonsum_hist *e = &s->hists[i];

		if (e->lowpc == h->lowpc && e->highpc == h->highpc)
			d = &s->hists[i];
		else if (h->lowpc < e->highpc && e->lowpc < h->highpc) {
			error("%s: cannot sum: overlapping histogram records "
			      "(0x%llx-0x%llx and 0x%llx-0x%llx)", what,
			      (unsigned long long)h->lowpc, (unsigned long long)h->highpc,
			      (unsigned long long)e->lowpc, (unsigned long long)e->highpc);
			return NULL;
		}
	}
	if (s->nhists && (memcmp(s->hists[0].dimen, h->dimen, sizeof(h->dimen)) ||
			  s->hists[0].abbrev != h->abbrev)) {
		error("%s: cannot sum: dimension unit changed between histogram records "
		      "(from '%.15s' to '%.15s')", what, s->hists[0].dimen, h->dimen);
		return NULL;
	}
	if (d && (d->nbins != h->nbins || d->rate != h->rate)) {
		error("%s: cannot sum: %s", what,
		      "histogram differs in bins or rate from the first file's");
		return NULL;
	}
	if (!d) {
		struct gmonsum_hist *q = realloc(s->hists, (s->nhists + 1) * sizeof(*q));

		if (!q)
			goto oom;
		s->hists = q;
		d = &s->hists[s->nhists];
		*d = *h;
		/* zero blocks take no memory until a count lands in them */
		d->blocks = calloc(nblocks_of(h->nbins) + 1, sizeof(*d->blocks));
		if (!d->blocks)
			goto oom;
		s->nhists++;
	}
	return d;
oom:
	error("%s: cannot sum: %s", what, "out of memory");
	return NULL;
}

static size_t arc_hash(uint64_t from, uint64_t self)
{
	uint64_t h = from * 0x9e3779b97f4a7c15ULL ^ (self + 0x632be59bd9b4e019ULL);

	return (size_t)(h ^ h >> 29);
}

static size_t arc_hash_of(const void *ctx, size_t i)
{
	const struct gmonsum_arc *arcs = ctx;

	return arc_hash(arcs[i].from, arcs[i].self);
}

static int add_arc(struct gmonsum *s, uint64_t from, uint64_t self, uint64_t count)
{
	size_t j;

	if (2 * (s->narcs + 1) > s->nslots &&
	    array_index_grow(&s->slots, &s->nslots, s->narcs, arc_hash_of, s->arcs) < 0)
		return -1;
	j = arc_hash(from, self) & (s->nslots - 1);
	while (s->slots[j]) {
		struct gmonsum_arc *a = &s->arcs[s->slots[j] - 1];

		if (a->from == from && a->self == self) {
			a->count = sat_add_u64(a->count, count);
			return 0;
		}
		j = (j + 1) & (s->nslots - 1);
	}
	if (array_grow(&s->arcs, &s->arcs_cap, s->narcs + 1, sizeof(*s->arcs)) < 0)
		return -1;
	s->arcs[s->narcs].from = from;
	s->arcs[s->narcs].self = self;
	s->arcs[s->narcs].count = count;
	s->slots[j] = ++s->narcs;
	return 0;
}

/* A gmon file through a 64 KiB window, up to the size it had when opened
 * (utils/infile.h): never read whole. */
struct reader {
	int fd;
	uint64_t left;		/* bytes of the file not yet in buf */
	uint64_t at;		/* file offset of buf[pos] */
	size_t pos, len;
	unsigned char buf[1 << 16];
};

/* The next n (<= the window) bytes, or NULL when the file ends first. */
static const unsigned char *reader_take(struct reader *r, size_t n)
{
	const unsigned char *p;

	if (r->len - r->pos < n) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
		while (r->len < n && r->left) {
			size_t want = sizeof(r->buf) - r->len;
			ssize_t k;

			if (want > r->left)
				want = (size_t)r->left;
			k = read(r->fd, r->buf + r->len, want);
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				r->left = 0;
				break;
			}
			r->len += (size_t)k;
			r->left -= (uint64_t)k;
		}
		if (r->len < n)
			return NULL;
	}
	p = r->buf + r->pos;
	r->pos += n;
	r->at += n;
	return p;
}

/* Bytes left: those in the window and those not read yet. */
static uint64_t reader_left(const struct reader *r)
{
	return (uint64_t)(r->len - r->pos) + r->left;
}

int gmonsum_read(struct gmonsum *s, const char *path)
{
	struct reader *r = malloc(sizeof(*r));
	const unsigned char *p;
	uint64_t size;
	char err[4200];
	int ret = -1;

	if (!r)
		return error("out of memory");
	/* regular files only, read to their size (utils/infile.h) */
	r->fd = infile_open(path, &size, err, sizeof(err));
	if (r->fd < 0) {
		free(r);
		return error("%s", err);
	}
	r->left = size;
	r->at = 0;
	r->pos = r->len = 0;
	p = reader_take(r, 20);
	if (!p || memcmp(p, "gmon", 4) || get32(p + 4) != 1) {
		error("%s: %s", path,
		      "not a gmon file of version 1 (the format glibc writes)");
		goto out;
	}
	while ((p = reader_take(r, 1)) != NULL) {
		unsigned tag = *p;

		if (tag == TAG_HIST) {
			struct gmonsum_hist h, *d;
			uint32_t k;

			if (!(p = reader_take(r, HIST_HDR)))
				goto truncated;
			get_hist_hdr(p, &h);
			/* before anything is allocated for it */
			if (reader_left(r) / 2 < h.nbins)
				goto truncated;
			if (!(d = sum_hist(s, &h, path)))
				goto out;
			/* 16-bit bins on disk, read 2,048 at a time (within
			 * one block) */
			for (k = 0; k < h.nbins;) {
				uint32_t n = h.nbins - k < 2048 ? h.nbins - k : 2048;

				if (!(p = reader_take(r, 2 * (size_t)n)))
					goto truncated;
				if (bins_add16(d, k, p, n) < 0) {
					error("%s: cannot sum: %s", path, "out of memory");
					goto out;
				}
				k += n;
			}
		} else if (tag == TAG_ARC) {
			if (!(p = reader_take(r, ARC_REC)))
				goto truncated;
			if (add_arc(s, get64(p), get64(p + 8), get32(p + 16)) < 0) {
				error("%s: cannot sum: %s", path, "out of memory");
				goto out;
			}
		} else if (tag == TAG_BB) {
			error("%s: cannot sum: %s", path,
			      "basic-block records are not supported; use gprof -s");
			goto out;
		} else {
			error("%s: bad record tag %u at byte %llu", path, tag,
			      (unsigned long long)r->at - 1);
			goto out;
		}
	}
	s->nfiles++;
	ret = 0;
	goto out;
truncated:
	error("%s: %s", path, "truncated record");
out:
	close(r->fd);
	free(r);
	return ret;
}

int gmonsum_add(struct gmonsum *dst, const struct gmonsum *src)
{
	size_t i;

	for (i = 0; i < src->nhists; i++) {
		const struct gmonsum_hist *h = &src->hists[i];
		struct gmonsum_hist *d = sum_hist(dst, h, "a partial sum");
		uint64_t k;

		if (!d)
			return -1;
		for (k = 0; k < h->nbins; k++) {
			if (!h->blocks[k / GMONSUM_BLOCK].width) {
				k |= GMONSUM_BLOCK - 1; /* a zero block */
				continue;
			}
			if (bin_add(d, (uint32_t)k, gmonsum_bin(h, (uint32_t)k)) < 0)
				return error("%s: cannot sum: %s", "a partial sum", "out of memory");
		}
	}
	for (i = 0; i < src->narcs; i++)
		if (add_arc(dst, src->arcs[i].from, src->arcs[i].self, src->arcs[i].count) < 0)
			return error("%s: cannot sum: %s", "a partial sum", "out of memory");
	dst->nfiles = sat_add_u64(dst->nfiles, src->nfiles);
	return 0;
}

/* ------------------------------------------------------------------------ */
/* The wire: parts                                                           */

#define PART_MAX (1 + HIST_HDR + 4 + 4 + 1 + 8 * (size_t)GMONSUM_BLOCK)

int gmonsum_parts(const struct gmonsum *s, gmonsum_part_fn part, void *ctx)
{
	size_t arcs_len = 1 + 4 + 24 * (size_t)GMONSUM_PART_ARCS;
	unsigned char *b = malloc(PART_MAX > arcs_len ? PART_MAX : arcs_len);
	size_t i, n;
	int ret = -1;

	if (!b)
		return error("out of memory");
	b[0] = 'N';
	put64(b + 1, s->nfiles);
	if (part(ctx, b, 9) < 0)
		goto out;
	for (i = 0; i < s->nhists; i++) {
		const struct gmonsum_hist *h = &s->hists[i];
		uint32_t nb = nblocks_of(h->nbins), bl, k;

		b[0] = 'H';
		put_hist_hdr(b + 1, h);
		if (part(ctx, b, 1 + HIST_HDR) < 0)
			goto out;
		for (bl = 0; bl < nb; bl++) {
			const struct gmonsum_block *blk = &h->blocks[bl];
			uint32_t len = block_len(h, bl);
			uint64_t most = 0;
			unsigned w;
			size_t at = 1 + HIST_HDR + 9;

			if (!blk->width)
				continue;
			for (k = 0; k < len; k++)
				if (block_get(blk, k) > most)
					most = block_get(blk, k);
			if (!most)
				continue;
			/* as narrow as the block's counts */
			w = most > UINT32_MAX ? 8 : most > UINT16_MAX ? 4 : 2;
			b[0] = 'B';
			put_hist_hdr(b + 1, h);
			put32(b + 1 + HIST_HDR, bl * GMONSUM_BLOCK);
			put32(b + 1 + HIST_HDR + 4, len);
			b[1 + HIST_HDR + 8] = (unsigned char)w;
			for (k = 0; k < len; k++, at += w) {
				uint64_t v = block_get(blk, k);

				if (w == 2) {
					b[at] = (unsigned char)v;
					b[at + 1] = (unsigned char)(v >> 8);
				} else if (w == 4) {
					put32(b + at, (uint32_t)v);
				} else {
					put64(b + at, v);
				}
			}
			if (part(ctx, b, at) < 0)
				goto out;
		}
	}
	for (i = 0; i < s->narcs; i += n) {
		size_t at = 5, k;

		n = s->narcs - i < GMONSUM_PART_ARCS ? s->narcs - i : GMONSUM_PART_ARCS;
		b[0] = 'A';
		put32(b + 1, (uint32_t)n);
		for (k = i; k < i + n; k++, at += 24) {
			put64(b + at, s->arcs[k].from);
			put64(b + at + 8, s->arcs[k].self);
			put64(b + at + 16, s->arcs[k].count);
		}
		if (part(ctx, b, at) < 0)
			goto out;
	}
	ret = 0;
out:
	free(b);
	return ret;
}

int gmonsum_add_part(struct gmonsum *dst, const unsigned char *b, size_t len)
{
	struct gmonsum_hist h, *d;

	if (!len)
		goto bad;
	switch (b[0]) {
	case 'N':
		if (len != 9)
			goto bad;
		dst->nfiles = sat_add_u64(dst->nfiles, get64(b + 1));
		return 0;
	case 'H':
		if (len != 1 + HIST_HDR)
			goto bad;
		get_hist_hdr(b + 1, &h);
		return sum_hist(dst, &h, "a partial sum") ? 0 : -1;
	case 'B': {
		uint32_t first, n, k;
		unsigned w;

		if (len < 1 + HIST_HDR + 9)
			goto bad;
		get_hist_hdr(b + 1, &h);
		first = get32(b + 1 + HIST_HDR);
		n = get32(b + 1 + HIST_HDR + 4);
		w = b[1 + HIST_HDR + 8];
		if ((w != 2 && w != 4 && w != 8) || first % GMONSUM_BLOCK ||
		    n > GMONSUM_BLOCK || first > h.nbins || n > h.nbins - first ||
		    len != 1 + HIST_HDR + 9 + (size_t)n * w)
			goto bad;
		if (!(d = sum_hist(dst, &h, "a partial sum")))
			return -1;
		b += 1 + HIST_HDR + 9;
		if (w == 2)
			return bins_add16(d, first, b, n) < 0
				? error("%s: cannot sum: %s", "a partial sum", "out of memory") : 0;
		for (k = 0; k < n; k++, b += w) {
			uint64_t v = w == 2 ? (uint64_t)(b[0] | b[1] << 8) : w == 4 ? get32(b) : get64(b);

			if (bin_add(d, first + k, v) < 0)
				return error("%s: cannot sum: %s", "a partial sum", "out of memory");
		}
		return 0;
	}
	case 'A': {
		uint32_t n, k;

		if (len < 5)
			goto bad;
		n = get32(b + 1);
		if (n > GMONSUM_PART_ARCS || len != 5 + 24 * (size_t)n)
			goto bad;
		for (k = 0, b += 5; k < n; k++, b += 24)
			if (add_arc(dst, get64(b), get64(b + 8), get64(b + 16)) < 0)
				return error("%s: cannot sum: %s", "a partial sum", "out of memory");
		return 0;
	}
	}
bad:
	return error("%s: %s", "a partial sum", "malformed message");
}

/* gmonsum_encode's part callback: the part after its length. */
struct membuf {
	unsigned char *b;
	size_t len, cap;
};

static int append_part(void *ctx, const unsigned char *part, size_t len)
{
	struct membuf *m = ctx;
	uint64_t l = len;

	if (array_grow(&m->b, &m->cap, m->len + 8 + len, 1) < 0)
		return error("out of memory");
	put64(m->b + m->len, l);
	memcpy(m->b + m->len + 8, part, len);
	m->len += 8 + len;
	return 0;
}

int gmonsum_encode(const struct gmonsum *s, unsigned char **bufp, size_t *lenp)
{
	struct membuf m = { NULL, 0, 0 };

	if (gmonsum_parts(s, append_part, &m) < 0) {
		free(m.b);
		return -1;
	}
	*bufp = m.b;
	*lenp = m.len;
	return 0;
}

int gmonsum_decode(const unsigned char *b, size_t len, struct gmonsum *out)
{
	size_t at = 0;

	gmonsum_init(out);
	while (at < len) {
		uint64_t l;

		if (len - at < 8 || (l = get64(b + at)) > len - at - 8) {
			error("%s: %s", "a partial sum", "malformed message");
			goto fail;
		}
		if (gmonsum_add_part(out, b + at + 8, (size_t)l) < 0)
			goto fail;
		at += 8 + (size_t)l;
	}
	return 0;
fail:
	gmonsum_release(out);
	return -1;
}

static int cmp_arc(const void *pa, const void *pb)
{
	const struct gmonsum_arc *a = pa, *b = pb;

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return a->self < b->self ? -1 : a->self > b->self;
}

/*
 * Exact sums in gprof's own format: bins are 16 bits and arc counts 32 bits
 * on disk, but gprof adds the records of one address range (hist.c,
 * hist_read_rec: into an int per bin) and the records of one arc (cg_arcs.c,
 * arc_add: into an unsigned long) as it reads them.  A bin above 65,535 is
 * written over as many records of its histogram as it needs, an arc above
 * 2^32 - 1 as several records; gprof reads the sum back exactly.  A bin
 * gprof could not hold (an int) is refused instead of wrapped.
 */
#define BIN_MAX 0xffffu
#define ARC_MAX 0xffffffffu

int gmonsum_write(struct gmonsum *s, const char *path)
{
	struct outfile of;
	unsigned char rec[64];
	size_t i;
	int bad;

	for (i = 0; i < s->nhists; i++) {
		uint32_t k;

		for (k = 0; k < s->hists[i].nbins; k++)
			if (gmonsum_bin(&s->hists[i], k) > INT32_MAX)
				return error("%s: cannot write: a histogram bin sums to %llu "
					     "samples, more than gprof can read (%d)", path,
					     (unsigned long long)gmonsum_bin(&s->hists[i], k),
					     INT32_MAX);
	}
	if (outfile_open(&of, path) < 0)
		return -1;
	/* The arc index is rebuilt on the next add; sorting breaks it. */
	qsort(s->arcs, s->narcs, sizeof(*s->arcs), cmp_arc);
	free(s->slots);
	s->slots = NULL;
	s->nslots = 0;
	memset(rec, 0, sizeof(rec));
	memcpy(rec, "gmon", 4);
	put32(rec + 4, 1);
	memset(rec + 8, 0, 12);
	bad = fwrite(rec, 20, 1, of.fp) != 1;
	for (i = 0; i < s->nhists && !bad; i++) {
		const struct gmonsum_hist *h = &s->hists[i];
		uint64_t most = 0, pass;
		uint32_t k;

		for (k = 0; k < h->nbins; k++)
			if (gmonsum_bin(h, k) > most)
				most = gmonsum_bin(h, k);
		/* record `pass` holds what is left of each bin, up to 65,535 */
		for (pass = 0; pass == 0 || pass * BIN_MAX < most; pass++) {
			rec[0] = TAG_HIST;
			put_hist_hdr(rec + 1, h);
			bad |= fwrite(rec, 1 + HIST_HDR, 1, of.fp) != 1;
			for (k = 0; k < h->nbins && !bad;) {
				unsigned char c[2 * 4096];
				uint32_t j = 0;

				for (; j < 4096 && k < h->nbins; j++, k++) {
					uint64_t bin = gmonsum_bin(h, k);
					uint64_t v = bin > pass * BIN_MAX ? bin - pass * BIN_MAX : 0;

					if (v > BIN_MAX)
						v = BIN_MAX;
					c[2 * j] = (unsigned char)v;
					c[2 * j + 1] = (unsigned char)(v >> 8);
				}
				bad |= fwrite(c, 2, j, of.fp) != j;
			}
		}
	}
	for (i = 0; i < s->narcs && !bad; i++) {
		uint64_t left = s->arcs[i].count;

		do {
			uint32_t c = left > ARC_MAX ? ARC_MAX : (uint32_t)left;

			rec[0] = TAG_ARC;
			put64(rec + 1, s->arcs[i].from);
			put64(rec + 9, s->arcs[i].self);
			put32(rec + 17, c);
			bad |= fwrite(rec, 1 + ARC_REC, 1, of.fp) != 1;
			left -= c;
		} while (left && !bad);
	}
	if (bad) {
		int e = errno ? errno : EIO;

		outfile_abort(&of);
		return error("%s: cannot write: %s", path, strerror(e));
	}
	return outfile_commit(&of);
}
