/*
 * folded.c - folded stacks for flame graphs, and their two-column diff.
 */
#define _GNU_SOURCE /* qsort_r */
#include "callpath/folded.h"

#include <errno.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/elide.h"
#include "callpath/pathdiff.h"
#include "callpath/pathrank.h"
#include "model/recursion.h"
#include "model/callpath_model.h"
#include "format/sidecar.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/printable.h"
#include "utils/satmath.h"
#include "utils/banned.h"

/*
 * A frame of a folded line: ';' separates frames and a line ends at a
 * newline, so a ';' in a name is written ':' (as flamegraph's
 * stackcollapse scripts do) and what is not printable text
 * (utils/printable.h: control characters, bad UTF-8) as \xNN.  Spaces stay
 * (C++ names have them): flamegraph.pl takes the count after the last one.
 * Writes the frame at out (when not NULL); returns its length.
 */
static size_t put_frame(char *out, const char *name)
{
	const unsigned char *p = (const unsigned char *)name;
	size_t n = 0, k;

	for (; *p; p += k ? k : 1) {
		k = printable_char(p);
		if (!k) {
			if (out)
				snprintf(out + n, 5, "\\x%02x", *p);
			n += 4;
		} else if (out) {
			memcpy(out + n, p, k);
			if (*p == ';')
				out[n] = ':';
			n += k;
		} else {
			n += k;
		}
	}
	return n;
}

/*
 * Folded stacks are built on a tree of names: frames whose paths name the
 * same functions (they differ only in call sites) are one node, so a
 * million frames of one recursive function are a few dozen nodes; each
 * node's line is written once, in order (pathrank.h), through the text of
 * the line before it, without sorting texts.
 */
struct name_tree {
	uint32_t *parent;	/* PATHRANK_ROOT for a top-level node */
	uint32_t *name;		/* index of its escaped name in esc[] */
	uint32_t *depth;	/* 1 for a top-level node */
	uint64_t *value;
	uint64_t *rec;		/* of value, calls folded in by recursion */
	uint32_t n, alloc;
	uint32_t *index, mask;	/* open addressing on (parent, name) */
	char **esc;		/* per model name: as a frame of a line (put_frame) */
	uint32_t *canon;	/* per model name: the first with the same esc[] */
};

/* Resize *p to n elements of `size` bytes; freed and NULL when out of memory. */
static void *resize(void *p, size_t n, size_t size)
{
	void *np = n && size <= SIZE_MAX / n ? realloc(p, n * size) : NULL;

	if (!np)
		free(p);
	return np;
}

static uint32_t node_hash(uint32_t parent, uint32_t name)
{
	uint64_t k = ((uint64_t)parent << 32 | name) * 0x9e3779b97f4a7c15ull;

	return (uint32_t)(k >> 32);
}

static int name_tree_grow(struct name_tree *t)
{
	uint32_t na = t->alloc ? 2 * t->alloc : 1024;
	uint32_t *ni;

	if (na < t->alloc)
		return -1;
	if (!(t->parent = resize(t->parent, na, sizeof(*t->parent))) ||
	    !(t->name = resize(t->name, na, sizeof(*t->name))) ||
	    !(t->depth = resize(t->depth, na, sizeof(*t->depth))) ||
	    !(t->value = resize(t->value, na, sizeof(*t->value))) ||
	    !(t->rec = resize(t->rec, na, sizeof(*t->rec))))
		return -1;
	t->alloc = na;
	/* the index at twice the nodes: load factor at most one half */
	ni = malloc((size_t)na * 2 * sizeof(*ni));
	if (!ni)
		return -1;
	memset(ni, 0xff, (size_t)na * 2 * sizeof(*ni));
	t->mask = na * 2 - 1;
	for (uint32_t i = 0; i < t->n; i++) {
		uint32_t h = node_hash(t->parent[i], t->name[i]);

		while (ni[h & t->mask] != UINT32_MAX)
			h++;
		ni[h & t->mask] = i;
	}
	free(t->index);
	t->index = ni;
	return 0;
}

/* The node (parent, model name index), added when missing; UINT32_MAX
 * when out of memory. */
