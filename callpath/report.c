/*
 * report.c - print a run's calling contexts (model/callpath_model.h): the
 * call-path profile (iPath) and the calling-context tree (GPTL).
 */
#define _GNU_SOURCE /* qsort_r */
#include "callpath/report.h"
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
/* Printing                                                                  */

struct frame_names {
	uint32_t func, site;
};

struct report_ctx {
	const struct callpath_model *m;
	int timed;		/* the sidecar has samples: print time */
	uint64_t *rec;		/* per frame: recursive calls folded into it */
	uint64_t *func_calls;	/* per name index: calls of that function */
	uint64_t *func_samples;	/* per name index: self samples of that function */
	uint32_t *func_paths;	/* per name index: frames naming it */
	uint64_t *incl;		/* per frame: inclusive samples */
	uint32_t *first, *kids;	/* children of frame i: kids[first[i + 1]..first[i + 2]),
				   of the root: kids[first[0]..first[1]) */
	uint32_t *rank;		/* per frame: its path text's place in strcmp
				   order (pathrank.h), for sorting */
	uint32_t *depth;	/* per frame: 1 for a top-level frame */
	struct frame_names *fnames;	/* per frame: its names, apart from
				   the frames as parents are */
	uint32_t *parents;	/* per frame: its parent (PATHRANK_ROOT for none),
				   apart from the frames so that walking a path
				   touches 4 bytes a frame */
	size_t *name_len;	/* per name index: strlen */
	struct path_elider *elider;	/* deep paths' printed frames */
	int all_paths;		/* --all-paths: no path or node left out */
};

/*
 * The paths that matter (pprof's -nodefraction and -nodecount, perf
 * report's --percent-limit): a function's paths, most time first, until
 * they cover PATHS_COVER percent of its time (of its calls, untimed), at
 * most PATHS_MAX of them; the tree's nodes of at least TREE_MIN_PERMILLE
 * of the run's time (calls).  What is left out is counted on a line of
 * its own, so that nothing disappears unsaid; --all-paths prints all.  A
 * program of two mutually recursive functions has a million paths each:
 * 430 MB of text nobody reads.
 */
#define PATHS_COVER 95
#define PATHS_MAX 20
#define TREE_MIN_PERMILLE 5

/* " %W.2f" of v, as printf writes it, without printf (utils/line.h): a
 * million-row report spends a third of its time in printf's exact decimal
 * conversion. */
static int line_fixed2(struct line *l, double v, int width)
{
	return line_char(l, ' ') | line_fixed(l, v, width, 2);
}


static double seconds(const struct report_ctx *c, uint64_t samples)
{
	return c->m->hz > 0 ? (double)samples / c->m->hz : 0.0;
}

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a != b ? (a > b ? -1 : 1) : 0;
}

static int cmp_funcs(const void *pa, const void *pb, void *ctx)
{
	const struct report_ctx *rc = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int c = rc->timed ? cmp_u64_desc(rc->func_samples[a], rc->func_samples[b]) : 0;

	if (!c)
		c = cmp_u64_desc(rc->func_calls[a], rc->func_calls[b]);
	return c ? c : strcmp(rc->m->names[a], rc->m->names[b]);
}

/*
 * A function's paths: most self time first (with samples), then most
 * calls, then path text.  Sorted as keys copied out of the frames: a
 * function with a million paths compares each about 20 times, and every
 * comparison reading the frames and three per-frame arrays at random cost
 * a cache miss each.
 */
struct path_key {
	uint64_t samples, incl;	/* both 0 without samples */
	uint64_t calls;		/* count and folded recursive calls */
	uint64_t rec;		/* the folded recursive calls alone */
	uint32_t rank;		/* path text's place in strcmp order */
	uint32_t frame;
};

static void path_key_set(struct path_key *k, const struct report_ctx *rc,
			 uint32_t i)
{
	const struct callpath_frame *f = &rc->m->frames[i];

	k->samples = rc->timed ? f->samples : 0;
	k->incl = rc->timed ? rc->incl[i] : 0;
	k->calls = sat_add_u64(f->count, rc->rec[i]);
	k->rec = rc->rec[i];
	k->rank = rc->rank[i];
	k->frame = i;
}

static int cmp_path_keys(const void *pa, const void *pb, void *ctx)
{
	const struct path_key *keys = ctx;
	const struct path_key *a = &keys[*(const uint32_t *)pa];
	const struct path_key *b = &keys[*(const uint32_t *)pb];
	int c = cmp_u64_desc(a->samples, b->samples);

	if (!c)
		c = cmp_u64_desc(a->incl, b->incl);
	if (!c)
		c = cmp_u64_desc(a->calls, b->calls);
	return c ? c : cmp_u64_desc(b->rank, a->rank);
}

/*
 * order[0..n) := the indices of keys[0..n) in cmp_path_keys order.  The
 * fields are packed into one radix key when they fit its 128 bits (each
 * field in the bits its largest value needs; descending ones stored as
 * max - v), which sorts a million paths in a few passes over contiguous
 * memory instead of twenty million comparisons reading keys at random;
 * qsort_r otherwise.  Ranks are unique, so both give one order.
 */
static void sort_paths(const struct path_key *keys, uint32_t n, uint32_t *order,
		       struct radix_item *ra, struct radix_item *rb)
{
	uint64_t ms = 0, mi = 0, mc = 0, mr = 0;
	unsigned bs, bi, bc, br;
	const struct radix_item *sorted;

