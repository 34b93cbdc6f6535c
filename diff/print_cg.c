#define _GNU_SOURCE /* qsort_r */
/*
 * The differential call graph, in gprof's call-graph layout.  Every number
 * is baseline minus second run:
 *
 *   primary line   [index] impact of the total change (self + children
 *                  difference over the sum of |self differences|), self and
 *                  children seconds, calls (+recursive calls)
 *   parent/child   the time along the arc, and its call count difference
 *   lines          over the function's calls difference ("10/9": the second
 *                  run calls this arc 10 times less); a call within a cycle
 *                  (or a function calling itself) shows its count only
 *   cycles         "<cycle N as a whole>" followed by its members, as gprof
 *                  prints them; N is the diff's own numbering (cycles are
 *                  matched by their members, diff/match.h)
 *
 * With --extended the calls column becomes three aligned columns, +calls,
 * -calls and diff, on every line (the layout is in doc/diff.md).
 *
 * Functions are ordered by |total difference|; a function of the call graph
 * on either side is listed, with zero differences kept.  Then, as gprof
 * ends its call graph: unless brief, what the columns mean; and the index
 * by function name (-w sets its width).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "diff/print.h"
#include "utils/error.h"
#include "utils/fixed.h"
#include "utils/line.h"
#include "utils/banned.h"

struct cg_ctx {
	const struct diff *d;
	const struct diff_print_opts *po;
	int *index;        /* entry -> index; printed entries come first */
	int nprinted;      /* entries with index <= nprinted are printed */
	/* Each entry's arcs in and out (contiguous lists: for 20,000 entries'
	 * lists read in the primary order a linked list's cache misses). */
	struct diff_arc_index ix;
	long *cycle_entry; /* diff cycle number -> its entry, -1 when none */
	/* a cycle's members, in entry order (a scan of every entry per cycle
	 * was most of the call graph's time at 20,000 functions) */
	size_t *first_member, *next_member;
	/* the text, written a few KiB at a time: fprintf per field was
	 * most of a big graph's printing */
	struct line l;
	/* per entry: diff_name_key of its name (cmp_name) */
	uint64_t *name_key;
	/* per entry, classic layout only: references to it are written
	 * "(N)" (see unsigned_readers) */
	unsigned char *hidden;
	/* per entry, what the arcs' lines read of the entries at either
	 * end, apart from the entries (512 bytes each): a big graph's lines
	 * read them in no order, a cache miss each otherwise */
	struct cg_end *end;
};

struct cg_end {
	const char *name;  /* print name */
	int cycle;         /* the diff's cycle number, 0 for none */
	unsigned char whole;   /* a cycle as a whole */
	unsigned char counted; /* its calls were counted on a side */
	int64_t denom;     /* the calls difference of its line (its
			      cycle's, for a member) */
};

#define NONE ((size_t)-1)
/* the decimals of the values: 2 for seconds, 0 for an event's counts */
#define DEC(po) ((po)->unit ? (po)->decimals : 2)
/* "%6.6s %6.6s " and "%6.6s %5.5s " of empty strings: the blank index and
 * %-time columns before an arc's or member's times. */
#define BLANK_6_6 "              "
#define BLANK_6_5 "             "

static int is_cycle(const struct diff_entry *e)
{
	return !!(e->flags & PSYM_CYCLE);
}

static double total_diff(const struct diff_entry *e)
{
	return (e->side[0].prop_self_sec + e->side[0].prop_child_sec) -
	       (e->side[1].prop_self_sec + e->side[1].prop_child_sec);
}

static int64_t self_calls_diff(const struct diff_entry *e)
{
	return (int64_t)e->side[0].self_calls - (int64_t)e->side[1].self_calls;
}

/* An entry's place in the graph's order, gathered so that sorting reads
 * one small array instead of entries scattered over megabytes (the sorts
 * were most of a big graph's time after its printing). */
struct primary_key {
	double total;     /* |total difference| */
	int64_t calls;    /* |calls difference| */
	uint64_t name;    /* diff_name_key of the print name */
	size_t entry;
};

static struct primary_key primary_key_of(const struct diff *d, size_t i)
{
	const struct diff_entry *e = &d->entries[i];

	return (struct primary_key){ fabs(total_diff(e)), llabs(e->calls_diff),
				     diff_name_key(e->print_name), i };
}

