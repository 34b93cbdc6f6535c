#include <cairo.h>
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ranks/heatmap.h"
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/xmltext.h"
#include "utils/banned.h"

/*
 * cairo is loaded when a heat map is drawn, not linked: its libraries'
 * constructors (fontconfig, X11, ...) would allocate before upstream gprof
 * runs and change the heap it sees, and plain gprof must stay GNU gprof
 * byte for byte, down to its out-of-memory message (which reports how much
 * the heap grew) and to what its reads of uninitialised memory find
 * (testsuite/e2e/t005).  One table of the functions used, filled by dlsym.
 */
#define CAIRO_FUNCS(X) \
	X(cairo_create) \
	X(cairo_destroy) \
	X(cairo_fill) \
	X(cairo_image_surface_create) \
	X(cairo_line_to) \
	X(cairo_move_to) \
	X(cairo_paint) \
	X(cairo_rectangle) \
	X(cairo_select_font_face) \
	X(cairo_set_font_size) \
	X(cairo_set_line_width) \
	X(cairo_set_source_rgb) \
	X(cairo_show_text) \
	X(cairo_status_to_string) \
	X(cairo_stroke) \
	X(cairo_surface_destroy) \
	X(cairo_surface_finish) \
	X(cairo_surface_status) \
	X(cairo_surface_write_to_png_stream) \
	X(cairo_text_extents) \

struct cairo_api {
#define CAIRO_DECL(f) __typeof__(f) *f;
	CAIRO_FUNCS(CAIRO_DECL)
#undef CAIRO_DECL
};

