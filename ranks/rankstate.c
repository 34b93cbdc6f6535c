#define _GNU_SOURCE /* qsort_r */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ranks/rankstate.h"
#include "utils/array.h"
#include "utils/error.h"
#include "utils/banned.h"

/* ------------------------------------------------------------------------ */
/* Functions by key (name, file)                                            */

static uint64_t hash_key(const char *name, const char *file)
{
	uint64_t h = 1469598103934665603ULL;
	const unsigned char *s;

	for (s = (const unsigned char *)name; *s; s++)
		h = (h ^ *s) * 1099511628211ULL;
	h = (h ^ 0xff) * 1099511628211ULL;
	for (s = (const unsigned char *)(file ? file : ""); *s; s++)
		h = (h ^ *s) * 1099511628211ULL;
	return h;
}

static int same_key(const struct rankstate_fn *f, const char *name, const char *file)
{
	if (strcmp(f->name, name) != 0)
		return 0;
	if (!f->file || !file)
		return !f->file && !file;
	return !strcmp(f->file, file);
}

static size_t fn_hash_of(const void *ctx, size_t i)
{
	const struct rankstate_fn *fns = ctx;

	return hash_key(fns[i].name, fns[i].file);
}

static size_t *slot_of(const struct rankstate *st, const char *name, const char *file)
{
	size_t j;

	if (!st->nslots)
		return NULL;
	j = hash_key(name, file) & (st->nslots - 1);
	while (st->slots[j]) {
		if (same_key(&st->fns[st->slots[j] - 1], name, file))
			break;
		j = (j + 1) & (st->nslots - 1);
	}
	return &st->slots[j];
}

long rankstate_find(const struct rankstate *st, const char *name, const char *file)
{
	size_t *slot = slot_of(st, name, file);

	return slot && *slot ? (long)(*slot - 1) : -1;
}

static void fn_release(struct rankstate_fn *f)
{
	free(f->name);
	free(f->file);
	free(f->print_name);
	free(f->values);
}

/* The function for a key, created empty when missing; NULL when out of
 * memory.  The strings are copied. */
static struct rankstate_fn *fn_get(struct rankstate *st, const char *name, const char *file,
				   const char *print_name)
{
	size_t *slot;
	struct rankstate_fn *f;

	if (2 * (st->nfns + 1) > st->nslots &&
	    array_index_grow(&st->slots, &st->nslots, st->nfns, fn_hash_of, st->fns) < 0)
		return NULL;
	slot = slot_of(st, name, file);
	if (*slot)
		return &st->fns[*slot - 1];
	if (array_grow(&st->fns, &st->cap, st->nfns + 1, sizeof(*st->fns)) < 0)
		return NULL;
	f = &st->fns[st->nfns];
	memset(f, 0, sizeof(*f));
	f->name = strdup(name);
	f->file = file ? strdup(file) : NULL;
	f->print_name = strdup(print_name ? print_name : name);
	if (!f->name || (file && !f->file) || !f->print_name) {
		fn_release(f);
		return NULL;
	}
	f->self_min_rank = f->self_max_rank = f->calls_min_rank = f->calls_max_rank =
		f->first_rank = RANKSTATE_NONE;
	f->id = st->nfns;
	*slot = ++st->nfns;
	return f;
}

struct rankstate *rankstate_new(uint64_t nranks)
{
	struct rankstate *st = calloc(1, sizeof(*st));

	if (st)
		st->nranks = nranks;
	return st;
}

void rankstate_free(struct rankstate *st)
{
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nfns; i++)
		fn_release(&st->fns[i]);
	free(st->fns);
	free(st->slots);
	free(st);
}

/* ------------------------------------------------------------------------ */
/* Folding values in                                                        */

/* (v, r) is a better minimum than (*best, *best_rank): smaller, or equal on
 * a lower rank, so any order of folding gives one answer. */
static int better_min(uint64_t v, uint64_t r, uint64_t best, uint64_t best_rank)
{
	return best_rank == RANKSTATE_NONE || v < best || (v == best && r < best_rank);
}

static int better_max(uint64_t v, uint64_t r, uint64_t best, uint64_t best_rank)
{
	return best_rank == RANKSTATE_NONE || v > best || (v == best && r < best_rank);
}

static int add_value(struct rankstate_fn *f, uint64_t value, uint64_t count)
{
	uint32_t lo = 0, hi = f->nvalues;
	struct rankstate_value *v;

	if (f->values_overflow)
		return 0;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (f->values[mid].value < value)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < f->nvalues && f->values[lo].value == value) {
		f->values[lo].count += count;
		return 0;
	}
	if (f->nvalues == RANKSTATE_MAX_VALUES) {
		/* No typical count: whoever folds first, the union is too big. */
		f->values_overflow = 1;
		free(f->values);
		f->values = NULL;
		f->nvalues = 0;
		return 0;
	}
	v = realloc(f->values, (f->nvalues + 1) * sizeof(*v));
	if (!v)
		return -1;
	f->values = v;
	memmove(v + lo + 1, v + lo, (f->nvalues - lo) * sizeof(*v));
	v[lo].value = value;
	v[lo].count = count;
	f->nvalues++;
	return 0;
}