static uint32_t name_tree_child(struct name_tree *t, uint32_t parent, uint32_t name)
{
	uint32_t h, i;

	name = t->canon[name];
	if (t->index) {
		for (h = node_hash(parent, name);; h++) {
			i = t->index[h & t->mask];
			if (i == UINT32_MAX)
				break;
			if (t->parent[i] == parent && t->name[i] == name)
				return i;
		}
	}
	if (t->n == t->alloc && name_tree_grow(t) < 0)
		return UINT32_MAX;
	i = t->n++;
	t->parent[i] = parent;
	t->name[i] = name;
	t->depth[i] = parent == PATHRANK_ROOT ? 1 : t->depth[parent] + 1;
	t->value[i] = 0;
	t->rec[i] = 0;
	for (h = node_hash(parent, name); t->index[h & t->mask] != UINT32_MAX; h++)
		;
	t->index[h & t->mask] = i;
	return i;
}

static void name_tree_release(struct name_tree *t, uint32_t nr_names)
{
	if (t->esc)
		for (uint32_t i = 0; i < nr_names; i++)
			free(t->esc[i]);
	free(t->esc);
	free(t->canon);
	free(t->parent);
	free(t->name);
	free(t->depth);
	free(t->value);
	free(t->rec);
	free(t->index);
}

static int cmp_esc(const void *pa, const void *pb, void *ctx)
{
	char **esc = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int c = strcmp(esc[a], esc[b]);

	return c ? c : (a > b) - (a < b);
}

/* Every name as a frame of a line, and one index per distinct text. */
static int name_tree_names(struct name_tree *t, const struct callpath_model *m)
{
	uint32_t *by_text = malloc(((size_t)m->nr_names + 1) * sizeof(*by_text));

	t->esc = calloc((size_t)m->nr_names + 1, sizeof(*t->esc));
	t->canon = malloc(((size_t)m->nr_names + 1) * sizeof(*t->canon));
	if (!by_text || !t->esc || !t->canon)
		goto oom;
	for (uint32_t i = 0; i < m->nr_names; i++) {
		size_t len = put_frame(NULL, m->names[i]);

		t->esc[i] = malloc(len + 1);
		if (!t->esc[i])
			goto oom;
		put_frame(t->esc[i], m->names[i]);
		t->esc[i][len] = '\0';
		by_text[i] = i;
	}
	qsort_r(by_text, m->nr_names, sizeof(*by_text), cmp_esc, t->esc);
	for (uint32_t k = 0; k < m->nr_names; k++)
		t->canon[by_text[k]] = k && !strcmp(t->esc[by_text[k]], t->esc[by_text[k - 1]])
					       ? t->canon[by_text[k - 1]] : by_text[k];
	free(by_text);
	return 0;
oom:
	free(by_text);
	return -1;
}

static size_t name_segment(void *ctx, uint32_t node, char *buf, size_t len)
{
	const struct name_tree *t = ctx;
	const char *s = t->esc[t->name[node]];
	size_t n = strlen(s);

	if (len)
		memcpy(buf, s, n < len ? n + 1 : len);
	if (len && n >= len)
		buf[len - 1] = '\0';
	return n;
}

/*
 * node[idx]: frame idx's node in the name tree; its parent's (or its
 * maker's) is known.  A folded-recursion frame whose maker is known
 * (recursion.h: the one frame of the function that made the recursive
 * calls, under the frame they fold into) is one line per call site
 * whatever the depth: the maker's path and the callee ("main;fib;fib
 * 2692536", "main;even;odd;even 54", "main;a;b;c;a"), so that the last two
 * frames of every line are the (caller, callee) of its calls and every
 * line is a stack that happened.
 */
static int name_tree_node(struct name_tree *t, const struct callpath_model *m,
			  const uint32_t *maker, uint32_t idx, uint32_t *node)
{
	const struct callpath_frame *f = &m->frames[idx];
	uint32_t up = f->folded && maker && maker[idx] != CALLPATH_NONE ? maker[idx]
									 : f->parent;
	uint32_t p = up == CALLPATH_NONE ? PATHRANK_ROOT : node[up];

	node[idx] = name_tree_child(t, p, f->func);
	return node[idx] == UINT32_MAX ? -1 : 0;
}

