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
 *   gmonsum_encode(&s, &buf, &len); ... gmonsum_decode(buf, len, &t)
 *   gmonsum_add(&s, &t);                                adds another sum
 *   gmonsum_write(&s, "gmon.sum");                      atomically
 *   gmonsum_release(&s);
 *
 * Ownership: a struct gmonsum owns its arrays; gmonsum_release() frees
 * them and leaves an empty sum.  Functions return 0, or -1 after
 * reporting with error() (utils/error.h).
 */
#include <stddef.h>
#include <stdint.h>

struct gmonsum_hist {
	uint64_t lowpc, highpc;
	uint32_t nbins, rate;
	char dimen[15];
	char abbrev;
	uint64_t *bins;
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
int gmonsum_encode(const struct gmonsum *s, unsigned char **buf, size_t *len);
int gmonsum_decode(const unsigned char *buf, size_t len, struct gmonsum *out);
/* Arcs are written sorted by (from, self), so the file does not depend on
 * the order the sums were added in.  Written atomically (utils/outfile.h). */
int gmonsum_write(struct gmonsum *s, const char *path);

#endif
