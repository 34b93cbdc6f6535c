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

struct reader {
	FILE *fp;
	const char *what;
	int failed;
};

static int get(struct reader *rd, void *v, size_t n)
{
	if (rd->failed)
		return -1;
	if (fread_unlocked(v, 1, n, rd->fp) != n) {
		rd->failed = 1;
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

/* Strings are bounded so a corrupt length cannot make us allocate wildly. */
#define MAX_STR (1u << 20)

static char *get_str(struct reader *rd)
{
	uint64_t n = get_u64(rd);
	char *s;

	if (rd->failed || n == 0)
		return NULL;
	if (n > MAX_STR) {
		rd->failed = 1;
		return NULL;
	}
	s = malloc(n);
	if (!s || get(rd, s, n - 1) < 0) {
		free(s);
		rd->failed = 1;
		return NULL;
	}
	s[n - 1] = '\0';
	return s;
}

int profile_read(FILE *fp, const char *what, struct profile **out)
{
	struct reader rd = { fp, what, 0 };
	struct profile *p = profile_new();
	char magic[4];
	uint64_t n, i;

	*out = NULL;
	if (!p)
		return error("out of memory");
	if (get(&rd, magic, 4) < 0 || memcmp(magic, PROFILE_MAGIC, 4) != 0 ||
	    get_u64(&rd) != PROFILE_VERSION)
		goto bad;
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
	for (i = 0; i < n && !rd.failed; i++) {
		char *g = get_str(&rd);

		if (!g || profile_add_gmon_file(p, g) < 0)
			rd.failed = 1;
		free(g);
	}
	n = get_u64(&rd);
	for (i = 0; i < n && !rd.failed; i++) {
		struct profile_sym s;

		memset(&s, 0, sizeof(s));
		s.name = get_str(&rd);
		s.print_name = get_str(&rd);
		s.file = get_str(&rd);
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
		if (rd.failed || !s.name || !s.print_name ||
		    profile_add_sym(p, &s) < 0) {
			free(s.name);
			free(s.print_name);
			free(s.file);
			rd.failed = 1;
		}
	}
	n = get_u64(&rd);
	for (i = 0; i < n && !rd.failed; i++) {
		struct profile_arc a;

		a.parent = (uint32_t)get_u64(&rd);
		a.child = (uint32_t)get_u64(&rd);
		a.count = get_u64(&rd);
		a.time = get_f64(&rd);
		a.child_time = get_f64(&rd);
		if (rd.failed || a.parent >= p->nsyms || a.child >= p->nsyms ||
		    profile_add_arc(p, &a) < 0)
			rd.failed = 1;
	}
	if (get(&rd, magic, 4) < 0 || memcmp(magic, PROFILE_MAGIC, 4) != 0)
		goto bad;
	if (rd.failed)
		goto bad;
	*out = p;
	return 0;
bad:
	profile_free(p);
	return error("cannot read the profile of %s: incomplete or corrupt data from its loader", what);
}