/* By |total difference|, then |calls difference|, then print name. */
static int cmp_primary(const void *lp, const void *rp, void *ctx)
{
	const struct diff *d = ctx;
	const struct primary_key *l = lp, *r = rp;
	int c;

	if (l->total != r->total)
		return l->total > r->total ? -1 : 1;
	if (l->calls != r->calls)
		return l->calls > r->calls ? -1 : 1;
	c = diff_name_cmp(l->name, d->entries[l->entry].print_name, r->name,
			  d->entries[r->entry].print_name);
	return c ? c : (l->entry < r->entry ? -1 : 1);
}

/* The entries idx[0..n) in the graph's order; 0 or -1 (reported). */
static int sort_primary(const struct diff *d, size_t *idx, size_t n)
{
	struct primary_key *k = malloc((n + 1) * sizeof(*k));
	size_t i;

	if (!k)
		return error("out of memory");
	for (i = 0; i < n; i++)
		k[i] = primary_key_of(d, idx[i]);
	qsort_r(k, n, sizeof(*k), cmp_primary, (void *)d);
	for (i = 0; i < n; i++)
		idx[i] = k[i].entry;
	free(k);
	return 0;
}

/* A call of a function to itself, or between two members of one cycle:
 * gprof shows its count only (no time is propagated along it). */
static int within_cycle(const struct diff *d, const struct diff_arc *a)
{
	const struct diff_entry *p = &d->entries[a->parent], *c = &d->entries[a->child];

	return a->parent == a->child || (p->cycle && p->cycle == c->cycle);
}

/* within_cycle() from the compact ends */
static int within_cycle_end(const struct cg_end *end, const struct diff_arc *a)
{
	return a->parent == a->child ||
	       (end[a->parent].cycle && end[a->parent].cycle == end[a->child].cycle);
}

static double arc_total(const struct diff_arc *a)
{
	return (a->time_sec[0] + a->child_time_sec[0]) - (a->time_sec[1] + a->child_time_sec[1]);
}

/* gprof's order of arcs around a function: self calls, calls within the
 * cycle, then the rest; here by size of change. */
static int cmp_arc(const void *lp, const void *rp, void *ctx)
{
	const struct cg_ctx *c = ctx;
	const struct diff_arc *l = &c->d->arcs[*(const size_t *)lp];
	const struct diff_arc *r = &c->d->arcs[*(const size_t *)rp];
	int kl = l->parent == l->child ? 0 : within_cycle_end(c->end, l) ? 1 : 2;
	int kr = r->parent == r->child ? 0 : within_cycle_end(c->end, r) ? 1 : 2;
	double tl = fabs(arc_total(l)), tr = fabs(arc_total(r));
	int64_t cl = llabs(l->count_diff), cr = llabs(r->count_diff);

	if (kl != kr)
		return kl < kr ? -1 : 1;
	if (tl != tr)
		return tl > tr ? -1 : 1;
	if (cl != cr)
		return cl > cr ? -1 : 1;
	return *(const size_t *)lp < *(const size_t *)rp ? -1 : 1;
}

/* gprof's print_name: the name, " <cycle N>" for a member, and " [index]"
 * (printed) or " (index)" (not printed, or hidden from parsers of unsigned
 * numbers on a caller or callee line: unsigned_readers). */
static void print_name_ref(struct cg_ctx *c, size_t i, int hide)
{
	const struct cg_end *e = &c->end[i];
	int idx = c->index[i];
	int bracket = idx <= c->nprinted && !hide;

	line_str(&c->l, e->name);
	if (e->cycle && !e->whole) {
		line_put(&c->l, " <cycle ", 8);
		line_int(&c->l, e->cycle, 0);
		line_char(&c->l, '>');
	}
	if (idx) {
		line_put(&c->l, bracket ? " [" : " (", 2);
		line_int(&c->l, idx, 0);
		line_char(&c->l, bracket ? ']' : ')');
	}
}

/* A function's own line names it " [index]". */
static void print_ref(struct cg_ctx *c, size_t i)
{
	print_name_ref(c, i, 0);
}

/* A caller, callee or member line names it " (index)" when hidden. */
static void print_other(struct cg_ctx *c, size_t i)
{
	print_name_ref(c, i, c->hidden && c->hidden[i]);
}

