/*
 * lines.c - a run's time by source line, and two runs line by line
 * (lines.h).
 */
#include "model/lines.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diff/diff.h"		/* DIFF_JITTER_PRIOR */
#include "diff/profile.h"
#include "diff/signif.h"
#include "format/sidecar.h"
#include "gprof-ext/srcmap.h"
#include "gprof-ext/upstream.h"	/* upstream_demangle */
#include "model/callpath_model.h"	/* struct callpath_inline */
#include "model/leaves.h"
#include "utils/error.h"
#include "utils/infile.h"
#include "utils/names.h"
#include "utils/satmath.h"
#include "utils/banned.h"

#define NO_FUNC UINT32_MAX
#define INLINE_MAX 16

/* ------------------------------------------------------------------ */
/* Interned strings (a table of pointers, found by hash)               */

struct interner {
	char **strs;
	size_t n, alloc;
	uint32_t *slot;		/* index + 1, 0 free */
	size_t mask;
};

static size_t str_hash(const char *s)
{
	size_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

static int interner_grow(struct interner *in)
{
	size_t cap = in->mask ? 2 * (in->mask + 1) : 64;
	uint32_t *slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -1;
	for (size_t i = 0; i < in->n; i++) {
		size_t h = str_hash(in->strs[i]) & (cap - 1);

		while (slot[h])
			h = (h + 1) & (cap - 1);
		slot[h] = (uint32_t)(i + 1);
	}
	free(in->slot);
	in->slot = slot;
	in->mask = cap - 1;
	return 0;
}

/* The index of s, added when missing; NO_FUNC when out of memory. */
static uint32_t intern(struct interner *in, const char *s)
{
	size_t h;

	if ((in->n + 1) * 2 > in->mask && interner_grow(in) < 0)
		return NO_FUNC;
	for (h = str_hash(s) & in->mask; in->slot[h]; h = (h + 1) & in->mask)
		if (!strcmp(in->strs[in->slot[h] - 1], s))
			return in->slot[h] - 1;
	if (in->n == in->alloc) {
		size_t cap = in->alloc ? 2 * in->alloc : 64;
		char **p = realloc(in->strs, cap * sizeof(*p));

		if (!p)
			return NO_FUNC;
		in->strs = p;
		in->alloc = cap;
	}
	if (!(in->strs[in->n] = strdup(s)))
		return NO_FUNC;
	in->slot[h] = (uint32_t)(in->n + 1);
	return (uint32_t)in->n++;
}

static void interner_release(struct interner *in, int keep_strings)
{
	if (!keep_strings) {
		for (size_t i = 0; i < in->n; i++)
			free(in->strs[i]);
		free(in->strs);
	}
	free(in->slot);
	memset(in, 0, sizeof(*in));
}

/* ------------------------------------------------------------------ */
/* The sampled program counters                                        */

struct pc_entry {
	uint32_t obj;		/* 0: the program; else an object's path + 1 */
	uint32_t func;		/* a library's: its function's name; NO_FUNC */
	uint64_t addr;		/* link-time (file) address */
	uint64_t samples;
};

struct line_pcs {
	struct pc_entry *e;
	size_t n, alloc;
	size_t *slot;		/* index + 1, 0 free */
	size_t mask;
	struct interner names;	/* objects' paths and libraries' functions */
	uint64_t unplaced;
};

struct line_pcs *line_pcs_new(void)
{
	return calloc(1, sizeof(struct line_pcs));
}

void line_pcs_free(struct line_pcs *pcs)
{
	if (!pcs)
		return;
	free(pcs->e);
	free(pcs->slot);
	interner_release(&pcs->names, 0);
	free(pcs);
}

size_t line_pcs_size(const struct line_pcs *pcs)
{
	return pcs ? pcs->n : 0;
}

static size_t pc_hash(uint32_t obj, uint64_t addr)
{
	uint64_t h = (addr ^ ((uint64_t)obj << 47)) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h ^ (h >> 29));
}

static int pcs_grow(struct line_pcs *p)
{
	size_t cap = p->mask ? 2 * (p->mask + 1) : 256;
	size_t *slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -1;
	for (size_t i = 0; i < p->n; i++) {
		size_t h = pc_hash(p->e[i].obj, p->e[i].addr) & (cap - 1);

		while (slot[h])
			h = (h + 1) & (cap - 1);
		slot[h] = i + 1;
	}
	free(p->slot);
	p->slot = slot;
	p->mask = cap - 1;
	return 0;
}

