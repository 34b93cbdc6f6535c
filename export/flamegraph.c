/*
 * flamegraph.c - the SVG flame graph of folded stacks (flamegraph.h).
 *
 * The stacks become a tree of frames (one per distinct prefix), each with
 * its self and inclusive counts per run.  Frames are drawn root at the
 * bottom, children left to right by name (as flamegraph.pl, whose input
 * is sorted), each as wide as its inclusive count.  The positions are
 * computed here, so the file is a picture without its script; the script
 * (export/flamegraph/flamegraph.js, embedded) redraws them to zoom and
 * marks the frames a search matches.  Every frame carries its numbers as
 * attributes (data-v: its width in samples, data-x: its left edge in
 * samples, data-p: its parent's frame index) that the script and the
 * tests read.
 */
#include "export/flamegraph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/strhash.h"
#include "utils/xmltext.h"
#include "utils/banned.h"

extern const char flamegraph_js[];

#define FRAME_H 16              /* px per level */
#define PAD_X 10                /* px left and right of the frames */
#define HEAD_H 80               /* title, subtitle, key, runs, buttons */
#define FOOT_H 36               /* the details line */
#define FONT_PX 12
#define CHAR_W (0.59 * FONT_PX) /* Verdana's mean width, as flamegraph.pl */
#define NONE UINT32_MAX

struct node {
	char *name;             /* owned; "" for the root */
	uint32_t parent;
	uint32_t depth;
	uint64_t self[2], total[2];
	int noise;              /* the diff's verdict on its self change */
	/* layout: */
	uint32_t first_child;   /* index into tree.kids, children by name */
	uint32_t nkids;
	int drawn;
	uint64_t x;             /* left edge, in samples of the width run */
	uint64_t narrow;        /* drawn: its children under the minimum, merged */
	uint64_t narrow_x;      /* where their frame starts, after the others */
	uint32_t nnarrow;       /* how many frames (whole subtrees) merged */
	uint32_t id;            /* drawn: the frame's index in the file */
};

struct tree {
	struct node *n;
	uint32_t nr, alloc;
	uint32_t *slot;         /* hash of (parent, name) -> node, NONE free */
	uint32_t mask;
	uint32_t *kids;
};

static size_t key_hash(uint32_t parent, const char *name, size_t len)
{
	size_t h = 1469598103934665603ull ^ parent;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
	return h ^ (h >> 29);
}

static int grow_slots(struct tree *t)
{
	uint32_t cap = t->mask ? (t->mask + 1) * 2 : 1024;
	uint32_t *s = malloc(cap * sizeof(*s));

	if (!s)
		return -1;
	memset(s, 0xff, cap * sizeof(*s));
	for (uint32_t i = 0; i < t->nr; i++) {
		size_t h = key_hash(t->n[i].parent, t->n[i].name, strlen(t->n[i].name));

		while (s[h & (cap - 1)] != NONE)
			h++;
		s[h & (cap - 1)] = i;
	}
	free(t->slot);
	t->slot = s;
	t->mask = cap - 1;
	return 0;
}

/* The child of `parent` named name[0..len), made when new; NONE: out of
 * memory. */
static uint32_t child(struct tree *t, uint32_t parent, const char *name, size_t len)
{
	size_t h;
	struct node *n;

	if ((t->nr + 1) * 2 > t->mask + 1 && grow_slots(t) < 0)
		return NONE;
	for (h = key_hash(parent, name, len);; h++) {
		uint32_t i = t->slot[h & t->mask];

		if (i == NONE)
			break;
		if (t->n[i].parent == parent && !strncmp(t->n[i].name, name, len) &&
		    !t->n[i].name[len])
			return i;
	}
	if (t->nr == t->alloc) {
		uint32_t a = t->alloc ? t->alloc * 2 : 256;
		struct node *nn = a < NONE / 2 ? realloc(t->n, a * sizeof(*nn)) : NULL;

		if (!nn)
			return NONE;
		t->n = nn;
		t->alloc = a;
	}
	n = &t->n[t->nr];
	memset(n, 0, sizeof(*n));
	if (!(n->name = malloc(len + 1)))
		return NONE;
	memcpy(n->name, name, len);
	n->name[len] = '\0';
	n->parent = parent;
	n->depth = parent == NONE ? 0 : t->n[parent].depth + 1;
	t->slot[h & t->mask] = t->nr;
	return t->nr++;
}

