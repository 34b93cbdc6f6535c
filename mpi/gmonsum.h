#ifndef EGPROF_GMONSUM_H
#define EGPROF_GMONSUM_H
/*
 * A sum of gmon files without the program's symbols, for egprof-sum: the
 * histograms are added bin by bin and the call-graph arcs by (from pc,
 * self pc).  gprof reads the result exactly as it reads `gprof -s`'s
 * gmon.sum (same histograms, same arcs once it maps pcs to functions), so
 * its flat profile and call graph are the same; the bytes differ only
 * because gprof -s writes arcs between function addresses.
 *
 * Only what glibc writes is accepted: the GNU "gmon" format, version 1,
 * 64-bit little-endian addresses (x86_64, aarch64), histogram and arc
 * records, under gprof -s's rules (overlapping histogram records and a
 * changed dimension are errors naming the file).  Histogram bins are 16
 * bits and arc counts 32 bits on disk; sums are kept in 64 bits and written
 * exactly, as repeated records that gprof adds as it reads (gmonsum_write).
 *
 *   struct gmonsum s; gmonsum_init(&s);
 *   gmonsum_read(&s, "gmon.123");                       adds one file
 *   gmonsum_parts(&s, send_part, ctx);  ...  gmonsum_add_part(&t, part, len)
 *   gmonsum_write(&s, "gmon.sum");                      atomically
 *   gmonsum_release(&s);
 *
 * Memory: a 1 GB histogram is summed in little more than 1 GB.  Files are
 * read through a 64 KiB buffer, never whole.  Bins are kept in blocks of
 * GMONSUM_BLOCK, each as narrow as its counts allow (16 bits, as on disk,
 * then 32 or 64 when a sum needs them) and not at all while it is zero.
 * Between processes a sum travels as parts of at most a block of bins or
 * GMONSUM_PART_ARCS arcs (gmonsum_parts), each added to the receiver's sum
 * as it arrives (gmonsum_add_part): no message holds a whole sum.  (Before:
 * the file read whole, every bin in 64 bits, and the sum encoded whole for
 * MPI: 5.2 GB of RSS for a 1 GB histogram, "out of memory" with two
 * processes.)
 *
 * Ownership: a struct gmonsum owns its arrays; gmonsum_release() frees
 * them and leaves an empty sum.  Functions return 0, or -1 after
 * reporting with error() (utils/error.h).
 */
#include <stddef.h>
#include <stdint.h>

#define GMONSUM_BLOCK 65536u       /* bins per block */
#define GMONSUM_PART_ARCS 65536u   /* arcs per part */

struct gmonsum_block {
	unsigned char width;     /* bytes a bin: 2, 4 or 8; 0: all zero, no data */
	void *bins;
};

struct gmonsum_hist {
	uint64_t lowpc, highpc;
	uint32_t nbins, rate;
	char dimen[15];
	char abbrev;
	struct gmonsum_block *blocks;	/* ceil(nbins / GMONSUM_BLOCK) */
};

struct gmonsum_arc {
	uint64_t from, self;
	uint64_t count;
};

struct gmonsum {
	struct gmonsum_hist *hists;
	size_t nhists;
	struct gmonsum_arc *arcs;
	size_t narcs, arcs_cap;
	size_t *slots;   /* arc index + 1, 0 empty; power-of-two size */
	size_t nslots;
	uint64_t nfiles; /* gmon files summed */
};

void gmonsum_init(struct gmonsum *s);
void gmonsum_release(struct gmonsum *s);
int gmonsum_read(struct gmonsum *s, const char *path);
int gmonsum_add(struct gmonsum *dst, const struct gmonsum *src);

/* Bin k of h (0 when it was never added to). */
uint64_t gmonsum_bin(const struct gmonsum_hist *h, uint32_t k);

/*
 * The wire between processes: `s` as parts, each given to part(ctx, bytes,
 * len) in turn (a part stops the walk by returning -1); parts added in
 * any order give the same sum.  Parts: 'N' the files summed; 'H' a
 * histogram's header; 'B' one of its non-zero blocks (header, first bin,
 * count, width, the bins); 'A' up to GMONSUM_PART_ARCS arcs.
 */
typedef int (*gmonsum_part_fn)(void *ctx, const unsigned char *part, size_t len);
int gmonsum_parts(const struct gmonsum *s, gmonsum_part_fn part, void *ctx);
/* 0, or -1 (reported, naming "a partial sum") for a malformed part or one
 * that does not fit the sum (as gmonsum_read's rules). */
int gmonsum_add_part(struct gmonsum *dst, const unsigned char *part, size_t len);
/* The parts one after another, each after its u64 length: the whole sum in
 * one buffer (tests and the fuzz harness). */
int gmonsum_encode(const struct gmonsum *s, unsigned char **buf, size_t *len);
int gmonsum_decode(const unsigned char *buf, size_t len, struct gmonsum *out);
/* Arcs are written sorted by (from, self), so the file does not depend on
 * the order the sums were added in.  Written atomically (utils/outfile.h). */
int gmonsum_write(struct gmonsum *s, const char *path);

#endif