/*
 * maker[i] for the folded frames of m (recursion.h); NULL when out of
 * memory.  A folded frame has no children (the model keeps it apart from
 * frames of calls: callpath_model_add_kind): one that had would be its own
 * maker's ancestor, and name_tree_build's walk from a frame through
 * makers and parents would go round for ever, writing past its chain.
 * Such a frame is taken as a frame of calls, whose walk goes to its parent.
 */
static uint32_t *recursion_makers_of(const struct callpath_model *m)
{
	size_t n = (size_t)m->nr_frames + 1;
	uint32_t *maker = malloc(n * sizeof(*maker)), *parent = malloc(n * sizeof(*parent));
	uint64_t *func = malloc(n * sizeof(*func)), *caller = malloc(n * sizeof(*caller));
	unsigned char *folded = malloc(n), *kids = calloc(n, 1);
	int bad = !maker || !parent || !func || !caller || !folded || !kids;

	for (uint32_t i = 0; !bad && i < m->nr_frames; i++)
		if (m->frames[i].parent != CALLPATH_NONE && m->frames[i].parent < i)
			kids[m->frames[i].parent] = 1;
	for (uint32_t i = 0; !bad && i < m->nr_frames; i++) {
		const struct callpath_frame *f = &m->frames[i];

		parent[i] = f->parent;
		func[i] = f->func;
		folded[i] = f->folded && !kids[i];
		caller[i] = folded[i] && f->caller != CALLPATH_NONE ? f->caller
								    : RECURSION_UNKNOWN;
	}
	if (!bad && recursion_makers(m->nr_frames, parent, CALLPATH_NONE, func, folded,
				     caller, maker) < 0)
		bad = 1;
	free(parent);
	free(func);
	free(caller);
	free(folded);
	free(kids);
	if (bad) {
		free(maker);
		return NULL;
	}
	return maker;
}

/* The name tree of the model's frames, with each frame's value on its
 * node. */
static int name_tree_build(struct name_tree *t, const struct callpath_model *m,
			   enum folded_value value)
{
	uint32_t *node = malloc(((size_t)m->nr_frames + 1) * sizeof(*node));
	uint32_t *chain = malloc(((size_t)m->nr_frames + 1) * sizeof(*chain));
	uint32_t *maker = NULL;

	if (!node || !chain || name_tree_names(t, m) < 0)
		goto oom;
	if (value == FOLDED_CALLS && !(maker = recursion_makers_of(m)))
		goto oom;
	/* only the frames with a value and their ancestors get a node: time
	 * samples land in few of a million frames */
	memset(node, 0xff, ((size_t)m->nr_frames + 1) * sizeof(*node));
	for (uint32_t i = 0; i < m->nr_frames; i++) {
		const struct callpath_frame *f = &m->frames[i];
		uint64_t v = value == FOLDED_SAMPLES ? f->samples
			     : value == FOLDED_WEIGHTED
			     ? f->samples * (m->metric.period ? m->metric.period : 1)
			     : f->folded ? f->recursive : f->count;

		/* gprof's count, and --folded-calls' where the maker is not
		 * known: recursive calls on the frame they fold into */
		int on_parent = f->folded && f->parent != CALLPATH_NONE &&
				(value == FOLDED_CALLS_GPROF ||
				 (maker && maker[i] == CALLPATH_NONE));
		uint32_t target = on_parent ? f->parent : i, nc = 0;

		if (!v)
			continue;
		for (uint32_t k = target; k != CALLPATH_NONE && node[k] == UINT32_MAX;
		     k = m->frames[k].folded && maker && maker[k] != CALLPATH_NONE
				 ? maker[k] : m->frames[k].parent)
			chain[nc++] = k;
		while (nc)
			if (name_tree_node(t, m, maker, chain[--nc], node) < 0)
				goto oom;
		t->value[node[target]] = sat_add_u64(t->value[node[target]], v);
		if (on_parent)
			t->rec[node[target]] = sat_add_u64(t->rec[node[target]], v);
	}
	free(node);
	free(chain);
	free(maker);
	return 0;
oom:
	free(node);
	free(chain);
	free(maker);
	return -1;
}

/* Append the escaped name of name-tree node k to *text, ';' first unless
 * it is the first frame.  0 or -1 (out of memory). */
