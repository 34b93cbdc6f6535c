/*
 * paths_build.c - a run's calling contexts, named: a call-path sidecar
 * named through gprof's symbols (the model's build of a run's paths;
 * the reports that print it are callpath/report.c's).
 */
#define _GNU_SOURCE /* qsort_r */
#include "model/callpath_model.h"
#include "diff/diff.h"
#include "diff/signif.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model/arcs.h"
#include "model/elfsyms.h"
#include "utils/names.h"
#include "model/elide.h"
#include "model/leaves.h"
#include "callpath/pathrank.h"
#include "model/shortname.h"
#include "format/sidecar.h"
#include "diff/profile.h"
#include "utils/addrsearch.h"
#include "utils/array.h"
#include "utils/bigalloc.h"
#include "utils/error.h"
#include "utils/line.h"
#include "utils/radixsort.h"
#include "utils/satmath.h"
#include "utils/banned.h"

#define UNKNOWN_NAME "[unknown]"
#define EXTERNAL_NAME "[external]"	/* call site 0: from outside the program */
#define LEAF_SITE_NAME ""	/* a leaf frame's call site: there was no call */
/* sampled paths whose stack walk did not reach main or a thread's start */
#define TRUNCATED_NAME "[truncated]"

/* ------------------------------------------------------------------------ */
/* The model: interned names and frames keyed by (parent, func, site)       */

struct callpath_model *callpath_model_new(void)
{
	return calloc(1, sizeof(struct callpath_model));
}

void callpath_model_free(struct callpath_model *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; i < m->nr_names; i++)
		free(m->names[i]);
	free(m->names);
	free(m->frames);
	free(m->time_name);
	free(m->name_index);
	free(m->frame_index);
	for (uint32_t i = 0; i < m->nr_threads; i++)
		free(m->threads[i].name);
	free(m->threads);
	free(m->thread_values);
	free(m);
}