static void tree_free(struct tree *t)
{
	for (uint32_t i = 0; i < t->nr; i++)
		free(t->n[i].name);
	free(t->n);
	free(t->slot);
	free(t->kids);
}

struct kid {
	const char *name;
	uint32_t i;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct kid *)a)->name, ((const struct kid *)b)->name);
}

static int sat_add(uint64_t *a, uint64_t b)
{
	*a = *a + b < *a ? UINT64_MAX : *a + b;
	return 0;
}

/* The tree of the stacks: node 0 the root ("all"), then every prefix;
 * a parent's index is below its children's. */
static int tree_build(struct tree *t, const struct flamegraph_stack *s, size_t n)
{
	struct kid *k;
	uint32_t *fill;

	memset(t, 0, sizeof(*t));
	if (child(t, NONE, "", 0) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const char *p = s[i].stack;
		uint32_t at = 0;

		while (*p) {
			const char *e = strchr(p, ';');
			size_t len = e ? (size_t)(e - p) : strlen(p);

			if ((at = child(t, at, p, len)) == NONE)
				return -1;
			p += len + (e != NULL);
		}
		sat_add(&t->n[at].self[0], s[i].a);
		sat_add(&t->n[at].self[1], s[i].b);
		t->n[at].noise = s[i].within_noise;
	}
	/* inclusive counts: children after parents, so backwards */
	for (uint32_t i = 0; i < t->nr; i++) {
		t->n[i].total[0] = t->n[i].self[0];
		t->n[i].total[1] = t->n[i].self[1];
	}
	for (uint32_t i = t->nr; i-- > 1;) {
		sat_add(&t->n[t->n[i].parent].total[0], t->n[i].total[0]);
		sat_add(&t->n[t->n[i].parent].total[1], t->n[i].total[1]);
	}
	/* children lists, each sorted by name */
	if (!(t->kids = malloc(t->nr * sizeof(*t->kids))) ||
	    !(fill = calloc(t->nr, sizeof(*fill))))
		return -1;
	for (uint32_t i = 1; i < t->nr; i++)
		t->n[t->n[i].parent].nkids++;
	for (uint32_t i = 0, at = 0; i < t->nr; i++) {
		t->n[i].first_child = at;
		at += t->n[i].nkids;
	}
	for (uint32_t i = 1; i < t->nr; i++) {
		struct node *p = &t->n[t->n[i].parent];

		t->kids[p->first_child + fill[t->n[i].parent]++] = i;
	}
	free(fill);
	if (!(k = malloc(t->nr * sizeof(*k))))
		return -1;
	/* the root is no one's child: nr - 1 entries */
	for (uint32_t i = 0; i + 1 < t->nr; i++) {
		k[i].i = t->kids[i];
		k[i].name = t->n[t->kids[i]].name;
	}
	for (uint32_t i = 0; i < t->nr; i++)
		if (t->n[i].nkids > 1)
			qsort(k + t->n[i].first_child, t->n[i].nkids, sizeof(*k), by_name);
	for (uint32_t i = 0; i + 1 < t->nr; i++)
		t->kids[i] = k[i].i;
	free(k);
	return 0;
}

struct layout {
	int side;               /* the run whose counts are the widths */
	double min_v;           /* in samples: narrower frames are merged */
	size_t frames;          /* drawn, merged frames included */
	size_t merged_frames;   /* frames with samples inside merged ones */
	size_t merged_into;     /* merged frames drawn */
	uint64_t left_out;      /* samples of merged groups too narrow to draw */
	uint64_t gone;          /* a diff: the first run's samples in frames the
				   second has none of (no width to draw) */
	uint32_t max_depth;
};

static uint64_t width(const struct tree *t, const struct layout *l, uint32_t i)
{
	return t->n[i].total[l->side];
}

/* Frames in a subtree with a non-zero width (what merging hides). */
static void count_subtrees(const struct tree *t, const struct layout *l, uint32_t *sub)
{
	for (uint32_t i = 0; i < t->nr; i++)
		sub[i] = width(t, l, i) > 0;
	for (uint32_t i = t->nr; i-- > 1;)
		sub[t->n[i].parent] += sub[i];
}

