#define _GNU_SOURCE /* fwrite_unlocked, fread_unlocked */
#include <stdlib.h>
#include <string.h>
#include "diff/profile.h"
#include "utils/error.h"
#include "utils/banned.h"

#define PROFILE_MAGIC "EGPM"
#define PROFILE_VERSION 2u

/* Writers: fixed-width native-endian fields (the reader is the same binary).
 * A field at a time, so the stream's lock per call would dominate (tens of
 * thousands of fields per profile, a profile per rank file); the streams
 * are private to one thread. */
static int put(FILE *fp, const void *v, size_t n)
{
	return fwrite_unlocked(v, 1, n, fp) == n ? 0 : -1;
}

static int put_u64(FILE *fp, uint64_t v) { return put(fp, &v, sizeof(v)); }
static int put_i64(FILE *fp, int64_t v) { return put(fp, &v, sizeof(v)); }
static int put_f64(FILE *fp, double v) { return put(fp, &v, sizeof(v)); }

static int put_str(FILE *fp, const char *s)
{
	uint64_t n = s ? strlen(s) + 1 : 0; /* 0 encodes NULL */

	if (put_u64(fp, n) < 0)
		return -1;
	return n ? put(fp, s, n - 1) : 0;
}

int profile_write(FILE *fp, const struct profile *p)
{
	size_t i;
	int r = 0;

	r |= put(fp, PROFILE_MAGIC, 4);
	r |= put_u64(fp, PROFILE_VERSION);
	r |= put_str(fp, p->binary);
	r |= put_str(fp, p->label);
	r |= put_i64(fp, p->rank);
	r |= put_f64(fp, p->hz);
	r |= put_u64(fp, p->input);
	r |= put_f64(fp, p->total_ticks);
	r |= put_f64(fp, p->print_ticks);
	r |= put_u64(fp, p->hist_lowpc);
	r |= put_u64(fp, p->hist_highpc);
	r |= put_u64(fp, p->ngmon);
	for (i = 0; i < p->ngmon; i++)
		r |= put_str(fp, p->gmon_files[i]);
	r |= put_u64(fp, p->nsyms);
	for (i = 0; i < p->nsyms && !r; i++) {
		const struct profile_sym *s = &p->syms[i];

		r |= put_str(fp, s->name);
		r |= put_str(fp, s->print_name);
		r |= put_str(fp, s->file);
		r |= put_str(fp, s->unit);
		r |= put_i64(fp, s->line);
		r |= put_u64(fp, s->addr);
		r |= put_u64(fp, s->end_addr);
		r |= put_u64(fp, s->flags);
		r |= put_i64(fp, s->cycle);
		r |= put_i64(fp, s->cg_index);
		r |= put_f64(fp, s->self_ticks);
		r |= put_u64(fp, s->ncalls);
		r |= put_u64(fp, s->self_calls);
		r |= put_f64(fp, s->prop_self);
		r |= put_f64(fp, s->prop_child);
		r |= put_f64(fp, s->child_ticks);
	}
	r |= put_u64(fp, p->narcs);
	for (i = 0; i < p->narcs && !r; i++) {
		const struct profile_arc *a = &p->arcs[i];

		r |= put_u64(fp, a->parent);
		r |= put_u64(fp, a->child);
		r |= put_u64(fp, a->count);
		r |= put_f64(fp, a->time);
		r |= put_f64(fp, a->child_time);
	}
	r |= put(fp, PROFILE_MAGIC, 4); /* trailer: the writer finished */
	if (fflush(fp) != 0)
		r = -1;
	return r ? -1 : 0;
}

/*
 * The reader believes no length: a string is read in chunks as its bytes
 * arrive, so a corrupt length costs at most the bytes really there and a
 * valid one (a 2 MiB C++ symbol name) has no cap to exceed.  The first
 * problem is kept, with the byte offset where it was found, for the one
 * message profile_read() prints.
 */
struct reader {
	FILE *fp;
	uint64_t offset;     /* bytes consumed */
	const char *why;     /* the first problem, or NULL */
	uint64_t why_offset;
	const char *where;   /* the part being read */
	uint64_t index;      /* which one of that part */
};

static void fail(struct reader *rd, const char *why)
{
	if (!rd->why) {
		rd->why = why;
		rd->why_offset = rd->offset;
	}
}

static int get(struct reader *rd, void *v, size_t n)
{
	size_t got;

	if (rd->why)
		return -1;
	got = fread_unlocked(v, 1, n, rd->fp);
	rd->offset += got;
	if (got != n) {
		fail(rd, ferror(rd->fp) ? "read error" : "the data ends early");
		return -1;
	}
	return 0;
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

static char *get_str(struct reader *rd)
{
	uint64_t n = get_u64(rd), have = 0;
	size_t cap = 0;
	char *s = NULL;

	if (rd->why || n == 0)
		return NULL;
	n--; /* the length counts the terminating NUL, which is not sent */
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

int profile_read(FILE *fp, const char *what, struct profile **out)
{
	struct reader rd = { fp, 0, NULL, 0, "header", 0 };
	struct profile *p = profile_new();
	char magic[4];
	uint64_t n, i;

	*out = NULL;
	if (!p)
		return error("out of memory");
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
		free(g);
	}
	n = get_u64(&rd);
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
		if (!rd.why && (!s.name || !s.print_name))
			fail(&rd, "a symbol without a name");
		if (rd.why || profile_add_sym(p, &s) < 0) {
			free(s.name);
			free(s.print_name);
			free(s.file);
			free(s.unit);
			fail(&rd, "out of memory");
		}
	}
	n = get_u64(&rd);
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
	if (rd.why) {
		profile_free(p);
		if (strcmp(rd.where, "header") == 0 || strcmp(rd.where, "trailer") == 0)
			return error("cannot read the profile of %s from its loader: %s "
				     "(in the %s, at byte %llu)", what, rd.why, rd.where,
				     (unsigned long long)rd.why_offset);
		return error("cannot read the profile of %s from its loader: %s "
			     "(in %s %llu, at byte %llu)", what, rd.why, rd.where,
			     (unsigned long long)rd.index,
			     (unsigned long long)rd.why_offset);
	}
	if (profile_check_rate(p, what) < 0) {
		profile_free(p);
		return -1;
	}
	*out = p;
	return 0;
}