	for (uint32_t j = 0; j < n; j++) {
		ms = keys[j].samples > ms ? keys[j].samples : ms;
		mi = keys[j].incl > mi ? keys[j].incl : mi;
		mc = keys[j].calls > mc ? keys[j].calls : mc;
		mr = keys[j].rank > mr ? keys[j].rank : mr;
	}
	bs = radix_bits(ms);
	bi = radix_bits(mi);
	bc = radix_bits(mc);
	br = radix_bits(mr);
	if (bs + bi + bc + br > RADIX_KEY_MAX_BITS) {
		for (uint32_t j = 0; j < n; j++)
			order[j] = j;
		qsort_r(order, n, sizeof(*order), cmp_path_keys, (void *)keys);
		return;
	}
	for (uint32_t j = 0; j < n; j++) {
		struct radix_key k = RADIX_KEY_INIT;

		radix_key_push(&k, ms - keys[j].samples, bs);
		radix_key_push(&k, mi - keys[j].incl, bi);
		radix_key_push(&k, mc - keys[j].calls, bc);
		radix_key_push(&k, keys[j].rank, br);
		ra[j] = (struct radix_item){ k.lo, k.hi, j };
	}
	sorted = radix_sort(ra, rb, n, bs + bi + bc + br);
	for (uint32_t j = 0; j < n; j++)
		order[j] = sorted[j].value;
}

/* Siblings in the tree: most time (inclusive, with samples), then most
 * calls, then by name and call site. */
static int cmp_siblings(const void *pa, const void *pb, void *ctx)
{
	const struct report_ctx *rc = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	const struct callpath_model *m = rc->m;
	const struct callpath_frame *fa = &m->frames[a], *fb = &m->frames[b];
	int c = rc->timed ? cmp_u64_desc(rc->incl[a], rc->incl[b]) : 0;

	if (!c)
		c = cmp_u64_desc(sat_add_u64(fa->count, rc->rec[a]),
				 sat_add_u64(fb->count, rc->rec[b]));
	if (!c)
		c = strcmp(m->names[fa->func], m->names[fb->func]);
	return c ? c : strcmp(m->names[fa->site], m->names[fb->site]);
}


/* A frame's calls as gprof prints a recursive function's, "1+2692536",
 * right-aligned in 12 columns (without printf: see line_fixed2). */
static int line_calls(struct line *l, uint64_t count, uint64_t rec)
{
	char buf[48], *p = line_u64_digits(buf + sizeof(buf), rec ? rec : count);
	size_t n;

	if (rec) {
		*--p = '+';
		p = line_u64_digits(p, count);
	}
	n = (size_t)(buf + sizeof(buf) - p);
	if (line_reserve(l, 12 + n) < 0)
		return -1;
	for (; n < 12; n++)
		l->s[l->len++] = ' ';
	return line_put(l, p, (size_t)(buf + sizeof(buf) - p));
}

/* A frame's calls, or `-` where the sidecar's paths were sampled and no
 * call was counted (a 0 there would say the path was never called). */
static int line_calls_of(struct line *l, const struct callpath_model *m, uint64_t count,
			 uint64_t rec)
{
	if (m->calls_unmeasured)
		return line_str(l, "           -");
	return line_calls(l, count, rec);
}

/* A top-level frame's call site is left out when it is outside the program
 * (main called by the C library): it tells nothing. */
static int site_untold(const char *site)
{
	return !strcmp(site, UNKNOWN_NAME) || !strcmp(site, EXTERNAL_NAME);
}

/* A frame's part of its path's text: "b (main+0x4a)"; a top-level frame's
 * site is left out when untold (site_untold).  Its length; written (with
 * a NUL) only when buf[len] has room, as pathrank_segment_fn allows: a
 * million frames' segments cost a third of the ranking through snprintf. */
static size_t path_segment(void *ctx, uint32_t idx, char *buf, size_t len)
{
	const struct report_ctx *c = ctx;
	const struct callpath_model *m = c->m;
	const struct frame_names *f = &c->fnames[idx];
	const char *site = m->names[f->site];
	size_t nf = c->name_len[f->func], ns = c->name_len[f->site];
	int with_site = ns && !(c->parents[idx] == PATHRANK_ROOT && site_untold(site));
	size_t n = nf + (with_site ? ns + 3 : 0);

	if (n + 1 > len)
		return n;
	memcpy(buf, m->names[f->func], nf);
	if (with_site) {
		buf[nf] = ' ';
		buf[nf + 1] = '(';
		memcpy(buf + nf + 2, site, ns);
		buf[nf + 2 + ns] = ')';
	}
	buf[n] = '\0';
	return n;
}

#define PATH_SEPARATOR " -> "

/*
 * The text of the path last written, kept so that the next one, which
 * usually shares most of it (paths of a function in rank order are nearly
 * in tree order), rewrites only the frames after the common prefix
 * instead of walking a deep path through a model larger than the cache.
 * A path's text is never kept beyond that (pathrank.h).
 */
struct pathcache {
	uint32_t *frames;	/* the last path, root first: frames[0..depth) */
	size_t *off;		/* off[d]: the text's length after d frames */
	uint32_t depth;
	struct line text;
};

/* "main -> b (main+0x4a) -> c (b+0x13)": each frame with its call site; a
 * top-level frame's site is left out when untold (site_untold).  The text
 * is in pc->text. */
static int put_segment(struct line *l, const struct report_ctx *c, uint32_t idx,
		       int first);

