/*
 * report.c - name a call-path sidecar through gprof's symbols, and print the
 * call-path profile (iPath) and the calling-context tree (GPTL).
 */
#define _GNU_SOURCE /* qsort_r */
#include "callpath/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callpath/sidecar.h"
#include "diff/profile.h"
#include "utils/error.h"
#include "utils/banned.h"

#define UNKNOWN_NAME "[unknown]"
#define EXTERNAL_NAME "[external]"	/* call site 0: from outside the program */

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
	free(m->name_index);
	free(m->frame_index);
	free(m);
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

static uint32_t name_hash_of(const struct callpath_model *m, uint32_t i)
{
	return str_hash(m->names[i]);
}

static uint32_t frame_hash_of(const struct callpath_model *m, uint32_t i)
{
	const struct callpath_frame *f = &m->frames[i];

	return frame_hash(f->parent, f->func, f->site);
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
	uint32_t h, i;

	if ((parent != CALLPATH_NONE && parent >= m->nr_frames) ||
	    func >= m->nr_names || site >= m->nr_names)
		return -1;
	if (m->frame_index) {
		for (h = frame_hash(parent, func, site);; h++) {
			const struct callpath_frame *f;

			i = m->frame_index[h & m->frame_mask];
			if (i == CALLPATH_NONE)
				break;
			f = &m->frames[i];
			if (f->parent == parent && f->func == func && f->site == site) {
				m->frames[i].count += count;
				m->total += count;
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
	    index_grow(&m->frame_index, &m->frame_mask, m->nr_frames,
		       frame_hash_of, m) < 0)
		return -1;
	i = m->nr_frames++;
	m->frames[i].parent = parent;
	m->frames[i].func = func;
	m->frames[i].site = site;
	m->frames[i].count = count;
	m->total += count;
	for (h = frame_hash(parent, func, site);
	     m->frame_index[h & m->frame_mask] != CALLPATH_NONE; h++)
		;
	m->frame_index[h & m->frame_mask] = i;
	if (idx)
		*idx = i;
	return 0;
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

/* ------------------------------------------------------------------------ */
/* Symbolisation                                                             */

/*
 * Functions by address.  With -l, upstream's table holds a symbol per source
 * line besides the function symbols (PSYM_FUNC); a function then extends
 * over the line symbols of its name that follow it.
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
		    !strcmp(s->name, last->sym_name)) {
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
	size_t lo = 0, hi = st->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->f[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr > st->f[lo - 1].end)
		return NULL;
	return &st->f[lo - 1];
}

static uint32_t intern_func(struct callpath_model *m, const struct symtab *st,
			    uint64_t link_addr, int known)
{
	const struct func_range *f = known ? symtab_find(st, link_addr) : NULL;

	return callpath_model_intern(m, f ? f->name : UNKNOWN_NAME);
}

static uint32_t intern_site(struct callpath_model *m, const struct symtab *st,
			    const struct callpath_symopts *so, uint64_t link_addr,
			    int known)
{
	const struct func_range *f = known ? symtab_find(st, link_addr) : NULL;
	char buf[4096];
	const char *file;
	int line;

	if (!f)
		return callpath_model_intern(m, UNKNOWN_NAME);
	/* A return address belongs to the line after the call; the byte
	 * before it is the call instruction's. */
	if (so && so->lines && so->addr_to_line && link_addr > f->addr &&
	    so->addr_to_line(link_addr - 1, &file, &line) == 0 && file) {
		const char *slash = strrchr(file, '/');

		if (!so->full_paths && slash)
			file = slash + 1;
		snprintf(buf, sizeof(buf), "%s:%d", file, line);
		return callpath_model_intern(m, buf);
	}
	snprintf(buf, sizeof(buf), "%s+0x%" PRIx64, f->name, link_addr - f->addr);
	return callpath_model_intern(m, buf);
}

int callpath_model_build(const struct sidecar *sc, const struct profile *p,
			 const struct callpath_symopts *so,
			 struct callpath_model **out)
{
	struct callpath_model *m = callpath_model_new();
	struct symtab st = { NULL, 0 };
	uint32_t *map = NULL;
	uint64_t bias = sc->load_address;
	int ret = -1;

	*out = NULL;
	if (!m || symtab_build(&st, p) < 0)
		goto oom;
	map = malloc(((size_t)sc->nr_nodes + 1) * sizeof(*map));
	if (!map)
		goto oom;
	for (uint32_t i = 0; i < sc->nr_nodes; i++) {
		const struct sidecar_node *n = &sc->nodes[i];
		uint32_t parent = n->parent == SIDECAR_ROOT ? CALLPATH_NONE
							    : map[n->parent];
		uint32_t func = intern_func(m, &st, n->callee - bias, n->callee >= bias);
		uint32_t site = n->call_site == 0
					? callpath_model_intern(m, EXTERNAL_NAME)
					: intern_site(m, &st, so, n->call_site - bias,
						      n->call_site >= bias);

		if (func == CALLPATH_NONE || site == CALLPATH_NONE ||
		    callpath_model_add(m, parent, func, site, n->count, &map[i]) < 0)
			goto oom;
	}
	*out = m;
	m = NULL;
	ret = 0;
	goto out;
oom:
	error("out of memory while naming call paths");
out:
	free(map);
	free(st.f);
	callpath_model_free(m);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* Printing                                                                  */

struct report_ctx {
	const struct callpath_model *m;
	uint64_t *func_calls;	/* per name index: calls of that function */
	uint32_t *func_paths;	/* per name index: frames naming it */
	char **path_text;	/* per frame, built lazily for sorting */
};

static int cmp_funcs(const void *pa, const void *pb, void *ctx)
{
	const struct report_ctx *rc = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	uint64_t ca = rc->func_calls[a], cb = rc->func_calls[b];

	if (ca != cb)
		return ca > cb ? -1 : 1;
	return strcmp(rc->m->names[a], rc->m->names[b]);
}

static int cmp_frames_by_text(const void *pa, const void *pb, void *ctx)
{
	const struct report_ctx *rc = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct callpath_frame *fa = &rc->m->frames[a];
	const struct callpath_frame *fb = &rc->m->frames[b];

	if (fa->count != fb->count)
		return fa->count > fb->count ? -1 : 1;
	return strcmp(rc->path_text[a], rc->path_text[b]);
}

/* Siblings in the tree: most calls first, then by name and call site. */
static int cmp_siblings(const void *pa, const void *pb, void *ctx)
{
	const struct report_ctx *rc = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct callpath_model *m = rc->m;
	const struct callpath_frame *fa = &m->frames[a], *fb = &m->frames[b];
	int c;

	if (fa->count != fb->count)
		return fa->count > fb->count ? -1 : 1;
	c = strcmp(m->names[fa->func], m->names[fb->func]);
	return c ? c : strcmp(m->names[fa->site], m->names[fb->site]);
}

/* A top-level frame's call site is left out when it is outside the program
 * (main called by the C library): it tells nothing. */
static int site_untold(const char *site)
{
	return !strcmp(site, UNKNOWN_NAME) || !strcmp(site, EXTERNAL_NAME);
}

/* "main -> b (main+0x4a) -> c (b+0x13)": each frame with its call site;
 * a top-level frame's site is left out when untold (site_untold). */
static char *path_text(const struct callpath_model *m, uint32_t idx, uint32_t *buf)
{
	uint32_t depth = callpath_model_path(m, idx, buf, m->nr_frames);
	size_t len = 1;
	char *s, *p;

	for (uint32_t d = 0; d < depth; d++) {
		const struct callpath_frame *f = &m->frames[buf[d]];

		len += strlen(m->names[f->func]) + strlen(m->names[f->site]) + 8;
	}
	s = malloc(len);
	if (!s)
		return NULL;
	p = s;
	*p = '\0';
	for (uint32_t d = 0; d < depth; d++) {
		const struct callpath_frame *f = &m->frames[buf[d]];
		const char *site = m->names[f->site];
		int n;

		if (d == 0 && site_untold(site))
			n = snprintf(p, len, "%s", m->names[f->func]);
		else
			n = snprintf(p, len, "%s%s (%s)", d ? " -> " : "",
				     m->names[f->func], site);
		p += n;
		len -= (size_t)n;
	}
	return s;
}

/* FIRST[fn] .. FIRST[fn + 1] index, in BY_FUNC, the frames of function fn,
 * in frame order: one pass over the frames instead of one per function
 * (600 million iterations at 20,000 functions).  FIRST has nr_names + 1
 * entries, BY_FUNC nr_frames. */
static void index_frames_by_func(const struct callpath_model *m, uint32_t *first,
				 uint32_t *by_func)
{
	memset(first, 0, ((size_t)m->nr_names + 1) * sizeof(*first));
	for (uint32_t i = 0; i < m->nr_frames; i++)
		first[m->frames[i].func + 1]++;
	for (uint32_t fn = 0; fn < m->nr_names; fn++)
		first[fn + 1] += first[fn];
	for (uint32_t i = 0; i < m->nr_frames; i++)
		by_func[first[m->frames[i].func]++] = i;
	/* the fill moved each start to the next function's: shift back */
	for (uint32_t fn = m->nr_names; fn > 0; fn--)
		first[fn] = first[fn - 1];
	first[0] = 0;
}

static void print_profile(FILE *out, struct report_ctx *c, const uint32_t *funcs,
			  uint32_t nfuncs, const uint32_t *first, uint32_t *frames_by_func)
{
	const struct callpath_model *m = c->m;

	fputs("Each function's calls, split by the path that reached it.  A path\n"
	      "lists the functions from the outermost, each with the call site it\n"
	      "was called from (the return address, as function+offset, or\n"
	      "file:line with -l).\n\n", out);
	for (uint32_t k = 0; k < nfuncs; k++) {
		uint32_t fn = funcs[k], n = first[fn + 1] - first[fn];
		uint32_t *by_func = frames_by_func + first[fn];
		uint64_t calls = c->func_calls[fn];

		qsort_r(by_func, n, sizeof(*by_func), cmp_frames_by_text, (void *)c);
		fprintf(out, "%s: %" PRIu64 " call%s, %u path%s\n", m->names[fn],
			calls, calls == 1 ? "" : "s", n, n == 1 ? "" : "s");
		fputs("       calls  %calls  path\n", out);
		for (uint32_t j = 0; j < n; j++) {
			const struct callpath_frame *f = &m->frames[by_func[j]];

			fprintf(out, "%12" PRIu64 " %6.2f  %s\n", f->count,
				calls ? 100.0 * (double)f->count / (double)calls : 0.0,
				c->path_text[by_func[j]]);
		}
		fputc('\n', out);
	}
}

/* Children lists, sorted, as one array with offsets (CSR). */
static int print_tree(FILE *out, struct report_ctx *c)
{
	const struct callpath_model *m = c->m;
	uint32_t n = m->nr_frames;
	uint32_t *first = calloc((size_t)n + 2, sizeof(*first));
	uint32_t *kids = malloc(((size_t)n + 1) * sizeof(*kids));
	uint32_t *fill = calloc((size_t)n + 2, sizeof(*fill));
	uint32_t *stack = malloc(((size_t)n + 1) * sizeof(*stack));
	int ret = -1;

	if (!first || !kids || !fill || !stack)
		goto out;
	/* slot 0 is the root; frame i's children are in slot i + 1 */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = m->frames[i].parent;

		first[(p == CALLPATH_NONE ? 0 : p + 1) + 1]++;
	}
	for (uint32_t s = 1; s <= n + 1; s++)
		first[s] += first[s - 1];
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = m->frames[i].parent;
		uint32_t slot = p == CALLPATH_NONE ? 0 : p + 1;

		kids[first[slot] + fill[slot]++] = i;
	}
	for (uint32_t s = 0; s <= n; s++)
		qsort_r(kids + first[s], first[s + 1] - first[s], sizeof(*kids),
			cmp_siblings, c);

	fputs("\t\t\tCalling-context tree\n\n"
	      "Every path as a tree, callees indented under their callers; a '*'\n"
	      "marks a function reached along more than one path.\n\n"
	      "       calls  function (call site)\n", out);
	/* Depth-first without recursion: paths can be thousands deep. Pushing
	 * children in reverse keeps the sorted order. */
	{
		uint32_t sp = 0;

		for (uint32_t k = first[1]; k > first[0]; k--)
			stack[sp++] = kids[k - 1];
		while (sp) {
			uint32_t i = stack[--sp];
			const struct callpath_frame *f = &m->frames[i];
			uint32_t depth = callpath_model_path(m, i, NULL, 0);
			const char *site = m->names[f->site];

			fprintf(out, "%12" PRIu64 "  %*s%s%s", f->count,
				(int)(2 * (depth - 1)), "",
				c->func_paths[f->func] > 1 ? "*" : "",
				m->names[f->func]);
			if (depth > 1 || !site_untold(site))
				fprintf(out, " (%s)", site);
			fputc('\n', out);
			for (uint32_t k = first[i + 2]; k > first[i + 1]; k--)
				stack[sp++] = kids[k - 1];
		}
	}
	ret = 0;
out:
	free(first);
	free(kids);
	free(fill);
	free(stack);
	return ret;
}

int callpath_report_print(FILE *out, const struct callpath_model *m,
			  const char *source)
{
	struct report_ctx c = { m, NULL, NULL, NULL };
	uint32_t *funcs = NULL, *buf = NULL, *first = NULL, nfuncs = 0;
	int ret = -1;

	c.func_calls = calloc((size_t)m->nr_names + 1, sizeof(*c.func_calls));
	c.func_paths = calloc((size_t)m->nr_names + 1, sizeof(*c.func_paths));
	c.path_text = calloc((size_t)m->nr_frames + 1, sizeof(*c.path_text));
	funcs = malloc(((size_t)m->nr_names + 1) * sizeof(*funcs));
	buf = malloc(((size_t)m->nr_frames + 1) * sizeof(*buf));
	first = malloc(((size_t)m->nr_names + 1) * sizeof(*first));
	if (!c.func_calls || !c.func_paths || !c.path_text || !funcs || !buf || !first)
		goto out;
	for (uint32_t i = 0; i < m->nr_frames; i++) {
		const struct callpath_frame *f = &m->frames[i];

		if (!c.func_paths[f->func]++)
			funcs[nfuncs++] = f->func;
		c.func_calls[f->func] += f->count;
		c.path_text[i] = path_text(m, i, buf);
		if (!c.path_text[i])
			goto out;
	}
	qsort_r(funcs, nfuncs, sizeof(*funcs), cmp_funcs, &c);

	fputs("\f\n\t\t\tCall-path profile\n\n", out);
	fprintf(out, "From '%s': %" PRIu64 " calls along %u paths to %u functions.\n\n",
		source, m->total, m->nr_frames, nfuncs);
	index_frames_by_func(m, first, buf);
	print_profile(out, &c, funcs, nfuncs, first, buf);
	fputc('\f', out);
	fputc('\n', out);
	if (print_tree(out, &c) < 0)
		goto out;
	ret = 0;
out:
	if (ret < 0)
		error("out of memory while printing call paths");
	if (c.path_text)
		for (uint32_t i = 0; i < m->nr_frames; i++)
			free(c.path_text[i]);
	free(c.path_text);
	free(c.func_calls);
	free(c.func_paths);
	free(funcs);
	free(buf);
	free(first);
	return ret;
}
