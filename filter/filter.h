#ifndef EGPROF_FILTER_H
#define EGPROF_FILTER_H
/*
 * One part of a big program: --focus, --root, --depth and --exclude, with
 * one meaning for every output that takes them (graphs, folded stacks,
 * pprof, HTML, JSON).  Two shapes of data are filtered, by the same rules:
 *
 * A call graph of functions (filter_functions: gml/graph_select.c, the
 * function tables of pprof, HTML and --diff JSON):
 *  - --exclude F (any number of times): F goes, and with it every function
 *    that the uncalled functions (main) reach only through F: its subtree.
 *    A function also called from outside F's subtree stays.
 *  - --focus F: F, every chain of callers from F up to the roots, and
 *    everything F calls, directly or not;
 *  - --root F: F and everything it calls;
 *  - --depth N: only what is at most N calls from F (callers and callees
 *    with --focus), or without --focus/--root from the uncalled functions.
 *  Exclusion comes first: --focus/--root name a function that is left.
 *  A name several static functions share selects them all.
 *
 * A calling-context tree (filter_callpath: folded stacks, pprof, the HTML
 * flame graph and --callpath JSON), by the same names:
 *  - --exclude F: every frame of F goes with everything below it (its time
 *    and calls leave the profile, as pprof's -ignore drops them);
 *  - --focus F: only the paths through a frame of F: the frames below it
 *    keep their values; its callers stay as the path to it, with no
 *    values of their own (as pprof's -focus keeps only the samples whose
 *    stack holds F);
 *  - --root F: the subtrees below the outermost frames of F, which become
 *    the top of the tree (F's frames under several callers are one);
 *  - --depth N: frames at most N calls below the top (below F with
 *    --root/--focus; with --focus also at most N calls above F, whose
 *    caller N calls up becomes the top).  What lies deeper is folded into
 *    the frame at depth N: its time becomes that frame's own, so widths
 *    stay right; its calls are not that frame's and go.
 *
 * Calling sequence:
 *
 *   struct filter_opts f = FILTER_OPTS_INIT;  f.focus = "solve"; ...
 *   if (filter_active(&f)) {
 *           filter_functions(&f, &graph_view, in, is_focus);   or
 *           filter_callpath(&f, model, &filtered);
 *   }
 *
 * Errors are returned (-1 after error()): a name that is no function of
 * the data ("--focus 'x': no such function in the call graph"), out of
 * memory.
 */
#include <stddef.h>

struct filter_opts {
	const char *focus;          /* --focus FUNC, or NULL */
	const char *root;           /* --root FUNC, or NULL */
	int depth;                  /* --depth N, < 0 when not given */
	const char *const *exclude; /* --exclude FUNC..., not owned */
	size_t nexclude;
};
#define FILTER_OPTS_INIT { NULL, NULL, -1, NULL, 0 }

static inline int filter_active(const struct filter_opts *f)
{
	return f->focus || f->root || f->depth >= 0 || f->nexclude > 0;
}

/*
 * A call graph as the filter sees it: nodes 0..nnodes-1, name(ctx, i) the
 * function's name as gprof prints it, or NULL for a node that is no
 * function (a cycle as a whole, a legend: never matched, never a root);
 * edges 0..nedges-1 from caller to callee (self-calls may be given; they
 * are ignored).
 */
struct filter_graph {
	size_t nnodes, nedges;
	const char *(*name)(const void *ctx, size_t node);
	void (*edge)(const void *ctx, size_t e, size_t *from, size_t *to);
	const void *ctx;
};

/*
 * in[i] = 1 for each node the options keep (0 otherwise; nodes that are no
 * function keep 0: the caller decides, e.g. a cycle stays with a member);
 * is_focus[i] = 1 for the nodes --focus/--root names (may be NULL).
 * 0, or -1 reported.
 */
int filter_functions(const struct filter_opts *f, const struct filter_graph *g,
		     char *in, char *is_focus);

/*
 * A new model (callpath/report.h) holding what the options keep of m, as
 * above; m is not changed.  0, or -1 reported (no frame of the named
 * function, out of memory).
 */
struct callpath_model;
int filter_callpath(const struct filter_opts *f, const struct callpath_model *m,
		    struct callpath_model **out);

/* The same for the two sides of a diff (m[s] NULL: a side without call
 * paths, out[s] NULL then): the named function must have a frame on
 * either side; a side without one keeps no path (an empty model). */
int filter_callpath_pair(const struct filter_opts *f, const struct callpath_model *const m[2],
			 struct callpath_model *out[2]);

/* "--focus solve --depth 2": the options of f in words, malloc'd; NULL
 * when none is given or memory runs out. */
char *filter_describe(const struct filter_opts *f);

/* "--focus", "--root": the option that named the function, for messages. */
const char *filter_start_option(const struct filter_opts *f);

#endif
