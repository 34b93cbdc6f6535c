#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "gml/gml_write.h"
#include "utils/banned.h"

static const char *const yed_line_style[GLINE__COUNT] = {
	[GLINE_SOLID] = "line",
	[GLINE_DASHED] = "dashed",
	[GLINE_DOTTED] = "dotted",
};

/* Decode one UTF-8 sequence at s; invalid bytes stand for themselves
 * (Latin-1), so every input byte gives some character and no name is
 * dropped. */
static uint32_t next_char(const unsigned char **s)
{
	const unsigned char *p = *s;
	uint32_t c = p[0];
	int n = c >= 0xf0 && c < 0xf8 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 && c < 0xe0 ? 1 : 0;
	int i;

	if (c < 0x80 || !n) {
		*s = p + 1;
		return c;
	}
	c &= 0x3f >> n;
	for (i = 1; i <= n; i++) {
		if ((p[i] & 0xc0) != 0x80) {
			*s = p + 1;
			return p[0];
		}
		c = (c << 6) | (p[i] & 0x3f);
	}
	*s = p + n + 1;
	return c;
}

void gml_write_escaped(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		uint32_t c = next_char(&p);

		switch (c) {
		case '&': fputs("&amp;", fp); break;
		case '"': fputs("&quot;", fp); break;
		case '<': fputs("&lt;", fp); break;
		case '>': fputs("&gt;", fp); break;
		default:
			if (c >= 0x20 && c < 0x7f)
				fputc((int)c, fp);
			else
				fprintf(fp, "&#%lu;", (unsigned long)c);
		}
	}
}

static void str_field(FILE *fp, const char *indent, const char *key, const char *s)
{
	fprintf(fp, "%s%s \"", indent, key);
	gml_write_escaped(fp, s);
	fputs("\"\n", fp);
}

int gml_write_fp(const struct graph *g, FILE *fp)
{
	char c1[8], c2[8];
	size_t i;

	fputs("Creator \"egprof " EGPROF_VERSION "\"\n", fp);
	fputs("graph [\n  directed 1\n", fp);
	str_field(fp, "  ", "label", g->title ? g->title : "");
	str_field(fp, "  ", "comment", g->legend ? g->legend : "");
	for (i = 0; i < g->nnodes; i++) {
		const struct graph_node *n = &g->nodes[i];

		fprintf(fp, "  node [\n    id %zu\n", i);
		/* outlineWidth is an integer: graphviz's gml2gv rejects a real
		 * value for a graphics key it does not know. */
		str_field(fp, "    ", "label", n->label);
		str_field(fp, "    ", "name", n->name);
		fprintf(fp, "    kind \"%s\"\n", graph_node_kind_names[n->kind]);
		fprintf(fp, "    graphics [ x %.1f y %.1f w %.1f h %.1f type \"%s\" "
			"fill \"%s\" outline \"%s\" outlineStyle \"%s\" outlineWidth %d ]\n",
			n->x, n->y, n->w, n->h, n->shape, graph_color_str(n->fill, c1),
			graph_color_str(n->outline, c2), yed_line_style[n->outline_style],
			(int)lround(n->outline_width));
		fputs("    LabelGraphics [ text \"", fp);
		gml_write_escaped(fp, n->label);
		fprintf(fp, "\" fontSize %d fontName \"Dialog\" anchor \"c\" ]\n  ]\n",
			n->kind == GNODE_LEGEND ? 11 : 12);
	}
	for (i = 0; i < g->nedges; i++) {
		const struct graph_edge *e = &g->edges[i];

		fprintf(fp, "  edge [\n    source %zu\n    target %zu\n", e->from, e->to);
		str_field(fp, "    ", "label", e->label);
		fprintf(fp, "    kind \"%s\"\n", graph_edge_kind_names[e->kind]);
		fprintf(fp, "    graphics [ fill \"%s\" width %.1f style \"%s\" "
			"targetArrow \"standard\" ]\n",
			graph_color_str(e->color, c1), e->width, yed_line_style[e->style]);
		fputs("    LabelGraphics [ text \"", fp);
		gml_write_escaped(fp, e->label);
		fputs("\" fontSize 10 model \"centered\" position \"center\" ]\n  ]\n", fp);
	}
	fputs("]\n", fp);
	return ferror(fp) ? -1 : 0;
}

int gml_write(const struct graph *g, const char *path)
{
	return graph_write_file(g, path, gml_write_fp);
}