/* The digits of v, signed, ending at `end`; where they start. */
static char *i64_digits(char *end, int64_t v)
{
	char *p = line_u64_digits(end, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);

	if (v < 0)
		*--p = '-';
	return p;
}

/* A calls cell of the extended layout, " %9s" of "31", "31+2" with
 * recursive calls, "-" when that side counted none. */
static void calls_cell(struct line *l, int has, uint64_t calls, uint64_t self)
{
	char buf[48], *p = buf + sizeof(buf) - 1;

	*p = '\0';
	if (!has) {
		*--p = '-';
	} else {
		if (self) {
			p = line_u64_digits(p, self);
			*--p = '+';
		}
		p = line_u64_digits(p, calls);
	}
	line_char(l, ' ');
	line_pad(l, p, 9);
}

/* " %9s" of "%lld+%lld" (with_self) or "%lld". */
static void diff_cell(struct line *l, int64_t calls, int64_t self, int with_self)
{
	char buf[64], *p = buf + sizeof(buf) - 1;

	*p = '\0';
	if (with_self) {
		p = i64_digits(p, self);
		*--p = '+';
	}
	p = i64_digits(p, calls);
	line_char(l, ' ');
	line_pad(l, p, 9);
}

/* Two time columns after `lead` (blank columns): "%ws.2f %wc.2f" without
 * printf's exact conversion (utils/fixed.h), a large share of a big call
 * graph's printing. */
static void times_columns(struct line *l, const char *lead, double self, int ws, double child,
			  int wc, int decimals)
{
	line_str(l, lead);
	line_fixed(l, self, ws, decimals);
	line_char(l, ' ');
	line_fixed(l, child, wc, decimals);
}

/* The calls columns of a function's own line (primary or cycle member). */
static void calls_columns(struct line *l, const struct diff_entry *e, int extended)
{
	const struct diff_side_sym *a = &e->side[0], *b = &e->side[1];
	int recursive = a->self_calls || b->self_calls;

	if (extended) {
		calls_cell(l, a->has_calls, a->calls, a->self_calls);
		calls_cell(l, b->has_calls, b->calls, b->self_calls);
		diff_cell(l, e->calls_diff, self_calls_diff(e), recursive);
	} else if (a->has_calls || b->has_calls) {
		line_char(l, ' ');
		line_int(l, e->calls_diff, 7);
		if (recursive) {
			line_char(l, '+');
			line_int(l, self_calls_diff(e), -7);
		} else {
			line_spaces(l, 8);
		}
	} else {
		line_spaces(l, 16);
	}
}

/* The end of a line: written out a few KiB at a time. */
static void end_line(struct cg_ctx *c, FILE *out)
{
	line_char(&c->l, '\n');
	line_flush_over(&c->l, out, LINE_FLUSH_BYTES);
}

/* A parent or child line: the arc to or from `other`; `denom` is the
 * called function's calls difference (its cycle's, for a member). */
static void arc_line(FILE *out, struct cg_ctx *c, const struct diff_arc *a,
		     uint32_t other, int64_t denom)
{
	const struct diff_print_opts *po = c->po;
	struct line *l = &c->l;
	int inner = within_cycle_end(c->end, a);
	/* a call into code whose calls were never counted (a library's):
	 * its time only, no count to show */
	int counted = c->end[a->child].counted;

	if (!counted && !inner) {
		times_columns(l, po->extended ? BLANK_6_6 : BLANK_6_5, a->time_sec[0] - a->time_sec[1],
			      po->extended ? 8 : 7, a->child_time_sec[0] - a->child_time_sec[1],
			      po->extended ? 9 : po->bsd ? 11 : 7, DEC(po));
		line_spaces(l, po->extended ? 37 : 21);
	} else if (po->extended) {
		if (inner) /* "%6.6s %6.6s %8.8s %9.9s" of "" */
			line_spaces(l, 32);
		else
			times_columns(l, BLANK_6_6, a->time_sec[0] - a->time_sec[1], 8,
				      a->child_time_sec[0] - a->child_time_sec[1], 9, DEC(po));
		/* " %9s %9s %9lld       " */
		calls_cell(l, a->present[0], a->count[0], 0);
		calls_cell(l, a->present[1], a->count[1], 0);
		line_char(l, ' ');
		line_int(l, a->count_diff, 9);
		line_spaces(l, 7);
	} else if (inner) {
		/* "%6.6s %5.5s %7.7s %7.7s %7lld %7.7s     " (%11.11s with -T) */
		line_spaces(l, po->bsd ? 33 : 29);
		line_int(l, a->count_diff, 7);
		line_spaces(l, 13);
	} else {
		times_columns(l, BLANK_6_5, a->time_sec[0] - a->time_sec[1], 7,
			      a->child_time_sec[0] - a->child_time_sec[1], po->bsd ? 11 : 7,
			      DEC(po));
		/* " %7lld/%-7lld     " */
		line_char(l, ' ');
		line_int(l, a->count_diff, 7);
		line_char(l, '/');
		line_int(l, denom, -7);
		line_spaces(l, 5);
	}
	print_other(c, other);
	end_line(c, out);
}

