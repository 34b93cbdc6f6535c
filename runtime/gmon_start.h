/*
 * gmon_start.h - what glibc 2.36's gmon/gmon.c does at start and at the
 * end of a profiled run, done by the runtime: the geometry __monstartup
 * computes, glibc's own histogram (profil) counting into a buffer the
 * runtime owns, and the rules by which _mcleanup names and opens the file.
 *
 * glibc (release/2.36/master, which Debian 12's 2.36-9+deb12u* follows for
 * gmon/) computes in __monstartup(lowpc, highpc):
 *
 *   lowpc      = ROUNDDOWN(lowpc, HISTFRACTION * sizeof(HISTCOUNTER))   (4)
 *   highpc     = ROUNDUP(highpc, 4)
 *   textsize   = highpc - lowpc
 *   kcountsize = ROUNDUP(textsize / HISTFRACTION, sizeof(ARCINDEX))     (/2, 8)
 *   log_hashfraction = ffs(HASHFRACTION * sizeof(ARCINDEX)) - 1         (4)
 *   fromssize  = ROUNDUP(textsize / HASHFRACTION, sizeof(ARCINDEX))
 *   tolimit    = textsize * ARCDENSITY / 100, within [MINARCS, MAXARCS]
 *                (3 %, [50, 1 << 20])
 *   s_scale    = kcountsize < (int)textsize
 *                ? (int)((float)kcountsize / (int)textsize * 65536) : 65536
 *
 * and a call's arc is kept in the bucket (frompc - lowpc) >> log_hashfraction
 * of froms[] (fromssize / 8 buckets, 16 bytes of text each), provided
 * frompc - lowpc <= textsize.  gmon_out.h writes arcs with that geometry.
 *
 * Every function here but gmon_hist_start/control/release (which call
 * glibc's profil, as __moncontrol does, and mmap) and gmon_report_open_error
 * with `localized` set is async-signal-safe: raw system calls, no malloc,
 * no stdio, no locks.
 */
#ifndef CALLPATH_GMON_START_H
#define CALLPATH_GMON_START_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* glibc 2.36's constants (sys/gmon.h) */
#define GMON_HISTFRACTION 2
#define GMON_HISTCOUNTER_SIZE 2		/* unsigned short */
#define GMON_HASHFRACTION 2
#define GMON_ARCINDEX_SIZE 8		/* unsigned long */
#define GMON_ARCDENSITY 3
#define GMON_MINARCS 50
#define GMON_MAXARCS (1L << 20)
#define GMON_SCALE_1_TO_1 0x10000L

/* glibc's histogram rate (AT_CLKTCK), exported by libc but in no header. */
int __profile_frequency(void);

struct gmon_geometry {
	uint64_t lowpc, highpc;		/* rounded, run-time addresses */
	uint64_t textsize;		/* highpc - lowpc */
	uint64_t kcountsize;		/* histogram bytes (2-byte bins) */
	uint64_t fromssize;		/* bytes of glibc's froms[] (8-byte buckets) */
	uint64_t hashfraction;
	int32_t log_hashfraction;	/* a bucket is 1 << this bytes of text */
	int32_t s_scale;		/* profil()'s scale */
	int64_t tolimit;		/* glibc's arc table size, in arcs */
	uint64_t tossize;		/* its bytes (24 per arc) */
};

/* __monstartup's arithmetic, exactly (pure). */
void gmon_geometry_compute(uint64_t lowpc, uint64_t highpc,
			   struct gmon_geometry *g);

/* Number of buckets glibc writes arcs from: fromssize / 8. */
uint64_t gmon_geometry_buckets(const struct gmon_geometry *g);

/*
 * The bucket glibc keeps a call from `frompc` in, or -1 when glibc drops
 * the call (frompc outside [lowpc, highpc], or in the one bucket past the
 * table that glibc 2.36 would write beyond froms[] and never writes out).
 */
int64_t gmon_geometry_bucket(const struct gmon_geometry *g, uint64_t frompc);

/* The from_pc glibc writes for bucket `b`: lowpc + b * 16. */
uint64_t gmon_geometry_bucket_pc(const struct gmon_geometry *g, uint64_t b);