static int pathcache_set(struct pathcache *pc, const struct report_ctx *c,
			 uint32_t idx)
{
	uint32_t depth = c->depth[idx], d = depth;
	int ret = 0;

	/* up to the deepest frame the last path shares (frames at one depth
	 * with one index have one path to the root) */
	for (uint32_t i = idx; d > 0 && (d > pc->depth || pc->frames[d - 1] != i);
	     i = c->parents[i])
		pc->frames[--d] = i;
	pc->text.len = pc->off[d];
	for (; d < depth; d++) {
		ret |= put_segment(&pc->text, c, pc->frames[d], d == 0);
		pc->off[d + 1] = pc->text.len;
	}
	pc->depth = depth;
	return ret;
}

/* A frame's segment of a path's text, " -> " first unless it is the
 * first frame; a top-level frame's untold site is left out. */
static int put_segment(struct line *l, const struct report_ctx *c, uint32_t idx,
		       int first)
{
	const struct callpath_model *m = c->m;
	const struct frame_names *f = &c->fnames[idx];
	const char *site = m->names[f->site];
	int ret = 0;

	if (!first)
		ret |= line_put(l, PATH_SEPARATOR, sizeof(PATH_SEPARATOR) - 1);
	ret |= line_put(l, m->names[f->func], c->name_len[f->func]);
	if (*site && (c->parents[idx] != PATHRANK_ROOT || !site_untold(site))) {
		ret |= line_put(l, " (", 2);
		ret |= line_put(l, site, c->name_len[f->site]);
		ret |= line_put(l, ")", 1);
	}
	return ret;
}

/*
 * The text of frame idx's path in l: pc's for a path of at most
 * ELIDE_FRAMES frames; a deeper one with its middle left out (elide.h),
 * its frames found through the elider whatever the depth, so a line costs
 * the same at any depth (pc is then emptied).
 */
static int path_text(struct line *l, struct pathcache *pc, const struct report_ctx *c,
		     uint32_t idx)
{
	uint32_t frames[ELIDE_FRAMES], omitted, k;
	char marker[ELIDE_MARKER_MAX];
	int ret = 0;

	if (!elide_omitted(c->depth[idx])) {
		ret = pathcache_set(pc, c, idx);
		return ret | line_put(l, pc->text.s, pc->text.len);
	}
	pc->depth = 0;
	k = path_elider_frames(c->elider, idx, frames, &omitted);
	for (uint32_t d = 0; d < k; d++) {
		if (d == ELIDE_HEAD) {
			ret |= line_put(l, PATH_SEPARATOR, sizeof(PATH_SEPARATOR) - 1);
			ret |= line_put(l, marker, elide_marker(marker, omitted));
		}
		ret |= put_segment(l, c, frames[d], d == 0);
	}
	return ret;
}

/* FIRST[fn] .. FIRST[fn + 1] index, in BY_FUNC, the frames of function fn,
 * in frame order: one pass over the frames instead of one per function
 * (600 million iterations at 20,000 functions).  FIRST has nr_names + 1
 * entries, BY_FUNC nr_frames. */
static void index_frames_by_func(const struct callpath_model *m, uint32_t *first,
				 uint32_t *by_func)
{
	/* folded-recursion frames are not paths: their calls show on the
	 * parent's row ("1+N") */
	memset(first, 0, ((size_t)m->nr_names + 1) * sizeof(*first));
	for (uint32_t i = 0; i < m->nr_frames; i++)
		if (!m->frames[i].folded)
			first[m->frames[i].func + 1]++;
	for (uint32_t fn = 0; fn < m->nr_names; fn++)
		first[fn + 1] += first[fn];
	for (uint32_t i = 0; i < m->nr_frames; i++)
		if (!m->frames[i].folded)
			by_func[first[m->frames[i].func]++] = i;
	/* the fill moved each start to the next function's: shift back */
	for (uint32_t fn = m->nr_names; fn > 0; fn--)
		first[fn] = first[fn - 1];
	first[0] = 0;
}

/* How many of a function's n paths, in `order`, the report prints
 * (PATHS_COVER, PATHS_MAX). */
static uint32_t paths_shown(const struct report_ctx *c, const struct path_key *keys,
			    const uint32_t *order, uint32_t n, uint64_t calls,
			    uint64_t samples)
{
	double s = 0, k = 0;
	uint32_t j;

	if (c->all_paths)
		return n;
	/* both the time and the calls covered (the rows come most time
	 * first, so a path of many calls and no sample is not dropped) */
	for (j = 0; j < n && j < PATHS_MAX; j++) {
		if (s * 100.0 >= (double)samples * PATHS_COVER &&
		    k * 100.0 >= (double)calls * PATHS_COVER)
			break;
		s += (double)keys[order[j]].samples;
		k += (double)keys[order[j]].calls;
	}
	return j ? j : (n ? 1 : 0);
}

/* "       ... 12 more paths: 3.1% of the time, 0.40% of the calls (--all-paths)" */
static int line_left_out(struct line *l, const struct report_ctx *c,
			 const struct path_key *keys, const uint32_t *order, uint32_t k,
			 uint64_t calls, uint64_t samples)
{
	uint64_t s = 0, n = 0;
	int ret = 0;

	for (uint32_t j = 0; j < k; j++) {
		s += keys[order[j]].samples;
		n += keys[order[j]].calls;
	}
	ret |= line_str(l, "       ... ");
	ret |= line_uint(l, k, 0);
	ret |= line_str(l, k == 1 ? " more path left out: " : " more paths left out: ");
	if (c->timed) {
		ret |= line_fixed(l, seconds(c, s), 0, 2);
		ret |= line_str(l, " s (");
		ret |= line_fixed(l, samples ? 100.0 * (double)s / (double)samples : 0.0, 0, 1);
		ret |= line_str(l, "% of its time), ");
	}
	ret |= line_uint(l, n, 0);
	ret |= line_str(l, n == 1 ? " call (" : " calls (");
	ret |= line_fixed(l, calls ? 100.0 * (double)n / (double)calls : 0.0, 0, 1);
	ret |= line_str(l, "% of its calls); --all-paths shows them\n");
	return ret;
}

