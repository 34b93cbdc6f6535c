/*
 * Pre-checks of gmon files (see gmon_check.h).  The layouts are upstream's
 * gmon_io.c: glibc's tagged format ("gmon", version, 12 spare bytes, then
 * records: 0 histogram, 1 arc, 2 basic-block counts) and the old BSD header
 * (lowpc, highpc, ncnt, where ncnt counts the header and the bins).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gprof-ext/gmon_check.h"
#include "gprof-ext/input_check.h"
#include "utils/error.h"
#include "utils/banned.h"

/* Upstream allocates this much (or more) for an announced histogram before
 * reading it; a file that cannot back it is refused only past this size, so
 * small truncations keep upstream's own message. */
#define ALLOC_LIMIT ((uint64_t)256 << 20)
/* Upstream compares each histogram record with every earlier one and grows
 * its array one record at a time: 50,000 distinct ranges take 10 s, ten
 * times more 16 minutes.  Real profiles have one range (glibc writes one). */
#define MAX_RANGES 4096

#define TAG_HIST 0
#define TAG_ARC 1
#define TAG_BB 2
#define HIST_HDR 40  /* lowpc, highpc, ncnt, rate, dimension, abbreviation */
#define ARC_REC 20   /* frompc, selfpc, count */
#define BB_ITEM 16   /* address, count */

struct range {
	uint64_t lo, hi;
};

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