/*
 * glibc's histogram, counted by glibc's own profil() into a buffer the
 * runtime owns, with glibc's geometry: what __monstartup + __moncontrol do
 * without glibc's arc tables.  Calling sequence (normal context):
 *   gmon_hist_start(&h, lowpc, highpc)   mmap the bins, profil(on)
 *   gmon_hist_control(&h, 0 / 1)         moncontrol: profil(off / on)
 *   ... gmon_out_write() with h.geom and h.kcount ...
 *   gmon_hist_release(&h)                profil(off), munmap
 * h owns kcount.  A start that fails (mmap, or profil) leaves nothing
 * running and returns -errno.
 */
struct gmon_hist {
	struct gmon_geometry geom;
	uint16_t *kcount;		/* geom.kcountsize bytes, or NULL */
	size_t mapped;			/* bytes mapped at kcount */
	int on;				/* profil() is counting */
};

int gmon_hist_start(struct gmon_hist *h, uint64_t lowpc, uint64_t highpc);
int gmon_hist_control(struct gmon_hist *h, int on);
void gmon_hist_release(struct gmon_hist *h);

/*
 * The file, as glibc's write_gmon opens it: "<prefix>.<pid>" when `prefix`
 * is not NULL (glibc: GMON_OUT_PREFIX, ignored in secure mode: pass
 * secure_getenv's answer), and, if that cannot be opened for any reason,
 * "gmon.out"; each with O_CREAT|O_TRUNC|O_WRONLY|O_NOFOLLOW, mode 0666 (the
 * umask applies).  So a FIFO is opened and written into (open waits for a
 * reader, as glibc's does), a symbolic link is refused (ELOOP).  Returns
 * the descriptor with the name opened in `path`, or -errno of the
 * "gmon.out" open, which glibc reports with gmon_report_open_error().
 */
int gmon_open(const char *prefix, pid_t pid, char *path, size_t len);

/*
 * The prefix of the gmon file's name: $GMON_OUT_PREFIX (ignored in secure
 * mode, as glibc does), else "gmon.out" when the runtime writes this
 * process's files under their own names (gmon_own_names: a sampled
 * process that is another profiled process's child, or whose gmon.out
 * another process wrote meanwhile), else NULL (glibc's gmon.out).  Every
 * place that names the files asks here.  Async-signal-safe.
 */
const char *gmon_prefix(void);
extern int gmon_own_names;

/*
 * glibc's write_gmon: open by gmon_open's rules (GMON_OUT_PREFIX from
 * secure_getenv, this process's pid), report a failed open as glibc does
 * (gmon_report_open_error, `localized`), write o's parts (gmon_out.h),
 * close.  0, or -errno.  Normal context, or a signal handler with
 * `localized` 0 (getenv only reads the environment).
 */
struct gmon_out_opts;
int gmon_write_named(const struct gmon_out_opts *o, int localized);

/*
 * glibc's load address of the executable (what write_gmon subtracts from
 * every pc in a PIE): the object dl_iterate_phdr names "".  Normal context
 * (dl_iterate_phdr takes the loader's lock): a signal path computes it
 * beforehand.  In a static link glibc subtracts nothing: pass 0.
 */
uint64_t gmon_load_address(void);

/*
 * glibc's message for a failed open, on standard error:
 *   "_mcleanup: gmon.out: <strerror>\n"
 * With `localized`, through strerror_r as glibc's (translated under the
 * program's locale; normal context only); without, the C locale's text
 * (strerrordesc_np), async-signal-safe: the same bytes under LC_ALL=C.
 */
void gmon_report_open_error(int errnum, int localized);

/*
 * Snapshots (issue 26): write to a temporary file beside `final`, then
 * rename it over `final`, so a reader never sees a torn file.  The
 * temporary name is "<final>.tmp.<pid>", created exclusively (a stale one
 * of a dead process with this pid is removed first), mode 0666 under the
 * umask, never following a symbolic link.  gmon_snapshot_commit refuses
 * (-EEXIST, the temporary file removed) to replace anything but a regular
 * file: a FIFO or a symbolic link at `final` stays as it was.
 *   fd = gmon_snapshot_open(final, tmp, sizeof(tmp));  write into fd;
 *   close(fd); gmon_snapshot_commit(tmp, final)  (or gmon_snapshot_abort)
 */
int gmon_snapshot_open(const char *final, char *tmp, size_t len);
int gmon_snapshot_commit(const char *tmp, const char *final);
void gmon_snapshot_abort(const char *tmp);

#endif