/*
 * Parsers of gprof text that read only unsigned numbers (gprof2dot's
 * `-f prof`, issue 24 item 9) skip a line with a negative number.  When
 * that line is a function's own line they lose its entry; a caller line
 * elsewhere that still names the function [N] then makes them a function
 * with no time (gprof2dot stops on an AssertionError), and a cycle they read
 * in part (a member or a call inside it lost) makes their integration of its
 * time fail its checks.  So, in the classic layout, the part of the graph
 * such a parser reads must be whole:
 *
 *  - an entry is unreadable when its own line has a negative number
 *    (% time, self, children, calls or recursive calls, as printed);
 *  - a cycle is unreadable when one of its members is, or a call inside
 *    it is not strictly more frequent in the baseline (a count of 0 or less
 *    is no call to walk), or those calls do not connect every member to
 *    every other (its time could not reach all of it);
 *  - caller, callee and member lines name an unreadable entry, or any
 *    member of an unreadable cycle, "name (N)": how gprof names a function
 *    its call graph does not print, which those parsers skip.
 *
 * The numbers and the [N] of every function's own line are unchanged, and a
 * strict reader maps (N) to the entry as gprof's index does.
 */
static int printed_negative(double v, int decimals)
{
	char buf[FIXED_MAX];

	fixed_format(buf, v, 0, decimals);
	return buf[0] == '-';
}

static int entry_unreadable(const struct cg_ctx *c, const struct diff_entry *e)
{
	const struct diff *d = c->d;
	double pct = d->abs_sum > 0 ? 100 * total_diff(e) / d->abs_sum : 0.0;
	int recursive = e->side[0].self_calls || e->side[1].self_calls;
	int calls = e->side[0].has_calls || e->side[1].has_calls;

	return printed_negative(pct, 1) ||
	       printed_negative(e->side[0].prop_self_sec - e->side[1].prop_self_sec, 2) ||
	       printed_negative(e->side[0].prop_child_sec - e->side[1].prop_child_sec, 2) ||
	       (calls && e->calls_diff < 0) || (calls && recursive && self_calls_diff(e) < 0);
}

/* Is every member of cycle n reached from every other along calls inside
 * it that the baseline makes more often (a walk from one member, forward
 * and backward)?  reach: scratch of nentries bytes. */
static int cycle_connected(const struct cg_ctx *c, int n, unsigned char *reach, size_t *stack)
{
	const struct diff *d = c->d;
	size_t first = c->first_member[n], i, k;
	int dir;

	if (first == NONE)
		return 1;
	for (dir = 0; dir < 2; dir++) {
		size_t sp = 0;

		for (i = first; i != NONE; i = c->next_member[i])
			reach[i] = 0;
		reach[first] = 1;
		stack[sp++] = first;
		while (sp) {
			size_t at = stack[--sp];

			const size_t *at_of = dir ? c->ix.in_at : c->ix.out_at;
			const size_t *list = dir ? c->ix.in : c->ix.out;

			for (k = at_of[at]; k < at_of[at + 1]; k++) {
				const struct diff_arc *a = &d->arcs[list[k]];
				size_t to = dir ? a->parent : a->child;

				if (to == at || d->entries[to].cycle != n || is_cycle(&d->entries[to]) ||
				    a->count_diff <= 0 || reach[to])
					continue;
				reach[to] = 1;
				stack[sp++] = to;
			}
		}
		for (i = first; i != NONE; i = c->next_member[i])
			if (!reach[i])
				return 0;
	}
	return 1;
}

