#include <math.h>
#include <stddef.h>
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

/*
 * The numbers as plain GML attributes, for networkx, igraph and anything
 * else that reads attributes rather than labels.  Names as GraphML's data
 * keys (graphml_write.c).  One row per attribute.
 */
enum num_type { NUM_SEC, NUM_PCT, NUM_U64, NUM_I64, NUM_BOOL };
enum num_use { FOR_SINGLE, FOR_DIFF };

/* mname: the name with --metric EV (graph.h: g->metric), a format of
 * the unit ("self_%s": self_events); NULL: the same name */
struct num_attr {
	const char *name;
	enum num_use use;
	enum num_type type;
	size_t offset;
	const char *mname;
	int calls;	/* a count of calls: left out where they were not counted */
};

#define NODE(name, use, type, field) NODEM(name, use, type, field, NULL)
#define EDGE(name, use, type, field) EDGEM(name, use, type, field, NULL)
#define NODEM(name, use, type, field, m) \
	{ name, use, type, offsetof(struct graph_node, field), m, 0 }
#define EDGEM(name, use, type, field, m) \
	{ name, use, type, offsetof(struct graph_edge, field), m, 0 }
#define NODE_CALLS(name, use, type, field) \
	{ name, use, type, offsetof(struct graph_node, field), NULL, 1 }
#define EDGE_CALLS(name, use, type, field) \
	{ name, use, type, offsetof(struct graph_edge, field), NULL, 1 }

static const struct num_attr node_nums[] = {
	NODEM("self_sec", FOR_SINGLE, NUM_SEC, self[0], "self_%s"),
	NODEM("total_sec", FOR_SINGLE, NUM_SEC, total[0], "total_%s"),
	NODE_CALLS("calls", FOR_SINGLE, NUM_U64, calls[0]),
	NODE("self_pct", FOR_SINGLE, NUM_PCT, self_pct),
	NODE("total_pct", FOR_SINGLE, NUM_PCT, total_pct),
	NODE("self_base", FOR_DIFF, NUM_SEC, self[0]),
	NODE("self_second", FOR_DIFF, NUM_SEC, self[1]),
	NODE("self_diff", FOR_DIFF, NUM_SEC, self_diff),
	NODE("total_base", FOR_DIFF, NUM_SEC, total[0]),
	NODE("total_second", FOR_DIFF, NUM_SEC, total[1]),
	NODE("total_diff", FOR_DIFF, NUM_SEC, total_diff),
	NODE_CALLS("calls_base", FOR_DIFF, NUM_U64, calls[0]),
	NODE_CALLS("calls_second", FOR_DIFF, NUM_U64, calls[1]),
	NODE_CALLS("calls_diff", FOR_DIFF, NUM_I64, calls_diff),
	NODE("impact", FOR_DIFF, NUM_PCT, self_pct),
	NODE("noise", FOR_DIFF, NUM_BOOL, noise),
	NODE("significant", FOR_DIFF, NUM_BOOL, significant),
	NODE("evidence", FOR_DIFF, NUM_SEC, evidence),
};

static const struct num_attr edge_nums[] = {
	EDGE_CALLS("calls", FOR_SINGLE, NUM_U64, calls[0]),
	EDGEM("time_sec", FOR_SINGLE, NUM_SEC, time[0], "%s"),
	EDGE_CALLS("calls_base", FOR_DIFF, NUM_U64, calls[0]),
	EDGE_CALLS("calls_second", FOR_DIFF, NUM_U64, calls[1]),
	EDGE_CALLS("calls_diff", FOR_DIFF, NUM_I64, calls_diff),
	EDGEM("time_base", FOR_DIFF, NUM_SEC, time[0], "%s_base"),
	EDGEM("time_second", FOR_DIFF, NUM_SEC, time[1], "%s_second"),
	EDGEM("time_diff", FOR_DIFF, NUM_SEC, time_diff, "%s_diff"),
	EDGE("significant", FOR_DIFF, NUM_BOOL, significant),
	EDGE("evidence", FOR_DIFF, NUM_SEC, evidence),
};

static void num_fields(FILE *fp, const struct graph *g, const void *obj, int calls_measured,
		       const struct num_attr *t, size_t n)
{
	const char *base = obj;
	size_t i;

	for (i = 0; i < n; i++) {
		const void *v = base + t[i].offset;
		double d;
		uint64_t u;
		int64_t s;
		int b;

		if ((t[i].use == FOR_DIFF) != !!g->is_diff || (t[i].calls && !calls_measured))
			continue;
		fputs("    ", fp);
		if (g->metric && t[i].mname)
			fprintf(fp, t[i].mname, g->unit);
		else
			fputs(t[i].name, fp);
		fputc(' ', fp);
		switch (t[i].type) {
		case NUM_SEC:
		case NUM_PCT:
			memcpy(&d, v, sizeof(d));
			fprintf(fp, t[i].type == NUM_SEC ? "%.6f\n" : "%.4f\n", d);
			break;
		case NUM_U64:
			memcpy(&u, v, sizeof(u));
			fprintf(fp, "%llu\n", (unsigned long long)u);
			break;
		case NUM_I64:
			memcpy(&s, v, sizeof(s));
			fprintf(fp, "%lld\n", (long long)s);
			break;
		case NUM_BOOL:
			memcpy(&b, v, sizeof(b));
			fprintf(fp, "%d\n", !!b);
			break;
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
	if (g->metric) {
		/* what the numbers are: --metric EV, in its unit */
		str_field(fp, "  ", "metric", g->metric);
		str_field(fp, "  ", "unit", g->unit);
	}
	for (i = 0; i < g->nnodes; i++) {
		const struct graph_node *n = &g->nodes[i];

		fprintf(fp, "  node [\n    id %zu\n", i);
		/* outlineWidth is an integer: graphviz's gml2gv rejects a real
		 * value for a graphics key it does not know. */
		/* label: one line, the name, as networkx, igraph and gml2gv
		 * show it; the lines yEd draws are LabelGraphics' text. */
		str_field(fp, "    ", "label", n->kind == GNODE_LEGEND ? "legend" : n->name);
		str_field(fp, "    ", "name", n->name);
		fprintf(fp, "    kind \"%s\"\n", graph_node_kind(n));
		if (n->kind != GNODE_LEGEND) {
			if (g->is_diff)
				fprintf(fp, "    presence \"%s\"\n",
					graph_presence_names[n->presence]);
			num_fields(fp, g, n, n->calls_measured, node_nums, sizeof(node_nums) / sizeof(node_nums[0]));
		}
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
		if (e->kind == GEDGE_CALL) {
			if (g->is_diff)
				fprintf(fp, "    presence \"%s\"\n",
					graph_presence_names[e->presence]);
			num_fields(fp, g, e, e->calls_measured, edge_nums, sizeof(edge_nums) / sizeof(edge_nums[0]));
		}
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
	return graph_write_file(g, NULL, path, gml_write_fp);
}