static int cairo_load(struct cairo_api *ca, const char *path)
{
	void *h = dlopen("libcairo.so.2", RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return error("cannot draw '%s': %s (Debian package libcairo2)", path, dlerror());
#define CAIRO_SYM(f) \
	if (!(*(void **)&ca->f = dlsym(h, #f))) \
		return error("cannot draw '%s': %s has no %s", path, "libcairo.so.2", #f);
	CAIRO_FUNCS(CAIRO_SYM)
#undef CAIRO_SYM
	return 0;
}

int rankstate_heatmap(const struct rankstate *st, const struct rankpass *pass,
		      struct heatmap *hm)
{
	double one = (double)RANKSTATE_SELF_ONE * (st->hz > 0 ? st->hz : 1);
	size_t r, b;

	memset(hm, 0, sizeof(*hm));
	hm->rows = (size_t)pass->heat_rows;
	hm->bins = (size_t)pass->heat_bins;
	hm->nranks = st->nranks;
	hm->names = calloc(hm->rows + 1, sizeof(*hm->names));
	hm->mean = calloc(hm->rows + 1, sizeof(*hm->mean));
	hm->max_rank = calloc(hm->rows + 1, sizeof(*hm->max_rank));
	hm->cell = calloc(hm->rows * hm->bins + 1, sizeof(*hm->cell));
	if (!hm->names || !hm->mean || !hm->max_rank || !hm->cell)
		goto oom;
	for (r = 0; r < hm->rows; r++) {
		const struct rankstate_fn *f = &st->fns[pass->heat_fn[r]];

		if (!(hm->names[r] = strdup(f->print_name)))
			goto oom;
		hm->mean[r] = (double)f->self_sum / one / (double)st->nranks;
		hm->max_rank[r] = f->self_max_rank;
		for (b = 0; b < hm->bins; b++)
			hm->cell[r * hm->bins + b] = (double)pass->heat[r * hm->bins + b] / one;
	}
	return 0;
oom:
	heatmap_release(hm);
	return error("out of memory");
}

void heatmap_release(struct heatmap *hm)
{
	size_t r;

	for (r = 0; hm->names && r < hm->rows; r++)
		free(hm->names[r]);
	free(hm->names);
	free(hm->mean);
	free(hm->cell);
	free(hm->max_rank);
	memset(hm, 0, sizeof(*hm));
}

/*
 * Colour of a ratio self/mean: white at 1, deepening to red at 2 and above
 * (twice the mean: everyone else waits as long as they worked), to blue at
 * 0 (the function did not run there).  A diverging scale centred on the
 * mean, as imbalance is read both ways.
 */
static void ratio_colour(double ratio, double *r, double *g, double *b)
{
	double t;

	if (ratio >= 1) {
		t = fmin(ratio - 1, 1);
		*r = 1 - 0.25 * t;
		*g = *b = 1 - 0.9 * t;
	} else {
		t = 1 - fmax(ratio, 0);
		*r = *g = 1 - 0.8 * t;
		*b = 1 - 0.3 * t;
	}
}

#define MARGIN_LEFT 230.0
#define MARGIN_TOP 56.0
#define MARGIN_BOTTOM 70.0
#define ROW_H 18.0
#define PLOT_W 800.0

static cairo_status_t write_fp(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS
						    : CAIRO_STATUS_WRITE_ERROR;
}

static void text(const struct cairo_api *ca, cairo_t *cr, double x, double y, const char *s, double size, int right)
{
	cairo_text_extents_t ext;

	ca->cairo_set_font_size(cr, size);
	ca->cairo_text_extents(cr, s, &ext);
	ca->cairo_move_to(cr, right ? x - ext.x_advance : x, y);
	ca->cairo_show_text(cr, s);
}

/* The first rank of bin b. */
static uint64_t bin_first(const struct heatmap *hm, size_t b)
{
	return (uint64_t)(((unsigned __int128)b * hm->nranks + hm->bins - 1) / hm->bins);
}

static void draw(const struct cairo_api *ca, cairo_t *cr, const struct heatmap *hm, double w, double h, const char *title)
{
	double cw = hm->bins ? PLOT_W / (double)hm->bins : PLOT_W;
	char buf[128];
	size_t r, b, k;

	ca->cairo_set_source_rgb(cr, 1, 1, 1);
	ca->cairo_paint(cr);
	ca->cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	ca->cairo_set_source_rgb(cr, 0, 0, 0);
	text(ca, cr, 10, 20, title, 13, 0);
	snprintf(buf, sizeof(buf), "self time relative to the function's mean over %llu ranks%s; "
		 "box: slowest rank", (unsigned long long)hm->nranks,
		 hm->bins < hm->nranks ? " (a column: its slowest rank)" : "");
	text(ca, cr, 10, 38, buf, 10, 0);
	for (r = 0; r < hm->rows; r++) {
		double y = MARGIN_TOP + ROW_H * (double)r;

		for (b = 0; b < hm->bins; b++) {
			double red, green, blue, m = hm->mean[r];

			ratio_colour(m > 0 ? hm->cell[r * hm->bins + b] / m : 1, &red, &green, &blue);
			ca->cairo_set_source_rgb(cr, red, green, blue);
			/* cells overlap by a hair so no seams show between them */
			ca->cairo_rectangle(cr, MARGIN_LEFT + cw * (double)b, y, cw + 0.3, ROW_H);
			ca->cairo_fill(cr);
		}
		ca->cairo_set_source_rgb(cr, 0, 0, 0);
		snprintf(buf, sizeof(buf), "%.40s", hm->names[r]);
		text(ca, cr, MARGIN_LEFT - 6, y + ROW_H - 5, buf, 11, 1);
		snprintf(buf, sizeof(buf), "max rank %llu", (unsigned long long)hm->max_rank[r]);
		text(ca, cr, MARGIN_LEFT + PLOT_W + 6, y + ROW_H - 5, buf, 10, 0);
		b = (size_t)rankpass_bin(hm->max_rank[r], hm->nranks, hm->bins);
		ca->cairo_set_line_width(cr, 2);
		ca->cairo_rectangle(cr, MARGIN_LEFT + cw * (double)b + 1, y + 1,
				fmax(cw - 2, 2), ROW_H - 2);
		ca->cairo_stroke(cr);
	}
	/* the rank axis: up to 9 labelled ticks */
	for (k = 0; k <= 8 && hm->bins; k++) {
		double x;

		b = k * (hm->bins - 1) / 8;
		if (k && b == (k - 1) * (hm->bins - 1) / 8)
			continue;
		x = MARGIN_LEFT + cw * ((double)b + 0.5);
		ca->cairo_move_to(cr, x, MARGIN_TOP + ROW_H * (double)hm->rows);
		ca->cairo_line_to(cr, x, MARGIN_TOP + ROW_H * (double)hm->rows + 5);
		ca->cairo_set_line_width(cr, 1);
		ca->cairo_stroke(cr);
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)bin_first(hm, b));
		text(ca, cr, x - 4, MARGIN_TOP + ROW_H * (double)hm->rows + 17, buf, 10, 0);
	}
	text(ca, cr, MARGIN_LEFT, MARGIN_TOP + ROW_H * (double)hm->rows + 32, "rank", 10, 0);
	/* legend: 0, mean, 2x mean */
	for (k = 0; k <= 40; k++) {
		double red, green, blue;

		ratio_colour((double)k / 20.0, &red, &green, &blue);
		ca->cairo_set_source_rgb(cr, red, green, blue);
		ca->cairo_rectangle(cr, w - 260 + 5.0 * (double)k, h - 30, 5.3, 12);
		ca->cairo_fill(cr);
	}
	ca->cairo_set_source_rgb(cr, 0, 0, 0);
	text(ca, cr, w - 260, h - 8, "0", 10, 0);
	text(ca, cr, w - 165, h - 8, "mean", 10, 0);
	text(ca, cr, w - 70, h - 8, "2x mean", 10, 0);
}

/*
 * The SVG, written as text (not through cairo, which draws letters as
 * glyph outlines): names are <text>, so a browser's search finds them and
 * they can be selected and copied, and each cell has a <title> (the
 * tooltip) with its rank, seconds and ratio to the mean.  The geometry is
 * the PNG's.
 */
static void svg_colour(FILE *fp, double ratio)
{
	double r, g, b;

	ratio_colour(ratio, &r, &g, &b);
	fprintf(fp, "#%02x%02x%02x", (int)lround(r * 255), (int)lround(g * 255),
		(int)lround(b * 255));
}

static void svg_text(FILE *fp, double x, double y, double size, int right, const char *s,
		     size_t max)
{
	fprintf(fp, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%g\"%s>", x, y, size,
		right ? " text-anchor=\"end\"" : "");
	xml_text(fp, s, max);
	fputs("</text>\n", fp);
}

int heatmap_svg_fp(const struct heatmap *hm, FILE *fp, const char *title)
{
	double w = MARGIN_LEFT + PLOT_W + 110;
	double h = MARGIN_TOP + ROW_H * (double)(hm->rows ? hm->rows : 1) + MARGIN_BOTTOM;
	double cw = hm->bins ? PLOT_W / (double)hm->bins : PLOT_W;
	double bottom = MARGIN_TOP + ROW_H * (double)hm->rows;
	char buf[160];
	size_t r, b, k;

	fprintf(fp, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"egprof-heatmap\" "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
		"font-family=\"sans-serif\">\n<title>", w, h, w, h);
	xml_text(fp, title, 0);
	fprintf(fp, "</title>\n<rect width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", w, h);
	svg_text(fp, 10, 20, 13, 0, title, 0);
	snprintf(buf, sizeof(buf), "self time relative to the function's mean over %llu ranks%s; "
		 "box: slowest rank", (unsigned long long)hm->nranks,
		 hm->bins < hm->nranks ? " (a column: its slowest rank)" : "");
	svg_text(fp, 10, 38, 10, 0, buf, 0);
	for (r = 0; r < hm->rows; r++) {
		double y = MARGIN_TOP + ROW_H * (double)r, m = hm->mean[r];

		fputs("<g class=\"row\" data-function=\"", fp);
		xml_text(fp, hm->names[r], 0);
		fputs("\">\n", fp);
		for (b = 0; b < hm->bins; b++) {
			double v = hm->cell[r * hm->bins + b], ratio = m > 0 ? v / m : 1;
			uint64_t first = bin_first(hm, b), last = bin_first(hm, b + 1);

			fprintf(fp, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" "
				"fill=\"", MARGIN_LEFT + cw * (double)b, y, cw + 0.3, ROW_H);
			svg_colour(fp, ratio);
			fputs("\"><title>", fp);
			xml_text(fp, hm->names[r], 0);
			if (last > first + 1)
				fprintf(fp, "&#10;ranks %llu-%llu: the slowest %.3f s", (unsigned long long)first,
					(unsigned long long)(last - 1), v);
			else
				fprintf(fp, "&#10;rank %llu: %.3f s", (unsigned long long)first, v);
			if (m > 0)
				fprintf(fp, ", %.2fx the mean (%.3f s)", ratio, m);
			fputs("</title></rect>\n", fp);
		}
		svg_text(fp, MARGIN_LEFT - 6, y + ROW_H - 5, 11, 1, hm->names[r], 40);
		snprintf(buf, sizeof(buf), "max rank %llu", (unsigned long long)hm->max_rank[r]);
		svg_text(fp, MARGIN_LEFT + PLOT_W + 6, y + ROW_H - 5, 10, 0, buf, 0);
		b = (size_t)rankpass_bin(hm->max_rank[r], hm->nranks, hm->bins);
		fprintf(fp, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" "
			"fill=\"none\" stroke=\"#000000\" stroke-width=\"2\"/>\n</g>\n",
			MARGIN_LEFT + cw * (double)b + 1, y + 1, fmax(cw - 2, 2), ROW_H - 2);
	}
	/* the rank axis: up to 9 labelled ticks */
	for (k = 0; k <= 8 && hm->bins; k++) {
		double x;

		b = k * (hm->bins - 1) / 8;
		if (k && b == (k - 1) * (hm->bins - 1) / 8)
			continue;
		x = MARGIN_LEFT + cw * ((double)b + 0.5);
		fprintf(fp, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" "
			"stroke=\"#000000\"/>\n", x, bottom, x, bottom + 5);
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)bin_first(hm, b));
		svg_text(fp, x - 4, bottom + 17, 10, 0, buf, 0);
	}
	svg_text(fp, MARGIN_LEFT, bottom + 32, 10, 0, "rank", 0);
	/* legend: 0, mean, 2x mean */
	for (k = 0; k <= 40; k++) {
		fprintf(fp, "<rect x=\"%.1f\" y=\"%.0f\" width=\"5.3\" height=\"12\" fill=\"",
			w - 260 + 5.0 * (double)k, h - 30);
		svg_colour(fp, (double)k / 20.0);
		fputs("\"/>\n", fp);
	}
	svg_text(fp, w - 260, h - 8, 10, 0, "0", 0);
	svg_text(fp, w - 165, h - 8, 10, 0, "mean", 0);
	svg_text(fp, w - 70, h - 8, 10, 0, "2x mean", 0);
	fputs("</svg>\n", fp);
	return ferror(fp) ? -1 : 0;
}

struct svg_ctx {
	const struct heatmap *hm;
	const char *title;
};

static int svg_write_fp(FILE *fp, const void *ctx)
{
	const struct svg_ctx *c = ctx;

	return heatmap_svg_fp(c->hm, fp, c->title);
}

int heatmap_write(const struct heatmap *hm, struct outset *outs, const char *path,
		  enum heatmap_format fmt,
		  const char *title)
{
	double w = MARGIN_LEFT + PLOT_W + 110;
	double h = MARGIN_TOP + ROW_H * (double)(hm->rows ? hm->rows : 1) + MARGIN_BOTTOM;
	struct cairo_api ca_api, *ca = &ca_api;
	struct outfile one, *of = &one;
	cairo_surface_t *s;
	cairo_t *cr;
	cairo_status_t st;

	if (fmt == HEATMAP_SVG)
		return outfile_write(outs, path, svg_write_fp, &(struct svg_ctx){ hm, title });
	if (cairo_load(ca, path) < 0)
		return -1;
	/* with the command's other outputs, or at once (utils/outfile.h) */
	if (outs ? outset_open(outs, &of, path) < 0 : outfile_open(of, path) < 0)
		return -1;
	s = ca->cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)w, (int)h);
	cr = ca->cairo_create(s);
	draw(&ca_api, cr, hm, w, h, title);
	ca->cairo_destroy(cr);
	st = ca->cairo_surface_write_to_png_stream(s, write_fp, of->fp);
	ca->cairo_surface_finish(s);
	if (st == CAIRO_STATUS_SUCCESS)
		st = ca->cairo_surface_status(s);
	ca->cairo_surface_destroy(s);
	if (st != CAIRO_STATUS_SUCCESS) {
		if (!outs)
			outfile_abort(of);
		return error("%s: cannot write: %s", path, ca->cairo_status_to_string(st));
	}
	return outs ? 0 : outfile_commit(of);
}