static int pcs_add(struct line_pcs *p, uint32_t obj, uint32_t func, uint64_t addr,
		   uint64_t samples)
{
	size_t h;

	if ((p->n + 1) * 2 > p->mask && pcs_grow(p) < 0)
		return -1;
	for (h = pc_hash(obj, addr) & p->mask; p->slot[h]; h = (h + 1) & p->mask) {
		struct pc_entry *e = &p->e[p->slot[h] - 1];

		if (e->obj == obj && e->addr == addr) {
			e->samples = sat_add_u64(e->samples, samples);
			return 0;
		}
	}
	if (p->n == p->alloc) {
		size_t cap = p->alloc ? 2 * p->alloc : 256;
		struct pc_entry *e = realloc(p->e, cap * sizeof(*e));

		if (!e)
			return -1;
		p->e = e;
		p->alloc = cap;
	}
	p->e[p->n] = (struct pc_entry){ obj, func, addr, samples };
	p->slot[h] = ++p->n;
	return 0;
}

int line_pcs_add(struct line_pcs *pcs, const struct sidecar *sc)
{
	struct leaf_namer *ln = leaf_namer_new(sc, upstream_demangle);
	int ret = -1;

	if (!ln)
		return error("out of memory");
	for (uint32_t i = 0; i < sc->nr_nodes; i++) {
		const struct sidecar_node *n = &sc->nodes[i];
		uint64_t pc = n->callee, samples = n->self_samples;
		const struct sidecar_object *o;
		char name[4096];
		uint32_t obj, func;

		if (!samples)
			continue;
		if (!sidecar_node_is_leaf(n) || n->call_site == SIDECAR_LEAF_OVERHEAD) {
			/* no program counter kept, or the instrumentation's */
			pcs->unplaced = sat_add_u64(pcs->unplaced, samples);
			continue;
		}
		if (sc->program_end ? sidecar_in_program(sc, pc) : pc >= sc->load_address) {
			if (pcs_add(pcs, 0, NO_FUNC, pc - sc->load_address, samples) < 0)
				goto oom;
			continue;
		}
		o = sidecar_object_of(sc, pc);
		if (!o || leaf_name(ln, pc, name, sizeof(name)) != LEAF_LIBRARY) {
			pcs->unplaced = sat_add_u64(pcs->unplaced, samples);
			continue;
		}
		if ((obj = intern(&pcs->names, o->path)) == NO_FUNC ||
		    (func = intern(&pcs->names, name)) == NO_FUNC ||
		    pcs_add(pcs, obj + 1, func, pc - o->bias, samples) < 0)
			goto oom;
	}
	ret = 0;
	goto out;
oom:
	error("out of memory while reading the sampled program counters");
out:
	leaf_namer_free(ln);
	return ret;
}

/* ------------------------------------------------------------------ */
/* A run's lines                                                       */

struct row_key {
	uint32_t func, file, inlined;	/* interned; NO_FUNC: none */
	int line;
};

struct builder {
	struct line_profile *lp;
	struct interner strs;
	struct row_key *keys;
	uint64_t *samples;
	unsigned char *library;
	size_t n, alloc;
	size_t *slot, mask;
};

static size_t key_hash(const struct row_key *k)
{
	uint64_t h = ((uint64_t)k->func * 0x9e3779b97f4a7c15ull) ^
		     ((uint64_t)k->file * 0xc2b2ae3d27d4eb4full) ^
		     ((uint64_t)k->inlined * 0x165667b19e3779f9ull) ^ (uint64_t)(uint32_t)k->line;

	return (size_t)(h ^ (h >> 31));
}

static int key_eq(const struct row_key *a, const struct row_key *b)
{
	return a->func == b->func && a->file == b->file && a->inlined == b->inlined &&
	       a->line == b->line;
}

static int builder_grow(struct builder *b)
{
	size_t cap = b->mask ? 2 * (b->mask + 1) : 256;
	size_t *slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -1;
	for (size_t i = 0; i < b->n; i++) {
		size_t h = key_hash(&b->keys[i]) & (cap - 1);

		while (slot[h])
			h = (h + 1) & (cap - 1);
		slot[h] = i + 1;
	}
	free(b->slot);
	b->slot = slot;
	b->mask = cap - 1;
	return 0;
}