static int put_node(struct name_tree *t, uint32_t k, int first, char **text,
		    size_t *len, size_t *alloc)
{
	const char *e = t->esc[t->name[k]];
	size_t n = strlen(e);

	if (*len + n + 2 > *alloc) {
		*alloc = 2 * (*len + n + 2);
		*text = resize(*text, *alloc, 1);
		if (!*text)
			return -1;
	}
	if (!first)
		(*text)[(*len)++] = ';';
	memcpy(*text + *len, e, n);
	*len += n;
	return 0;
}

static int cmp_stacks(const void *pa, const void *pb)
{
	const struct folded_stack *a = pa, *b = pb;

	return strcmp(a->stack, b->stack);
}

/*
 * Elided lines (elide.h) are not in the order of the full texts, and two
 * paths of one depth that differ only in their elided middle have one
 * text: sorted again, and such lines merged (their values summed, as
 * flamegraph.pl sums repeated stacks).
 */
static void sort_and_merge(struct folded *f)
{
	size_t k = 0;

	qsort(f->stacks, f->nr, sizeof(*f->stacks), cmp_stacks);
	for (size_t i = 0; i < f->nr; i++) {
		if (k && !strcmp(f->stacks[k - 1].stack, f->stacks[i].stack)) {
			f->stacks[k - 1].count = sat_add_u64(f->stacks[k - 1].count,
							     f->stacks[i].count);
			f->stacks[k - 1].recursive = sat_add_u64(f->stacks[k - 1].recursive,
								 f->stacks[i].recursive);
			free(f->stacks[i].stack);
			continue;
		}
		f->stacks[k++] = f->stacks[i];
	}
	f->nr = k;
}

int folded_build(const struct callpath_model *m, enum folded_value value,
		 struct folded **out)
{
	struct folded *f = calloc(1, sizeof(*f));
	struct name_tree t = { 0 };
	uint32_t *rank = NULL, *order = NULL, *path = NULL;
	size_t off[ELIDE_FRAMES + 1];
	char *text = NULL, *line = NULL;
	size_t len = 0, alloc = 0, line_len, line_alloc = 0;
	uint32_t pdepth = 0, tdepth = 0;
	int ret = -1, elided = 0;

	*out = NULL;
	if (!f || name_tree_build(&t, m, value) < 0)
		goto out;
	f->stacks = calloc((size_t)t.n + 1, sizeof(*f->stacks));
	rank = malloc(((size_t)t.n + 1) * sizeof(*rank));
	order = malloc(((size_t)t.n + 1) * sizeof(*order));
	path = malloc(((size_t)t.n + 1) * sizeof(*path));
	if (!f->stacks || !rank || !order || !path ||
	    pathrank(t.n, t.parent, name_segment, &t, ";", rank) < 0)
		goto out;
	for (uint32_t i = 0; i < t.n; i++)
		order[rank[i]] = i;
	/*
	 * In text order, which is the name tree's depth-first order: path[]
	 * (node indices, root first) is updated from the line before, up to
	 * their last common node, so the whole walk costs the tree's size.
	 * The text of only the first ELIDE_FRAMES frames is kept (text,
	 * off[d]: its length after d frames; tdepth frames valid): a deeper
	 * line is its first ELIDE_HEAD frames, the marker and its last
	 * ELIDE_TAIL frames (elide.h), so no line, and nothing kept, grows
	 * with the depth.
	 */
	off[0] = 0;
	for (uint32_t r = 0; r < t.n; r++) {
		uint32_t i = order[r], depth = t.depth[i], d = depth, omitted;

		if (!t.value[i])
			continue;
		for (uint32_t k = i; d > 0 && (d > pdepth || path[d - 1] != k);
		     k = t.parent[k])
			path[--d] = k;
		pdepth = depth;
		/* frames [0, d) are the line before's; the text holds the
		 * first min(d, tdepth) of them */
		if (tdepth > d)
			tdepth = d;
		len = off[tdepth];
		for (; tdepth < depth && tdepth < ELIDE_FRAMES; tdepth++) {
			if (put_node(&t, path[tdepth], tdepth == 0, &text, &len, &alloc) < 0)
				goto out;
			off[tdepth + 1] = len;
		}
		omitted = elide_omitted(depth);
		if (!omitted) {
			f->stacks[f->nr].stack = strndup(text, len);
		} else {
			char marker[ELIDE_MARKER_MAX];
			size_t mlen = elide_marker(marker, omitted);

			line_len = off[ELIDE_HEAD];
			if (line_len + mlen + 2 > line_alloc) {
				line_alloc = 2 * (line_len + mlen + 2);
				if (!(line = resize(line, line_alloc, 1)))
					goto out;
			}
			memcpy(line, text, line_len);
			line[line_len++] = ';';
			memcpy(line + line_len, marker, mlen);
			line_len += mlen;
			for (uint32_t k = depth - ELIDE_TAIL; k < depth; k++)
				if (put_node(&t, path[k], 0, &line, &line_len, &line_alloc) < 0)
					goto out;
			f->stacks[f->nr].stack = strndup(line, line_len);
			elided = 1;
		}
		if (!f->stacks[f->nr].stack)
			goto out;
		f->stacks[f->nr].recursive = t.rec[i];
		f->stacks[f->nr++].count = t.value[i];
	}
	if (elided)
		sort_and_merge(f);
	*out = f;
	f = NULL;
	ret = 0;
out:
	free(text);
	free(line);
	free(rank);
	free(order);
	free(path);
	name_tree_release(&t, m->nr_names);
	folded_free(f);
	return ret < 0 ? error("out of memory while folding call paths") : 0;
}