static int unsigned_readers(struct cg_ctx *c)
{
	const struct diff *d = c->d;
	unsigned char *bad_cycle = calloc((size_t)d->ncycles + 1, 1);
	unsigned char *reach = calloc(d->nentries + 1, 1);
	size_t *stack = malloc((d->nentries + 1) * sizeof(size_t)), i, k;

	c->hidden = calloc(d->nentries + 1, 1);
	if (!bad_cycle || !reach || !stack || !c->hidden) {
		free(bad_cycle);
		free(reach);
		free(stack);
		return error("out of memory");
	}
	for (i = 0; i < d->nentries; i++) {
		const struct diff_entry *e = &d->entries[i];

		c->hidden[i] = !is_cycle(e) && entry_unreadable(c, e);
		if (c->hidden[i] && e->cycle > 0 && e->cycle <= d->ncycles)
			bad_cycle[e->cycle] = 1;
	}
	for (k = 0; k < d->narcs; k++) {
		const struct diff_arc *a = &d->arcs[k];
		int n = d->entries[a->parent].cycle;

		if (within_cycle(d, a) && a->parent != a->child && n > 0 && n <= d->ncycles &&
		    a->count_diff <= 0)
			bad_cycle[n] = 1;
	}
	for (int n = 1; n <= d->ncycles; n++)
		if (!bad_cycle[n] && !cycle_connected(c, n, reach, stack))
			bad_cycle[n] = 1;
	for (i = 0; i < d->nentries; i++) {
		const struct diff_entry *e = &d->entries[i];

		if (!is_cycle(e) && e->cycle > 0 && e->cycle <= d->ncycles && bad_cycle[e->cycle])
			c->hidden[i] = 1;
	}
	free(bad_cycle);
	free(reach);
	free(stack);
	return 0;
}

static void primary_line(FILE *out, struct cg_ctx *c, size_t i)
{
	const struct diff_entry *e = &c->d->entries[i];
	const struct diff_print_opts *po = c->po;
	double pct = c->d->abs_sum > 0 ? 100 * total_diff(e) / c->d->abs_sum : 0.0;
	struct line *l = &c->l;
	char buf[32], *p = buf + sizeof(buf) - 1;
	size_t n;

	/* "%-6.6s " of "[index]": cut to 6 characters */
	*--p = ']';
	p = line_u64_digits(p, (uint64_t)(c->index[i] < 0 ? 0 : c->index[i]));
	*--p = '[';
	n = (size_t)(buf + sizeof(buf) - 1 - p);
	if (c->index[i] < 0 || n > 6) {
		snprintf(buf, sizeof(buf), "[%d]", c->index[i]);
		p = buf;
		n = strlen(buf) < 6 ? strlen(buf) : 6;
	}
	line_put(l, p, n);
	line_spaces(l, 7 - n);
	line_fixed(l, pct, po->extended ? 6 : 5, 1);
	times_columns(l, " ", e->side[0].prop_self_sec - e->side[1].prop_self_sec,
		      po->extended ? 8 : 7,
		      e->side[0].prop_child_sec - e->side[1].prop_child_sec,
		      po->extended ? 9 : po->bsd ? 11 : 7, DEC(po));
	calls_columns(l, e, po->extended);
	line_str(l, po->extended ? "   " : " ");
	print_ref(c, i);
	line_str(l, print_noise_mark(e, po));
	end_line(c, out);
}

/* A cycle's members under its line, as gprof's print_members. */
static int member_lines(FILE *out, struct cg_ctx *c, const struct diff_entry *cyc)
{
	const struct diff *d = c->d;
	size_t *m = malloc((d->nentries + 1) * sizeof(size_t)), n = 0, i;

	if (!m)
		return error("out of memory");
	if (cyc->cycle > 0 && cyc->cycle <= d->ncycles) {
		for (i = c->first_member[cyc->cycle]; i != NONE; i = c->next_member[i])
			m[n++] = i;
	} else {
		for (i = 0; i < d->nentries; i++)
			if (!is_cycle(&d->entries[i]) && d->entries[i].cycle == cyc->cycle)
				m[n++] = i;
	}
	if (sort_primary(d, m, n) < 0) {
		free(m);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const struct diff_entry *e = &d->entries[m[i]];
		double self = e->side[0].prop_self_sec - e->side[1].prop_self_sec;
		double child = e->side[0].prop_child_sec - e->side[1].prop_child_sec;

		if (c->po->extended)
			times_columns(&c->l, BLANK_6_6, self, 8, child, 9, DEC(c->po));
		else
			times_columns(&c->l, BLANK_6_5, self, 7, child, c->po->bsd ? 11 : 7,
				      DEC(c->po));
		calls_columns(&c->l, e, c->po->extended);
		line_str(&c->l, c->po->extended ? "       " : "     ");
		print_other(c, m[i]);
		end_line(c, out);
	}
	free(m);
	return 0;
}