/* Which frames are drawn at l->min_v, where, and how many. */
static void layout(struct tree *t, struct layout *l, const uint32_t *sub)
{
	l->frames = l->merged_frames = l->merged_into = 0;
	l->left_out = 0;
	l->gone = 0;
	l->max_depth = 0;
	for (uint32_t i = 0; i < t->nr; i++) {
		t->n[i].drawn = 0;
		t->n[i].narrow = 0;
		t->n[i].nnarrow = 0;
		if (l->side && i && !width(t, l, i) && width(t, l, t->n[i].parent))
			sat_add(&l->gone, t->n[i].total[0]);
	}
	t->n[0].drawn = width(t, l, 0) > 0;
	t->n[0].x = 0;
	/* parents before children: a parent's children are placed when it is */
	for (uint32_t i = 0; i < t->nr; i++) {
		struct node *p = &t->n[i];
		uint64_t at = p->x;

		if (!p->drawn)
			continue;
		l->frames++;
		if (p->depth > l->max_depth)
			l->max_depth = p->depth;
		for (uint32_t k = 0; k < p->nkids; k++) {
			uint32_t c = t->kids[p->first_child + k];
			uint64_t w = width(t, l, c);

			if (!w)
				continue;
			if ((double)w >= l->min_v) {
				t->n[c].drawn = 1;
				t->n[c].x = at;
				at += w;
			} else {
				sat_add(&p->narrow, w);
				p->nnarrow += sub[c];
			}
		}
		p->narrow_x = at;
		if (!p->nnarrow)
			continue;
		l->merged_frames += p->nnarrow;
		if ((double)p->narrow >= l->min_v) {
			l->frames++;
			l->merged_into++;
			if (p->depth + 1 > l->max_depth)
				l->max_depth = p->depth + 1;
		} else {
			l->left_out += p->narrow;
		}
	}
}

/* ---- writing ---- */

struct writer {
	FILE *fp;
	const struct flamegraph_opts *o;
	const struct tree *t;
	const struct layout *l;
	double px;              /* px per sample */
	double max_change;      /* the largest |self change| drawn, for colours */
	int height;
};

/* A count as seconds (when the counts are time) or in the unit. */
static void amount(FILE *fp, const struct flamegraph_opts *o, int side, uint64_t v)
{
	if (o->hz[side] > 0)
		fprintf(fp, "%.3f s (%llu %s)", (double)v / o->hz[side], (unsigned long long)v,
			o->unit);
	else
		fprintf(fp, "%llu %s", (unsigned long long)v, o->unit);
}

/* A's self minus B's, in seconds when both are time, else in counts. */
static double self_change(const struct flamegraph_opts *o, const struct node *n)
{
	if (o->hz[0] > 0 && o->hz[1] > 0)
		return (double)n->self[0] / o->hz[0] - (double)n->self[1] / o->hz[1];
	return (double)n->self[0] - (double)n->self[1];
}

static double total_change(const struct flamegraph_opts *o, const struct node *n)
{
	if (o->hz[0] > 0 && o->hz[1] > 0)
		return (double)n->total[0] / o->hz[0] - (double)n->total[1] / o->hz[1];
	return (double)n->total[0] - (double)n->total[1];
}

static void change(FILE *fp, const struct flamegraph_opts *o, double d)
{
	if (o->hz[0] > 0 && o->hz[1] > 0)
		fprintf(fp, "%+.3f s", d);
	else
		fprintf(fp, "%+.0f %s", d, o->unit);
}

/* flamegraph.pl's "hot" palette, from a hash of the name: the same
 * function has the same colour in every file. */
static void hot_colour(char *buf, size_t n, const char *name)
{
	size_t h = strhash(name);
	double v1 = (double)(h & 0xff) / 255, v2 = (double)((h >> 8) & 0xff) / 255,
	       v3 = (double)((h >> 16) & 0xff) / 255;

	snprintf(buf, n, "rgb(%d,%d,%d)", 205 + (int)(50 * v3), (int)(230 * v1),
		 (int)(55 * v2));
}

/* A diff's colour: the sign of A - B (red: the second run spends more),
 * deeper for a larger change; grey for none or noise.  data-c says which
 * ('+' more in the second run, '-' less, '0'). */
static char diff_colour(char *buf, size_t n, const struct writer *w, const struct node *nd)
{
	double d = self_change(w->o, nd);
	double f = w->max_change > 0 ? fabs(d) / w->max_change : 0;
	int c = (int)(210 * (1 - f) + 0.5);

	if (d == 0 || nd->noise) {
		snprintf(buf, n, "rgb(224,224,224)");
		return '0';
	}
	if (c > 210)
		c = 210;
	if (d < 0) {
		snprintf(buf, n, "rgb(255,%d,%d)", c, c);
		return '+';
	}
	snprintf(buf, n, "rgb(%d,%d,255)", c, c);
	return '-';
}