static int print_profile(FILE *out, struct report_ctx *c, const uint32_t *funcs,
			 uint32_t nfuncs, const uint32_t *first, uint32_t *frames_by_func)
{
	const struct callpath_model *m = c->m;
	struct line l = LINE_INIT;
	struct pathcache pc = { NULL, NULL, 0, LINE_INIT };
	struct path_key *keys = NULL;	/* one function's paths at a time */
	struct radix_item *ra = NULL, *rb = NULL;	/* room to sort them */
	uint32_t most = 0, shown;
	int ret = 0;

	pc.frames = malloc((ELIDE_FRAMES + 1) * sizeof(*pc.frames));
	pc.off = calloc(ELIDE_FRAMES + 1, sizeof(*pc.off));
	for (uint32_t k = 0; k < nfuncs; k++)
		if (first[funcs[k] + 1] - first[funcs[k]] > most)
			most = first[funcs[k] + 1] - first[funcs[k]];
	keys = malloc(((size_t)most + 1) * sizeof(*keys));
	ra = malloc(((size_t)most + 1) * sizeof(*ra));
	rb = malloc(((size_t)most + 1) * sizeof(*rb));
	if (!pc.frames || !pc.off || !keys || !ra || !rb) {
		ret = -1;
		goto out;
	}

	fputs("Each function's calls, split by the path that reached it.  A path\n"
	      "lists the functions from the outermost, each with the call site it\n"
	      "was called from (the return address, as function+offset, or\n"
	      "file:line with -l).\n", out);
	if (c->timed)
		fputs("self s and incl s are the seconds measured on that path: in the\n"
		      "function itself, and in it and everything it called from there;\n"
		      "%time is the path's share of the function's self time.\n", out);
	fputc('\n', out);
	for (uint32_t k = 0; k < nfuncs; k++) {
		uint32_t fn = funcs[k], n = first[fn + 1] - first[fn];
		uint32_t *by_func = frames_by_func + first[fn];
		uint64_t calls = c->func_calls[fn], samples = c->func_samples[fn];

		for (uint32_t j = 0; j < n; j++)
			path_key_set(&keys[j], c, by_func[j]);
		sort_paths(keys, n, by_func, ra, rb);
		/* "%s: %llu call%s, %u path%s[, %.2f self seconds]" */
		ret |= line_str(&l, m->names[fn]);
		ret |= line_str(&l, ": ");
		if (!m->calls_unmeasured) {
			ret |= line_uint(&l, calls, 0);
			ret |= line_str(&l, calls == 1 ? " call, " : " calls, ");
		}
		ret |= line_uint(&l, n, 0);
		ret |= line_str(&l, n == 1 ? " path" : " paths");
		if (c->timed) {
			ret |= line_str(&l, ", ");
			ret |= line_fixed(&l, seconds(c, samples), 0, 2);
			ret |= line_str(&l, " self seconds\n"
				       "       calls  %calls    self s    incl s   %time  path\n");
		} else {
			ret |= line_str(&l, "\n       calls  %calls  path\n");
		}
		shown = paths_shown(c, keys, by_func, n, calls, samples);
		/* the row's numbers from its key: the frames, in path order
		 * now, would be read at random */
		for (uint32_t j = 0; j < shown; j++) {
			const struct path_key *pk = &keys[by_func[j]];

			ret |= line_calls_of(&l, m, pk->calls - pk->rec, pk->rec);
			if (m->calls_unmeasured)
				ret |= line_str(&l, "      -");
			else
				ret |= line_fixed2(&l, calls ? 100.0 * (double)pk->calls /
								   (double)calls
							     : 0.0, 6);
			if (c->timed) {
				ret |= line_fixed2(&l, seconds(c, pk->samples), 9);
				ret |= line_fixed2(&l, seconds(c, pk->incl), 9);
				ret |= line_fixed2(&l, samples ? 100.0 * (double)pk->samples /
								 (double)samples
							       : 0.0, 6);
			}
			ret |= line_put(&l, "  ", 2);
			ret |= path_text(&l, &pc, c, pk->frame);
			ret |= line_put(&l, "\n", 1);
			if (ret)
				goto out;
			line_flush_over(&l, out, LINE_FLUSH_BYTES);
		}
		if (shown < n)
			ret |= line_left_out(&l, c, keys, by_func + shown, n - shown, calls,
					     samples);
		ret |= line_put(&l, "\n", 1);
	}
	line_flush(&l, out);
out:
	free(l.s);
	free(pc.frames);
	free(pc.off);
	free(pc.text.s);
	free(keys);
	free(ra);
	free(rb);
	return ret ? -1 : 0;
}

