#define _GNU_SOURCE /* fread_unlocked */
#include <stdlib.h>
#include <string.h>
#include "diff/profile.h"
#include "utils/error.h"
#include "utils/banned.h"

#define PROFILE_MAGIC "EGPM"
#define PROFILE_VERSION 2u

/*
 * Writers: fixed-width native-endian fields (the reader is the same binary).
 * The profile is encoded into one block of its exact size: a pass that only
 * counts the bytes, then one that copies them (a loader's worker sent its
 * profile through a stdio memory stream, which grew by copying and was a
 * third of the worker's time at 20,000 functions).  Or it is streamed, a
 * block at a time, to a sink (profile_encode_to): a worker sends megabytes
 * that need no block of their own.
 */
struct writer {
	char *buf;    /* NULL while counting */
	size_t len;   /* bytes in buf, or counted */
	size_t cap;   /* with a sink: buf's size, flushed when full */
	int (*sink)(void *ctx, const void *bytes, size_t n);
	void *ctx;
	int failed;   /* the sink failed: the rest is dropped */
};

static void put_sink(struct writer *w, const void *v, size_t n)
{
	if (!w->failed && w->len && w->sink(w->ctx, w->buf, w->len) < 0)
		w->failed = 1;
	w->len = 0;
	if (n <= w->cap) {
		memcpy(w->buf, v, n);
		w->len = n;
	} else if (!w->failed && w->sink(w->ctx, v, n) < 0) {
		w->failed = 1; /* a name longer than the block: as it is */
	}
}

static inline void put(struct writer *w, const void *v, size_t n)
{
	if (!w->buf) {
		w->len += n;
	} else if (w->sink && w->len + n > w->cap) {
		put_sink(w, v, n);
	} else if (n) {
		memcpy(w->buf + w->len, v, n);
		w->len += n;
	}
}

static void put_u64(struct writer *w, uint64_t v) { put(w, &v, sizeof(v)); }
static void put_i64(struct writer *w, int64_t v) { put(w, &v, sizeof(v)); }
static void put_f64(struct writer *w, double v) { put(w, &v, sizeof(v)); }

static void put_str(struct writer *w, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	put_u64(w, s ? (uint64_t)n + 1 : 0); /* 0 encodes NULL */
	put(w, s, n);
}

/* The parts of the format, in order: the head (everything before the
 * symbols), the count of symbols and each symbol, the count of arcs and
 * each arc, the trailer.  encode() and a sender (profile_sender_new) both
 * write through these, so the format is written in one place. */
static void put_head(struct writer *w, const struct profile *p)
{
	size_t i;

	put(w, PROFILE_MAGIC, 4);
	put_u64(w, PROFILE_VERSION);
	put_str(w, p->binary);
	put_str(w, p->label);
	put_i64(w, p->rank);
	put_f64(w, p->hz);
	put_u64(w, p->input);
	put_f64(w, p->total_ticks);
	put_f64(w, p->print_ticks);
	put_u64(w, p->hist_lowpc);
	put_u64(w, p->hist_highpc);
	put_u64(w, p->ngmon);
	for (i = 0; i < p->ngmon; i++)
		put_str(w, p->gmon_files[i]);
}

static void put_sym(struct writer *w, const struct profile_sym *s)
{
	put_str(w, s->name);
	put_str(w, s->print_name);
	put_str(w, s->file);
	put_str(w, s->unit);
	put_i64(w, s->line);
	put_u64(w, s->addr);
	put_u64(w, s->end_addr);
	put_u64(w, s->flags);
	put_i64(w, s->cycle);
	put_i64(w, s->cg_index);
	put_f64(w, s->self_ticks);
	put_u64(w, s->ncalls);
	put_u64(w, s->self_calls);
	put_f64(w, s->prop_self);
	put_f64(w, s->prop_child);
	put_f64(w, s->child_ticks);
}