static int frame_y(const struct writer *w, uint32_t depth)
{
	return w->height - FOOT_H - (int)(depth + 1) * FRAME_H;
}

/* The label that fits a frame of `px` pixels: whole name, cut, or none. */
static void label(FILE *fp, const char *name, double x, double px, int y)
{
	size_t fit = (size_t)((px - 6) / CHAR_W);

	if (fit < 3)
		return;
	fprintf(fp, "<text x=\"%.2f\" y=\"%d\">", x + 3, y + FRAME_H - 4);
	xml_text(fp, name, strlen(name) <= fit ? 0 : fit - 1);
	fputs("</text>", fp);
}

static void frame(struct writer *w, uint32_t i)
{
	const struct tree *t = w->t;
	const struct node *nd = &t->n[i];
	const struct flamegraph_opts *o = w->o;
	int side = w->l->side;
	uint64_t v = nd->total[side], all = t->n[0].total[side];
	const char *name = i ? nd->name : "all";
	double x = PAD_X + (double)nd->x * w->px, px = (double)v * w->px;
	char fill[64], c = 0;
	FILE *fp = w->fp;

	if (o->diff)
		c = diff_colour(fill, sizeof(fill), w, nd);
	else if (i)
		hot_colour(fill, sizeof(fill), name);
	else
		snprintf(fill, sizeof(fill), "rgb(250,200,120)");
	fprintf(fp, "<g class=\"f\" data-x=\"%llu\" data-v=\"%llu\" data-d=\"%u\"",
		(unsigned long long)nd->x, (unsigned long long)v, nd->depth);
	if (i)
		fprintf(fp, " data-p=\"%u\"", t->n[nd->parent].id);
	if (o->diff)
		fprintf(fp, " data-a=\"%llu\" data-sa=\"%llu\" data-sb=\"%llu\" data-c=\"%c\"",
			(unsigned long long)nd->total[0], (unsigned long long)nd->self[0],
			(unsigned long long)nd->self[1], c);
	fputs("><title>", fp);
	xml_text(fp, name, 0);
	fputc('\n', fp);
	if (!o->diff) {
		amount(fp, o, 0, v);
		fprintf(fp, ", %.2f%%", all ? 100.0 * (double)v / (double)all : 0.0);
		if (i && nd->self[0]) {
			fputs("; self ", fp);
			amount(fp, o, 0, nd->self[0]);
		}
	} else {
		fprintf(fp, "%s: total ", o->label[1]);
		amount(fp, o, 1, v);
		fprintf(fp, ", %.2f%%; self ", all ? 100.0 * (double)v / (double)all : 0.0);
		amount(fp, o, 1, nd->self[1]);
		fprintf(fp, "\n%s: total ", o->label[0]);
		amount(fp, o, 0, nd->total[0]);
		fputs("; self ", fp);
		amount(fp, o, 0, nd->self[0]);
		fprintf(fp, "\nchange (%s - %s): self ", o->label[0], o->label[1]);
		change(fp, o, self_change(o, nd));
		fputs(", total ", fp);
		change(fp, o, total_change(o, nd));
		if (nd->noise && self_change(o, nd) != 0)
			fputs(" (self: within noise)", fp);
	}
	fprintf(fp, "</title><rect x=\"%.2f\" y=\"%d\" width=\"%.3f\" height=\"%d\" fill=\"%s\"/>",
		x, frame_y(w, nd->depth), px, FRAME_H - 1, fill);
	label(fp, name, x, px, frame_y(w, nd->depth));
	fputs("</g>\n", fp);
}