/* Children lists, sorted, as one array with offsets (CSR) in c->first/kids. */
static int build_children(struct report_ctx *c)
{
	const struct callpath_model *m = c->m;
	uint32_t n = m->nr_frames;
	uint32_t *fill = calloc((size_t)n + 2, sizeof(*fill));

	c->first = calloc((size_t)n + 2, sizeof(*c->first));
	c->kids = malloc(((size_t)n + 1) * sizeof(*c->kids));
	if (!fill || !c->first || !c->kids) {
		free(fill);
		return -1;
	}
	/* slot 0 is the root; frame i's children are in slot i + 1; folded
	 * frames are printed on their parent's line */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = m->frames[i].parent;

		if (!m->frames[i].folded)
			c->first[(p == CALLPATH_NONE ? 0 : p + 1) + 1]++;
	}
	for (uint32_t s = 1; s <= n + 1; s++)
		c->first[s] += c->first[s - 1];
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = m->frames[i].parent;
		uint32_t slot = p == CALLPATH_NONE ? 0 : p + 1;

		if (!m->frames[i].folded)
			c->kids[c->first[slot] + fill[slot]++] = i;
	}
	for (uint32_t s = 0; s <= n; s++)
		qsort_r(c->kids + c->first[s], c->first[s + 1] - c->first[s],
			sizeof(*c->kids), cmp_siblings, c);
	free(fill);
	return 0;
}

static int print_tree(FILE *out, struct report_ctx *c)
{
	const struct callpath_model *m = c->m;
	uint32_t *stack = malloc(((size_t)m->nr_frames + 1) * sizeof(*stack));
	uint64_t *icalls = malloc(((size_t)m->nr_frames + 1) * sizeof(*icalls));
	uint64_t total = 0, total_calls = 0, cut_nodes = 0, cut_samples = 0, cut_calls = 0;
	uint32_t sp = 0;
	struct line l = LINE_INIT;
	int ret = 0;

	if (!stack || !icalls) {
		free(stack);
		free(icalls);
		return -1;
	}
	/* a node's calls, in it and below it (parents come first) */
	for (uint32_t i = 0; i < m->nr_frames; i++)
		icalls[i] = sat_add_u64(m->frames[i].count, c->rec[i]);
	for (uint32_t i = m->nr_frames; i-- > 0;)
		if (m->frames[i].parent != CALLPATH_NONE && !m->frames[i].folded)
			icalls[m->frames[i].parent] =
				sat_add_u64(icalls[m->frames[i].parent], icalls[i]);
	for (uint32_t k = c->first[0]; k < c->first[1]; k++) {
		total_calls = sat_add_u64(total_calls, icalls[c->kids[k]]);
		if (c->timed)
			total = sat_add_u64(total, c->incl[c->kids[k]]);
	}
	fputs("\t\t\tCalling-context tree\n\n"
	      "Every path as a tree, callees indented under their callers; a '*'\n"
	      "marks a function reached along more than one path.\n", out);
	if (c->timed)
		fputs("incl s: seconds in the node and below it; self s: in the node's\n"
		      "function itself (GPTL's layout).\n", out);
	fputs(c->timed ? "\n       calls    incl s    self s  function (call site)\n"
		       : "\n       calls  function (call site)\n", out);
	/* Depth-first without recursion: paths can be thousands deep. Pushing
	 * children in reverse keeps the sorted order. */
	for (uint32_t k = c->first[1]; k > c->first[0]; k--)
		stack[sp++] = c->kids[k - 1];
	while (sp) {
		uint32_t i = stack[--sp];
		const struct callpath_frame *f = &m->frames[i];
		uint32_t depth = c->depth[i];
		const char *site = m->names[f->site];

		if (!c->all_paths &&
		    (!c->timed ||
		     (double)c->incl[i] * 1000.0 < (double)total * TREE_MIN_PERMILLE) &&
		    (m->calls_unmeasured || !total_calls ||
		     (double)icalls[i] * 1000.0 < (double)total_calls * TREE_MIN_PERMILLE)) {
			/* its subtree weighs no more than it: all left out */
			cut_nodes++;
			cut_calls = sat_add_u64(cut_calls, icalls[i]);
			if (c->timed)
				cut_samples = sat_add_u64(cut_samples, c->incl[i]);
			continue;
		}

		ret |= line_calls_of(&l, m, f->count, c->rec[i]);
		if (c->timed) {
			ret |= line_fixed2(&l, seconds(c, c->incl[i]), 9);
			ret |= line_fixed2(&l, seconds(c, f->samples), 9);
		}
		/* indented up to ELIDE_FRAMES levels; deeper nodes say their
		 * depth (elide.h) */
		ret |= line_reserve(&l, 2 * (size_t)ELIDE_FRAMES + 1);
		if (ret)
			break;
		memset(l.s + l.len, ' ', 2 * (size_t)(elide_omitted(depth) ? ELIDE_FRAMES : depth));
		l.len += 2 * (size_t)(elide_omitted(depth) ? ELIDE_FRAMES : depth);
		if (elide_omitted(depth)) {
			char digits[32];

			ret |= line_put(&l, "[depth ", 7);
			ret |= line_put(&l, digits, elide_count(digits, depth));
			ret |= line_put(&l, "] ", 2);
		}
		if (c->func_paths[f->func] > 1)
			ret |= line_put(&l, "*", 1);
		ret |= line_put(&l, m->names[f->func], c->name_len[f->func]);
		if (*site && (depth > 1 || !site_untold(site))) {
			ret |= line_put(&l, " (", 2);
			ret |= line_put(&l, site, c->name_len[f->site]);
			ret |= line_put(&l, ")", 1);
		}
		ret |= line_put(&l, "\n", 1);
		if (ret)
			break;
		line_flush_over(&l, out, LINE_FLUSH_BYTES);
		for (uint32_t k = c->first[i + 2]; k > c->first[i + 1]; k--)
			stack[sp++] = c->kids[k - 1];
	}
	if (!ret && cut_nodes) {
		/* "... 1234 subtrees under 0.5% of the time and of the calls
		 * left out: 1.20 s, 5678 calls" */
		ret |= line_str(&l, "\n... ");
		ret |= line_uint(&l, cut_nodes, 0);
		ret |= line_str(&l, cut_nodes == 1 ? " subtree" : " subtrees");
		ret |= line_str(&l, c->timed ? " under 0.5% of the time and of the calls left out: "
					     : " under 0.5% of the calls left out: ");
		if (c->timed) {
			ret |= line_fixed(&l, seconds(c, cut_samples), 0, 2);
			ret |= line_str(&l, " s, ");
		}
		ret |= line_uint(&l, cut_calls, 0);
		ret |= line_str(&l, cut_calls == 1 ? " call" : " calls");
		ret |= line_str(&l, "; --all-paths shows them\n");
	}
	if (!ret)
		line_flush(&l, out);
	free(l.s);
	free(stack);
	free(icalls);
	return ret ? -1 : 0;
}