static void put_arc(struct writer *w, const struct profile_arc *a)
{
	put_u64(w, a->parent);
	put_u64(w, a->child);
	put_u64(w, a->count);
	put_f64(w, a->time);
	put_f64(w, a->child_time);
}

/* Everything but the trailer (a sender writes that at its end). */
static void encode_parts(struct writer *w, const struct profile *p)
{
	size_t i;

	put_head(w, p);
	put_u64(w, p->nsyms);
	for (i = 0; i < p->nsyms; i++)
		put_sym(w, &p->syms[i]);
	put_u64(w, p->narcs);
	for (i = 0; i < p->narcs; i++)
		put_arc(w, &p->arcs[i]);
}

static void encode(struct writer *w, const struct profile *p)
{
	encode_parts(w, p);
	put(w, PROFILE_MAGIC, 4); /* trailer: the writer finished */
}

struct profile_sender {
	struct writer w;
};

struct profile_sender *profile_sender_new(int (*sink)(void *ctx, const void *bytes, size_t n),
					  void *ctx)
{
	struct profile_sender *ps = calloc(1, sizeof(*ps));

	if (!ps)
		return NULL;
	if (sink) {
		ps->w.cap = (size_t)1 << 18;
		if (!(ps->w.buf = malloc(ps->w.cap))) {
			free(ps);
			return NULL;
		}
		ps->w.sink = sink;
		ps->w.ctx = ctx;
	}
	return ps;
}

void profile_send_head(struct profile_sender *ps, const struct profile *head)
{
	put_head(&ps->w, head);
}

void profile_send_count(struct profile_sender *ps, uint64_t n)
{
	put_u64(&ps->w, n);
}

void profile_send_sym(struct profile_sender *ps, const struct profile_sym *s)
{
	put_sym(&ps->w, s);
}

void profile_send_arc(struct profile_sender *ps, const struct profile_arc *a)
{
	put_arc(&ps->w, a);
}

int profile_sender_end(struct profile_sender *ps, uint64_t *bytes)
{
	struct writer *w = &ps->w;
	int failed;

	put(w, PROFILE_MAGIC, 4);
	if (w->sink && !w->failed && w->len && w->sink(w->ctx, w->buf, w->len) < 0)
		w->failed = 1;
	if (bytes)
		*bytes = w->sink ? 0 : w->len;
	failed = w->failed;
	free(w->buf);
	free(ps);
	return failed ? -1 : 0;
}

int profile_encode(const struct profile *p, char **buf, size_t *len)
{
	struct writer w = { 0 };

	*buf = NULL;
	*len = 0;
	encode(&w, p);
	if (!(w.buf = malloc(w.len ? w.len : 1)))
		return error("out of memory");
	w.len = 0;
	encode(&w, p);
	*buf = w.buf;
	*len = w.len;
	return 0;
}

size_t profile_encoded_size(const struct profile *p)
{
	struct writer w = { 0 };

	encode(&w, p);
	return w.len;
}

int profile_encode_to(const struct profile *p,
		      int (*sink)(void *ctx, const void *bytes, size_t n), void *ctx)
{
	struct profile_sender *ps = profile_sender_new(sink, ctx);

	if (!ps)
		return error("out of memory");
	encode_parts(&ps->w, p);
	return profile_sender_end(ps, NULL);
}

int profile_write(FILE *fp, const struct profile *p)
{
	char *buf;
	size_t len;
	int r = 0;

	if (profile_encode(p, &buf, &len) < 0)
		return -1;
	if (fwrite(buf, 1, len, fp) != len || fflush(fp) != 0)
		r = -1;
	free(buf);
	return r;
}

/*
 * The reader believes no length: a string is read in chunks as its bytes
 * arrive, so a corrupt length costs at most the bytes really there and a
 * valid one (a 2 MiB C++ symbol name) has no cap to exceed.  The first
 * problem is kept, with the byte offset where it was found, for the one
 * message profile_read() prints.
 */