static int builder_add(struct builder *b, const char *func, const char *file, int line,
		       const char *inlined, int library, uint64_t samples)
{
	struct row_key k;
	size_t h;

	k.func = intern(&b->strs, func);
	k.file = file ? intern(&b->strs, file) : NO_FUNC;
	k.inlined = inlined ? intern(&b->strs, inlined) : NO_FUNC;
	k.line = file ? line : 0;
	if (k.func == NO_FUNC || (file && k.file == NO_FUNC) || (inlined && k.inlined == NO_FUNC))
		return -1;
	if ((b->n + 1) * 2 > b->mask && builder_grow(b) < 0)
		return -1;
	for (h = key_hash(&k) & b->mask; b->slot[h]; h = (h + 1) & b->mask)
		if (key_eq(&b->keys[b->slot[h] - 1], &k)) {
			b->samples[b->slot[h] - 1] += samples;
			goto counted;
		}
	if (b->n == b->alloc) {
		size_t cap = b->alloc ? 2 * b->alloc : 256;
		struct row_key *nk = realloc(b->keys, cap * sizeof(*nk));
		uint64_t *ns;
		unsigned char *nl;

		if (!nk)
			return -1;
		b->keys = nk;
		if (!(ns = realloc(b->samples, cap * sizeof(*ns))))
			return -1;
		b->samples = ns;
		if (!(nl = realloc(b->library, cap)))
			return -1;
		b->library = nl;
		b->alloc = cap;
	}
	b->keys[b->n] = k;
	b->samples[b->n] = samples;
	b->library[b->n] = (unsigned char)library;
	b->slot[h] = ++b->n;
counted:
	b->lp->total += samples;
	if (!file)
		b->lp->no_line += samples;
	return 0;
}

/* The program's functions by address (gprof's table: real symbols). */
struct functab {
	const struct profile_sym **s;
	size_t n;
};

static int cmp_sym_addr(const void *l, const void *r)
{
	const struct profile_sym *a = *(const struct profile_sym *const *)l;
	const struct profile_sym *b = *(const struct profile_sym *const *)r;

	return (a->addr > b->addr) - (a->addr < b->addr);
}

static int functab_build(struct functab *t, const struct profile *p)
{
	t->n = 0;
	if (!(t->s = malloc((p->nsyms + 1) * sizeof(*t->s))))
		return -1;
	for (size_t i = 0; i < p->nsyms; i++)
		if (!(p->syms[i].flags & (PSYM_CYCLE | PSYM_KINDS)))
			t->s[t->n++] = &p->syms[i];
	qsort(t->s, t->n, sizeof(*t->s), cmp_sym_addr);
	return 0;
}

/* The function holding link-time address addr, or NULL. */
static const struct profile_sym *functab_find(const struct functab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->s[mid]->addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* past the last byte gprof gives it (padding, the PLT) */
	if (t->s[lo - 1]->end_addr && addr > t->s[lo - 1]->end_addr)
		return NULL;
	return t->s[lo - 1];
}

/* The name a symbol of the debug information takes: demangled as gprof
 * demangles (a malloc'd copy in *buf when it is). */
static const char *demangled(const char *name, char **buf)
{
	*buf = name ? upstream_demangle(name) : NULL;
	return *buf ? *buf : name;
}

/* One program counter of the program (obj 0) or of a library. */
static int add_pc(struct builder *b, struct srcmap *sm, const struct functab *ft,
		  const struct line_pcs *pcs, const struct pc_entry *e, int *no_lines)
{
	struct callpath_inline in[INLINE_MAX];
	int n = sm ? srcmap_find(sm, e->addr, in, INLINE_MAX) : -1;
	const char *func = NULL, *inl = NULL;
	char *dfunc = NULL, *dinl = NULL;
	int ret;

	if (e->obj == 0) {
		const struct profile_sym *s = functab_find(ft, e->addr);

		if (s && leaf_name_is_instrumentation(s->name)) {
			b->lp->unplaced += e->samples;
			return 0;
		}
		func = s ? (s->print_name ? s->print_name : s->name)
			 : n > 0 && in[n - 1].func ? demangled(in[n - 1].func, &dfunc)
						   : "[unknown]";
	} else {
		func = pcs->names.strs[e->func];
	}
	if (n > 1)
		inl = demangled(in[0].func, &dinl);
	if (n < 0)
		*no_lines = 1;
	ret = builder_add(b, func, n > 0 ? in[0].file : NULL, n > 0 ? in[0].line : 0, inl,
			  e->obj != 0, e->samples);
	free(dfunc);
	free(dinl);
	return ret;
}