static void blurb(FILE *out, int extended)
{
	fprintf(out,
		"\n"
		" Each entry is a function's line (the one with its [index]), its\n"
		" callers above it and its callees below it.  Every number is the\n"
		" baseline's minus the second run's: a positive number is time (or\n"
		" calls) the second run no longer spends, a negative one is time it\n"
		" spends in addition.  Entries are sorted by |self + children| change.\n"
		"\n"
		" %% time    the change of self + children time, over the sum of all\n"
		"           |self time changes| (the flat profile's impact).\n"
		" self      the change of the time spent in the function (in a caller\n"
		"           or callee line: the change of the time along that call).\n"
		" children  the change of the time its callees spent for it.\n");
	if (extended)
		fprintf(out,
			" +calls    the baseline's calls: of the function on its own line\n"
			"           (\"+N\": recursive calls), along the call on the others;\n"
			"           \"-\": not counted in that run.\n"
			" -calls    the second run's.\n"
			" diff      +calls minus -calls.\n");
	else
		fprintf(out,
			" called    the change of the function's calls (\"+N\": of its\n"
			"           recursive calls); in a caller or callee line, the change\n"
			"           along that call / the change of the callee's calls (of its\n"
			"           cycle's, for a member).  A call within a cycle shows only\n"
			"           its change.  --extended shows both runs' counts.\n");
	fprintf(out,
		" name      the function, [index] in this table, (index) when it is\n"
		"           not printed here.  Cycles are matched across the runs by\n"
		"           their members and numbered for this table.\n\n");
}

static int cmp_name(const void *lp, const void *rp, void *ctx)
{
	const struct cg_ctx *cc = ctx;
	size_t l = *(const size_t *)lp, r = *(const size_t *)rp;
	int c = diff_name_cmp(cc->name_key[l], cc->d->entries[l].name, cc->name_key[r],
			      cc->d->entries[r].name);

	return c ? c : (l < r ? -1 : l > r);
}

/* "[%d]" (printed) or "(%d)" of a positive index into buf[32]; its length. */
static size_t index_text(char *buf, int index, int printed)
{
	char digits[24], *p = line_u64_digits(digits + sizeof(digits), (uint64_t)index);
	size_t n = (size_t)(digits + sizeof(digits) - p);

	if (index < 0)
		return (size_t)snprintf(buf, 32, printed ? "[%d]" : "(%d)", index);
	buf[0] = printed ? '[' : '(';
	memcpy(buf + 1, p, n);
	buf[n + 1] = printed ? ']' : ')';
	buf[n + 2] = '\0';
	return n + 2;
}

/* gprof's cg_print_index, over the entries: names in name order, then
 * the cycles, in three columns of (width - 1) / 3. */