/* How many different (lowpc, highpc) pairs; sorts `r`. */
static size_t distinct_ranges(struct range *r, size_t n)
{
	size_t i, d = n ? 1 : 0;

	qsort(r, n, sizeof(*r), cmp_range);
	for (i = 1; i < n; i++)
		if (cmp_range(&r[i - 1], &r[i]) != 0)
			d++;
	return d;
}

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t u64_at(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* Upstream's old BSD headers for a 64-bit program (gmon.h): lowpc, highpc
 * and ncnt (20 bytes), then, for 4.4BSD, version, profrate and 12 spare
 * bytes (40). */
#define BSD_HDR 20
#define BSD44_HDR 40
#define BSD44_VERSION 0x00051879

static int check_bsd(const char *path, const unsigned char *hdr, size_t nhdr,
		     uint64_t size, enum gmon_check_level level)
{
	uint32_t ncnt = u32_at(hdr + 16);
	uint32_t header;

	/* Upstream allocates 2 * ncnt bytes of bins (4 per 2-byte count). */
	if (ncnt > size && (level == GMON_CHECK_STRICT || 2 * (uint64_t)ncnt > ALLOC_LIMIT))
		return error("%s: not a gmon file (no \"gmon\" header, "
			     "and as an old BSD-style file it would need %u bytes; it "
			     "has %llu)", path, ncnt, (unsigned long long)size);
	if (nhdr < 24)
		return 0; /* upstream: "file too short to be a gmon file" */
	/*
	 * ncnt counts the header too: upstream takes (ncnt - header) / 2
	 * bins as an int converted to an unsigned, so a count smaller than
	 * the header (a glibc file whose magic is damaged reads as one of
	 * ncnt 0) is about 2^32 bins, 16 GiB allocated and cleared before
	 * upstream finds the count negative and says the file is not a gmon
	 * file.
	 */
	header = u32_at(hdr + 20) == BSD44_VERSION ? BSD44_HDR : BSD_HDR;
	if (ncnt < header)
		return error("%s: not a gmon file (no \"gmon\" header, and as an "
			     "old BSD-style file its byte count, %u, is smaller than "
			     "its %u-byte header)", path, ncnt, header);
	return 0;
}

/* The file through a 64 KiB window: summing 1,024 rank files read each
 * arc's tag and record with a call apiece, a sixth of `gprof -s`. */
struct window {
	FILE *fp;
	uint64_t base; /* file offset of buf[0] */
	size_t len;    /* bytes in buf */
	unsigned char buf[1 << 16];
};

/* The n (<= sizeof(w->buf)) bytes at file offset pos, or NULL if the file
 * ends before them or cannot be read. */
static const unsigned char *window_at(struct window *w, uint64_t pos, size_t n)
{
	if (pos >= w->base && pos + n <= w->base + w->len)
		return w->buf + (pos - w->base);
	if (fseeko(w->fp, (off_t)pos, SEEK_SET) != 0)
		return NULL;
	w->base = pos;
	w->len = fread(w->buf, 1, sizeof(w->buf), w->fp);
	return n <= w->len ? w->buf : NULL;
}

static int check_tagged(const char *path, FILE *fp, uint64_t size,
			enum gmon_check_level level)
{
	struct window *w = malloc(sizeof(*w));
	const unsigned char *rec;
	struct range *ranges = NULL;
	size_t nranges = 0, cap = 0;
	uint64_t pos = 20;
	int ret = 0;

	if (!w)
		return error("out of memory");
	w->fp = fp;
	w->base = 0;
	w->len = 0;
	while (pos < size && ret == 0) {
		const unsigned char *tag = window_at(w, pos, 1);
		uint32_t ncnt;

		if (!tag)
			break;
		if (*tag == TAG_ARC) {
			pos += 1 + ARC_REC;
			if (!window_at(w, pos - ARC_REC, ARC_REC))
				break;
			continue;
		}
		if (*tag == TAG_BB) {
			if (!(rec = window_at(w, pos + 1, 4)))
				break;
			pos += 5 + BB_ITEM * (uint64_t)u32_at(rec);
			if (pos > size)
				break; /* upstream stops at the end, quickly */
			continue;
		}
		if (*tag != TAG_HIST || !(rec = window_at(w, pos + 1, HIST_HDR)))
			break; /* bad tags, short headers: upstream says */
		ncnt = u32_at(rec + 16);
		pos += 1 + HIST_HDR + 2 * (uint64_t)ncnt;
		/* 4 bytes a bin, allocated and cleared before the first is read */
		if (pos > size && (level == GMON_CHECK_STRICT ||
				   4 * (uint64_t)ncnt > ALLOC_LIMIT)) {
			ret = error("%s: truncated histogram record (%u bins, "
				    "the file ends at byte %llu)", path, ncnt,
				    (unsigned long long)size);
			break;
		}
		if (nranges == cap) {
			size_t c = cap ? 2 * cap : 16;
			struct range *q = realloc(ranges, c * sizeof(*q));

			if (!q) {
				ret = error("out of memory");
				break;
			}
			ranges = q;
			cap = c;
		}
		ranges[nranges].lo = u64_at(rec);
		ranges[nranges].hi = u64_at(rec + 8);
		nranges++;
		if (pos > size)
			break;
	}
	if (ret == 0 && nranges > MAX_RANGES) {
		size_t d = distinct_ranges(ranges, nranges);

		if (d > MAX_RANGES)
			ret = error("%s: %zu histogram records of different "
				    "address ranges (more than %d: gprof would compare each "
				    "with every other, for hours)", path, d, MAX_RANGES);
	}
	free(ranges);
	free(w);
	return ret;
}

int gmon_check(const char *path, enum gmon_check_level level)
{
	unsigned char hdr[24];
	size_t nhdr;
	uint64_t size;
	off_t end;
	struct stat st;
	FILE *fp;
	int ret = 0;

	/* A device or a socket is refused; only a regular file has a size
	 * to check claims against; a FIFO or a process substitution must not
	 * be opened (that would block, or take the bytes upstream is to
	 * read). */
	if (input_check(path, INPUT_GMON) < 0)
		return -1;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return 0;
	fp = fopen(path, "rb");
	if (!fp) {
		if (level == GMON_CHECK_LIMITS)
			return 0; /* upstream says why */
		return error("%s: %s", path, strerror(errno));
	}
	if (fseeko(fp, 0, SEEK_END) != 0 || (end = ftello(fp)) < 0 ||
	    fseeko(fp, 0, SEEK_SET) != 0) {
		fclose(fp);
		if (level == GMON_CHECK_LIMITS)
			return 0;
		return error("%s: %s", path, strerror(errno));
	}
	size = (uint64_t)end;
	nhdr = fread(hdr, 1, sizeof(hdr), fp);
	if (nhdr < 20) {
		if (level == GMON_CHECK_STRICT)
			ret = error("%s: too short to be a gmon file", path);
	} else if (memcmp(hdr, "gmon", 4) != 0) {
		ret = check_bsd(path, hdr, nhdr, size, level);
	} else {
		ret = check_tagged(path, fp, size, level);
	}
	fclose(fp);
	return ret;
}