static int from_pcs(struct builder *b, const struct lines_input *in)
{
	const struct line_pcs *pcs = in->pcs;
	struct srcmap **maps = calloc(pcs->names.n + 1, sizeof(*maps));
	unsigned char *tried = calloc(pcs->names.n + 1, 1), *bare = calloc(pcs->names.n + 1, 1);
	struct functab ft = { NULL, 0 };
	size_t len = 0;
	int ret = -1;

	if (!maps || !tried || !bare || functab_build(&ft, in->gmon) < 0)
		goto out;
	maps[0] = srcmap_open(in->binary);
	tried[0] = 1;
	for (size_t i = 0; i < pcs->n; i++) {
		const struct pc_entry *e = &pcs->e[i];
		int no_lines = 0;

		if (!tried[e->obj]) {
			maps[e->obj] = srcmap_open(pcs->names.strs[e->obj - 1]);
			tried[e->obj] = 1;
		}
		if (add_pc(b, maps[e->obj], &ft, pcs, e, &no_lines) < 0)
			goto out;
		if (no_lines && e->obj)
			bare[e->obj] = 1;
	}
	b->lp->unplaced += pcs->unplaced;
	/* the libraries sampled without lines, said once */
	for (size_t k = 1; k <= pcs->names.n; k++) {
		const char *p, *slash;

		if (!bare[k])
			continue;
		p = pcs->names.strs[k - 1];
		slash = strrchr(p, '/');
		if (len + strlen(p) + 8 < sizeof(b->lp->skipped))
			len += (size_t)snprintf(b->lp->skipped + len, sizeof(b->lp->skipped) - len,
						"%s%s", len ? ", " : "", slash ? slash + 1 : p);
	}
	ret = 0;
out:
	for (size_t k = 0; maps && k <= pcs->names.n; k++)
		srcmap_close(maps[k]);
	free(maps);
	free(tried);
	free(bare);
	free(ft.s);
	return ret;
}

/* ------------------------------------------------------------------ */
/* gmon.out's histogram                                                */

static int read_u(FILE *fp, size_t size, uint64_t *v)
{
	unsigned char buf[8];

	*v = 0;
	if (fread(buf, 1, size, fp) != size)
		return -1;
	for (size_t i = 0; i < size; i++)
		*v |= (uint64_t)buf[i] << (8 * i);
	return 0;
}

/*
 * The histogram records of one gmon file (glibc's format, version 1,
 * 64-bit addresses), each bin's samples given to the line of its middle
 * address.  Arc and basic-block records are skipped.
 */
static int gmon_hist(struct builder *b, const char *path, struct srcmap *sm,
		     const struct functab *ft, double *hz)
{
	char magic[4], err[4200];
	FILE *fp = infile_fopen(path, err, sizeof(err));
	uint64_t v;
	int tag, ret = -1;

	if (!fp)
		return error("%s", err);
	if (fread(magic, 1, 4, fp) != 4 || memcmp(magic, "gmon", 4) || fseek(fp, 16, SEEK_CUR))
		goto bad;
	while ((tag = fgetc(fp)) != EOF) {
		if (tag == 0) {
			uint64_t lo, hi, nbins, rate;
			double width;

			if (read_u(fp, 8, &lo) < 0 || read_u(fp, 8, &hi) < 0 ||
			    read_u(fp, 4, &nbins) < 0 || read_u(fp, 4, &rate) < 0 ||
			    fseek(fp, 16, SEEK_CUR) || hi < lo)
				goto bad;
			*hz = (double)rate;
			width = nbins ? (double)(hi - lo) / (double)nbins : 0;
			for (uint64_t i = 0; i < nbins; i++) {
				struct pc_entry e;
				int no_lines = 0;

				if (read_u(fp, 2, &v) < 0)
					goto bad;
				if (!v)
					continue;
				e = (struct pc_entry){ 0, NO_FUNC,
						       lo + (uint64_t)((double)i * width + width / 2), v };
				if (add_pc(b, sm, ft, NULL, &e, &no_lines) < 0) {
					error("out of memory");
					goto out;
				}
			}
		} else if (tag == 1) {
			if (fseek(fp, 20, SEEK_CUR))
				goto bad;
		} else if (tag == 2) {
			if (read_u(fp, 4, &v) < 0 || fseek(fp, (long)(16 * v), SEEK_CUR))
				goto bad;
		} else {
			goto bad;
		}
	}
	ret = 0;
	goto out;
bad:
	error("%s: not a gmon file gprof reads (its histogram could not be read for lines)", path);
out:
	fclose(fp);
	return ret;
}