/* One rank's function entry in pass 1, also what the spill holds. */
struct entry {
	uint64_t fn;       /* index in the state that wrote the spill */
	uint64_t self;     /* fixed ticks */
	uint64_t calls;
	uint64_t share_time, share_calls;
};

struct spill_head {
	uint64_t rank, self, calls, n;
};

static int cmp_entry(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;

	return a->fn < b->fn ? -1 : a->fn > b->fn;
}

static uint64_t share_of(uint64_t part, uint64_t whole)
{
	return whole ? (uint64_t)(((unsigned __int128)part * RANKSTATE_SHARE_ONE) / whole) : 0;
}

/* The function of p's symbol i, from the memo when it knows it. */
static struct rankstate_fn *fn_of_sym(struct rankstate *st, const struct profile *p, size_t i,
				      struct rankstate_memo *memo)
{
	const struct profile_sym *s = &p->syms[i];
	struct rankstate_fn *f;

	if (memo && memo->table == p && i < memo->n && memo->fn[i])
		return &st->fns[memo->fn[i] - 1];
	f = fn_get(st, s->name, s->file, s->print_name);
	if (f)
		f->kind |= s->flags & PSYM_KINDS;
	if (!f || !memo)
		return f;
	if (memo->table != p) {
		free(memo->fn);
		memo->n = 0;
		memo->table = p;
		if (!(memo->fn = calloc(p->nsyms, sizeof(*memo->fn))))
			return f; /* no memo: only slower */
		memo->n = p->nsyms;
	}
	if (i < memo->n)
		memo->fn[i] = (size_t)(f - st->fns) + 1;
	return f;
}

void rankstate_memo_release(struct rankstate_memo *memo)
{
	free(memo->fn);
	memset(memo, 0, sizeof(*memo));
}

int rankstate_add(struct rankstate *st, const struct profile *p, uint64_t rank, FILE *spill)
{
	return rankstate_add_memo(st, p, rank, spill, NULL);
}

int rankstate_add_memo(struct rankstate *st, const struct profile *p, uint64_t rank, FILE *spill,
		       struct rankstate_memo *memo)
{
	const char *what = p->ngmon ? p->gmon_files[0] : "a rank profile";
	struct entry *e = NULL;
	size_t ne = 0, cap = 0, i, k;
	struct spill_head h = { rank, 0, 0, 0 };
	int ret = -1;

	if (rank >= st->nranks)
		return error("%s: rank index %llu out of range", what,
			     (unsigned long long)rank);
	if (profile_weight(p) > st->weight)
		st->weight = profile_weight(p);
	if (st->hz == 0)
		st->hz = p->hz;
	else if (p->hz != st->hz)
		return error("%s: sampling rate %g Hz differs from the other rank "
			     "files' %g Hz", what, p->hz, st->hz);
	for (i = 0; i < p->nsyms; i++) {
		const struct profile_sym *s = &p->syms[i];
		struct rankstate_fn *f;

		if ((s->flags & PSYM_CYCLE) || !(s->flags & PSYM_IN_FLAT))
			continue;
		if (s->self_ticks == 0 && s->ncalls == 0 && s->self_calls == 0)
			continue; /* keeps the table to what ran somewhere */
		f = fn_of_sym(st, p, i, memo);
		if (!f || array_grow(&e, &cap, ne + 1, sizeof(*e)) < 0)
			goto oom;
		e[ne].fn = (uint64_t)(f - st->fns);
		e[ne].self = (uint64_t)llround(s->self_ticks * (double)RANKSTATE_SELF_ONE);
		e[ne].calls = s->ncalls + s->self_calls;
		ne++;
	}
	/* Aliases (two symbols, one key) are one function. */
	if (ne)
		qsort(e, ne, sizeof(*e), cmp_entry);
	for (i = k = 0; i < ne; i++) {
		if (k && e[k - 1].fn == e[i].fn) {
			e[k - 1].self += e[i].self;
			e[k - 1].calls += e[i].calls;
		} else {
			e[k++] = e[i];
		}
	}
	ne = k;
	for (i = 0; i < ne; i++) {
		h.self += e[i].self;
		h.calls += e[i].calls;
	}
	h.n = ne;
	for (i = 0; i < ne; i++) {
		struct rankstate_fn *f = &st->fns[e[i].fn];

		e[i].share_time = share_of(e[i].self, h.self);
		e[i].share_calls = share_of(e[i].calls, h.calls);
		f->self_sum += e[i].self;
		f->self_sq += (unsigned __int128)e[i].self * e[i].self;
		if (better_min(e[i].self, rank, f->self_min, f->self_min_rank))
			f->self_min = e[i].self, f->self_min_rank = rank;
		if (better_max(e[i].self, rank, f->self_max, f->self_max_rank))
			f->self_max = e[i].self, f->self_max_rank = rank;
		f->calls_sum += e[i].calls;
		if (better_min(e[i].calls, rank, f->calls_min, f->calls_min_rank))
			f->calls_min = e[i].calls, f->calls_min_rank = rank;
		if (better_max(e[i].calls, rank, f->calls_max, f->calls_max_rank))
			f->calls_max = e[i].calls, f->calls_max_rank = rank;
		f->nran++;
		if (rank < f->first_rank)
			f->first_rank = rank;
		f->share_time += e[i].share_time;
		f->share_calls += e[i].share_calls;
		if (add_value(f, e[i].calls, 1) < 0)
			goto oom;
	}
	st->nread++;
	if (fwrite(&h, sizeof(h), 1, spill) != 1 ||
	    (ne && fwrite(e, sizeof(*e), ne, spill) != ne)) {
		error("cannot write the statistics' spill file: %s", strerror(errno));
		goto out;
	}
	ret = 0;
	goto out;
oom:
	error("out of memory");
out:
	free(e);
	return ret;
}