struct reader {
	FILE *fp;            /* NULL: reading mem */
	const char *mem;     /* the bytes of profile_read_mem */
	uint64_t size;       /* how many there are */
	uint64_t offset;     /* bytes consumed */
	const char *why;     /* the first problem, or NULL */
	uint64_t why_offset;
	const char *why_where; /* where it was found (`where` goes on) */
	uint64_t why_index;
	const char *where;   /* the part being read */
	uint64_t index;      /* which one of that part */
	struct profile_pool *pool; /* reading mem: where its strings go */
};

static void fail(struct reader *rd, const char *why)
{
	if (!rd->why) {
		rd->why = why;
		rd->why_offset = rd->offset;
		rd->why_where = rd->where;
		rd->why_index = rd->index;
	}
}

static int get_slow(struct reader *rd, void *v, size_t n)
{
	size_t got;

	if (rd->why)
		return -1;
	if (!rd->fp) {
		got = n <= rd->size - rd->offset ? n : (size_t)(rd->size - rd->offset);
		if (got)
			memcpy(v, rd->mem + rd->offset, got);
		rd->offset += got;
		if (got != n) {
			fail(rd, "the data ends early");
			return -1;
		}
		return 0;
	}
	got = fread_unlocked(v, 1, n, rd->fp);
	rd->offset += got;
	if (got != n) {
		fail(rd, ferror(rd->fp) ? "read error" : "the data ends early");
		return -1;
	}
	return 0;
}

/* n bytes into v; in memory with the bytes there, inline (a field at a
 * time through a call was most of the front end's reading) */
static inline int get(struct reader *rd, void *v, size_t n)
{
	if (!rd->fp && !rd->why && n <= rd->size - rd->offset) {
		memcpy(v, rd->mem + rd->offset, n);
		rd->offset += n;
		return 0;
	}
	return get_slow(rd, v, n);
}

static uint64_t get_u64(struct reader *rd)
{
	uint64_t v = 0;

	get(rd, &v, sizeof(v));
	return v;
}

static int64_t get_i64(struct reader *rd)
{
	int64_t v = 0;

	get(rd, &v, sizeof(v));
	return v;
}

static double get_f64(struct reader *rd)
{
	double v = 0;

	get(rd, &v, sizeof(v));
	return v;
}

#define STR_CHUNK ((size_t)1 << 16)
/* The fewest bytes a symbol or an arc takes in the format (encode). */
#define SYM_MIN_BYTES (4 * 8 + 12 * 8)
#define ARC_BYTES (5 * 8)

static char *get_str(struct reader *rd)
{
	uint64_t n = get_u64(rd), have = 0;
	size_t cap = 0;
	char *s = NULL;

	if (rd->why || n == 0)
		return NULL;
	n--; /* the length counts the terminating NUL, which is not sent */
	if (!rd->fp) {
		/* in memory, the length is checked against the bytes there */
		if (n > rd->size - rd->offset) {
			rd->offset = rd->size;
			fail(rd, "the data ends early");
			return NULL;
		}
		/* into the pool, which has room: each string's length took
		 * 8 bytes of the block, its NUL takes 1 */
		s = rd->pool->bytes + rd->pool->used;
		if (n)
			memcpy(s, rd->mem + rd->offset, (size_t)n);
		rd->offset += n;
		s[n] = '\0';
		rd->pool->used += (size_t)n + 1;
		return s;
	}
	do {
		uint64_t want = n - have < STR_CHUNK ? n - have : STR_CHUNK;
		char *q;

		if (have + want + 1 > cap) {
			/* the first chunk's size, not STR_CHUNK: a page
			 * touched per name made 20,000 symbols a 350 MB
			 * diff */
			cap = cap ? 2 * cap : (size_t)want + 1;
			if (cap < have + want + 1)
				cap = (size_t)(have + want + 1);
			q = realloc(s, cap);
			if (!q) {
				fail(rd, "out of memory");
				free(s);
				return NULL;
			}
			s = q;
		}
		if (get(rd, s + have, (size_t)want) < 0) {
			free(s);
			return NULL;
		}
		have += want;
	} while (have < n);
	s[have] = '\0';
	return s;
}