/* The frame of a parent's children too narrow to draw one by one. */
static void merged(struct writer *w, uint32_t i)
{
	const struct tree *t = w->t;
	const struct node *nd = &t->n[i];
	int side = w->l->side;
	uint64_t x = nd->narrow_x, all = t->n[0].total[side];
	double px = (double)nd->narrow * w->px;
	char name[96];
	FILE *fp = w->fp;

	snprintf(name, sizeof(name), "[%u narrow frames merged]", nd->nnarrow);
	fprintf(fp, "<g class=\"f merged\" data-m=\"%u\" data-x=\"%llu\" data-v=\"%llu\" "
		"data-d=\"%u\" data-p=\"%u\"><title>%s\neach under %.2f px; together ",
		nd->nnarrow, (unsigned long long)x, (unsigned long long)nd->narrow,
		nd->depth + 1, nd->id, name, w->l->min_v * w->px);
	amount(fp, w->o, side, nd->narrow);
	fprintf(fp, ", %.2f%%</title><rect x=\"%.2f\" y=\"%d\" width=\"%.3f\" height=\"%d\" "
		"fill=\"rgb(200,200,200)\"/>", all ? 100.0 * (double)nd->narrow / (double)all : 0.0,
		PAD_X + (double)x * w->px, frame_y(w, nd->depth + 1), px, FRAME_H - 1);
	label(fp, name, PAD_X + (double)x * w->px, px, frame_y(w, nd->depth + 1));
	fputs("</g>\n", fp);
}

static void head(struct writer *w)
{
	const struct flamegraph_opts *o = w->o;
	const struct layout *l = w->l;
	FILE *fp = w->fp;
	int W = FLAMEGRAPH_WIDTH_PX;

	fprintf(fp, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" data-fg-diff=\"%d\" data-fg-total=\"%llu\">\n",
		W, w->height, W, w->height, o->diff, (unsigned long long)w->t->n[0].total[l->side]);
	fputs("<style>\n"
	      "text { font-family: Verdana, sans-serif; font-size: 12px; fill: #000; }\n"
	      ".f text { pointer-events: none; }\n"
	      ".f:hover rect { stroke: #000; stroke-width: 0.5; cursor: pointer; }\n"
	      ".f.hide { display: none; }\n"
	      ".f.above rect { opacity: 0.5; }\n"
	      ".button { cursor: pointer; fill: #333; text-decoration: underline; }\n"
	      ".button.off { display: none; }\n"
	      "#title { font-size: 17px; text-anchor: middle; }\n"
	      "#subtitle, #key, #runs, #note { font-size: 11px; fill: #444; "
	      "text-anchor: middle; }\n"
	      "</style>\n", fp);
	fprintf(fp, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f8f8f4\"/>\n",
		W, w->height);
	fprintf(fp, "<text id=\"title\" x=\"%d\" y=\"22\">", W / 2);
	fputs(o->diff ? "Differential flame graph" : "Flame graph", fp);
	if (o->title) {
		fputs(": ", fp);
		xml_text(fp, o->title, 0);
	}
	fprintf(fp, "</text>\n<text id=\"subtitle\" x=\"%d\" y=\"38\">", W / 2);
	/* cut to the width (its whole text in the tooltip) */
	if (o->subtitle) {
		fputs("<title>", fp);
		xml_text(fp, o->subtitle, 0);
		fputs("</title>", fp);
		xml_text(fp, o->subtitle, (size_t)(W / (0.59 * 11)) - 4);
	}
	fprintf(fp, "</text>\n<text id=\"key\" x=\"%d\" y=\"52\">", W / 2);
	if (o->diff)
		fputs("Width: the second run's samples. Colour: self time, first run minus "
		      "second: red = more time in the second run, blue = less (deeper: "
		      "larger), grey = none or within noise", fp);
	else
		fputs("Width: samples of the frame and its callees; colour: by name. "
		      "Click a frame to zoom, Ctrl-F or / to search", fp);
	fputs("</text>\n", fp);
	/* the runs' names, cut to the width (whole in the tooltip) */
	fprintf(fp, "<text id=\"runs\" x=\"%d\" y=\"64\">", W / 2);
	if (o->diff) {
		char *runs = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&runs, &len);

		if (m) {
			fprintf(m, "first run: %s; second run: %s", o->label[0], o->label[1]);
			if (fclose(m) == 0 && runs) {
				fputs("<title>", fp);
				xml_text(fp, runs, 0);
				fputs("</title>", fp);
				xml_text(fp, runs, (size_t)(W / (0.59 * 11)) - 4);
			}
			free(runs);
		}
	}
	fputs("</text>\n", fp);
	fprintf(fp, "<text id=\"note\" x=\"%d\" y=\"76\">", W / 2);
	if (l->merged_frames)
		fprintf(fp, "%zu frames narrower than %.2f px merged into %zu frames; "
			"%llu %s in groups too narrow to draw", l->merged_frames,
			l->min_v * w->px, l->merged_into, (unsigned long long)l->left_out,
			o->unit);
	if (o->diff && l->gone) {
		fputs(l->merged_frames ? ". " : "", fp);
		amount(fp, o, 0, l->gone);
		fputs(" of the first run in frames the second does not have: not drawn "
		      "(no width)", fp);
	}
	fputs("</text>\n", fp);
	fprintf(fp, "<text id=\"unzoom\" class=\"button off\" x=\"%d\" y=\"22\">Reset Zoom</text>\n"
		"<text id=\"search\" class=\"button\" x=\"%d\" y=\"22\" "
		"style=\"text-anchor: end\">Search</text>\n"
		"<text id=\"clear\" class=\"button off\" x=\"%d\" y=\"22\" "
		"style=\"text-anchor: end\">Clear search</text>\n"
		"<text id=\"matched\" x=\"%d\" y=\"%d\" style=\"text-anchor: end\"></text>\n"
		"<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n",
		PAD_X, W - PAD_X, W - PAD_X - 60, W - PAD_X, w->height - 12, PAD_X, w->height - 12);
}