int rankstate_merge(struct rankstate *into, const struct rankstate *from)
{
	size_t i, j;

	if (into->nranks != from->nranks)
		return error("rank statistics of %llu and %llu ranks cannot be merged",
			     (unsigned long long)into->nranks,
			     (unsigned long long)from->nranks);
	if (into->hz == 0)
		into->hz = from->hz;
	else if (from->hz != 0 && from->hz != into->hz)
		return error("rank files with sampling rates %g Hz and %g Hz cannot be "
			     "compared", into->hz, from->hz);
	into->nread += from->nread;
	if (from->weight > into->weight)
		into->weight = from->weight;
	for (i = 0; i < from->nfns; i++) {
		const struct rankstate_fn *s = &from->fns[i];
		struct rankstate_fn *f = fn_get(into, s->name, s->file, s->print_name);

		if (!f)
			return error("out of memory");
		f->kind |= s->kind;
		f->self_sum += s->self_sum;
		f->self_sq += s->self_sq;
		if (s->self_min_rank != RANKSTATE_NONE &&
		    better_min(s->self_min, s->self_min_rank, f->self_min, f->self_min_rank))
			f->self_min = s->self_min, f->self_min_rank = s->self_min_rank;
		if (s->self_max_rank != RANKSTATE_NONE &&
		    better_max(s->self_max, s->self_max_rank, f->self_max, f->self_max_rank))
			f->self_max = s->self_max, f->self_max_rank = s->self_max_rank;
		f->calls_sum += s->calls_sum;
		if (s->calls_min_rank != RANKSTATE_NONE &&
		    better_min(s->calls_min, s->calls_min_rank, f->calls_min, f->calls_min_rank))
			f->calls_min = s->calls_min, f->calls_min_rank = s->calls_min_rank;
		if (s->calls_max_rank != RANKSTATE_NONE &&
		    better_max(s->calls_max, s->calls_max_rank, f->calls_max, f->calls_max_rank))
			f->calls_max = s->calls_max, f->calls_max_rank = s->calls_max_rank;
		f->nran += s->nran;
		if (s->first_rank < f->first_rank)
			f->first_rank = s->first_rank;
		f->share_time += s->share_time;
		f->share_calls += s->share_calls;
		if (s->values_overflow && !f->values_overflow) {
			f->values_overflow = 1;
			free(f->values);
			f->values = NULL;
			f->nvalues = 0;
		}
		for (j = 0; j < s->nvalues; j++)
			if (add_value(f, s->values[j].value, s->values[j].count) < 0)
				return error("out of memory");
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Serialisation: private to one egprof build (the processes of one mpirun
 * run one binary).  Little bookkeeping: u64 fields, strings as u64 length
 * (UINT64_MAX for NULL) and bytes. */

#define STATE_MAGIC 0x45475253u /* "EGRS" */
#define PASS_MAGIC 0x45475250u  /* "EGRP" */

struct buf {
	unsigned char *p;
	size_t len, cap;
	int oom;
};

static void put(struct buf *b, const void *data, size_t n)
{
	if (b->oom || array_grow(&b->p, &b->cap, b->len + n, 1) < 0) {
		b->oom = 1;
		return;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

static void put_u64(struct buf *b, uint64_t v)
{
	put(b, &v, sizeof(v));
}

static void put_str(struct buf *b, const char *s)
{
	put_u64(b, s ? strlen(s) : UINT64_MAX);
	if (s)
		put(b, s, strlen(s));
}

struct reader {
	const unsigned char *p;
	size_t len, at;
	int bad;
};

static int get(struct reader *r, void *data, size_t n)
{
	if (r->bad || n > r->len - r->at) {
		r->bad = 1;
		memset(data, 0, n);
		return -1;
	}
	memcpy(data, r->p + r->at, n);
	r->at += n;
	return 0;
}

static uint64_t get_u64(struct reader *r)
{
	uint64_t v = 0;

	get(r, &v, sizeof(v));
	return v;
}

/* A malloc'd string, NULL for a NULL one (or on error: r->bad). */
static char *get_str(struct reader *r)
{
	uint64_t n = get_u64(r);
	char *s;

	if (n == UINT64_MAX || r->bad)
		return NULL;
	if (n > r->len - r->at) {
		r->bad = 1;
		return NULL;
	}
	s = malloc(n + 1);
	if (!s) {
		r->bad = 1;
		return NULL;
	}
	get(r, s, n);
	s[n] = 0;
	return s;
}

static uint64_t double_bits(double d)
{
	uint64_t v;

	memcpy(&v, &d, sizeof(v));
	return v;
}

static double bits_double(uint64_t v)
{
	double d;

	memcpy(&d, &v, sizeof(d));
	return d;
}

int rankstate_pack(const struct rankstate *st, unsigned char **out, size_t *len)
{
	struct buf b = { NULL, 0, 0, 0 };
	size_t i, j;

	put_u64(&b, STATE_MAGIC);
	put_u64(&b, st->nranks);
	put_u64(&b, st->nread);
	put_u64(&b, double_bits(st->hz));
	put_u64(&b, double_bits(st->weight));
	put_u64(&b, st->nfns);
	for (i = 0; i < st->nfns; i++) {
		const struct rankstate_fn *f = &st->fns[i];
		uint64_t v[] = { f->self_sum, f->self_min, f->self_max, f->self_min_rank,
				 f->self_max_rank, (uint64_t)(f->self_sq >> 64),
				 (uint64_t)f->self_sq, f->calls_sum, f->calls_min,
				 f->calls_max, f->calls_min_rank, f->calls_max_rank,
				 f->nran, f->first_rank, f->share_time, f->share_calls,
				 (uint64_t)f->values_overflow, f->nvalues, f->kind };

		put_str(&b, f->name);
		put_str(&b, f->file);
		put_str(&b, f->print_name);
		put(&b, v, sizeof(v));
		for (j = 0; j < f->nvalues; j++) {
			put_u64(&b, f->values[j].value);
			put_u64(&b, f->values[j].count);
		}
	}
	if (b.oom) {
		free(b.p);
		return error("out of memory");
	}
	*out = b.p;
	*len = b.len;
	return 0;
}

int rankstate_unpack(const unsigned char *buf, size_t len, const char *what,
		     struct rankstate **out)
{
	struct reader r = { buf, len, 0, 0 };
	struct rankstate *st;
	uint64_t nfns, i, j;

	*out = NULL;
	if (get_u64(&r) != STATE_MAGIC)
		return error("%s: not rank statistics", what);
	st = rankstate_new(get_u64(&r));
	if (!st)
		return error("out of memory");
	st->nread = get_u64(&r);
	st->hz = bits_double(get_u64(&r));
	st->weight = bits_double(get_u64(&r));
	nfns = get_u64(&r);
	for (i = 0; i < nfns && !r.bad; i++) {
		char *name = get_str(&r), *file = get_str(&r), *pname = get_str(&r);
		uint64_t v[19];
		struct rankstate_fn *f = NULL;

		get(&r, v, sizeof(v));
		if (!r.bad && name && (f = fn_get(st, name, file, pname))) {
			f->self_sum = v[0];
			f->self_min = v[1];
			f->self_max = v[2];
			f->self_min_rank = v[3];
			f->self_max_rank = v[4];
			f->self_sq = ((unsigned __int128)v[5] << 64) | v[6];
			f->calls_sum = v[7];
			f->calls_min = v[8];
			f->calls_max = v[9];
			f->calls_min_rank = v[10];
			f->calls_max_rank = v[11];
			f->nran = v[12];
			f->first_rank = v[13];
			f->share_time = v[14];
			f->share_calls = v[15];
			f->values_overflow = v[16] != 0;
			f->kind = (unsigned)v[18] & PSYM_KINDS;
			if (v[17] > RANKSTATE_MAX_VALUES)
				r.bad = 1;
			for (j = 0; j < v[17] && !r.bad; j++) {
				uint64_t value = get_u64(&r), count = get_u64(&r);

				if (!r.bad && add_value(f, value, count) < 0)
					r.bad = 1;
			}
		} else {
			r.bad = 1;
		}
		free(name);
		free(file);
		free(pname);
	}
	if (r.bad || r.at != len) {
		rankstate_free(st);
		return error("%s: truncated or corrupt rank statistics", what);
	}
	*out = st;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Finishing: one numbering of functions for every process                  */

static int cmp_key(const void *pa, const void *pb)
{
	const struct rankstate_fn *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	if (!a->file || !b->file)
		return !a->file - !b->file;
	return strcmp(a->file, b->file);
}

int rankstate_finish(struct rankstate *st)
{
	size_t i, j;

	if (!st->nfns)
		return 0;
	qsort(st->fns, st->nfns, sizeof(*st->fns), cmp_key);
	memset(st->slots, 0, st->nslots * sizeof(*st->slots));
	for (i = 0; i < st->nfns; i++)
		*slot_of(st, st->fns[i].name, st->fns[i].file) = i + 1;
	for (i = 0; i < st->nfns; i++) {
		struct rankstate_fn *f = &st->fns[i];
		/* the upper median, as sorting all the ranks' calls gives it: the
		 * (n/2)-th value, counting the ranks it did not run on as 0 */
		uint64_t want = st->nranks / 2, seen = st->nranks - f->nran;

		f->median_known = !f->values_overflow;
		f->median_calls = 0;
		if (!f->median_known || want < seen)
			continue;
		for (j = 0; j < f->nvalues; j++) {
			seen += f->values[j].count;
			if (want < seen) {
				f->median_calls = f->values[j].value;
				break;
			}
		}
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Pass 2                                                                   */

/* Heat map rows first: largest max self time (the report's cost order),
 * then most calls, then key order. */
static int cmp_heat(const void *pa, const void *pb, void *ctx)
{
	const struct rankstate *st = ctx;
	const struct rankstate_fn *a = &st->fns[*(const uint64_t *)pa];
	const struct rankstate_fn *b = &st->fns[*(const uint64_t *)pb];

	if (a->self_max != b->self_max)
		return a->self_max > b->self_max ? -1 : 1;
	if (a->calls_max != b->calls_max)
		return a->calls_max > b->calls_max ? -1 : 1;
	return *(const uint64_t *)pa < *(const uint64_t *)pb ? -1 : 1;
}

int rankpass_init(struct rankpass *pass, const struct rankstate *global)
{
	size_t i, n = 0;
	uint64_t *idx;

	memset(pass, 0, sizeof(*pass));
	pass->nfns = global->nfns;
	pass->first_absent = malloc((global->nfns ? global->nfns : 1) * sizeof(uint64_t));
	idx = malloc((global->nfns ? global->nfns : 1) * sizeof(*idx));
	if (!pass->first_absent || !idx) {
		free(idx);
		return error("out of memory");
	}
	for (i = 0; i < global->nfns; i++) {
		pass->first_absent[i] = RANKSTATE_NONE;
		if (global->fns[i].self_max > 0)
			idx[n++] = i;
	}
	if (n)
		qsort_r(idx, n, sizeof(*idx), cmp_heat, (void *)global);
	pass->heat_rows = n < RANKSTATE_HEAT_ROWS ? n : RANKSTATE_HEAT_ROWS;
	memcpy(pass->heat_fn, idx, pass->heat_rows * sizeof(*idx));
	free(idx);
	pass->heat_bins = global->nranks < RANKSTATE_HEAT_BINS ? global->nranks
							      : RANKSTATE_HEAT_BINS;
	pass->heat = calloc(pass->heat_rows * pass->heat_bins + 1, sizeof(*pass->heat));
	if (!pass->heat)
		return error("out of memory");
	return 0;
}

void rankpass_release(struct rankpass *pass)
{
	free(pass->heat);
	free(pass->first_absent);
	free(pass->ranks);
	memset(pass, 0, sizeof(*pass));
}

int rankstate_pass2(const struct rankstate *global, const struct rankstate *local,
		    FILE *spill, struct rankpass *pass)
{
	size_t nf = global->nfns, i;
	long *map = malloc((local->nfns ? local->nfns : 1) * sizeof(*map));
	uint64_t *stamp = malloc((nf ? nf : 1) * sizeof(*stamp));
	struct entry *here = malloc((nf ? nf : 1) * sizeof(*here));
	struct entry *e = NULL;
	size_t ecap = 0;
	double n = (double)global->nranks, one = (double)RANKSTATE_SHARE_ONE;
	struct spill_head h;
	int ret = -1;

	if (!map || !stamp || !here) {
		error("out of memory");
		goto out;
	}
	for (i = 0; i < local->nfns; i++) {
		long g = rankstate_find(global, local->fns[i].name, local->fns[i].file);

		map[local->fns[i].id] = g;
		if (g < 0) {
			error("rank statistics: function '%s' missing from the merged state",
			      local->fns[i].name);
			goto out;
		}
	}
	for (i = 0; i < nf; i++)
		stamp[i] = RANKSTATE_NONE;
	rewind(spill);
	while (fread(&h, sizeof(h), 1, spill) == 1) {
		struct rankpass_rank *k;

		if (h.n > local->nfns || array_grow(&e, &ecap, h.n ? h.n : 1, sizeof(*e)) < 0 ||
		    (h.n && fread(e, sizeof(*e), h.n, spill) != h.n)) {
			error("cannot read back the statistics' spill file");
			goto out;
		}
		if (array_grow(&pass->ranks, &pass->cap, pass->nranks + 1,
			       sizeof(*pass->ranks)) < 0) {
			error("out of memory");
			goto out;
		}
		k = &pass->ranks[pass->nranks++];
		memset(k, 0, sizeof(*k));
		k->rank = h.rank;
		k->self = h.self;
		k->calls = h.calls;
		for (i = 0; i < h.n; i++) {
			size_t g = (size_t)map[e[i].fn];

			stamp[g] = h.rank;
			here[g] = e[i];
		}
		/* Every function in one order: the same sums in every driver. */
		for (i = 0; i < nf; i++) {
			const struct rankstate_fn *f = &global->fns[i];
			double mt = (double)f->share_time / one / n;
			double mc = (double)f->share_calls / one / n;
			uint64_t calls = 0;

			if (stamp[i] == h.rank) {
				k->time_dist += 0.5 * fabs((double)here[i].share_time / one - mt);
				k->calls_dist += 0.5 * fabs((double)here[i].share_calls / one - mc);
				k->nran++;
				k->nunique += 2 * f->nran < global->nranks;
				calls = here[i].calls;
			} else {
				k->time_dist += 0.5 * mt;
				k->calls_dist += 0.5 * mc;
				if (h.rank < pass->first_absent[i])
					pass->first_absent[i] = h.rank;
			}
			k->ncalls_differ += f->median_known && calls != f->median_calls;
		}
		for (i = 0; i < pass->heat_rows; i++) {
			uint64_t g = pass->heat_fn[i], v = stamp[g] == h.rank ? here[g].self : 0;
			uint64_t *cell = &pass->heat[i * pass->heat_bins +
				rankpass_bin(h.rank, global->nranks, pass->heat_bins)];

			if (v > *cell)
				*cell = v;
		}
	}
	if (ferror(spill)) {
		error("cannot read back the statistics' spill file");
		goto out;
	}
	ret = 0;
out:
	free(map);
	free(stamp);
	free(here);
	free(e);
	return ret;
}

int rankpass_merge(struct rankpass *into, const struct rankpass *from)
{
	size_t i;

	if (into->nfns != from->nfns)
		return error("rank statistics passes of %llu and %llu functions cannot be merged",
			     (unsigned long long)into->nfns, (unsigned long long)from->nfns);
	if (into->heat_rows != from->heat_rows || into->heat_bins != from->heat_bins ||
	    memcmp(into->heat_fn, from->heat_fn, into->heat_rows * sizeof(uint64_t)) != 0)
		return error("rank statistics passes with different heat maps cannot be merged");
	for (i = 0; i < into->nfns; i++)
		if (from->first_absent[i] < into->first_absent[i])
			into->first_absent[i] = from->first_absent[i];
	for (i = 0; i < into->heat_rows * into->heat_bins; i++)
		if (from->heat[i] > into->heat[i])
			into->heat[i] = from->heat[i];
	if (array_grow(&into->ranks, &into->cap, into->nranks + from->nranks + 1,
		       sizeof(*into->ranks)) < 0)
		return error("out of memory");
	memcpy(into->ranks + into->nranks, from->ranks, from->nranks * sizeof(*from->ranks));
	into->nranks += from->nranks;
	return 0;
}

int rankpass_pack(const struct rankpass *pass, unsigned char **out, size_t *len)
{
	struct buf b = { NULL, 0, 0, 0 };
	size_t i;

	put_u64(&b, PASS_MAGIC);
	put_u64(&b, pass->nfns);
	put_u64(&b, pass->nranks);
	put(&b, pass->first_absent, pass->nfns * sizeof(uint64_t));
	put_u64(&b, pass->heat_rows);
	put_u64(&b, pass->heat_bins);
	put(&b, pass->heat_fn, pass->heat_rows * sizeof(uint64_t));
	put(&b, pass->heat, pass->heat_rows * pass->heat_bins * sizeof(uint64_t));
	for (i = 0; i < pass->nranks; i++) {
		const struct rankpass_rank *k = &pass->ranks[i];
		uint64_t v[] = { k->rank, k->self, k->calls, double_bits(k->time_dist),
				 double_bits(k->calls_dist), k->nran, k->nunique,
				 k->ncalls_differ };

		put(&b, v, sizeof(v));
	}
	if (b.oom) {
		free(b.p);
		return error("out of memory");
	}
	*out = b.p;
	*len = b.len;
	return 0;
}

int rankpass_unpack(const unsigned char *buf, size_t len, const char *what,
		    struct rankpass *out)
{
	struct reader r = { buf, len, 0, 0 };
	uint64_t n, i;

	memset(out, 0, sizeof(*out));
	if (get_u64(&r) != PASS_MAGIC)
		return error("%s: not a rank statistics pass", what);
	out->nfns = get_u64(&r);
	n = get_u64(&r);
	if (r.bad || out->nfns > len / 8 || n > len / 64)
		return error("%s: truncated or corrupt rank statistics pass", what);
	out->first_absent = malloc((out->nfns ? out->nfns : 1) * sizeof(uint64_t));
	out->ranks = malloc((n ? n : 1) * sizeof(*out->ranks));
	if (!out->first_absent || !out->ranks) {
		rankpass_release(out);
		return error("out of memory");
	}
	out->cap = n ? n : 1;
	get(&r, out->first_absent, out->nfns * sizeof(uint64_t));
	out->heat_rows = get_u64(&r);
	out->heat_bins = get_u64(&r);
	if (r.bad || out->heat_rows > RANKSTATE_HEAT_ROWS ||
	    out->heat_bins > RANKSTATE_HEAT_BINS) {
		rankpass_release(out);
		return error("%s: truncated or corrupt rank statistics pass", what);
	}
	get(&r, out->heat_fn, out->heat_rows * sizeof(uint64_t));
	out->heat = calloc(out->heat_rows * out->heat_bins + 1, sizeof(uint64_t));
	if (!out->heat) {
		rankpass_release(out);
		return error("out of memory");
	}
	get(&r, out->heat, out->heat_rows * out->heat_bins * sizeof(uint64_t));
	for (i = 0; i < n && !r.bad; i++) {
		struct rankpass_rank *k = &out->ranks[i];
		uint64_t v[8];

		get(&r, v, sizeof(v));
		k->rank = v[0];
		k->self = v[1];
		k->calls = v[2];
		k->time_dist = bits_double(v[3]);
		k->calls_dist = bits_double(v[4]);
		k->nran = v[5];
		k->nunique = v[6];
		k->ncalls_differ = v[7];
	}
	out->nranks = n;
	if (r.bad || r.at != len) {
		rankpass_release(out);
		return error("%s: truncated or corrupt rank statistics pass", what);
	}
	return 0;
}

/* ------------------------------------------------------------------------ */
/* The report's statistics                                                  */

static double seconds(const struct rankstate *st, uint64_t fixed)
{
	return st->hz > 0 ? (double)fixed / (double)RANKSTATE_SELF_ONE / st->hz : 0;
}

static int cmp_fn(const void *pa, const void *pb)
{
	const struct rankstats_fn *a = pa, *b = pb;
	int c;

	if (a->cost != b->cost)
		return a->cost > b->cost ? -1 : 1;
	if (a->calls_max != b->calls_max)
		return a->calls_max > b->calls_max ? -1 : 1;
	c = strcmp(a->name, b->name);
	if (c || !a->file || !b->file)
		return c ? c : !a->file - !b->file;
	return strcmp(a->file, b->file);
}

static int cmp_outlier(const void *pa, const void *pb, void *ctx)
{
	const struct rankstats *rs = ctx;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	double da = rs->ranks[a].time_dist + rs->ranks[a].calls_dist;
	double db = rs->ranks[b].time_dist + rs->ranks[b].calls_dist;

	if (da != db)
		return da > db ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Min and max over every rank: the ranks it did not run on hold 0. */
static void with_absent(uint64_t *min, uint64_t *min_rank, uint64_t *max, uint64_t *max_rank,
			uint64_t absent)
{
	if (absent == RANKSTATE_NONE)
		return;
	if (better_min(0, absent, *min, *min_rank))
		*min = 0, *min_rank = absent;
	if (better_max(0, absent, *max, *max_rank))
		*max = 0, *max_rank = absent;
}

static void fn_stats(struct rankstats_fn *o, const struct rankstate *st,
		     const struct rankstate_fn *f, uint64_t absent)
{
	uint64_t smin = f->self_min, smin_r = f->self_min_rank, smax = f->self_max,
		 smax_r = f->self_max_rank, cmin = f->calls_min, cmin_r = f->calls_min_rank,
		 cmax = f->calls_max, cmax_r = f->calls_max_rank;
	long double n = (long double)st->nranks, one = (long double)RANKSTATE_SELF_ONE;
	long double sum = (long double)f->self_sum / one, sq = (long double)f->self_sq / one / one;
	long double var = n > 1 ? (sq - sum * sum / n) / (n - 1) : 0;

	with_absent(&smin, &smin_r, &smax, &smax_r, absent);
	with_absent(&cmin, &cmin_r, &cmax, &cmax_r, absent);
	o->calls_min = cmin;
	o->calls_max = cmax;
	o->calls_min_rank = (size_t)cmin_r;
	o->calls_max_rank = (size_t)cmax_r;
	o->calls_total = f->calls_sum;
	o->self_min = seconds(st, smin);
	o->self_max = seconds(st, smax);
	o->self_min_rank = (size_t)smin_r;
	o->self_max_rank = (size_t)smax_r;
	o->self_total = seconds(st, f->self_sum);
	o->self_mean = o->self_total / (double)st->nranks;
	o->self_sd = var > 0 && st->hz > 0 ? (double)sqrtl(var) / st->hz : 0;
	o->imbalance = o->self_mean > 0 ? o->self_max / o->self_mean : 0;
	o->cost = (double)st->nranks * o->self_max;
	o->max_ticks = (double)smax / (double)RANKSTATE_SELF_ONE;
	o->mean_ticks = (double)f->self_sum / (double)RANKSTATE_SELF_ONE / (double)st->nranks;
	o->nran = (size_t)f->nran;
	o->only_rank = (size_t)f->first_rank;
}

int rankstate_report(const struct rankstate *st, const struct rankpass *pass,
		     char *const *tags, struct rankstats **out)
{
	struct rankstats *rs;
	char *seen = NULL;
	uint64_t total = 0;
	size_t n = (size_t)st->nranks, i;

	*out = NULL;
	if (n == 0)
		return error("no rank profiles to compare");
	if (pass->nranks != n || pass->nfns != st->nfns)
		return error("rank statistics: %zu of %zu ranks in the second pass",
			     pass->nranks, n);
	rs = calloc(1, sizeof(*rs));
	if (!rs)
		return error("out of memory");
	rs->nranks = n;
	rs->ranks = calloc(n, sizeof(*rs->ranks));
	rs->outliers = calloc(n, sizeof(*rs->outliers));
	rs->fns = calloc(st->nfns ? st->nfns : 1, sizeof(*rs->fns));
	if (!rs->ranks || !rs->outliers || !rs->fns)
		goto oom;
	rs->hz = st->hz;
	rs->weight = st->weight > 1 ? st->weight : 1;
	for (i = 0; i < n; i++) {
		if (!(rs->ranks[i].tag = strdup(tags[i])))
			goto oom;
		rs->ranks[i].lib_s = rs->ranks[i].instr_s = rs->ranks[i].sampled_s = -1;
	}
	if (!(seen = calloc(n, 1)))
		goto oom;
	for (i = 0; i < n; i++) {
		const struct rankpass_rank *k = &pass->ranks[i];
		struct rankstats_rank *r;

		if (k->rank >= n || seen[k->rank]++) {
			free(seen);
			rankstats_free(rs);
			return error("rank statistics: rank %llu twice or out of range",
				     (unsigned long long)k->rank);
		}
		r = &rs->ranks[k->rank];
		r->self = seconds(st, k->self);
		r->calls = k->calls;
		r->time_dist = k->time_dist;
		r->calls_dist = k->calls_dist;
		r->nran = (size_t)k->nran;
		r->nunique = (size_t)k->nunique;
		r->ncalls_differ = (size_t)k->ncalls_differ;
	}
	for (i = 0; i < st->nfns; i++) {
		struct rankstats_fn *o = &rs->fns[rs->nfns];

		fn_stats(o, st, &st->fns[i], pass->first_absent[i]);
		o->kind = st->fns[i].kind;
		o->name = strdup(st->fns[i].print_name);
		o->file = st->fns[i].file ? strdup(st->fns[i].file) : NULL;
		rs->nfns++;
		if (!o->name || (st->fns[i].file && !o->file))
			goto oom;
		total += st->fns[i].self_sum;
	}
	rs->total_self = seconds(st, total);
	for (i = 0; i < n; i++)
		rs->outliers[i] = i;
	qsort_r(rs->outliers, n, sizeof(*rs->outliers), cmp_outlier, rs);
	if (rs->nfns)
		qsort(rs->fns, rs->nfns, sizeof(*rs->fns), cmp_fn);
	free(seen);
	*out = rs;
	return 0;
oom:
	free(seen);
	rankstats_free(rs);
	return error("out of memory");
}
