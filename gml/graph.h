#ifndef EGPROF_GRAPH_H
#define EGPROF_GRAPH_H
/*
 * The call graph as the graph writers see it: nodes (functions, gprof's
 * cycles, and a legend in differential graphs) and edges (calls, and
 * "member of cycle" links), each already labelled, sized, coloured and
 * placed.  A graph is built from one profile (diff/profile.h) or from a
 * differential profile (diff/diff.h); the writers (gml_write.h,
 * dot_write.h, graphml_write.h) only translate it into their format, so
 * every format shows the same nodes, labels, sizes and colours.
 *
 * Calling sequence (what graph_export_profile/graph_export_diff in
 * graph_export.h do):
 *
 *   struct graph_opts go = GRAPH_OPTS_INIT;   go.gml_path = "cg.gml"; ...
 *   struct graph *g;
 *   if (graph_from_profile(&g, p, &go) < 0) ... reported ...
 *         (or graph_from_diff(&g, d, &go))
 *   gml_write(g, go.gml_path);  dot_write(...);  graphml_write(...);
 *   graph_free(g);
 *
 * A builder adds raw nodes and edges (graph_add_node/graph_add_edge) and
 * then calls graph_finish(), which prunes by the thresholds, writes labels,
 * sizes, colours and borders, and lays the nodes out in rows by call depth.
 *
 * Ownership: a graph owns its arrays and every string in them.
 *
 * Invariants after graph_finish():
 *  - edges[].from/.to are indices into nodes[]; no edge touches a pruned
 *    node (pruned nodes and edges are gone, their counts are in pruned_*).
 *  - Differences are baseline minus second run, as in diff/diff.h and the
 *    paper: a positive difference is time the second run no longer spends.
 *  - x, y are node centres in pixels (y grows downwards, one row per call
 *    depth); w, h are the node's size in pixels.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "diff/profile.h"

struct outset;

struct diff;

struct graph_opts {
	const char *gml_path;     /* NULL: no GML */
	const char *dot_path;     /* NULL: no DOT */
	const char *graphml_path; /* NULL: no GraphML */
	const char *svg_path;     /* NULL: no SVG (gml/graph_render.h) */
	const char *png_path;     /* NULL: no PNG */
	char **svg_text;          /* also draw the graph as SVG into *svg_text
				     (malloc'd, the caller's), for the HTML
				     report; left NULL when the graph is too
				     big to lay out (not an error) */
	double node_thres;        /* percent of node_total; 0 keeps every node */
	double edge_thres;        /* percent of edge_total; 0 keeps every edge */
	int no_node_size;         /* every node the same (readable) size */
	const char *focus;        /* keep this function, its callers up to the
				     roots and its callees (NULL: all) */
	const char *root;         /* keep this function and its callees */
	int depth;                /* calls away from focus/root (or from the
				     uncalled functions); < 0: no limit */
	const char *const *exclude; /* drop these functions and their
				       subtrees (filter/filter.h) */
	size_t nexclude;
	struct outset *outs;      /* the command's outputs (utils/outfile.h),
				   * committed together; NULL: each at once */
	const char *side_label[2]; /* diff: each side as the text header names
				      it ("app dir (3 gmon files)"); NULL:
				      from the profile */
};
/* The library keeps everything unless asked; the command line's defaults
 * are gprof2dot's (GRAPH_*_THRES_DEFAULT, gprof-ext/options.c). */
#define GRAPH_OPTS_INIT { .depth = -1 }
#define GRAPH_NODE_THRES_DEFAULT 0.5
#define GRAPH_EDGE_THRES_DEFAULT 0.1

enum graph_node_kind {
	GNODE_FUNCTION,
	GNODE_CYCLE,   /* gprof's "<cycle N as a whole>" */
	GNODE_LEGEND,  /* differential graphs: what the colours mean */
	GNODE__COUNT
};