static int print_index(FILE *out, struct cg_ctx *c, int next_index)
{
	const struct diff *d = c->d;
	const struct diff_print_opts *po = c->po;
	size_t *sorted = malloc((d->nentries + 1) * sizeof(size_t));
	size_t nnames = 0, todo, rows, i, j;
	int column_width = ((po->width > 0 ? po->width : 80) - 1) / 3;

	if (!sorted)
		return error("out of memory");
	for (i = 0; i < d->nentries; i++) {
		const struct diff_entry *e = &d->entries[i];

		if (is_cycle(e) || (!po->zeros && !e->side[0].has_calls && !e->side[1].has_calls &&
				    !e->side[0].has_samples && !e->side[1].has_samples))
			continue;
		sorted[nnames++] = i;
	}
	qsort_r(sorted, nnames, sizeof(size_t), cmp_name, c);
	todo = nnames;
	for (int n = 1; n <= d->ncycles; n++)
		if (c->cycle_entry[n] >= 0)
			sorted[todo++] = (size_t)c->cycle_entry[n];
	/* Entries the graph does not print get indices after the printed
	 * ones (gprof numbers every symbol), in name order. */
	for (i = 0; i < todo; i++)
		if (!c->index[sorted[i]])
			c->index[sorted[i]] = next_index++;

	line_str(&c->l, "\f\nIndex by function name\n\n");
	rows = (todo + 2) / 3;
	for (i = 0; i < rows; i++) {
		int col = 0, starting_col = 0;

		for (j = i; j < todo; j += rows) {
			const struct diff_entry *e = &d->entries[sorted[j]];
			char buf[32], cyc[32], cell[64];
			size_t nbuf;

			nbuf = index_text(buf, c->index[sorted[j]], c->index[sorted[j]] <= c->nprinted);
			if (j >= nnames)
				snprintf(cyc, sizeof(cyc), "<cycle %d>", e->cycle);
			if (po->bsd) {
				snprintf(cell, sizeof(cell), "%6.6s %-19.19s", buf,
					 j < nnames ? e->name : cyc);
				line_str(&c->l, cell);
			} else {
				const char *name = j < nnames ? e->print_name : cyc;
				size_t nl = strlen(name);

				col += (int)nbuf;
				if (col < starting_col + 5) {
					line_spaces(&c->l, (size_t)(starting_col + 5 - col));
					col = starting_col + 5;
				}
				line_char(&c->l, ' ');
				line_put(&c->l, buf, nbuf);
				line_char(&c->l, ' ');
				line_put(&c->l, name, nl);
				col += (int)nl;
				if (j < nnames && (e->flags & PSYM_STATIC) && e->file) {
					const char *f = e->file, *slash = strrchr(f, '/');
					size_t fl;

					if (!po->print_path && slash)
						f = slash + 1;
					fl = strlen(f);
					/* Shared names already carry their file. */
					if (!(nl > fl + 3 && name[nl - 1] == ')' &&
					      strncmp(name + nl - fl - 3, " (", 2) == 0 &&
					      strncmp(name + nl - fl - 1, f, fl) == 0)) {
						line_put(&c->l, " (", 2);
						line_put(&c->l, f, fl);
						line_char(&c->l, ')');
						col += (int)fl + 3;
					}
				}
			}
			starting_col += column_width;
		}
		end_line(c, out);
	}
	free(sorted);
	line_flush(&c->l, out);
	return c->l.failed ? error("out of memory") : 0;
}

