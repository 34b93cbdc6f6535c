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

void gmonsum_release(struct gmonsum *s)
{
	size_t i;

	for (i = 0; i < s->nhists; i++)
		free(s->hists[i].bins);
	free(s->hists);
	free(s->arcs);
	free(s->slots);
	gmonsum_init(s);
}

/* ------------------------------------------------------------------------ */

/*
 * The bins h's counts are added into: the sum's histogram for h's range,
 * made when it has none.  NULL (reported) when h does not fit it or when
 * out of memory; `what` names h's source in the message.
 */
static uint64_t *sum_bins(struct gmonsum *s, const struct gmonsum_hist *h, const char *what)
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
		d->bins = calloc(h->nbins ? h->nbins : 1, sizeof(uint64_t));
		if (!d->bins)
			goto oom;
		s->nhists++;
	}
	return d->bins;
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
			a->count += count;
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

int gmonsum_read(struct gmonsum *s, const char *path)
{
	unsigned char *b;
	size_t len, at = 20;
	int ret = -1;
	char err[4200];

	/* regular files only, read to their size (utils/infile.h) */
	if (infile_read_all(path, &b, &len, err, sizeof(err)) < 0)
		return error("%s", err);
	if (len < 20 || memcmp(b, "gmon", 4) || get32(b + 4) != 1) {
		error("%s: %s", path,
		      "not a gmon file of version 1 (the format glibc writes)");
		goto out;
	}
	while (at < len) {
		unsigned tag = b[at++];

		if (tag == TAG_HIST) {
			struct gmonsum_hist h;
			uint64_t *bins;
			uint32_t k;

			if (len - at < HIST_HDR)
				goto truncated;
			get_hist_hdr(b + at, &h);
			at += HIST_HDR;
			if ((len - at) / 2 < h.nbins)
				goto truncated;
			if (!(bins = sum_bins(s, &h, path)))
				goto out;
			/* 16-bit bins on disk */
			for (k = 0; k < h.nbins; k++, at += 2)
				bins[k] += (uint64_t)(b[at] | b[at + 1] << 8);
		} else if (tag == TAG_ARC) {
			if (len - at < ARC_REC)
				goto truncated;
			if (add_arc(s, get64(b + at), get64(b + at + 8), get32(b + at + 16)) < 0) {
				error("%s: cannot sum: %s", path, "out of memory");
				goto out;
			}
			at += ARC_REC;
		} else if (tag == TAG_BB) {
			error("%s: cannot sum: %s", path,
			      "basic-block records are not supported; use gprof -s");
			goto out;
		} else {
			error("%s: bad record tag %u at byte %zu", path, tag, at - 1);
			goto out;
		}
	}
	s->nfiles++;
	ret = 0;
	goto out;
truncated:
	error("%s: %s", path, "truncated record");
out:
	free(b);
	return ret;
}

int gmonsum_add(struct gmonsum *dst, const struct gmonsum *src)
{
	size_t i;
	uint32_t k;

	for (i = 0; i < src->nhists; i++) {
		const struct gmonsum_hist *h = &src->hists[i];
		uint64_t *bins = sum_bins(dst, h, "a partial sum");

		if (!bins)
			return -1;
		for (k = 0; k < h->nbins; k++)
			bins[k] += h->bins[k];
	}
	for (i = 0; i < src->narcs; i++)
		if (add_arc(dst, src->arcs[i].from, src->arcs[i].self, src->arcs[i].count) < 0)
			return error("%s: cannot sum: %s", "a partial sum", "out of memory");
	dst->nfiles += src->nfiles;
	return 0;
}

/*
 * Wire format between MPI processes (same binary, so no versioning):
 * u64 nfiles, u64 nhists, per hist: header (HIST_HDR bytes) + u64 bins,
 * u64 narcs, per arc: from, self, count (u64 each).
 */
int gmonsum_encode(const struct gmonsum *s, unsigned char **bufp, size_t *lenp)
{
	size_t len = 24 + s->narcs * 24, i, at = 0;
	unsigned char *b;

	for (i = 0; i < s->nhists; i++)
		len += HIST_HDR + 8 * (size_t)s->hists[i].nbins + 8;
	b = malloc(len);
	if (!b)
		return error("out of memory");
	put64(b + at, s->nfiles), at += 8;
	put64(b + at, s->nhists), at += 8;
	for (i = 0; i < s->nhists; i++) {
		const struct gmonsum_hist *h = &s->hists[i];
		uint32_t k;

		put_hist_hdr(b + at, h);
		at += HIST_HDR;
		for (k = 0; k < h->nbins; k++)
			put64(b + at, h->bins[k]), at += 8;
	}
	put64(b + at, s->narcs), at += 8;
	for (i = 0; i < s->narcs; i++) {
		put64(b + at, s->arcs[i].from);
		put64(b + at + 8, s->arcs[i].self);
		put64(b + at + 16, s->arcs[i].count);
		at += 24;
	}
	*bufp = b;
	*lenp = at;
	return 0;
}

int gmonsum_decode(const unsigned char *b, size_t len, struct gmonsum *out)
{
	size_t at = 16, i;
	uint64_t nh, na;

	gmonsum_init(out);
	if (len < 16)
		goto bad;
	out->nfiles = get64(b);
	nh = get64(b + 8);
	for (i = 0; i < nh; i++) {
		struct gmonsum_hist h;
		uint64_t *bins;
		uint32_t k;

		if (len - at < HIST_HDR)
			goto bad;
		get_hist_hdr(b + at, &h);
		at += HIST_HDR;
		if ((len - at) / 8 < h.nbins)
			goto bad;
		if (!(bins = sum_bins(out, &h, "a partial sum")))
			goto fail;
		/* 64-bit bins on the wire */
		for (k = 0; k < h.nbins; k++, at += 8)
			bins[k] += get64(b + at);
	}
	if (len - at < 8)
		goto bad;
	na = get64(b + at);
	at += 8;
	if ((len - at) / 24 < na)
		goto bad;
	for (i = 0; i < na; i++, at += 24)
		if (add_arc(out, get64(b + at), get64(b + at + 8), get64(b + at + 16)) < 0) {
			error("%s: cannot sum: %s", "a partial sum", "out of memory");
			goto fail;
		}
	return 0;
bad:
	error("%s: %s", "a partial sum", "malformed message");
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
			if (s->hists[i].bins[k] > INT32_MAX)
				return error("%s: cannot write: a histogram bin sums to %llu "
					     "samples, more than gprof can read (%d)", path,
					     (unsigned long long)s->hists[i].bins[k], INT32_MAX);
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
			if (h->bins[k] > most)
				most = h->bins[k];
		/* record `pass` holds what is left of each bin, up to 65,535 */
		for (pass = 0; pass == 0 || pass * BIN_MAX < most; pass++) {
			rec[0] = TAG_HIST;
			put_hist_hdr(rec + 1, h);
			bad |= fwrite(rec, 1 + HIST_HDR, 1, of.fp) != 1;
			for (k = 0; k < h->nbins && !bad; k++) {
				uint64_t v = h->bins[k] > pass * BIN_MAX ? h->bins[k] - pass * BIN_MAX : 0;
				unsigned char c[2];

				if (v > BIN_MAX)
					v = BIN_MAX;
				c[0] = (unsigned char)v;
				c[1] = (unsigned char)(v >> 8);
				bad |= fwrite(c, 2, 1, of.fp) != 1;
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