static int from_gmon(struct builder *b, const struct lines_input *in)
{
	struct srcmap *sm = srcmap_open(in->binary);
	struct functab ft = { NULL, 0 };
	int ret = -1;

	if (functab_build(&ft, in->gmon) < 0) {
		error("out of memory");
		goto out;
	}
	for (size_t i = 0; i < in->ngmon; i++)
		if (gmon_hist(b, in->gmon_files[i], sm, &ft, &b->lp->hz) < 0)
			goto out;
	ret = 0;
out:
	free(ft.s);
	srcmap_close(sm);
	return ret;
}

static int cmp_str(const char *a, const char *b)
{
	return a == b ? 0 : !a ? -1 : !b ? 1 : strcmp(a, b);
}

static int cmp_rows(const void *l, const void *r)
{
	const struct line_row *a = l, *b = r;
	int c;

	if ((c = strcmp(a->func, b->func)) || (c = cmp_str(a->file, b->file)))
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return cmp_str(a->inlined, b->inlined);
}

int lines_build(const struct lines_input *in, struct line_profile **out)
{
	struct builder b;
	struct line_profile *lp = calloc(1, sizeof(*lp));
	int ret = -1;

	*out = NULL;
	memset(&b, 0, sizeof(b));
	if (!lp)
		return error("out of memory");
	b.lp = lp;
	lp->binary = in->binary;
	/* the sidecars where they kept program counters, else gmon.out */
	lp->from_sidecars = in->pcs && in->pcs->n > 0;
	if (lp->from_sidecars) {
		lp->hz = in->hz;
		if (from_pcs(&b, in) < 0) {
			error("out of memory while mapping samples to lines");
			goto out;
		}
		snprintf(lp->source, sizeof(lp->source),
			 "lines of the call-path samples' program counters, %g Hz", lp->hz);
	} else {
		if (from_gmon(&b, in) < 0)
			goto out;
		snprintf(lp->source, sizeof(lp->source),
			 "lines of gmon.out's histogram bins, %g Hz", lp->hz);
	}
	if (!(lp->rows = malloc((b.n + 1) * sizeof(*lp->rows)))) {
		error("out of memory");
		goto out;
	}
	for (size_t i = 0; i < b.n; i++) {
		const struct row_key *k = &b.keys[i];

		lp->rows[i] = (struct line_row){
			b.strs.strs[k->func], k->file == NO_FUNC ? NULL : b.strs.strs[k->file],
			k->line, k->inlined == NO_FUNC ? NULL : b.strs.strs[k->inlined],
			b.samples[i], b.library[i] };
	}
	lp->n = b.n;
	qsort(lp->rows, lp->n, sizeof(*lp->rows), cmp_rows);
	lp->strs = b.strs.strs;
	lp->nstrs = b.strs.n;
	b.strs.strs = NULL;
	b.strs.n = 0;
	*out = lp;
	lp = NULL;
	ret = 0;
out:
	interner_release(&b.strs, 0);
	free(b.keys);
	free(b.samples);
	free(b.library);
	free(b.slot);
	lines_free(lp);
	return ret;
}

void lines_free(struct line_profile *lp)
{
	if (!lp)
		return;
	for (size_t i = 0; i < lp->nstrs; i++)
		free(lp->strs[i]);
	free(lp->strs);
	free(lp->rows);
	free(lp);
}

/* The short name of `name` (an interned string of lp) as a string of lp:
 * each name shortened once (pairs: the names done before, old and new). */