/* ------------------------------------------------------------------------ */
/* Misattribution: measured time per caller against gprof's call-count split
 * (the arcs' measured time: arcs.h) */

struct misattributed {
	const struct callpath_arc *arc;
	double gprof, measured;		/* shares, 0..1 */
};

static int cmp_misattributed(const void *pa, const void *pb)
{
	const struct misattributed *a = pa, *b = pb;
	double da = fabs(a->measured - a->gprof), db = fabs(b->measured - b->gprof);
	int c;

	if (da != db)
		return da > db ? -1 : 1;
	c = strcmp(a->arc->callee, b->arc->callee);
	return c ? c : strcmp(a->arc->caller, b->arc->caller);
}

/*
 * The samples of a callee's time measured along one caller are k of its n
 * samples; gprof's split says a share g.  The z of that (binomial: exact
 * for few samples, so that 2 of 3 is no evidence) and the largest |z| n
 * samples allow (all or none along the arc).
 */
static double share_z(const struct callpath_arc *a, double g)
{
	return signif_share_z(a->samples, a->callee_samples, g);
}

static double share_zmax(const struct callpath_arc *a, double g)
{
	return fmax(fabs(signif_share_z(0, a->callee_samples, g)),
		    fabs(signif_share_z(a->callee_samples, a->callee_samples, g)));
}

/* gprof's share of the callee's time for this caller: by calls. */
static double gprof_share(const struct callpath_arc *a)
{
	return (double)a->calls / (double)a->callee_calls;
}

static int testable(const struct callpath_arc *a)
{
	return a->callee_calls && a->callee_samples;
}

/*
 * The arcs where gprof's split is off: one test per arc of a callee with
 * two callers or more, decided as one family by the significance rule of
 * the diff (diff/signif.h: corrected for the arcs that could show it, K = 2),
 * so that a run of many arcs on a few samples each does not list a
 * different handful each time; and off by more than the threshold.
 */