/* A count read from memory, believed as far as the bytes left could hold
 * that many items of at least `each` bytes (a corrupt count reserves no
 * more than the block's size). */
static size_t believable(const struct reader *rd, uint64_t n, size_t each)
{
	uint64_t fit = (rd->size - rd->offset) / each;

	return (size_t)(n < fit ? n : fit);
}

/* Symbol i of a frame without names (profile_read_mem_names) takes its
 * strings from the symbol table's symbol i, which must be the same symbol. */
static void name_from(struct reader *rd, struct profile *p, struct profile_sym *s,
		      const struct profile *names, uint64_t i)
{
	const struct profile_sym *t;
	int shared;

	if (rd->why)
		return;
	if (i >= names->nsyms) {
		if (!s->name || !s->print_name)
			fail(rd, "a symbol without a name");
		return; /* a cycle, named by the worker */
	}
	t = &names->syms[i];
	if (s->name || s->print_name || s->file || s->unit || s->addr != t->addr) {
		fail(rd, "a symbol that is not the symbol table's");
		return;
	}
	/* the table's strings are in its pool when it was read from memory */
	shared = names->pools[0] && profile_use_pool(p, names->pools[0]) == 0;
	s->name = shared ? t->name : strdup(t->name);
	s->print_name = shared ? t->print_name : strdup(t->print_name);
	s->file = shared || !t->file ? t->file : strdup(t->file);
	s->unit = shared || !t->unit ? t->unit : strdup(t->unit);
	if (!s->name || !s->print_name || (t->file && !s->file) || (t->unit && !s->unit))
		fail(rd, "out of memory");
}

/* The profile from rd (a stream or a block of memory); with names, the
 * symbols of names come without their strings (profile_read_mem_names). */
static int read_profile(struct reader rd, const char *what, const struct profile *names,
			struct profile **out)
{
	struct profile *p = profile_new();
	char magic[4];
	uint64_t n, i;

