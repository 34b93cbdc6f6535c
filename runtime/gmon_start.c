/*
 * gmon_start.c - glibc 2.36's profiling start-up and file rules, done by
 * the runtime (see gmon_start.h; glibc's gmon/gmon.c and
 * sysdeps/posix/profil.c are the reference).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>	/* rename */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gmon_out.h"
#include "gmon_start.h"
#include "utils/banned.h"

#define ROUNDDOWN(x, y) (((x) / (y)) * (y))
#define ROUNDUP(x, y) ((((x) + (y) - 1) / (y)) * (y))

void gmon_geometry_compute(uint64_t lowpc, uint64_t highpc,
			   struct gmon_geometry *g)
{
	int o;

	memset(g, 0, sizeof(*g));
	g->lowpc = ROUNDDOWN(lowpc, GMON_HISTFRACTION * GMON_HISTCOUNTER_SIZE);
	g->highpc = ROUNDUP(highpc, GMON_HISTFRACTION * GMON_HISTCOUNTER_SIZE);
	g->textsize = g->highpc - g->lowpc;
	/* glibc: "This looks like a typo, but it's here to align the p->froms
	 * section." (the bug 29444 fix: rounded to froms' entries) */
	g->kcountsize = ROUNDUP(g->textsize / GMON_HISTFRACTION, GMON_ARCINDEX_SIZE);
	g->hashfraction = GMON_HASHFRACTION;
	/* HASHFRACTION is a power of two: glibc shifts instead of dividing */
	g->log_hashfraction = __builtin_ffsl((long)(g->hashfraction *
						    GMON_ARCINDEX_SIZE)) - 1;
	g->fromssize = ROUNDUP(g->textsize / GMON_HASHFRACTION, GMON_ARCINDEX_SIZE);
	/* glibc's tolimit is a long computed from the unsigned textsize */
	g->tolimit = (int64_t)(g->textsize * GMON_ARCDENSITY / 100);
	if (g->tolimit < GMON_MINARCS)
		g->tolimit = GMON_MINARCS;
	else if (g->tolimit > GMON_MAXARCS)
		g->tolimit = GMON_MAXARCS;
	g->tossize = (uint64_t)g->tolimit * 3 * sizeof(unsigned long);
	/*
	 * glibc's `int o` and its float arithmetic, kept as they are: the
	 * scale decides which bin profil() counts a pc in, so it must be
	 * glibc's to the last bit (float division, times a long converted to
	 * float, truncated to int).
	 */
	o = (int)(g->highpc - g->lowpc);
	if (g->kcountsize < (unsigned long)o)
		g->s_scale = (int32_t)(((float)g->kcountsize / o) * GMON_SCALE_1_TO_1);
	else
		g->s_scale = GMON_SCALE_1_TO_1;
}

uint64_t gmon_geometry_buckets(const struct gmon_geometry *g)
{
	return g->fromssize / GMON_ARCINDEX_SIZE;
}

int64_t gmon_geometry_bucket(const struct gmon_geometry *g, uint64_t frompc)
{
	uint64_t off = frompc - g->lowpc, b;

	/* glibc's mcount: `frompc -= p->lowpc; if (frompc > p->textsize)` */
	if (off > g->textsize)
		return -1;
	b = off >> g->log_hashfraction;
	/* off == textsize with textsize a multiple of 16: glibc stores past
	 * froms[] and write_call_graph never reaches it */
	if (b >= gmon_geometry_buckets(g))
		return -1;
	return (int64_t)b;
}

uint64_t gmon_geometry_bucket_pc(const struct gmon_geometry *g, uint64_t b)
{
	return g->lowpc + b * g->hashfraction * GMON_ARCINDEX_SIZE;
}

/* ---- the histogram: glibc's profil() into our buffer ---- */

/*
 * unistd.h declares profil's buffer nonnull, yet profil(NULL, ...) is how
 * glibc's own __moncontrol turns it off: called through a pointer.
 */
static int (*const profil_call)(unsigned short *, size_t, size_t, unsigned) = profil;

int gmon_hist_start(struct gmon_hist *h, uint64_t lowpc, uint64_t highpc)
{
	void *p;

	memset(h, 0, sizeof(*h));
	gmon_geometry_compute(lowpc, highpc, &h->geom);
	/* a page at least: with no text glibc still starts the timer, with
	 * a buffer of size 0 */
	h->mapped = ROUNDUP(h->geom.kcountsize ? h->geom.kcountsize : 1,
			    (uint64_t)sysconf(_SC_PAGESIZE));
	p = mmap(NULL, h->mapped, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		int e = errno;

		h->mapped = 0;
		return -e;
	}
	h->kcount = p;
	return gmon_hist_control(h, 1);
}

int gmon_hist_control(struct gmon_hist *h, int on)
{
	/* __moncontrol: profil(kcount, kcountsize, lowpc, s_scale) or off */
	if (on && h->kcount) {
		if (profil_call(h->kcount, h->geom.kcountsize, h->geom.lowpc,
			   (unsigned)h->geom.s_scale) < 0)
			return -errno;
		h->on = 1;
		return 0;
	}
	/* glibc's __moncontrol(0), and (1) before a start: profil(NULL),
	 * which does nothing when profil is not counting */
	profil_call(NULL, 0, 0, 0);
	h->on = 0;
	return 0;
}

void gmon_hist_release(struct gmon_hist *h)
{
	gmon_hist_control(h, 0);
	if (h->kcount)
		munmap(h->kcount, h->mapped);
	h->kcount = NULL;
	h->mapped = 0;
}