static int print_misattribution(FILE *out, const struct report_ctx *c)
{
	const struct callpath_model *m = c->m;
	struct callpath_arcs *arcs = NULL;
	struct misattributed *bad = NULL;
	struct signif_family f;
	size_t nbad = 0;

	if (callpath_arcs_build(m, &arcs) < 0)
		return -1;
	bad = malloc((arcs->nr + 1) * sizeof(*bad));
	if (!bad) {
		callpath_arcs_free(arcs);
		return -1;
	}
	signif_family_init(&f, DIFF_OPTS_NOISE_SIGMAS);
	for (size_t lo = 0, hi; lo < arcs->nr; lo = hi) {
		for (hi = lo; hi < arcs->nr &&
			      !strcmp(arcs->arcs[hi].callee, arcs->arcs[lo].callee); hi++)
			;
		/* one caller: both splits give it everything */
		for (size_t k = lo; hi - lo > 1 && k < hi; k++) {
			const struct callpath_arc *a = &arcs->arcs[k];

			if (testable(a))
				signif_add(&f, share_z(a, gprof_share(a)), share_zmax(a, gprof_share(a)));
		}
	}
	signif_decide(&f);
	for (size_t lo = 0, hi; lo < arcs->nr; lo = hi) {
		for (hi = lo; hi < arcs->nr &&
			      !strcmp(arcs->arcs[hi].callee, arcs->arcs[lo].callee); hi++)
			;
		for (size_t k = lo; hi - lo > 1 && k < hi; k++) {
			const struct callpath_arc *a = &arcs->arcs[k];
			double g, meas;

			if (!testable(a))
				continue;
			g = gprof_share(a);
			meas = (double)a->samples / (double)a->callee_samples;
			if (fabs(meas - g) > CALLPATH_MISATTRIBUTION_THRESHOLD &&
			    signif_pass(&f, share_z(a, g)))
				bad[nbad++] = (struct misattributed){ a, g, meas };
		}
	}
	qsort(bad, nbad, sizeof(*bad), cmp_misattributed);

	fputs("\t\t\tTime per caller: gprof against measured\n\n"
	      "gprof splits a function's time between its callers in proportion to\n"
	      "their calls.  The call paths measure it: the time of the function and\n"
	      "its callees on paths through each caller.  Arcs where the two differ\n", out);
	fprintf(out, "by more than %.0f%% of the function's time and beyond the sampling noise\n"
		"(corrected for the %zu arcs that could show it, as --diff's rows),\n"
		"largest difference first:\n\n",
		100.0 * CALLPATH_MISATTRIBUTION_THRESHOLD, f.counted);
	signif_family_release(&f);
	if (!nbad)
		fputs("none: gprof's split is right within that margin.\n", out);
	for (size_t k = 0; k < nbad; k++) {
		const struct callpath_arc *a = bad[k].arc;

		fprintf(out, "%s: gprof gives %.1f%% to %s, measured %.1f%%"
			" (%" PRIu64 " of %" PRIu64 " calls, %.2f of %.2f seconds)\n",
			a->callee, 100.0 * bad[k].gprof, a->caller,
			100.0 * bad[k].measured, a->calls, a->callee_calls,
			seconds(c, a->samples), seconds(c, a->callee_samples));
	}
	free(bad);
	callpath_arcs_free(arcs);
	return 0;
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/*
 * Sampled paths: how many stacks were walked to their root, and why the
 * others stopped (their frames are under [truncated]).
 */
static void print_walks(FILE *out, const struct callpath_model *m)
{
	const struct sidecar_unwind *u = &m->unwind;
	uint64_t stopped = u->walked - u->ends[SIDECAR_UNWIND_COMPLETE];
	int any = 0;

	if (!m->calls_unmeasured || !u->walked)
		return;
	fprintf(out, "Stacks: %" PRIu64 " walked, %.1f%% to main or a thread's start routine",
		u->walked, share(u->ends[SIDECAR_UNWIND_COMPLETE], u->walked));
	if (!stopped) {
		fputs(".\n\n", out);
		return;
	}
	fprintf(out, ";\n%" PRIu64 " stopped short, their frames under " TRUNCATED_NAME " (", stopped);
	for (int e = 1; e < SIDECAR_UNWIND_END_NR; e++)
		if (u->ends[e]) {
			fprintf(out, "%s%s: %" PRIu64, any ? ", " : "", sidecar_unwind_end_names[e],
				u->ends[e]);
			any = 1;
		}
	fputs(").\n\n", out);
}

void callpath_sampling_print(FILE *out, const struct callpath_model *m)
{
	uint64_t all = m->total_samples + m->unplaced_samples;
	const char *what = !m->time_name ? "time samples"
		: !strcmp(m->time_name, "cpu-time") ? "samples of each thread's CPU time"
		: !strcmp(m->time_name, "prof-timer") ? "samples of the process's profiling timer"
		: !strcmp(m->time_name, "wall-clock") ? "samples of each thread's wall-clock time"
		: m->time_name;

	fprintf(out, "Time: %" PRIu64 " %s (%.2f seconds at %g Hz), each\n"
		"measured in its calling context.  Of the process's samples, %.1f%% ran\n"
		"in the program's code, %.1f%% in libraries, %.1f%% in the\n"
		"instrumentation ([instrumentation]: mcount, the runtime, its signals),\n"
		"%.1f%% outside every known object; %" PRIu64 " (%.1f%%) could not be\n"
		"placed (a thread before its first call) and are not shown.\n\n",
		m->total_samples, what, m->hz > 0 ? (double)m->total_samples / m->hz : 0.0,
		m->hz, share(m->class_samples[LEAF_PROGRAM], all),
		share(m->class_samples[LEAF_LIBRARY], all),
		share(m->class_samples[LEAF_INSTRUMENTATION], all),
		share(m->class_samples[LEAF_UNKNOWN], all), m->unplaced_samples,
		share(m->unplaced_samples, all));
	print_walks(out, m);
}

void callpath_coverage_print(FILE *out, double coverage)
{
	if (coverage < 0)
		return;
	fprintf(out, "The samples cover %.0f%% of the process's CPU time (getrusage).\n",
		100.0 * coverage);
	if (coverage < SIDECAR_CPU_COVERAGE_WARN)
		fprintf(out, "warning: less than %.0f%% of the CPU time was sampled: threads too\n"
			"short for their timer, threads that made no instrumented call, or\n"
			"the runtime's own threads ran where no sample could see them.\n",
			100.0 * SIDECAR_CPU_COVERAGE_WARN);
	fputc('\n', out);
}

static void print_sampling(FILE *out, const struct report_ctx *c)
{
	const struct callpath_model *m = c->m;

	/* said even when nothing was counted: that is how it shows */
	if (m->metric.name[0] && m->metric.user_only)
		fprintf(out, "warning: %s was counted in user mode only (the system\n"
			"forbade kernel mode: /proc/sys/kernel/perf_event_paranoid); what\n"
			"happens in the kernel, context switches included, is not in it.\n\n",
			m->metric.name);
	if (!c->timed)
		return;
	if (m->metric.name[0]) {
		/* --metric: a sample is an overflow (model/metric.h) */
		fprintf(out, "%s: %.0f %s%s (%" PRIu64 " overflows of %" PRIu64 ")\n"
			"measured in their calling context; %.0f could not be placed in one\n"
			"and are not shown.  The columns 'self s' and 'incl s' below hold\n"
			"%s, not seconds.\n\n",
			m->metric.name, seconds(c, m->total_samples), m->metric.unit,
			m->metric.estimated ? " (estimated)" : "", m->total_samples,
			m->metric.period, seconds(c, m->unplaced_samples), m->metric.unit);

		return;
	}
	callpath_sampling_print(out, m);
	callpath_coverage_print(out, callpath_model_coverage(m));
	if (m->sampling & SIDECAR_SAMPLING_STOPPED)
		fputs("warning: the program replaced the SIGPROF handler or the profiling\n"
		      "timer; samples after that were not credited, so the times cover\n"
		      "only part of the run.\n\n", out);
}

int callpath_report_print(FILE *out, const struct callpath_model *m,
			  const char *source)
{
	return callpath_report_write(out, m, source, 1);
}

int callpath_report_write(FILE *out, const struct callpath_model *m,
			  const char *source, int all_paths)
{
	struct report_ctx c = { .m = m, .all_paths = all_paths };
	struct path_elider elider = { 0 };
	uint32_t *funcs = NULL, *buf = NULL, *first = NULL;
	uint32_t nfuncs = 0, npaths = 0;
	int ret = -1, saturated = 0;

	/* no sample landed (a run shorter than a few ticks, an older sidecar):
	 * columns of zeros would say nothing, so calls only */
	c.timed = (m->sampling & SIDECAR_SAMPLING_SELF) && m->total_samples;
	c.func_calls = calloc((size_t)m->nr_names + 1, sizeof(*c.func_calls));
	c.func_samples = calloc((size_t)m->nr_names + 1, sizeof(*c.func_samples));
	c.func_paths = calloc((size_t)m->nr_names + 1, sizeof(*c.func_paths));
	c.incl = malloc(((size_t)m->nr_frames + 1) * sizeof(*c.incl));
	c.rank = malloc(((size_t)m->nr_frames + 1) * sizeof(*c.rank));
	c.depth = malloc(((size_t)m->nr_frames + 1) * sizeof(*c.depth));
	c.parents = malloc(((size_t)m->nr_frames + 1) * sizeof(*c.parents));
	c.fnames = malloc(((size_t)m->nr_frames + 1) * sizeof(*c.fnames));
	c.name_len = malloc(((size_t)m->nr_names + 1) * sizeof(*c.name_len));
	c.rec = calloc((size_t)m->nr_frames + 1, sizeof(*c.rec));
	funcs = malloc(((size_t)m->nr_names + 1) * sizeof(*funcs));
	buf = malloc(((size_t)m->nr_frames + 1) * sizeof(*buf));
	first = malloc(((size_t)m->nr_names + 1) * sizeof(*first));
	if (!c.func_calls || !c.func_samples || !c.func_paths || !c.incl ||
	    !c.rank || !c.depth || !c.parents || !c.fnames || !c.name_len || !c.rec || !funcs ||
	    !buf || !first)
		goto out;
	callpath_model_inclusive(m, c.incl);
	for (uint32_t i = 0; i < m->nr_frames; i++)
		if (m->frames[i].folded && m->frames[i].parent != CALLPATH_NONE)
			sat_add_u64_flag(&c.rec[m->frames[i].parent],
					 m->frames[i].recursive, &saturated);
	for (uint32_t i = 0; i < m->nr_frames; i++) {
		const struct callpath_frame *f = &m->frames[i];

		sat_add_u64_flag(&c.func_calls[f->func], sat_add_u64(f->count, f->recursive),
				 &saturated);
		sat_add_u64_flag(&c.func_samples[f->func], f->samples, &saturated);
		if (f->folded)
			continue;
		if (!c.func_paths[f->func]++)
			funcs[nfuncs++] = f->func;
	}
	/* parents come first */
	for (uint32_t i = 0; i < m->nr_frames; i++) {
		uint32_t p = m->frames[i].parent;

		c.parents[i] = p == CALLPATH_NONE ? PATHRANK_ROOT : p;
		c.fnames[i].func = m->frames[i].func;
		c.fnames[i].site = m->frames[i].site;
		c.depth[i] = p == CALLPATH_NONE ? 1 : c.depth[p] + 1;
	}
	for (uint32_t n = 0; n < m->nr_names; n++)
		c.name_len[n] = strlen(m->names[n]);
	if (pathrank(m->nr_frames, c.parents, path_segment, &c, PATH_SEPARATOR,
		     c.rank) < 0 ||
	    path_elider_init(&elider, m->nr_frames, c.parents, PATHRANK_ROOT) < 0)
		goto out;
	c.elider = &elider;
	qsort_r(funcs, nfuncs, sizeof(*funcs), cmp_funcs, &c);
	for (uint32_t i = 0; i < m->nr_frames; i++)
		npaths += !m->frames[i].folded;
	if (build_children(&c) < 0)
		goto out;

	/* the model's own sums are the caller's to warn about */
	if (saturated && !m->saturated)
		warning("%s: %s", source, CALLPATH_SATURATED);
	fputs("\f\n\t\t\tCall-path profile\n\n", out);
	if (m->calls_unmeasured)
		fprintf(out, "From '%s': %u sampled paths to %u functions; calls were not\n"
			"counted (a build without -pg: the paths are the stacks of the samples,\n"
			"and '-' stands for a count not measured).\n\n", source, npaths, nfuncs);
	else
		fprintf(out, "From '%s': %" PRIu64 " calls along %u paths to %u functions.\n\n",
			source, m->total, npaths, nfuncs);
	print_sampling(out, &c);
	index_frames_by_func(m, first, buf);
	if (print_profile(out, &c, funcs, nfuncs, first, buf) < 0)
		goto out;
	fputc('\f', out);
	fputc('\n', out);
	if (print_tree(out, &c) < 0)
		goto out;
	if (c.timed && !m->calls_unmeasured) {
		fputs("\f\n", out);
		if (print_misattribution(out, &c) < 0)
			goto out;
	}
	ret = 0;
out:
	if (ret < 0)
		error("out of memory while printing call paths");
	path_elider_release(&elider);
	free(c.rank);
	free(c.depth);
	free(c.parents);
	free(c.fnames);
	free(c.name_len);
	free(c.rec);
	free(c.func_calls);
	free(c.func_samples);
	free(c.func_paths);
	free(c.incl);
	free(c.first);
	free(c.kids);
	free(funcs);
	free(buf);
	free(first);
	return ret;
}