	*out = NULL;
	if (!p)
		return error("out of memory");
	if (!rd.fp) {
		/* every string of the block fits in a pool of its size */
		if (!(rd.pool = profile_pool_new((size_t)rd.size)) ||
		    profile_use_pool(p, rd.pool) < 0) {
			profile_pool_release(rd.pool);
			profile_free(p);
			return error("out of memory");
		}
		profile_pool_release(rd.pool); /* p's reference remains */
	}
	if (get(&rd, magic, 4) == 0 && memcmp(magic, PROFILE_MAGIC, 4) != 0)
		fail(&rd, "no profile magic");
	if (get_u64(&rd) != PROFILE_VERSION)
		fail(&rd, "another version of the profile format");
	p->binary = get_str(&rd);
	p->label = get_str(&rd);
	p->rank = (int)get_i64(&rd);
	p->hz = get_f64(&rd);
	p->input = (unsigned)get_u64(&rd);
	p->total_ticks = get_f64(&rd);
	p->print_ticks = get_f64(&rd);
	p->hist_lowpc = get_u64(&rd);
	p->hist_highpc = get_u64(&rd);
	n = get_u64(&rd);
	rd.where = "gmon file name";
	for (i = 0; i < n && !rd.why; i++) {
		char *g = get_str(&rd);

		rd.index = i;
		if (!rd.why && !g)
			fail(&rd, "a missing gmon file name");
		if (g && profile_add_gmon_file(p, g) < 0)
			fail(&rd, "out of memory");
		profile_str_free(p, g);
	}
	n = get_u64(&rd);
	if (!rd.fp && !rd.why && profile_reserve(p, believable(&rd, n, SYM_MIN_BYTES), 0) < 0)
		fail(&rd, "out of memory");
	rd.where = "symbol";
	for (i = 0; i < n && !rd.why; i++) {
		struct profile_sym s;

		rd.index = i;
		memset(&s, 0, sizeof(s));
		s.name = get_str(&rd);
		s.print_name = get_str(&rd);
		s.file = get_str(&rd);
		s.unit = get_str(&rd);
		s.line = (int)get_i64(&rd);
		s.addr = get_u64(&rd);
		s.end_addr = get_u64(&rd);
		s.flags = (unsigned)get_u64(&rd);
		s.cycle = (int)get_i64(&rd);
		s.cg_index = (int)get_i64(&rd);
		s.self_ticks = get_f64(&rd);
		s.ncalls = get_u64(&rd);
		s.self_calls = get_u64(&rd);
		s.prop_self = get_f64(&rd);
		s.prop_child = get_f64(&rd);
		s.child_ticks = get_f64(&rd);
		if (names)
			name_from(&rd, p, &s, names, i);
		else if (!rd.why && (!s.name || !s.print_name))
			fail(&rd, "a symbol without a name");
		if (rd.why || profile_add_sym(p, &s) < 0) {
			profile_str_free(p, s.name);
			profile_str_free(p, s.print_name);
			profile_str_free(p, s.file);
			profile_str_free(p, s.unit);
			fail(&rd, "out of memory");
		}
	}
	if (names && !rd.why && p->nsyms < names->nsyms)
		fail(&rd, "fewer symbols than the symbol table has");
	n = get_u64(&rd);
	if (!rd.fp && !rd.why && profile_reserve(p, 0, believable(&rd, n, ARC_BYTES)) < 0)
		fail(&rd, "out of memory");
	rd.where = "arc";
	for (i = 0; i < n && !rd.why; i++) {
		struct profile_arc a;
		uint64_t parent, child;

		rd.index = i;
		parent = get_u64(&rd);
		child = get_u64(&rd);
		a.parent = (uint32_t)parent;
		a.child = (uint32_t)child;
		a.count = get_u64(&rd);
		a.time = get_f64(&rd);
		a.child_time = get_f64(&rd);
		if (!rd.why && (parent >= p->nsyms || child >= p->nsyms))
			fail(&rd, "an arc to a symbol that is not in the profile");
		if (!rd.why && profile_add_arc(p, &a) < 0)
			fail(&rd, "out of memory");
	}
	rd.where = "trailer";
	if (get(&rd, magic, 4) == 0 && memcmp(magic, PROFILE_MAGIC, 4) != 0)
		fail(&rd, "no trailer (the writer did not finish)");
	if (!rd.fp && rd.offset < rd.size)
		fail(&rd, "bytes after the trailer");
	if (rd.why) {
		profile_free(p);
		if (strcmp(rd.why_where, "header") == 0 || strcmp(rd.why_where, "trailer") == 0)
			return error("cannot read the profile of %s from its loader: %s "
				     "(in the %s, at byte %llu)", what, rd.why, rd.why_where,
				     (unsigned long long)rd.why_offset);
		return error("cannot read the profile of %s from its loader: %s "
			     "(in %s %llu, at byte %llu)", what, rd.why, rd.why_where,
			     (unsigned long long)rd.why_index,
			     (unsigned long long)rd.why_offset);
	}
	if (profile_check_rate(p, what) < 0) {
		profile_free(p);
		return -1;
	}
	*out = p;
	return 0;
}

int profile_read(FILE *fp, const char *what, struct profile **out)
{
	return read_profile((struct reader){ .fp = fp, .where = "header" },
			    what, NULL, out);
}

int profile_read_mem(const void *buf, size_t len, const char *what, struct profile **out)
{
	return read_profile((struct reader){ .mem = buf, .size = len, .where = "header" },
			    what, NULL, out);
}

int profile_read_mem_names(const void *buf, size_t len, const char *what,
			   const struct profile *names, struct profile **out)
{
	return read_profile((struct reader){ .mem = buf, .size = len, .where = "header" },
			    what, names, out);
}