/* ---- file names ---- */

/* Append `s` to buf[*n..len); 0, or -1 when it does not fit. */
static int put_str(char *buf, size_t len, size_t *n, const char *s)
{
	size_t l = strlen(s);

	if (*n + l >= len)
		return -1;
	memcpy(buf + *n, s, l + 1);
	*n += l;
	return 0;
}

static int put_uint(char *buf, size_t len, size_t *n, unsigned long v)
{
	char digits[24];
	size_t i = sizeof(digits);

	digits[--i] = '\0';
	do {
		digits[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return put_str(buf, len, n, digits + i);
}

static int open_gmon(const char *path)
{
	return open(path, O_CREAT | O_TRUNC | O_WRONLY | O_NOFOLLOW | O_CLOEXEC,
		    0666);
}

int gmon_own_names;

const char *gmon_prefix(void)
{
	const char *p = secure_getenv("GMON_OUT_PREFIX");

	if (p)
		return p;
	return __atomic_load_n(&gmon_own_names, __ATOMIC_RELAXED) ? "gmon.out" : NULL;
}

int gmon_open(const char *prefix, pid_t pid, char *path, size_t len)
{
	size_t n = 0;
	int fd = -1;

	if (prefix) {
		/* glibc: snprintf(buf, len + 20, "%s.%u", env, getpid()) */
		if (put_str(path, len, &n, prefix) == 0 &&
		    put_str(path, len, &n, ".") == 0 &&
		    put_uint(path, len, &n, (unsigned)pid) == 0)
			fd = open_gmon(path);
		/* a name we cannot hold is one the kernel would refuse too
		 * (ENAMETOOLONG): glibc then falls back to gmon.out */
	}
	if (fd < 0) {
		n = 0;
		if (put_str(path, len, &n, "gmon.out") < 0)
			return -ENAMETOOLONG;
		fd = open_gmon(path);
		if (fd < 0)
			return -errno;
	}
	return fd;
}

void gmon_report_open_error(int errnum, int localized)
{
	char msg[512], ebuf[300];
	const char *e = NULL;
	size_t n = 0;
	int saved = errno;

	if (localized)
		e = strerror_r(errnum, ebuf, sizeof(ebuf));
	else
		e = strerrordesc_np(errnum);
	if (!e) {
		/* glibc's text for an unknown error number */
		size_t m = 0;

		ebuf[0] = '\0';
		put_str(ebuf, sizeof(ebuf), &m, "Unknown error ");
		if (errnum < 0)
			put_str(ebuf, sizeof(ebuf), &m, "-");
		put_uint(ebuf, sizeof(ebuf), &m,
			 errnum < 0 ? -(unsigned long)errnum : (unsigned long)errnum);
		e = ebuf;
	}
	msg[0] = '\0';
	put_str(msg, sizeof(msg), &n, "_mcleanup: gmon.out: ");
	put_str(msg, sizeof(msg), &n, e);
	put_str(msg, sizeof(msg), &n, "\n");
	/* one write, as glibc's unbuffered stderr makes it */
	(void)!write(STDERR_FILENO, msg, n);	/* unchecked, as glibc's */
	errno = saved;
}

struct named {
	char path[4096 + 32];
	int fd;
	int localized;
};

static int open_named(void *ctx)
{
	struct named *n = ctx;

	n->fd = gmon_open(gmon_prefix(), getpid(), n->path,
			  sizeof(n->path));
	if (n->fd < 0)
		gmon_report_open_error(-n->fd, n->localized);
	return n->fd;
}

/*
 * Opened once the arcs are merged (gmon_out.h's open_fd): a failure
 * before the file's first byte (no working memory) leaves gmon.out as it
 * was, where truncating first would have emptied it.
 */
int gmon_write_named(const struct gmon_out_opts *o, int localized)
{
	struct gmon_out_opts opened = *o;
	struct named n = { .fd = -1, .localized = localized };
	int r, saved = errno;

	opened.open_fd = open_named;
	opened.open_ctx = &n;
	r = gmon_out_write(-1, &opened);
	if (n.fd >= 0)
		close(n.fd);
	errno = saved;
	return r;
}

static int executable(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	if (info->dlpi_name[0] != '\0')
		return 0;
	*(uint64_t *)data = (uint64_t)info->dlpi_addr;
	return 1;
}

uint64_t gmon_load_address(void)
{
	uint64_t load = 0;

	dl_iterate_phdr(executable, &load);
	return load;
}

/* ---- snapshots: temporary file, rename ---- */

int gmon_snapshot_open(const char *final, char *tmp, size_t len)
{
	size_t n = 0;
	int fd;

	if (put_str(tmp, len, &n, final) < 0 || put_str(tmp, len, &n, ".tmp.") < 0 ||
	    put_uint(tmp, len, &n, (unsigned long)getpid()) < 0)
		return -ENAMETOOLONG;
	/* ours alone: a process with this pid that died mid-snapshot left it */
	unlink(tmp);
	fd = open(tmp, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0666);
	return fd < 0 ? -errno : fd;
}

int gmon_snapshot_commit(const char *tmp, const char *final)
{
	struct stat st;

	if (lstat(final, &st) == 0 && !S_ISREG(st.st_mode)) {
		unlink(tmp);
		return -EEXIST;
	}
	if (rename(tmp, final) < 0) {
		int e = errno;

		unlink(tmp);
		return -e;
	}
	return 0;
}

void gmon_snapshot_abort(const char *tmp)
{
	unlink(tmp);
}