/* Which runs of a diff an element comes from (single profiles: BOTH). */
enum graph_presence {
	GPRES_BOTH,
	GPRES_BASE_ONLY,   /* only in the first run: drawn dashed */
	GPRES_SECOND_ONLY, /* only in the second run: drawn dotted */
	GPRES__COUNT
};

enum graph_line_style { GLINE_SOLID, GLINE_DASHED, GLINE_DOTTED, GLINE__COUNT };

extern const char *const graph_node_kind_names[GNODE__COUNT];
struct graph_node;
/* What the writers call a node's kind: "legend", "cycle", or the
 * function's (profile_sym_kind: "function", "library", ...). */
const char *graph_node_kind(const struct graph_node *n);
extern const char *const graph_presence_names[GPRES__COUNT];

struct graph_node {
	char *name;      /* as gprof prints it (demangled per the options);
			  * printable after graph_finish() (below) */
	char *label;     /* lines separated by '\n', plain text, not escaped */
	enum graph_node_kind kind;
	enum graph_presence presence;
	int noise;       /* diff: the change is within noise (the diff's
			    verdict, diff/evidence.h) */
	int significant; /* diff: the diff's verdict is "significant" */
	double evidence; /* diff: its evidence, seconds, signed as the
			    differences (> 0: less in the second run);
			    what the colour shows */
	/* Numbers, in seconds: [0] the profile or baseline, [1] the second
	 * run (unused for a single profile). */
	double self[2];
	double total[2];   /* inclusive: self + children */
	uint64_t calls[2]; /* gprof's "called" (without recursive calls) */
	int calls_measured; /* calls were counted: else absent, never 0 */
	unsigned sym_flags; /* the function's PSYM_* kind (diff/profile.h):
			       a library's, the instrumentation's... */
	double self_diff, total_diff; /* [0] - [1] */
	int64_t calls_diff;
	double self_pct, total_pct;   /* single: of the total time;
					 diff: of sum |self_diff| */
	double weight;   /* what --node-thres compares (builder sets it) */
	int keep;        /* never pruned by the thresholds (a changed
			    one-sided function; the hot path) */

	/* Drawing, set by graph_finish(). */
	int depth;        /* row: calls from a root; -1 for the legend */
	double x, y, w, h;
	uint32_t fill;    /* 0xRRGGBB */
	uint32_t outline;
	double outline_width;
	enum graph_line_style outline_style;
	const char *shape; /* yEd/DOT shape name, static string */
};

enum graph_edge_kind {
	GEDGE_CALL,
	GEDGE_MEMBER,  /* cycle node -> one of its members */
	GEDGE__COUNT
};

extern const char *const graph_edge_kind_names[GEDGE__COUNT];

struct graph_edge {
	size_t from, to;  /* indices into nodes[] */
	enum graph_edge_kind kind;
	enum graph_presence presence;
	uint64_t calls[2];
	int64_t calls_diff; /* calls[0] - calls[1] */
	/* Seconds along the arc, per run: what gprof's call graph propagates
	 * to the caller (the callee's self and children share), or, when
	 * `measured`, the time measured on the paths through the caller (the
	 * profile's source is the sidecars, model/measured.h); time_diff =
	 * time[0] - time[1]. */
	int measured;
	double time[2];
	double time_diff;
	char *label;        /* plain text */
	/* the callee's calls were counted (not a library's, nor a
	 * sampling-only run's): else labels show "-", never 0 */
	int calls_measured;
	/* diff: the arc's verdict by the diff's rule (diff/evidence.h) */
	int significant;
	double evidence;    /* seconds, signed as time_diff; what the colour
			       and the width show */
	double calls_evidence; /* the part of it its call counts gave */
	double weight;      /* what --edge-thres compares (builder sets it) */
	int keep;           /* never pruned by the thresholds (a changed
			       one-sided call; inside a cycle, where gprof
			       propagates no time; the hot path) */

	uint32_t color;
	double width;
	enum graph_line_style style;
};