static int write_svg(struct writer *w)
{
	const struct tree *t = w->t;
	FILE *fp = w->fp;

	head(w);
	fputs("<g id=\"frames\">\n", fp);
	/* parents before children, so a frame's data-p is already known */
	for (uint32_t i = 0; i < t->nr; i++)
		if (t->n[i].drawn)
			frame(w, i);
	for (uint32_t i = 0; i < t->nr; i++)
		if (t->n[i].drawn && t->n[i].nnarrow && (double)t->n[i].narrow >= w->l->min_v)
			merged(w, i);
	fputs("</g>\n<script type=\"text/ecmascript\"><![CDATA[\n", fp);
	fputs(flamegraph_js, fp);
	fputs("]]></script>\n</svg>\n", fp);
	return ferror(fp) ? -1 : 0;
}

int flamegraph_write(FILE *fp, const struct flamegraph_stack *stacks, size_t n,
		     const struct flamegraph_opts *o)
{
	struct tree t;
	struct layout l = { 0 };
	struct writer w = { 0 };
	uint32_t *sub = NULL;
	double min_px = o->min_width_px > 0 ? o->min_width_px : FLAMEGRAPH_MIN_WIDTH_PX;
	size_t max_frames = o->max_frames ? o->max_frames : FLAMEGRAPH_MAX_FRAMES;
	double plot = FLAMEGRAPH_WIDTH_PX - 2 * PAD_X;
	uint32_t id = 0;
	int ret = -1;

	if (tree_build(&t, stacks, n) < 0 || !(sub = calloc(t.nr, sizeof(*sub)))) {
		error("out of memory");
		goto out;
	}
	l.side = o->diff ? 1 : 0;
	w.px = t.n[0].total[l.side] ? plot / (double)t.n[0].total[l.side] : 0;
	l.min_v = w.px > 0 ? min_px / w.px : 0;
	count_subtrees(&t, &l, sub);
	/* a bounded file: raise the minimum until the frames fit */
	for (layout(&t, &l, sub); l.frames > max_frames; layout(&t, &l, sub))
		l.min_v = l.min_v > 0 ? l.min_v * 2 : 1;
	for (uint32_t i = 0; i < t.nr; i++) {
		if (!t.n[i].drawn)
			continue;
		t.n[i].id = id++;
		if (o->diff && !t.n[i].noise && fabs(self_change(o, &t.n[i])) > w.max_change)
			w.max_change = fabs(self_change(o, &t.n[i]));
	}
	w.fp = fp;
	w.o = o;
	w.t = &t;
	w.l = &l;
	w.height = HEAD_H + (int)(l.max_depth + 1) * FRAME_H + FOOT_H;
	ret = write_svg(&w);
out:
	free(sub);
	tree_free(&t);
	return ret;
}

struct save_ctx {
	const struct flamegraph_stack *stacks;
	size_t n;
	const struct flamegraph_opts *o;
};

static int write_fp(FILE *fp, const void *ctx)
{
	const struct save_ctx *c = ctx;

	return flamegraph_write(fp, c->stacks, c->n, c->o);
}

int flamegraph_save(struct outset *set, const char *path,
		    const struct flamegraph_stack *stacks, size_t n,
		    const struct flamegraph_opts *o)
{
	struct save_ctx c = { stacks, n, o };

	return outfile_write(set, path, write_fp, &c);
}