static const char *short_of(struct line_profile *lp, struct name_map *nm, const char *name,
			    const char ***pairs, size_t *npairs, size_t *alloc)
{
	const char *s;
	char *copy;

	for (size_t i = 0; i < *npairs; i++)
		if ((*pairs)[2 * i] == name)
			return (*pairs)[2 * i + 1];
	if (!(s = name_map_short(nm, name)))
		return NULL;
	if (strcmp(s, name)) {
		if (lp->nstrs == lp->alloc_strs || !lp->alloc_strs) {
			size_t n = lp->nstrs ? 2 * lp->nstrs : 16;
			char **strs = realloc(lp->strs, n * sizeof(*strs));

			if (!strs)
				return NULL;
			lp->strs = strs;
			lp->alloc_strs = n;
		}
		if (!(copy = strdup(s)))
			return NULL;
		lp->strs[lp->nstrs++] = copy;
		s = copy;
	} else {
		s = name;
	}
	if (*npairs == *alloc) {
		size_t n = *alloc ? 2 * *alloc : 64;
		const char **p = realloc(*pairs, 2 * n * sizeof(*p));

		if (!p)
			return NULL;
		*pairs = p;
		*alloc = n;
	}
	(*pairs)[2 * *npairs] = name;
	(*pairs)[2 * *npairs + 1] = s;
	(*npairs)++;
	return s;
}

int lines_shorten_names(struct line_profile *lp, struct name_map *nm)
{
	const char **pairs = NULL, *prev = NULL, *prev_short = NULL;
	size_t npairs = 0, alloc = 0;
	int ret = 0;

	/* lp->alloc_strs is what lines_build left: the interner's; keep
	 * growing from the count */
	lp->alloc_strs = lp->nstrs;
	for (size_t i = 0; i < lp->n && !ret; i++) {
		struct line_row *r = &lp->rows[i];

		/* rows are by function: one look-up per function */
		if (r->func != prev) {
			prev = r->func;
			if (!(prev_short = short_of(lp, nm, r->func, &pairs, &npairs, &alloc)))
				ret = -1;
		}
		r->func = prev_short;
		if (!ret && r->inlined &&
		    !(r->inlined = short_of(lp, nm, r->inlined, &pairs, &npairs, &alloc)))
			ret = -1;
	}
	free(pairs);
	return ret < 0 ? error("out of memory shortening the lines' names") : 0;
}

uint64_t lines_func_samples(const struct line_profile *lp, const char *func)
{
	uint64_t n = 0;

	for (size_t i = 0; lp && i < lp->n; i++)
		if (!strcmp(lp->rows[i].func, func))
			n += lp->rows[i].samples;
	return n;
}

/* ------------------------------------------------------------------ */
/* Two runs, line by line                                              */

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

struct keyed {
	const struct line_row *r;
	int side;
};

static int cmp_match(const struct line_row *a, const struct line_row *b)
{
	int c;

	if ((c = strcmp(a->func, b->func)) || (c = cmp_str(base_name(a->file), base_name(b->file))))
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return cmp_str(a->inlined, b->inlined);
}

static int cmp_keyed(const void *l, const void *r)
{
	const struct keyed *a = l, *b = r;
	int c = cmp_match(a->r, b->r);

	return c ? c : a->side - b->side;
}

static int cmp_diff_rows(const void *l, const void *r)
{
	const struct line_diff_row *a = l, *b = r;
	double ma = fabs(a->change), mb = fabs(b->change);
	int ca = a->a != a->b, cb = b->a != b->b;

	if (a->significant != b->significant)
		return a->significant ? -1 : 1;
	if (ca != cb)
		return ca ? -1 : 1;
	if (ma != mb)
		return ma > mb ? -1 : 1;
	if (a->a + a->b != b->a + b->b)
		return a->a + a->b > b->a + b->b ? -1 : 1;
	return cmp_match(&(struct line_row){ a->func, a->file, a->line, a->inlined, 0, 0 },
			 &(struct line_row){ b->func, b->file, b->line, b->inlined, 0, 0 });
}