int print_cg(FILE *out, const struct diff *d, const struct diff_print_opts *po)
{
	struct cg_ctx c;
	size_t *order = NULL, *arcs = NULL, n = 0, i, k, na;
	int ret = -1;

	memset(&c, 0, sizeof(c));
	c.d = d;
	c.po = po;
	c.index = calloc(d->nentries + 1, sizeof(int));
	c.cycle_entry = malloc(((size_t)d->ncycles + 1) * sizeof(long));
	c.first_member = malloc(((size_t)d->ncycles + 1) * sizeof(size_t));
	c.next_member = malloc((d->nentries + 1) * sizeof(size_t));
	c.name_key = malloc((d->nentries + 1) * sizeof(uint64_t));
	c.end = malloc((d->nentries + 1) * sizeof(*c.end));
	order = malloc((d->nentries + 1) * sizeof(size_t));
	arcs = malloc((d->narcs + 1) * sizeof(size_t));
	if (!c.index || diff_arc_index_build(d, &c.ix) < 0 || !c.cycle_entry ||
	    !c.first_member || !c.next_member || !c.name_key || !c.end || !order || !arcs) {
		error("out of memory");
		goto out;
	}
	for (i = 0; i < d->nentries; i++) {
		c.name_key[i] = diff_name_key(d->entries[i].name);
	}
	for (i = 0; i <= (size_t)d->ncycles; i++) {
		c.cycle_entry[i] = -1;
		c.first_member[i] = NONE;
	}
	for (i = d->nentries; i-- > 0;) {
		const struct diff_entry *e = &d->entries[i];

		if (!is_cycle(e) && e->cycle > 0 && e->cycle <= d->ncycles) {
			c.next_member[i] = c.first_member[e->cycle];
			c.first_member[e->cycle] = i;
		}
	}
	for (i = 0; i < d->nentries; i++) {
		if (is_cycle(&d->entries[i]) && d->entries[i].cycle <= d->ncycles)
			c.cycle_entry[d->entries[i].cycle] = (long)i;
	}
	for (i = 0; i < d->nentries; i++) {
		const struct diff_entry *e = &d->entries[i];

		c.end[i].name = e->print_name;
		c.end[i].cycle = e->cycle;
		c.end[i].whole = is_cycle(e);
		c.end[i].counted = e->side[0].calls_measured || e->side[1].calls_measured;
		c.end[i].denom = e->calls_diff;
	}
	for (i = 0; i < d->nentries; i++)
		if (!c.end[i].whole && c.end[i].cycle && c.end[i].cycle <= d->ncycles &&
		    c.cycle_entry[c.end[i].cycle] >= 0)
			c.end[i].denom = d->entries[c.cycle_entry[c.end[i].cycle]].calls_diff;
	for (i = 0; i < d->nentries; i++) {
		const struct diff_entry *e = &d->entries[i];
		int data = c.ix.in_at[i + 1] > c.ix.in_at[i] || c.ix.out_at[i + 1] > c.ix.out_at[i] || is_cycle(e) ||
			   e->side[0].has_samples || e->side[1].has_samples;

		if (e->in_graph && (data || po->zeros))
			order[n++] = i;
	}
	if (sort_primary(d, order, n) < 0)
		goto out;
	for (i = 0; i < n; i++)
		c.index[order[i]] = (int)i + 1;
	c.nprinted = (int)n;
	if (!po->extended && unsigned_readers(&c) < 0)
		goto out;

	fprintf(out, "\t\t\tCall graph (differential)\n\n");
	if (!po->brief)
		fprintf(out, "Every number is the baseline's minus the second run's.\n\n");
	if (po->extended)
		fprintf(out, "%-6s %6s %8s %9s %9s %9s %9s   %s\n", "index", "% time", "self",
			"children", "+calls", "-calls", "diff", "name");
	else
		fprintf(out, "index %% time    self  children    called     name\n");
	/* from here on the text goes through c.l */
	for (i = 0; i < n; i++) {
		size_t at = order[i];
		int64_t denom = c.end[at].denom;

		if (c.end[at].whole) {
			/* gprof's cycle entry: its line, then its members. */
			primary_line(out, &c, at);
			if (member_lines(out, &c, &d->entries[at]) < 0)
				goto out;
			line_str(&c.l, "-----------------------------------------------\n");
			continue;
		}

		/* Parents, then the function, then children: gprof's entry. */
		na = 0;
		for (k = c.ix.in_at[at]; k < c.ix.in_at[at + 1]; k++)
			arcs[na++] = c.ix.in[k];
		if (na == 0) { /* "%6.6s %5.5s %7.7s %7.7s %7.7s %7.7s     " of "" */
			line_spaces(&c.l, po->extended ? 69 : 49);
			line_str(&c.l, "<spontaneous>\n");
		}
		qsort_r(arcs, na, sizeof(size_t), cmp_arc, &c);
		for (k = 0; k < na; k++)
			arc_line(out, &c, &d->arcs[arcs[k]], d->arcs[arcs[k]].parent, denom);

		primary_line(out, &c, at);

		na = 0;
		for (k = c.ix.out_at[at]; k < c.ix.out_at[at + 1]; k++)
			arcs[na++] = c.ix.out[k];
		qsort_r(arcs, na, sizeof(size_t), cmp_arc, &c);
		for (k = 0; k < na; k++) {
			const struct diff_arc *a = &d->arcs[arcs[k]];

			arc_line(out, &c, a, a->child, c.end[a->child].denom);
		}
		line_str(&c.l, "-----------------------------------------------\n");
	}
	line_char(&c.l, '\n');
	line_flush(&c.l, out);
	if (c.l.failed) {
		error("out of memory");
		goto out;
	}
	if (!po->brief)
		blurb(out, po->extended);
	if (print_index(out, &c, (int)n + 1) < 0)
		goto out;
	ret = 0;
out:
	free(c.index);
	diff_arc_index_free(&c.ix);
	free(c.cycle_entry);
	free(c.first_member);
	free(c.next_member);
	free(order);
	free(arcs);
	free(c.name_key);
	free(c.end);
	free(c.hidden);
	line_release(&c.l);
	return ret;
}