static int thread_value_cmp(const void *a, const void *b)
{
	const struct callpath_thread_value *x = a, *y = b;

	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* (frame, thread) order, one value per pair (several nodes may have
 * become one frame), the zeros dropped. */
static void thread_values_sort(struct callpath_model *m)
{
	size_t o = 0;

	qsort(m->thread_values, m->nr_thread_values, sizeof(*m->thread_values),
	      thread_value_cmp);
	for (size_t i = 0; i < m->nr_thread_values; i++) {
		const struct callpath_thread_value *v = &m->thread_values[i];
		struct callpath_thread_value *w = o ? &m->thread_values[o - 1] : NULL;

		if (w && w->frame == v->frame && w->thread == v->thread) {
			sat_add_u64_flag(&w->calls, v->calls, &m->saturated);
			sat_add_u64_flag(&w->samples, v->samples, &m->saturated);
		} else if (v->calls || v->samples) {
			m->thread_values[o++] = *v;
		}
	}
	m->nr_thread_values = o;
}

/* dst's thread table, a copy of `nr` entries from `from` */
static int threads_table_copy(struct callpath_model *dst, const struct callpath_thread *from,
			      uint32_t nr)
{
	if (!nr)
		return 0;
	dst->threads = calloc(nr, sizeof(*dst->threads));
	if (!dst->threads)
		return -1;
	dst->nr_threads = nr;
	for (uint32_t i = 0; i < nr; i++) {
		dst->threads[i] = from[i];
		if (!(dst->threads[i].name = strdup(from[i].name ? from[i].name : "")))
			return -1;
	}
	return 0;
}

int callpath_model_threads_carry(struct callpath_model *dst, const struct callpath_model *src,
				 const uint32_t *map, const unsigned char *what)
{
	size_t o = 0;

	if (!src->nr_threads)
		return 0;
	if (threads_table_copy(dst, src->threads, src->nr_threads) < 0 ||
	    !(dst->thread_values = malloc((src->nr_thread_values + 1) *
					  sizeof(*dst->thread_values))))
		return error("out of memory while keeping the threads' values");
	for (size_t i = 0; i < src->nr_thread_values; i++) {
		struct callpath_thread_value v = src->thread_values[i];

		unsigned mode = what ? what[v.frame] : CALLPATH_CARRY_SAMPLES | CALLPATH_CARRY_CALLS;

		if (map[v.frame] == CALLPATH_NONE || !mode)
			continue;
		if (!(mode & CALLPATH_CARRY_CALLS))
			v.calls = 0;
		if (!(mode & CALLPATH_CARRY_SAMPLES))
			v.samples = 0;
		v.frame = map[v.frame];
		dst->thread_values[o++] = v;
	}
	dst->nr_thread_values = o;
	thread_values_sort(dst);
	return 0;
}

/*
 * The sidecar's per-thread values through `map` (node i became frame
 * map[i]); only where the frames' samples are the CPU-time samples the
 * section splits.
 */
static int threads_from_sidecar(struct callpath_model *m, const struct sidecar *sc,
				const uint32_t *map)
{
	size_t n = 0;

	if (!sc->nr_thread_views)
		return 0;
	m->threads = calloc(sc->nr_thread_views, sizeof(*m->threads));
	if (!m->threads)
		return -1;
	m->nr_threads = sc->nr_thread_views;
	for (uint32_t t = 0; t < sc->nr_thread_views; t++) {
		const struct sidecar_thread *st = &sc->thread_views[t];

		m->threads[t] = (struct callpath_thread){ st->tid, st->flags, st->threads,
							  strdup(st->name ? st->name : "") };
		if (!m->threads[t].name)
			return -1;
		n += st->nr_values;
	}
	m->thread_values = malloc((n + 1) * sizeof(*m->thread_values));
	if (!m->thread_values)
		return -1;
	for (uint32_t t = 0; t < sc->nr_thread_views; t++) {
		const struct sidecar_thread *st = &sc->thread_views[t];

		for (uint32_t k = 0; k < st->nr_values; k++)
			m->thread_values[m->nr_thread_values++] = (struct callpath_thread_value){
				map[st->values[k].node], t, st->values[k].calls,
				st->values[k].samples };
	}
	thread_values_sort(m);
	return 0;
}

static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static uint32_t frame_hash(uint32_t parent, uint32_t func, uint32_t site)
{
	uint64_t k = ((uint64_t)parent * 0x9e3779b97f4a7c15ull) ^
		     ((uint64_t)func << 32 | site);

	k ^= k >> 29;
	k *= 0xbf58476d1ce4e5b9ull;
	k ^= k >> 32;
	return (uint32_t)k;
}

/* Rebuild an open-addressing index of `n` entries at twice the size. */
static int index_grow(uint32_t **index, uint32_t *mask, uint32_t n,
		      uint32_t (*hash_of)(const struct callpath_model *, uint32_t),
		      const struct callpath_model *m)
{
	uint32_t size = *mask ? (*mask + 1) * 2 : 64;
	uint32_t *ni;

	if (size == 0 || size < n)
		return -1;
	ni = malloc((size_t)size * sizeof(*ni));
	if (!ni)
		return -1;
	memset(ni, 0xff, (size_t)size * sizeof(*ni));
	for (uint32_t i = 0; i < n; i++) {
		uint32_t h = hash_of(m, i);

		while (ni[h & (size - 1)] != CALLPATH_NONE)
			h++;
		ni[h & (size - 1)] = i;
	}
	free(*index);
	*index = ni;
	*mask = size - 1;
	return 0;
}

#define FRAME_SLOT_FREE UINT64_MAX

static uint64_t frame_slot(uint32_t hash, uint32_t i)
{
	return (uint64_t)hash << 32 | i;
}

/* Put the slot (hash, i) in the first free place from hash on. */
static void frame_index_put(uint64_t *index, uint32_t mask, uint32_t hash,
			    uint32_t i)
{
	uint32_t h = hash;

	while (index[h & mask] != FRAME_SLOT_FREE)
		h++;
	index[h & mask] = frame_slot(hash, i);
}

/* A fresh frame index of `size` (a power of two) slots, the frames in it. */
static int frame_index_rebuild(struct callpath_model *m, uint32_t size)
{
	uint64_t *ni = bigalloc((size_t)size * sizeof(*ni));

	if (!ni)
		return -1;
	memset(ni, 0xff, (size_t)size * sizeof(*ni));
	for (uint32_t i = 0; i < m->nr_frames; i++) {
		const struct callpath_frame *f = &m->frames[i];

		frame_index_put(ni, size - 1, frame_hash(f->parent, f->func, f->site), i);
	}
	free(m->frame_index);
	m->frame_index = ni;
	m->frame_mask = size - 1;
	return 0;
}

/*
 * Room for `n` frames before the first is added: a model built from a
 * sidecar knows its size (one frame per node at most), and growing a
 * million-frame index by doubling rehashes every frame about once more.
 * 0 or -1 (out of memory).
 */
static int model_reserve_frames(struct callpath_model *m, uint32_t n)
{
	uint32_t size = 64;
	struct callpath_frame *nf;

	if (m->nr_frames || n <= m->alloc_frames || n >= UINT32_MAX / 4)
		return 0;	/* nothing to gain, or left to growing */
	nf = m->frames ? realloc(m->frames, (size_t)n * sizeof(*nf))
		       : bigalloc((size_t)n * sizeof(*nf));
	if (!nf)
		return -1;
	m->frames = nf;
	m->alloc_frames = n;
	/* the load factor callpath_model_add() keeps: at most one half */
	while (size < 2 * (n + 1))
		size *= 2;
	return frame_index_rebuild(m, size);
}

static uint32_t name_hash_of(const struct callpath_model *m, uint32_t i)
{
	return str_hash(m->names[i]);
}

uint32_t callpath_model_intern(struct callpath_model *m, const char *s)
{
	uint32_t h = str_hash(s), i;
	char *copy;

	if (m->name_index) {
		for (;; h++) {
			i = m->name_index[h & m->name_mask];
			if (i == CALLPATH_NONE)
				break;
			if (!strcmp(m->names[i], s))
				return i;
		}
	}
	if (m->nr_names == UINT32_MAX - 1)
		return CALLPATH_NONE;
	if (m->nr_names == m->alloc_names) {
		uint32_t na = m->alloc_names ? m->alloc_names * 2 : 64;
		char **nn = realloc(m->names, (size_t)na * sizeof(*nn));

		if (!nn)
			return CALLPATH_NONE;
		m->names = nn;
		m->alloc_names = na;
	}
	copy = strdup(s);
	if (!copy)
		return CALLPATH_NONE;
	/* keep the load factor at most one half */
	if (2 * (m->nr_names + 1) > (m->name_index ? m->name_mask + 1 : 0)) {
		m->names[m->nr_names] = copy;
		if (index_grow(&m->name_index, &m->name_mask, m->nr_names,
			       name_hash_of, m) < 0) {
			free(copy);
			return CALLPATH_NONE;
		}
	}
	i = m->nr_names++;
	m->names[i] = copy;
	for (h = str_hash(s); m->name_index[h & m->name_mask] != CALLPATH_NONE; h++)
		;
	m->name_index[h & m->name_mask] = i;
	return i;
}

int callpath_model_add(struct callpath_model *m, uint32_t parent, uint32_t func,
		       uint32_t site, uint64_t count, uint32_t *idx)
{
	return callpath_model_add_kind(m, parent, func, site, 0, count, idx);
}

int callpath_model_add_kind(struct callpath_model *m, uint32_t parent, uint32_t func,
			    uint32_t site, int folded, uint64_t count, uint32_t *idx)
{
	uint32_t hash = frame_hash(parent, func, site), h, i;

	if ((parent != CALLPATH_NONE && parent >= m->nr_frames) ||
	    func >= m->nr_names || site >= m->nr_names)
		return -1;
	if (m->frame_index) {
		for (h = hash;; h++) {
			uint64_t slot = m->frame_index[h & m->frame_mask];
			const struct callpath_frame *f;

			if (slot == FRAME_SLOT_FREE)
				break;
			if ((uint32_t)(slot >> 32) != hash)
				continue;
			i = (uint32_t)slot;
			f = &m->frames[i];
			if (f->parent == parent && f->func == func && f->site == site &&
			    f->folded == (folded != 0)) {
				sat_add_u64_flag(&m->frames[i].count, count, &m->saturated);
				sat_add_u64_flag(&m->total, count, &m->saturated);
				if (idx)
					*idx = i;
				return 0;
			}
		}
	}
	if (m->nr_frames == UINT32_MAX - 1)
		return -1;
	if (m->nr_frames == m->alloc_frames) {
		uint32_t na = m->alloc_frames ? m->alloc_frames * 2 : 64;
		struct callpath_frame *nf = realloc(m->frames, (size_t)na * sizeof(*nf));

		if (!nf)
			return -1;
		m->frames = nf;
		m->alloc_frames = na;
	}
	if (2 * (m->nr_frames + 1) > (m->frame_index ? m->frame_mask + 1 : 0) &&
	    ((m->frame_index && m->frame_mask >= UINT32_MAX / 2) ||
	     frame_index_rebuild(m, m->frame_index ? 2 * (m->frame_mask + 1) : 64) < 0))
		return -1;
	i = m->nr_frames++;
	m->frames[i] = (struct callpath_frame){
		.parent = parent,
		.func = func,
		.site = site,
		.count = count,
		.caller = CALLPATH_NONE,
		.attributed = func,
		.folded = folded != 0,
	};
	sat_add_u64_flag(&m->total, count, &m->saturated);
	frame_index_put(m->frame_index, m->frame_mask, hash, i);
	if (idx)
		*idx = i;
	return 0;
}

void callpath_model_add_samples(struct callpath_model *m, uint32_t idx,
				uint64_t samples)
{
	sat_add_u64_flag(&m->frames[idx].samples, samples, &m->saturated);
	sat_add_u64_flag(&m->total_samples, samples, &m->saturated);
}

void callpath_model_inclusive(const struct callpath_model *m, uint64_t *incl)
{
	for (uint32_t i = 0; i < m->nr_frames; i++)
		incl[i] = m->frames[i].samples;
	/* parents come first: children are added in before their parent is */
	for (uint32_t i = m->nr_frames; i-- > 0;)
		if (m->frames[i].parent != CALLPATH_NONE)
			incl[m->frames[i].parent] = sat_add_u64(incl[m->frames[i].parent],
								incl[i]);
}

uint32_t callpath_model_path(const struct callpath_model *m, uint32_t idx,
			     uint32_t *path, uint32_t max)
{
	uint32_t depth = 0, d;

	for (uint32_t i = idx; i != CALLPATH_NONE; i = m->frames[i].parent)
		depth++;
	if (!path)
		return depth;
	d = depth;
	for (uint32_t i = idx; i != CALLPATH_NONE; i = m->frames[i].parent) {
		d--;
		if (d < max)
			path[d] = i;
	}
	return depth;
}

int callpath_model_shorten(const struct callpath_model *m, struct name_map *nm,
			   struct callpath_model **out)
{
	struct callpath_model *s = callpath_model_new();
	uint32_t *name = malloc(((size_t)m->nr_names + 1) * sizeof(*name));
	uint32_t *map = malloc(((size_t)m->nr_frames + 1) * sizeof(*map));
	int ret = -1;

	*out = NULL;
	if (!s || !name || !map)
		goto out;
	if (name_map_add_all(nm, (const char *const *)m->names, m->nr_names) < 0)
		goto out;
	for (uint32_t i = 0; i < m->nr_names; i++) {
		const char *sn = name_map_short(nm, m->names[i]);

		name[i] = sn ? callpath_model_intern(s, sn) : CALLPATH_NONE;
		if (name[i] == CALLPATH_NONE)
			goto out;
	}
	for (uint32_t i = 0; i < m->nr_frames; i++) {
		const struct callpath_frame *f = &m->frames[i];
		struct callpath_frame *g;

		if (callpath_model_add_kind(s, f->parent == CALLPATH_NONE ? CALLPATH_NONE
									  : map[f->parent],
					    name[f->func], name[f->site], f->folded, f->count,
					    &map[i]) < 0)
			goto out;
		callpath_model_add_samples(s, map[i], f->samples);
		g = &s->frames[map[i]];
		g->attributed = name[f->attributed];
		g->leaf = f->leaf;
		g->code = f->code;
		if (f->folded) {
			g->folded = 1;
			sat_add_u64_flag(&g->recursive, f->recursive, &s->saturated);
			sat_add_u64_flag(&s->total, f->recursive, &s->saturated);
			g->caller = f->caller == CALLPATH_NONE ? CALLPATH_NONE : name[f->caller];
		}
	}
	if (callpath_model_threads_carry(s, m, map, NULL) < 0)
		goto out;
	s->sampling = m->sampling;
	s->calls_unmeasured = m->calls_unmeasured;
	s->unwind = m->unwind;
	s->unplaced_samples = m->unplaced_samples;
	s->time_taken = m->time_taken;
	s->hz = m->hz;
	s->process_cpu_s = m->process_cpu_s;
	s->metric = m->metric;
	s->saturated |= m->saturated;
	memcpy(s->class_samples, m->class_samples, sizeof(s->class_samples));
	if (m->time_name && !(s->time_name = strdup(m->time_name)))
		goto out;
	*out = s;
	s = NULL;
	ret = 0;
out:
	if (ret < 0)
		error("out of memory while shortening names");
	free(name);
	free(map);
	callpath_model_free(s);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* Symbolisation                                                             */

/*
 * Functions by address.  With -l, upstream's table holds a symbol per source
 * line besides the function symbols (PSYM_FUNC); a function then extends
 * over the line symbols that follow it, whatever their names: debug info
 * names a line of code inlined from another function after that function
 * (at -O2, the first line after a function's mcount call is often an
 * inlined callee's), and a callee is named by its own symbol.
 */
struct func_range {
	uint64_t addr, end;	/* end inclusive, as upstream's end_addr */
	const char *name;	/* print_name, borrowed from the profile */
	const char *sym_name;	/* symbol-table name, borrowed */
};

struct symtab {
	struct func_range *f;
	size_t n;
};

static int symtab_build(struct symtab *st, const struct profile *p)
{
	st->n = 0;
	st->f = malloc((p->nsyms ? p->nsyms : 1) * sizeof(*st->f));
	if (!st->f)
		return -1;
	for (size_t i = 0; i < p->nsyms; i++) {
		const struct profile_sym *s = &p->syms[i];
		struct func_range *last = st->n ? &st->f[st->n - 1] : NULL;

		if (s->flags & PSYM_CYCLE)
			continue;
		if (!(s->flags & PSYM_FUNC) && last && s->line > 0 &&
		    s->addr >= last->addr) {
			if (s->end_addr > last->end)
				last->end = s->end_addr;
			continue;
		}
		st->f[st->n].addr = s->addr;
		st->f[st->n].end = s->end_addr < s->addr ? s->addr : s->end_addr;
		st->f[st->n].name = s->print_name;
		st->f[st->n].sym_name = s->name;
		st->n++;
	}
	return 0;
}

static const struct func_range *symtab_find(const struct symtab *st, uint64_t addr)
{
	size_t lo = addr_search(st->f, st->n, sizeof(*st->f),
				offsetof(struct func_range, addr), addr);

	if (!lo || addr > st->f[lo - 1].end)
		return NULL;
	return &st->f[lo - 1];
}

/*
 * The function at `link_addr` as gprof names it (*attributed, when not
 * NULL), and as reports name it (returned): the same but where gprof left
 * the function out of its table and attributes it to the one before it
 * (its ELF symbol starts elsewhere, elfsyms.h): then its own symbol.
 */
/* An ELF symbol's name as gprof would print it: demangled when gprof
 * demangles (so->demangle), a GCC clone's suffix as c++filt writes it
 * ("use(Big const&) [clone .constprop.0]", not _ZL3useRK3Big.constprop.0). */
static uint32_t intern_elf_name(struct callpath_model *m,
				const struct callpath_symopts *so, const char *name)
{
	char *demangled = so && so->demangle ? so->demangle(name) : NULL;
	uint32_t i = callpath_model_intern(m, demangled ? demangled : name);

	free(demangled);
	return i;
}

static uint32_t intern_func(struct callpath_model *m, const struct symtab *st,
			    const struct elf_funcs *ef,
			    const struct callpath_symopts *so, uint64_t link_addr,
			    int known, uint32_t *attributed)
{
	const struct func_range *f = known ? symtab_find(st, link_addr) : NULL;
	const struct elf_func *e = known ? elf_funcs_find(ef, link_addr) : NULL;
	uint32_t gprof = callpath_model_intern(m, f ? f->name : UNKNOWN_NAME);

	if (attributed)
		*attributed = gprof;
	if (e && (!f || e->addr != f->addr))
		return intern_elf_name(m, so, e->name);
	return gprof;
}

static uint32_t intern_site(struct callpath_model *m, const struct symtab *st,
			    const struct elf_funcs *ef,
			    const struct callpath_symopts *so, uint64_t link_addr,
			    int known)
{
	const struct func_range *f = known ? symtab_find(st, link_addr) : NULL;
	const struct elf_func *e = known ? elf_funcs_find(ef, link_addr) : NULL;
	const char *name = f ? f->name : NULL;
	uint64_t start = f ? f->addr : 0;
	char buf[4096], *demangled = NULL;
	const char *file;
	int line;

	if (e && (!f || e->addr != f->addr)) {	/* as intern_func() */
		demangled = so && so->demangle ? so->demangle(e->name) : NULL;
		name = demangled ? demangled : e->name;
		start = e->addr;
	}
	if (!name)
		return callpath_model_intern(m, UNKNOWN_NAME);
	/* A return address belongs to the line after the call; the byte
	 * before it is the call instruction's. */
	if (so && so->lines && so->addr_to_line && link_addr > start &&
	    so->addr_to_line(link_addr - 1, &file, &line) == 0 && file) {
		const char *slash = strrchr(file, '/');

		if (!so->full_paths && slash)
			file = slash + 1;
		snprintf(buf, sizeof(buf), "%s:%d", file, line);
		free(demangled);
		return callpath_model_intern(m, buf);
	}
	snprintf(buf, sizeof(buf), "%s+0x%" PRIx64, name, link_addr - start);
	free(demangled);
	return callpath_model_intern(m, buf);
}

/*
 * Names already given to an address, as a callee (name and the name gprof
 * attributes it to) or as a call site: a million nodes name a few thousand
 * addresses, and naming one costs two binary searches, a formatted print
 * and an interning.  A growing array with a hash index (utils/array.h).
 */
struct addr_name {
	uint64_t addr;
	uint32_t name, attributed;
};

struct addr_memo {
	struct addr_name *e;
	size_t n, cap;
	size_t *slots, nslots;
};

static void addr_memo_free(struct addr_memo *am)
{
	free(am->e);
	free(am->slots);
}

static size_t addr_hash(uint64_t a)
{
	a ^= a >> 31;
	a *= 0x9e3779b97f4a7c15ull;
	return (size_t)(a >> 32);
}

static size_t addr_name_hash(const void *ctx, size_t i)
{
	return addr_hash(((const struct addr_name *)ctx)[i].addr);
}

/* addr's entry; or NULL, with *slot the index slot a new entry takes
 * (SIZE_MAX when out of memory). */
static const struct addr_name *addr_memo_find(struct addr_memo *am, uint64_t addr,
					      size_t *slot)
{
	size_t j;

	if (2 * (am->n + 1) > am->nslots &&
	    array_index_grow(&am->slots, &am->nslots, am->n, addr_name_hash, am->e) < 0) {
		*slot = SIZE_MAX;
		return NULL;
	}
	for (j = addr_hash(addr) & (am->nslots - 1); am->slots[j]; j = (j + 1) & (am->nslots - 1))
		if (am->e[am->slots[j] - 1].addr == addr)
			return &am->e[am->slots[j] - 1];
	*slot = j;
	return NULL;
}

/* Remember addr's names in the slot addr_memo_find gave: 0 or -1. */
static int addr_memo_add(struct addr_memo *am, size_t slot, uint64_t addr,
			 uint32_t name, uint32_t attributed)
{
	if (array_grow(&am->e, &am->cap, am->n + 1, sizeof(*am->e)) < 0)
		return -1;
	am->e[am->n] = (struct addr_name){ addr, name, attributed };
	am->slots[slot] = ++am->n;
	return 0;
}

/* intern_func() through a memo (`known`: the address is the program's). */
static uint32_t memo_func(struct addr_memo *am, struct callpath_model *m,
			  const struct symtab *st, const struct elf_funcs *ef,
			  const struct callpath_symopts *so, uint64_t link_addr,
			  int known, uint32_t *attributed)
{
	const struct addr_name *e;
	uint32_t name, attr;
	size_t slot;

	if (!known)
		return intern_func(m, st, ef, so, link_addr, known, attributed);
	if ((e = addr_memo_find(am, link_addr, &slot)) != NULL) {
		name = e->name;
		attr = e->attributed;
	} else {
		if (slot == SIZE_MAX)
			return CALLPATH_NONE;
		name = intern_func(m, st, ef, so, link_addr, known, &attr);
		if (name == CALLPATH_NONE || attr == CALLPATH_NONE ||
		    addr_memo_add(am, slot, link_addr, name, attr) < 0)
			return CALLPATH_NONE;
	}
	if (attributed)
		*attributed = attr;
	return name;
}

/* intern_site() through a memo. */
static uint32_t memo_site(struct addr_memo *am, struct callpath_model *m,
			  const struct symtab *st, const struct elf_funcs *ef,
			  const struct callpath_symopts *so, uint64_t link_addr,
			  int known)
{
	const struct addr_name *e;
	uint32_t name;
	size_t slot;

	if (!known)
		return intern_site(m, st, ef, so, link_addr, known);
	if ((e = addr_memo_find(am, link_addr, &slot)) != NULL)
		return e->name;
	if (slot == SIZE_MAX)
		return CALLPATH_NONE;
	name = intern_site(m, st, ef, so, link_addr, known);
	if (name == CALLPATH_NONE ||
	    addr_memo_add(am, slot, link_addr, name, CALLPATH_NONE) < 0)
		return CALLPATH_NONE;
	return name;
}

/*
 * The sidecar's nodes in depth-first order (children in index order) in
 * order[0..nr_nodes).  The model's frames are created in that order, so a
 * subtree's frames sit together in memory: reports walk paths and print
 * them in nearly that order, and a million-node model in the runtime's
 * creation order costs a cache miss per frame visited.  0 or -1.
 */
static int sidecar_depth_first(const struct sidecar *sc, uint32_t *order)
{
	uint32_t n = sc->nr_nodes, sp = 0, k = 0;
	uint32_t *first = calloc((size_t)n + 2, sizeof(*first));
	uint32_t *kids = malloc(((size_t)n + 1) * sizeof(*kids));
	uint32_t *stack = malloc(((size_t)n + 1) * sizeof(*stack));

	if (!first || !kids || !stack) {
		free(first);
		free(kids);
		free(stack);
		return -1;
	}
	/* children of node i: kids[first[i + 1]..first[i + 2]); of the root:
	 * kids[first[0]..first[1]) */
	for (uint32_t i = 0; i < n; i++)
		first[(sc->nodes[i].parent == SIDECAR_ROOT ? 0 : sc->nodes[i].parent + 1) + 1]++;
	for (uint32_t s = 1; s <= n + 1; s++)
		first[s] += first[s - 1];
	for (uint32_t i = 0; i < n; i++)
		kids[first[sc->nodes[i].parent == SIDECAR_ROOT ? 0
							     : sc->nodes[i].parent + 1]++] = i;
	for (uint32_t s = n + 1; s > 0; s--)
		first[s] = first[s - 1];
	first[0] = 0;
	for (uint32_t j = first[1]; j > first[0]; j--)
		stack[sp++] = kids[j - 1];
	while (sp) {
		uint32_t i = stack[--sp];

		order[k++] = i;
		for (uint32_t j = first[i + 2]; j > first[i + 1]; j--)
			stack[sp++] = kids[j - 1];
	}
	free(first);
	free(kids);
	free(stack);
	return 0;
}

/*
 * The off-CPU metric of CALLPATH_CLOCK=wall (sidecar.h), in the time
 * samples' periods: its index among the extra metrics, or -1.
 */
static int offcpu_metric(const struct sidecar *sc)
{
	for (uint32_t k = 0; k < sc->nr_extra; k++)
		if (sc->extra_metrics[k].kind == SIDECAR_METRIC_WALL_SAMPLES &&
		    (!sc->time_period || sc->extra_metrics[k].period == sc->time_period))
			return (int)k;
	return -1;
}

/* Node i's time: its CPU samples, and with an off-CPU metric `offk` (>= 0)
 * its off-CPU samples too (wall-clock time). */
static uint64_t node_samples(const struct sidecar *sc, uint32_t i, int offk)
{
	uint64_t v = sc->nodes[i].self_samples;

	if (offk >= 0)
		v = sat_add_u64(v, sidecar_extra_value(sc, i, (uint32_t)offk));
	return v;
}

/* Node i's samples of the metric shown: the time (with its off-CPU part),
 * or another metric's (--metric, model/metric.h). */
static uint64_t samples_of(const struct sidecar *sc, int metric, int offk, uint32_t i)
{
	return metric == CALLPATH_METRIC_TIME ? node_samples(sc, i, offk)
					      : callpath_metric_samples(sc, metric, i);
}

/* What the leaves of one model build share. */
struct leaf_ctx {
	const struct sidecar *sc;
	struct leaf_namer *ln;
	struct addr_memo *funcs;
	const struct symtab *st;
	const struct elf_funcs *ef;
	const struct callpath_symopts *so;
	uint32_t site;		/* the leaves' call site: "" (none is told) */
	const char *binary;	/* sampled paths: the program, for inline frames; else NULL */
};

#define INLINE_MAX 32		/* functions inlined into one another at one address */

/*
 * Sampled paths: a frame for each function inlined at link-time address
 * `addr` of the program (the call instruction before a return address, or
 * a sample's program counter), outermost first, under frame `parent`
 * (whose function the address belongs to), each named "NAME [inlined]"
 * and called from the line it was inlined at.  *last: the innermost such
 * frame, or `parent` when nothing is inlined there (or it is unknown).
 * 0 or -1 (out of memory).
 */
static int inline_frames(struct callpath_model *m, const struct leaf_ctx *lc, uint64_t addr,
			 uint32_t parent, uint32_t *last)
{
	const struct callpath_symopts *so = lc->so;
	struct callpath_inline in[INLINE_MAX];
	int n = lc->binary && so && so->inlines ? so->inlines(lc->binary, addr, in, INLINE_MAX)
						 : -1;

	*last = parent;
	for (int k = n - 2; k >= 0; k--) {
		char name[4096], site[4096], *dem = so->demangle ? so->demangle(in[k].func) : NULL;
		const char *file = in[k + 1].file ? in[k + 1].file : "??", *slash = strrchr(file, '/');
		uint32_t f, s;

		if (!so->full_paths && slash)
			file = slash + 1;
		snprintf(name, sizeof(name), "%s [inlined]", dem ? dem : in[k].func);
		free(dem);
		snprintf(site, sizeof(site), "%s:%d", file, in[k + 1].line);
		f = callpath_model_intern(m, name);
		s = callpath_model_intern(m, site);
		if (f == CALLPATH_NONE || s == CALLPATH_NONE ||
		    callpath_model_add(m, *last, f, s, 0, last) < 0)
			return -1;
		m->frames[*last].attributed = f;
	}
	return 0;
}

/*
 * Leaf node `n` (a sampled program counter) under frame `parent`: the
 * parent's own time when the program counter is in the parent's function,
 * else a leaf frame naming what ran (leaves.h).  Its frame in *idx.
 */
static int place_leaf(struct callpath_model *m, const struct leaf_ctx *lc,
		      uint32_t parent, const struct sidecar_node *n, uint64_t samples,
		      uint32_t *idx)
{
	const struct sidecar *sc = lc->sc;
	uint64_t pc = n->callee, bias = sc->load_address;
	enum leaf_class cls = LEAF_PROGRAM;
	uint32_t func, attributed;
	char buf[4096];

	if (n->call_site == SIDECAR_LEAF_OVERHEAD) {
		cls = LEAF_INSTRUMENTATION;
		func = attributed = callpath_model_intern(m, LEAF_INSTRUMENTATION_NAME);
	} else if (sc->program_end ? sidecar_in_program(sc, pc) : pc >= bias) {
		if (lc->ef && lc->ef->n && pc >= bias && !elf_funcs_find(lc->ef, pc - bias))
			/* no function's bytes: the PLT, padding (gprof's table
			 * would give it to the symbol before, often _init) */
			func = attributed = callpath_model_intern(m, UNKNOWN_NAME);
		else
			func = memo_func(lc->funcs, m, lc->st, lc->ef, lc->so, pc - bias,
					 pc >= bias, &attributed);
		if (func == CALLPATH_NONE)
			return -1;
		if (parent != CALLPATH_NONE && func == m->frames[parent].func) {
			/* the context's own code: its self time, or (sampled
			 * paths) the time of the functions inlined there */
			if (inline_frames(m, lc, pc - bias, parent, &parent) < 0)
				return -1;
			callpath_model_add_samples(m, parent, samples);
			sat_add_u64_flag(&m->class_samples[LEAF_PROGRAM], samples,
					 &m->saturated);
			*idx = parent;
			return 0;
		}
		/* a static link's mcount, or the runtime linked in */
		if (leaf_name_is_instrumentation(m->names[func])) {
			cls = LEAF_INSTRUMENTATION;
			func = attributed = callpath_model_intern(m, LEAF_INSTRUMENTATION_NAME);
		}
	} else {
		cls = leaf_name(lc->ln, pc, buf, sizeof(buf));
		func = attributed = callpath_model_intern(m, buf);
		if (func != CALLPATH_NONE && parent != CALLPATH_NONE &&
		    func == m->frames[parent].func && cls != LEAF_UNKNOWN) {
			/* a sampled frame's own code in a library: its self time */
			callpath_model_add_samples(m, parent, samples);
			sat_add_u64_flag(&m->class_samples[cls], samples, &m->saturated);
			*idx = parent;
			return 0;
		}
	}
	if (func == CALLPATH_NONE ||
	    callpath_model_add(m, parent, func, lc->site, 0, idx) < 0)
		return -1;
	callpath_model_add_samples(m, *idx, samples);
	m->frames[*idx].attributed = attributed;
	m->frames[*idx].leaf = 1 + (uint32_t)cls;
	sat_add_u64_flag(&m->class_samples[cls], samples, &m->saturated);
	return 0;
}

int callpath_model_build(const struct sidecar *sc, const struct profile *p,
			 const struct callpath_symopts *so,
			 struct callpath_model **out)
{
	struct callpath_model *m = callpath_model_new();
	struct symtab st = { NULL, 0 };
	struct elf_funcs *ef = NULL;
	uint32_t *map = NULL, *order = NULL;
	uint64_t bias = sc->load_address;
	struct addr_memo funcs = { NULL, 0, 0, NULL, 0 };
	struct addr_memo sites = { NULL, 0, 0, NULL, 0 };
	struct leaf_ctx lc = { sc, NULL, &funcs, &st, NULL, so, CALLPATH_NONE, NULL };
	int offk = offcpu_metric(sc);
	int ret = -1, metric, sampled = !SIDECAR_CALLS_MEASURED(sc->flags);
	enum leaf_class cls;

	*out = NULL;
	if (callpath_metric_find(sc, so ? so->metric : NULL, sc->id.gmon_name[0] ? sc->id.gmon_name
					: "the call-path sidecar", &metric) < 0)
		goto out;
	if (!m || symtab_build(&st, p) < 0 || elf_funcs_read(p->binary, &ef) < 0)
		goto oom;
	lc.ef = ef;
	lc.binary = sampled ? p->binary : NULL;
	lc.ln = leaf_namer_new(sc, so ? so->demangle : NULL);
	lc.site = callpath_model_intern(m, LEAF_SITE_NAME);
	if (!lc.ln || lc.site == CALLPATH_NONE)
		goto oom;
	map = malloc(((size_t)sc->nr_nodes + 1) * sizeof(*map));
	order = malloc(((size_t)sc->nr_nodes + 1) * sizeof(*order));
	if (!map || !order || sidecar_depth_first(sc, order) < 0 ||
	    model_reserve_frames(m, sc->nr_nodes) < 0)
		goto oom;
	for (uint32_t k = 0; k < sc->nr_nodes; k++) {
		uint32_t i = order[k];
		const struct sidecar_node *n = &sc->nodes[i];
		uint32_t parent = n->parent == SIDECAR_ROOT ? CALLPATH_NONE
							    : map[n->parent];
		uint32_t gprof_func, func, site;

		if (sidecar_node_is_leaf(n)) {
			if (place_leaf(m, &lc, parent, n, samples_of(sc, metric, offk, i), &map[i]) < 0)
				goto oom;
			continue;
		}
		cls = LEAF_PROGRAM;
		if (sampled && !n->callee && n->parent == SIDECAR_ROOT) {
			/* the paths whose walk stopped short of their root */
			func = gprof_func = callpath_model_intern(m, TRUNCATED_NAME);
		} else if (sampled && !(sc->program_end ? sidecar_in_program(sc, n->callee)
							: n->callee >= bias)) {
			/* a sampled frame of a library: named as leaves are */
			char buf[4096];

			cls = leaf_name(lc.ln, n->callee, buf, sizeof(buf));
			func = gprof_func = callpath_model_intern(m, buf);
		} else if (sampled && ef && ef->n && n->callee >= bias &&
			   !elf_funcs_find(ef, n->callee - bias)) {
			/* a sampled frame in no function's bytes (the PLT): not
			 * the symbol before it, as gprof's table would say */
			func = gprof_func = callpath_model_intern(m, UNKNOWN_NAME);
		} else {
			func = memo_func(&funcs, m, &st, ef, so, n->callee - bias,
					 n->callee >= bias, &gprof_func);
		}
		site = n->call_site == 0
					? callpath_model_intern(m, EXTERNAL_NAME)
					: memo_site(&sites, m, &st, ef, so, n->call_site - bias,
						    n->call_site >= bias);

		/* sampled paths: the functions inlined at the call, between the
		 * caller's frame and this one */
		if (sampled && n->call_site > bias && sidecar_in_program(sc, n->call_site) &&
		    parent != CALLPATH_NONE && !(n->flags & SIDECAR_NODE_FOLDED) &&
		    inline_frames(m, &lc, n->call_site - bias - 1, parent, &parent) < 0)
			goto oom;
		if (func == CALLPATH_NONE || site == CALLPATH_NONE ||
		    gprof_func == CALLPATH_NONE ||
		    callpath_model_add_kind(m, parent, func, site,
					    (n->flags & SIDECAR_NODE_FOLDED) != 0, n->count,
					    &map[i]) < 0)
			goto oom;
		callpath_model_add_samples(m, map[i], samples_of(sc, metric, offk, i));
		sat_add_u64_flag(&m->class_samples[cls], samples_of(sc, metric, offk, i),
				 &m->saturated);
		m->frames[map[i]].attributed = gprof_func;
		if (cls != LEAF_PROGRAM)
			m->frames[map[i]].code = (uint16_t)(1 + cls);
		if (n->flags & SIDECAR_NODE_FOLDED) {
			struct callpath_frame *f = &m->frames[map[i]];

			f->folded = 1;
			sat_add_u64_flag(&f->recursive, n->recursive, &m->saturated);
			sat_add_u64_flag(&m->total, n->recursive, &m->saturated);
			f->caller = n->call_site == 0
				? callpath_model_intern(m, EXTERNAL_NAME)
				: memo_func(&funcs, m, &st, ef, so, n->call_site - bias,
					    n->call_site >= bias, NULL);
			if (f->caller == CALLPATH_NONE)
				goto oom;
		}
	}
	if (metric == CALLPATH_METRIC_TIME && offk < 0 && threads_from_sidecar(m, sc, map) < 0)
		goto oom;
	m->sampling = sc->sampling;
	m->calls_unmeasured = sampled;
	m->unwind = sc->unwind;
	m->unplaced_samples = callpath_metric_unplaced(sc, metric);
	m->hz = callpath_metric_describe(&m->metric, sc, metric, p->hz);
	if (metric != CALLPATH_METRIC_TIME)
		m->sampling = SIDECAR_SAMPLING_SELF;
	/* the time: the sidecar's own rate (CALLPATH_HZ); else gmon.out's,
	 * whose ticks older runtimes counted */
	if (metric == CALLPATH_METRIC_TIME && sc->time_period)
		m->hz = 1e9 / (double)sc->time_period;
	if (metric == CALLPATH_METRIC_TIME)
		m->time_taken = sc->time_taken;
	/* CPU time only: the wall clock's samples cover time off the CPU too */
	if (metric == CALLPATH_METRIC_TIME && offk < 0 && sc->process_cpu.valid)
		m->process_cpu_s = ((double)sc->process_cpu.user_ns +
				    (double)sc->process_cpu.sys_ns) / 1e9;
	if (metric == CALLPATH_METRIC_TIME && sc->time_name &&
	    !(m->time_name = strdup(offk >= 0 ? "wall-clock" : sc->time_name)))
		goto oom;
	*out = m;
	m = NULL;
	ret = 0;
	goto out;
oom:
	error("out of memory while naming call paths");
out:
	free(map);
	free(order);
	free(st.f);
	addr_memo_free(&funcs);
	addr_memo_free(&sites);
	elf_funcs_free(ef);
	leaf_namer_free(lc.ln);
	callpath_model_free(m);
	return ret;
}

double callpath_model_coverage(const struct callpath_model *m)
{
	double c;

	/* a saturated sum is no count to compare (a corrupt or forged file) */
	if (m->process_cpu_s <= 0 || m->hz <= 0 || m->metric.name[0] || m->saturated)
		return -1;
	c = (double)(m->total_samples + m->unplaced_samples) / m->hz / m->process_cpu_s;
	/* each thread's count is its CPU time within a period: a little over
	 * is rounding, not more than all of it */
	return c > 1.0 ? 1.0 : c;
}