/* Whether two image files are one build: one file, or the same bytes. */
static int same_build(const char *x, const char *y)
{
	struct stat sx, sy;
	FILE *fx, *fy;
	int same = 1;

	if (!x || !y || !strcmp(x, y))
		return 1;
	if (stat(x, &sx) || stat(y, &sy))
		return 0;
	if (sx.st_dev == sy.st_dev && sx.st_ino == sy.st_ino)
		return 1;
	if (sx.st_size != sy.st_size)
		return 0;
	fx = infile_fopen(x, NULL, 0);
	fy = infile_fopen(y, NULL, 0);
	if (!fx || !fy) {
		same = 0;
	} else {
		char bx[65536], by[65536];
		size_t nx, ny;

		do {
			nx = fread(bx, 1, sizeof(bx), fx);
			ny = fread(by, 1, sizeof(by), fy);
			if (nx != ny || memcmp(bx, by, nx))
				same = 0;
		} while (same && nx > 0);
	}
	if (fx)
		fclose(fx);
	if (fy)
		fclose(fy);
	return same;
}

int lines_diff(const struct line_profile *a, const struct line_profile *b,
	       const struct line_diff_opts *o, struct line_diff **out)
{
	struct line_diff *d = calloc(1, sizeof(*d));
	struct keyed *k = malloc((a->n + b->n + 1) * sizeof(*k));
	uint64_t *cnt = NULL;
	double *z = NULL;
	unsigned char *pass = NULL;
	size_t nk = 0, n = 0;
	int ret = -1;

	*out = NULL;
	if (!d || !k || !(d->rows = malloc((a->n + b->n + 1) * sizeof(*d->rows))))
		goto oom;
	for (size_t i = 0; i < a->n; i++)
		k[nk++] = (struct keyed){ &a->rows[i], 0 };
	for (size_t i = 0; i < b->n; i++)
		k[nk++] = (struct keyed){ &b->rows[i], 1 };
	qsort(k, nk, sizeof(*k), cmp_keyed);
	for (size_t i = 0; i < nk;) {
		struct line_diff_row *r = &d->rows[n++];
		const struct line_row *first = k[i].r;

		memset(r, 0, sizeof(*r));
		r->func = first->func;
		r->file = first->file;
		r->line = first->line;
		r->inlined = first->inlined;
		/* a key may hold rows of one side twice (two files of one
		 * name in one function): summed */
		for (; i < nk && !cmp_match(k[i].r, first); i++) {
			if (k[i].side == 0)
				r->a += k[i].r->samples;
			else
				r->b += k[i].r->samples;
		}
		r->a_s = a->hz > 0 ? (double)r->a / a->hz : 0;
		r->b_s = b->hz > 0 ? (double)r->b / b->hz : 0;
		r->change = r->a_s - r->b_s;
		d->total_s[0] += r->a_s;
		d->total_s[1] += r->b_s;
		d->changed += r->a != r->b;
	}
	d->n = n;
	d->k = o->noise_sigmas;
	cnt = malloc((2 * n + 1) * sizeof(*cnt));
	z = malloc((n + 1) * sizeof(*z));
	pass = malloc(n + 1);
	if (!cnt || !z || !pass)
		goto oom;
	for (size_t i = 0; i < n; i++) {
		cnt[i] = d->rows[i].a;
		cnt[n + i] = d->rows[i].b;
	}
	if (signif_counts_decide(cnt, cnt + n, n, a->hz, b->hz, o->noise_sigmas,
				 o->jitter_prior > 0 ? o->jitter_prior : DIFF_JITTER_PRIOR, z, pass,
				 &d->jitter, &d->counted) < 0)
		goto oom;
	for (size_t i = 0; i < n; i++) {
		d->rows[i].z = z[i];
		d->rows[i].significant = pass[i];
		d->nsig += pass[i];
	}
	qsort(d->rows, n, sizeof(*d->rows), cmp_diff_rows);
	if (!same_build(o->binary[0], o->binary[1]))
		snprintf(d->warning, sizeof(d->warning),
			 "the runs are of two builds ('%s', '%s'): lines are matched by function, "
			 "file name and line number, so where the sources differ a line that moved "
			 "is two rows, and a line's number may name other code in the other build",
			 o->binary[0], o->binary[1]);
	*out = d;
	d = NULL;
	ret = 0;
	goto out;
oom:
	error("out of memory while comparing lines");
out:
	free(k);
	free(cnt);
	free(z);
	free(pass);
	lines_diff_free(d);
	return ret;
}

void lines_diff_free(struct line_diff *d)
{
	if (!d)
		return;
	free(d->rows);
	free(d);
}