const char *folded_no_samples_why(const struct callpath_model *m, char *buf, size_t n)
{
	const char *ev = m->metric.name;

	if (!ev[0] && !(m->sampling & SIDECAR_SAMPLING_SELF))
		return "has no time samples (written by an older runtime, or the "
		       "program ran without the profiling timer)";
	if (m->total_samples)
		return NULL;
	if (ev[0] && m->unplaced_samples)
		snprintf(buf, n, "holds no overflow of %s in a calling context (its %llu "
			 "overflows came outside the program or inside the runtime)", ev,
			 (unsigned long long)m->unplaced_samples);
	else if (ev[0])
		snprintf(buf, n, "holds no overflow of %s: the run counted fewer than "
			 "one period of it (%llu %s) in each thread", ev,
			 (unsigned long long)(m->metric.period ? m->metric.period : 1),
			 m->metric.unit[0] ? m->metric.unit : "events");
	else if (m->unplaced_samples)
		snprintf(buf, n, "holds no time sample in a calling context (its %llu "
			 "samples were taken outside the program or inside the runtime)",
			 (unsigned long long)m->unplaced_samples);
	else
		snprintf(buf, n, "holds no time sample: the run was shorter than a tick "
			 "of the profiling timer (%g ms at %g Hz)",
			 m->hz > 0 ? 1000.0 / m->hz : 10.0, m->hz > 0 ? m->hz : 100.0);
	return buf;
}

void folded_free(struct folded *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nr; i++)
		free(f->stacks[i].stack);
	free(f->stacks);
	free(f);
}

int folded_write(FILE *fp, const struct folded *f)
{
	for (size_t i = 0; i < f->nr; i++)
		fprintf(fp, "%s %" PRIu64 "\n", f->stacks[i].stack, f->stacks[i].count);
	return ferror(fp) ? -1 : 0;
}

int folded_write_diff(FILE *fp, const struct pathdiff *d)
{
	for (size_t i = 0; i < d->nr; i++)
		fprintf(fp, "%s %" PRIu64 " %" PRIu64 "\n", d->rows[i].stack,
			d->rows[i].a, d->rows[i].b);
	return ferror(fp) ? -1 : 0;
}

static int write_folded(FILE *fp, const void *f)
{
	return folded_write(fp, f);
}

static int write_folded_diff(FILE *fp, const void *d)
{
	return folded_write_diff(fp, d);
}

int folded_save(struct outset *set, const char *path, const struct folded *f)
{
	return outfile_write(set, path, write_folded, f);
}

int folded_save_diff(struct outset *set, const char *path, const struct pathdiff *d)
{
	return outfile_write(set, path, write_folded_diff, d);
}