struct graph {
	int is_diff;
	int measured;     /* call edges carry time measured on the call paths
			     (the profiles' source is the sidecars) */
	/* --metric: the graph's numbers are this metric's, in `unit` (the
	 * profiles' measure); NULL: seconds */
	const char *metric, *unit;
	char *title;      /* a line naming the profile(s) */
	char *legend;     /* what sizes and colours mean, lines with '\n' */
	struct graph_node *nodes;
	size_t nnodes;
	struct graph_edge *edges;
	size_t nedges;
	/* Denominators of the thresholds: the total time (single) or
	 * sum |self_diff| (diff), for nodes and edges alike. */
	double node_total;
	double edge_total;
	size_t pruned_nodes;
	size_t pruned_edges;
	/* private: capacities of nodes[] and edges[] (utils/array.h) */
	size_t alloc_nodes, alloc_edges;
};

/* Build from one profile: the functions gprof's call graph prints (the
 * -q/-Q selection, zero lines left out as gprof leaves them out) and its
 * cycles.  Returns 0, or -1 (reported). */
int graph_from_profile(struct graph **out, const struct profile *p,
		       const struct graph_opts *opts);
/* Build from a differential profile (gml/graph_diff.c). */
int graph_from_diff(struct graph **out, const struct diff *d,
		    const struct graph_opts *opts);

/* For builders. */
struct graph *graph_new(int is_diff);
/* Append a node/edge (copied; the graph takes ownership of n->name and
 * e->label).  Return the index, or -1 when out of memory. */
long graph_add_node(struct graph *g, const struct graph_node *n);
long graph_add_edge(struct graph *g, const struct graph_edge *e);
/* Select (gml/graph_select.h), label, size, colour and lay out.  Returns 0 or -1 (reported).
 * Afterwards the title and every name and label are printable text: valid
 * UTF-8 of characters XML 1.0 allows, no control character but the '\n'
 * between label lines; any other byte of a symbol or file name is shown
 * as the four characters \xNN.  So every writer needs only its format's
 * own quoting (GML entities, DOT escStrings, XML escapes). */
int graph_finish(struct graph *g, const struct graph_opts *opts);
/*
 * A builder numbers its input entries 0..n-1 and keeps node_of[i], entry
 * i's node or -1 (left out of the graph).
 *
 * graph_add_arc: add e, with .from/.to set here, for an arc between
 * entries parent and child when both have a node (otherwise nothing).
 * 0, or -1 when out of memory (not reported).
 *
 * graph_build_end: the builders' end.  Add cycle membership as gprof
 * prints it (an edge from each cycle's node to every function in it;
 * cycle_of(ctx, i, &whole) is entry i's cycle number, 0 for none, with
 * *whole set for the cycle-as-a-whole entry), free node_of, run
 * graph_finish() and hand g to *out.  On failure g is freed.  Returns 0
 * or -1 (reported).
 */
/* What the graph's numbers are, from a profile it is built from: measured
 * on the call paths (edges' times), in a metric (diff/profile.h's
 * measure).  g keeps pointers into p. */
void graph_source(struct graph *g, const struct profile *p);
int graph_add_arc(struct graph *g, const long *node_of, size_t n,
		  size_t parent, size_t child, struct graph_edge *e);
int graph_build_end(struct graph **out, struct graph *g, long *node_of, size_t n,
		    int (*cycle_of)(const void *ctx, size_t i, int *whole),
		    const void *ctx, const struct graph_opts *opts);

void graph_free(struct graph *g);

/* Write g to path atomically (utils/outfile.h) with one of the writers'
 * *_write_fp functions.  Returns 0 or -1 (reported, no file left behind). */
struct outset;
int graph_write_file(const struct graph *g, struct outset *outs, const char *path,
		     int (*write_fp)(const struct graph *, FILE *));

/* How a title names a profile: the binary, then what it was read from
 * (its label, or every gmon file: "app (3 gmon files: a, b, c)").  A
 * malloc'd string, or NULL when out of memory (not reported). */
char *graph_profile_name(const struct profile *p);

/* "#rrggbb" of a colour, into buf (at least 8 bytes). */
const char *graph_color_str(uint32_t rgb, char *buf);

#endif
