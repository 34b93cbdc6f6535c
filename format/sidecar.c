/*
 * sidecar.c - read, write and merge call-path sidecars.
 *
 * All integers are little-endian on disk and read byte by byte, so a reader
 * on any host accepts a file from any host.  See doc/dev/sidecar-format.md.
 */
#include "sidecar.h"
#include "sidecar_layout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "utils/infile.h"
#include "utils/bigalloc.h"
#include "utils/satmath.h"
#include "utils/banned.h"

#define HDR_FIXED_V1 112u	/* bytes before the strings, version 1 */
#define HDR_FIXED_V2 128u	/* version 2: + program_start, program_end */
#define HDR_FIXED 136u		/* version 3: + sampling, unplaced_samples */
#define NODE_SIZE_MAX 4096u	/* sanity bound for node_size from a file */

const char *const sidecar_drop_names[SIDECAR_DROP_NR] = {
	[SIDECAR_DROP_REENTRY] = "reentry",
	[SIDECAR_DROP_NODES] = "node-limit",
	[SIDECAR_DROP_DEPTH] = "depth-limit",
	[SIDECAR_DROP_STOPPED] = "stopped",
};

const char *const sidecar_failure_names[SIDECAR_FAIL_NR] = {
	[SIDECAR_FAIL_NONE] = "none",
	[SIDECAR_FAIL_MMAP] = "cannot map memory",
	[SIDECAR_FAIL_NO_NEXT_MCOUNT] = "glibc mcount not found",
	[SIDECAR_FAIL_HASH] = "node index cannot grow",
};

const char *const sidecar_unwind_end_names[SIDECAR_UNWIND_END_NR] = {
	[SIDECAR_UNWIND_COMPLETE] = "complete",
	[SIDECAR_UNWIND_NO_OBJECT] = "code in no loaded object",
	[SIDECAR_UNWIND_NO_CFI] = "code without unwind information",
	[SIDECAR_UNWIND_BAD_READ] = "a saved register outside the stack",
	[SIDECAR_UNWIND_BAD_RETURN] = "a return address not after a call",
	[SIDECAR_UNWIND_DEPTH] = "deeper than the walk's bound",
	[SIDECAR_UNWIND_BAD_CFI] = "unwind information not followed",
	[SIDECAR_UNWIND_NO_PROGRESS] = "a stack pointer that did not grow",
	[SIDECAR_UNWIND_BUSY] = "a library being unloaded",
};

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ---- little-endian helpers ---- */

static void put16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint16_t get16(const unsigned char *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

/* ---- tree and index ---- */

struct sidecar_index;
static void index_free(struct sidecar_index *ix);

struct sidecar *sidecar_new(void)
{
	struct sidecar *sc = calloc(1, sizeof(*sc));

	if (!sc)
		return NULL;
	sc->version = SIDECAR_VERSION;
	sc->rank = -1;
	sc->host = strdup("");
	sc->exe = strdup("");
	sc->id.gmon_name = strdup("");
	sc->time_name = strdup(SIDECAR_TIME_METRIC_NAME);
	if (!sc->host || !sc->exe || !sc->id.gmon_name || !sc->time_name) {
		sidecar_free(sc);
		return NULL;
	}
	return sc;
}

void sidecar_free(struct sidecar *sc)
{
	if (!sc)
		return;
	free(sc->host);
	free(sc->exe);
	free(sc->id.gmon_name);
	free(sc->time_name);
	for (uint32_t i = 0; i < sc->nr_extra; i++) {
		free(sc->extra_metrics[i].name);
		free(sc->extra_metrics[i].unit);
	}
	free(sc->extra_metrics);
	free(sc->extra_values);
	for (uint32_t i = 0; i < sc->nr_objects; i++)
		free(sc->objects[i].path);
	free(sc->objects);
	free(sc->nodes);
	index_free(sc->index);
	sidecar_threads_clear(sc);
	free(sc);
}

void sidecar_threads_clear(struct sidecar *sc)
{
	for (uint32_t i = 0; i < sc->nr_thread_views; i++) {
		free(sc->thread_views[i].name);
		free(sc->thread_views[i].values);
	}
	free(sc->thread_views);
	sc->thread_views = NULL;
	sc->nr_thread_views = 0;
}

int sidecar_thread_new(struct sidecar *sc, uint64_t tid, uint32_t flags,
		       uint32_t threads, const char *name)
{
	struct sidecar_thread *t;
	char *n = strdup(name ? name : "");

	if (!n || sc->nr_thread_views >= UINT32_MAX / 2)
		goto oom;
	t = realloc(sc->thread_views, (sc->nr_thread_views + 1) * sizeof(*t));
	if (!t)
		goto oom;
	sc->thread_views = t;
	t += sc->nr_thread_views;
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->flags = flags;
	t->threads = threads;
	t->name = n;
	return (int)sc->nr_thread_views++;
oom:
	free(n);
	return -1;
}

int sidecar_thread_add(struct sidecar *sc, uint32_t ti, uint32_t node,
		       uint64_t calls, uint64_t samples)
{
	struct sidecar_thread *t = &sc->thread_views[ti];

	if (!calls && !samples)
		return 0;
	if (t->nr_values == t->alloc_values) {
		uint32_t cap = t->alloc_values ? t->alloc_values * 2 : 64;
		struct sidecar_thread_value *v;

		if (cap <= t->alloc_values)
			return -1;
		v = realloc(t->values, (size_t)cap * sizeof(*v));
		if (!v)
			return -1;
		t->values = v;
		t->alloc_values = cap;
	}
	t->values[t->nr_values++] = (struct sidecar_thread_value){ node, calls, samples };
	return 0;
}

static int value_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct sidecar_thread_value *)a)->node;
	uint32_t y = ((const struct sidecar_thread_value *)b)->node;

	return x < y ? -1 : x > y;
}

/* Entry `t`'s values in node order, repeats summed (saturated), zeros out. */
static void thread_values_normalise(struct sidecar_thread *t)
{
	uint32_t o = 0;

	if (!t->nr_values)
		return;		/* values may be NULL: qsort's argument must not */
	qsort(t->values, t->nr_values, sizeof(*t->values), value_cmp);
	for (uint32_t i = 0; i < t->nr_values; i++) {
		struct sidecar_thread_value *v = &t->values[i];

		if (o && t->values[o - 1].node == v->node) {
			t->values[o - 1].calls = sat_add_u64(t->values[o - 1].calls, v->calls);
			t->values[o - 1].samples = sat_add_u64(t->values[o - 1].samples, v->samples);
		} else if (v->calls || v->samples) {
			t->values[o++] = *v;
		}
	}
	t->nr_values = o;
}

/* A node's calls as the threads section counts them. */
static uint64_t node_calls(const struct sidecar_node *n)
{
	return sat_add_u64(n->count, n->recursive);
}

/*
 * Per node, the entries' sums (2 values per node in `sum`, calloc'd);
 * NULL when out of memory.  *over: a node index whose sum passes its
 * value, else SIDECAR_ROOT.
 */
static uint64_t *thread_sums(const struct sidecar *sc, uint32_t *over)
{
	uint64_t *sum = calloc((size_t)sc->nr_nodes * 2 + 1, sizeof(*sum));

	*over = SIDECAR_ROOT;
	if (!sum)
		return NULL;
	for (uint32_t i = 0; i < sc->nr_thread_views; i++) {
		const struct sidecar_thread *t = &sc->thread_views[i];

		for (uint32_t k = 0; k < t->nr_values; k++) {
			const struct sidecar_thread_value *v = &t->values[k];
			uint64_t *s = &sum[2 * (size_t)v->node];

			if (v->node >= sc->nr_nodes) {
				*over = v->node;
				return sum;
			}
			s[0] = sat_add_u64(s[0], v->calls);
			s[1] = sat_add_u64(s[1], v->samples);
			if ((s[0] > node_calls(&sc->nodes[v->node]) ||
			     s[1] > sc->nodes[v->node].self_samples) && *over == SIDECAR_ROOT)
				*over = v->node;
		}
	}
	return sum;
}

/* Order of the entries: the main thread first, then by samples, then
 * calls, the threads summed last. */
struct thread_rank {
	struct sidecar_thread t;
	uint64_t samples, calls;
};

static int thread_rank_cmp(const void *a, const void *b)
{
	const struct thread_rank *x = a, *y = b;
	int mx = (x->t.flags & SIDECAR_THREAD_MAIN) != 0, my = (y->t.flags & SIDECAR_THREAD_MAIN) != 0;
	int ox = (x->t.flags & SIDECAR_THREAD_OTHER) != 0, oy = (y->t.flags & SIDECAR_THREAD_OTHER) != 0;

	if (mx != my)
		return my - mx;
	if (ox != oy)
		return ox - oy;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return x->t.tid < y->t.tid ? -1 : x->t.tid > y->t.tid;
}

/* The entries in thread_rank_cmp's order: what a reader lists first. */
static int threads_order(struct sidecar *sc)
{
	struct thread_rank *r = malloc((size_t)sc->nr_thread_views * sizeof(*r));

	if (!r)
		return -1;
	for (uint32_t i = 0; i < sc->nr_thread_views; i++) {
		r[i].t = sc->thread_views[i];
		r[i].samples = r[i].calls = 0;
		for (uint32_t k = 0; k < r[i].t.nr_values; k++) {
			r[i].samples = sat_add_u64(r[i].samples, r[i].t.values[k].samples);
			r[i].calls = sat_add_u64(r[i].calls, r[i].t.values[k].calls);
		}
	}
	qsort(r, sc->nr_thread_views, sizeof(*r), thread_rank_cmp);
	for (uint32_t i = 0; i < sc->nr_thread_views; i++)
		sc->thread_views[i] = r[i].t;
	free(r);
	return 0;
}

int sidecar_threads_finish(struct sidecar *sc, uint32_t other_threads)
{
	uint32_t over;
	uint64_t *sum;
	int other = -1;

	if (!sc->nr_thread_views)
		return 0;
	for (uint32_t i = 0; i < sc->nr_thread_views; i++)
		thread_values_normalise(&sc->thread_views[i]);
	if (threads_order(sc) < 0) {
		sidecar_threads_clear(sc);
		return -1;
	}
	sum = thread_sums(sc, &over);
	if (!sum || over != SIDECAR_ROOT) {
		free(sum);
		sidecar_threads_clear(sc);
		return sum ? 1 : -1;
	}
	for (uint32_t n = 0; n < sc->nr_nodes; n++) {
		uint64_t calls = node_calls(&sc->nodes[n]) - sum[2 * (size_t)n];
		uint64_t samples = sc->nodes[n].self_samples - sum[2 * (size_t)n + 1];

		if (!calls && !samples)
			continue;
		if (other < 0 &&
		    (other = sidecar_thread_new(sc, 0, SIDECAR_THREAD_OTHER, other_threads,
						"other threads")) < 0)
			goto oom;
		/* node order by construction */
		if (sidecar_thread_add(sc, (uint32_t)other, n, calls, samples) < 0)
			goto oom;
	}
	if (other < 0 && other_threads &&
	    sidecar_thread_new(sc, 0, SIDECAR_THREAD_OTHER, other_threads, "other threads") < 0)
		goto oom;
	free(sum);
	return 0;
oom:
	free(sum);
	sidecar_threads_clear(sc);
	return -1;
}

int sidecar_threads_check(const struct sidecar *sc, char *err, size_t errlen)
{
	uint32_t over;
	uint64_t *sum;

	if (!sc->nr_thread_views)
		return 0;
	sum = thread_sums(sc, &over);
	if (!sum) {
		set_err(err, errlen, "out of memory");
		return -1;
	}
	if (over != SIDECAR_ROOT && over >= sc->nr_nodes) {
		set_err(err, errlen, "per-thread values of node %u, which the tree "
			"does not have", over);
		free(sum);
		return -1;
	}
	for (uint32_t n = 0; n < sc->nr_nodes; n++) {
		const uint64_t *s = &sum[2 * (size_t)n];

		if (s[0] != node_calls(&sc->nodes[n]) || s[1] != sc->nodes[n].self_samples) {
			set_err(err, errlen, "the threads' values of node %u (%llu calls, "
				"%llu samples) are not the node's (%llu calls, %llu samples)",
				n, (unsigned long long)s[0], (unsigned long long)s[1],
				(unsigned long long)node_calls(&sc->nodes[n]),
				(unsigned long long)sc->nodes[n].self_samples);
			free(sum);
			return -1;
		}
	}
	free(sum);
	return 0;
}

int sidecar_set_strings(struct sidecar *sc, const char *host, const char *exe)
{
	char *h = strdup(host ? host : "");
	char *e = strdup(exe ? exe : "");

	if (!h || !e) {
		free(h);
		free(e);
		return -1;
	}
	free(sc->host);
	free(sc->exe);
	sc->host = h;
	sc->exe = e;
	sc->host_len = (uint32_t)strlen(h);
	sc->exe_len = (uint32_t)strlen(e);
	return 0;
}

int sidecar_set_time_name(struct sidecar *sc, const char *name)
{
	char *n = strdup(name ? name : "");

	if (!n)
		return -1;
	free(sc->time_name);
	sc->time_name = n;
	return 0;
}

int sidecar_set_gmon_name(struct sidecar *sc, const char *name)
{
	char *n = strdup(name ? name : "");

	if (!n)
		return -1;
	free(sc->id.gmon_name);
	sc->id.gmon_name = n;
	return 0;
}

int sidecar_add_object(struct sidecar *sc, const char *path, uint64_t start,
		       uint64_t end, uint64_t bias, uint32_t flags,
		       const unsigned char *build_id, uint32_t build_id_len)
{
	struct sidecar_object *o;

	if (build_id_len > SIDECAR_BUILD_ID_MAX || sc->nr_objects >= UINT32_MAX / 2)
		return -1;
	o = realloc(sc->objects, (sc->nr_objects + 1) * sizeof(*o));
	if (!o)
		return -1;
	sc->objects = o;
	o += sc->nr_objects;
	memset(o, 0, sizeof(*o));
	o->path = strdup(path ? path : "");
	if (!o->path)
		return -1;
	o->start = start;
	o->end = end;
	o->bias = bias;
	o->flags = flags;
	o->build_id_len = build_id_len;
	if (build_id_len)
		memcpy(o->build_id, build_id, build_id_len);
	sc->nr_objects++;
	return 0;
}

/* Room for the extra metrics of `nodes` nodes, the new ones zero. */
static int extra_reserve(struct sidecar *sc, uint32_t nodes)
{
	uint64_t *v;
	uint32_t alloc = sc->alloc_extra ? sc->alloc_extra : 64;

	if (!sc->nr_extra || nodes <= sc->alloc_extra)
		return 0;
	while (alloc < nodes)
		alloc = alloc > UINT32_MAX / 2 ? nodes : alloc * 2;
	v = realloc(sc->extra_values, (size_t)alloc * sc->nr_extra * sizeof(*v));
	if (!v)
		return -1;
	memset(v + (size_t)sc->alloc_extra * sc->nr_extra, 0,
	       (size_t)(alloc - sc->alloc_extra) * sc->nr_extra * sizeof(*v));
	sc->extra_values = v;
	sc->alloc_extra = alloc;
	return 0;
}

int sidecar_add_metric(struct sidecar *sc, const char *name, const char *unit,
		       uint32_t kind, uint32_t flags, uint64_t period)
{
	uint32_t n = sc->nr_extra, rows = sc->alloc_extra;
	struct sidecar_metric *m;
	uint64_t *v = NULL;

	if (n + 1 >= SIDECAR_METRICS_MAX)
		return -1;
	m = realloc(sc->extra_metrics, (n + 1) * sizeof(*m));
	if (!m)
		return -1;
	sc->extra_metrics = m;
	if (rows < sc->nr_nodes)
		rows = sc->nr_nodes;
	if (rows) {
		/* one more column: copy row by row into the wider table */
		v = calloc((size_t)rows * (n + 1), sizeof(*v));
		if (!v)
			return -1;
		for (uint32_t i = 0; n && i < sc->alloc_extra; i++)
			memcpy(v + (size_t)i * (n + 1), sc->extra_values + (size_t)i * n,
			       n * sizeof(*v));
	}
	m += n;
	m->name = strdup(name ? name : "");
	m->unit = strdup(unit ? unit : "");
	if (!m->name || !m->unit) {
		free(m->name);
		free(m->unit);
		free(v);
		return -1;
	}
	m->kind = kind;
	m->flags = flags;
	m->period = period;
	m->unplaced = 0;
	m->taken = 0;
	free(sc->extra_values);
	sc->extra_values = v;
	sc->alloc_extra = rows;
	sc->nr_extra = n + 1;
	return (int)n;
}

/*
 * The (parent, call site, callee) index: a hash table whose buckets are AVL
 * trees of node indices ordered by that key (Java's HashMap does the same
 * with buckets that grow long).  Every sum of trees (threads at exit,
 * egprof-sum, `gprof -s`, rank sums, the reader's duplicate check) goes
 * through it, so its cost bounds them all: about one comparison per lookup
 * on ordinary keys, as the open-addressing table it replaces, and O(log n)
 * whatever the addresses are, where that table was quadratic on keys that
 * collide (200,000 nodes: 8 minutes).  bench/callpath/merge.sh measures
 * both kinds of keys.
 */
#define INDEX_NONE SIDECAR_ROOT
/* An AVL tree of n < 2^32 nodes is at most 1.44 log2(n + 2) high. */
#define INDEX_MAX_HEIGHT 64

/*
 * 12 bytes per node beside the 4 of its bucket (the runtime sums a million
 * nodes at exit): the key is read from the node, a bucket rarely holds more
 * than one or two.
 */
struct index_link {
	uint32_t left, right;	/* INDEX_NONE when empty */
	uint32_t height;	/* of the subtree rooted here, 1 for a leaf */
};

struct sidecar_index {
	struct index_link *links;	/* one per node index < alloc */
	uint32_t alloc;
	uint32_t nr;		/* nodes 0 .. nr-1 are indexed */
	uint32_t *buckets;	/* root of each bucket's tree, INDEX_NONE when empty */
	uint32_t mask;		/* buckets - 1 */
	uint64_t comparisons;	/* key comparisons so far (sidecar_index_comparisons) */
};

static uint32_t key_hash(uint32_t parent, uint64_t call_site, uint64_t callee)
{
	uint64_t h = call_site * 0x9e3779b97f4a7c15ull;

	h ^= callee + 0x632be59bd9b4e019ull + (h << 6) + (h >> 2);
	h ^= (uint64_t)parent * 0xc2b2ae3d27d4eb4full;
	h ^= h >> 29;
	return (uint32_t)(h ^ (h >> 32));
}

static int key_cmp(const struct sidecar_node *n, uint32_t parent,
		   uint64_t call_site, uint64_t callee)
{
	if (n->parent != parent)
		return n->parent < parent ? -1 : 1;
	if (n->call_site != call_site)
		return n->call_site < call_site ? -1 : 1;
	if (n->callee != callee)
		return n->callee < callee ? -1 : 1;
	return 0;
}

static uint32_t link_height(const struct index_link *l, uint32_t i)
{
	return i == INDEX_NONE ? 0 : l[i].height;
}

static void link_update(struct index_link *l, uint32_t i)
{
	uint32_t a = link_height(l, l[i].left), b = link_height(l, l[i].right);

	l[i].height = (a > b ? a : b) + 1;
}

static uint32_t rotate_right(struct index_link *l, uint32_t i)
{
	uint32_t top = l[i].left;

	l[i].left = l[top].right;
	l[top].right = i;
	link_update(l, i);
	link_update(l, top);
	return top;
}

static uint32_t rotate_left(struct index_link *l, uint32_t i)
{
	uint32_t top = l[i].right;

	l[i].right = l[top].left;
	l[top].left = i;
	link_update(l, i);
	link_update(l, top);
	return top;
}

/* Restore the AVL balance at i (its subtrees are balanced); the new top. */
static uint32_t rebalance(struct index_link *l, uint32_t i)
{
	uint32_t a = link_height(l, l[i].left), b = link_height(l, l[i].right);

	if (a > b + 1) {
		uint32_t c = l[i].left;

		if (link_height(l, l[c].left) < link_height(l, l[c].right))
			l[i].left = rotate_left(l, c);
		return rotate_right(l, i);
	}
	if (b > a + 1) {
		uint32_t c = l[i].right;

		if (link_height(l, l[c].right) < link_height(l, l[c].left))
			l[i].right = rotate_right(l, c);
		return rotate_left(l, i);
	}
	link_update(l, i);
	return i;
}

static uint32_t index_lookup(const struct sidecar *sc, uint32_t parent,
			     uint64_t call_site, uint64_t callee)
{
	struct sidecar_index *ix = sc->index;
	uint32_t i;

	if (!ix->buckets)
		return INDEX_NONE;
	i = ix->buckets[key_hash(parent, call_site, callee) & ix->mask];

	while (i != INDEX_NONE) {
		int c = key_cmp(&sc->nodes[i], parent, call_site, callee);

		ix->comparisons++;
		if (!c)
			return i;
		i = c > 0 ? ix->links[i].left : ix->links[i].right;
	}
	return INDEX_NONE;
}

/*
 * Put node i (== ix->nr) into the tree.  0, or 1 when a node with its key
 * is there already (*first, i left out), or -1 (out of memory).
 */
static int index_insert(struct sidecar *sc, uint32_t i, uint32_t *first)
{
	struct sidecar_index *ix = sc->index;
	const struct sidecar_node *n = &sc->nodes[i];
	uint32_t path[INDEX_MAX_HEIGHT];
	unsigned char right[INDEX_MAX_HEIGHT];
	int depth = 0;
	uint32_t at, *root;

	if (i >= ix->alloc) {
		uint32_t alloc = ix->alloc ? ix->alloc : 64;
		struct index_link *links;

		while (alloc <= i)
			alloc = alloc > SIDECAR_ROOT / 2 ? SIDECAR_ROOT : alloc * 2;
		links = realloc(ix->links, (size_t)alloc * sizeof(*links));
		if (!links)
			return -1;
		ix->links = links;
		ix->alloc = alloc;
	}
	root = &ix->buckets[key_hash(n->parent, n->call_site, n->callee) & ix->mask];
	for (at = *root; at != INDEX_NONE;) {
		int c = key_cmp(&sc->nodes[at], n->parent, n->call_site, n->callee);

		ix->comparisons++;
		if (!c) {
			*first = at;
			ix->nr = i + 1;	/* i is accounted for, though not indexed */
			return 1;
		}
		path[depth] = at;
		right[depth] = c < 0;
		depth++;
		at = c < 0 ? ix->links[at].right : ix->links[at].left;
	}
	ix->links[i] = (struct index_link){
		.left = INDEX_NONE, .right = INDEX_NONE, .height = 1,
	};
	if (!depth)
		*root = i;
	else if (right[depth - 1])
		ix->links[path[depth - 1]].right = i;
	else
		ix->links[path[depth - 1]].left = i;
	/*
	 * Rebalance from the new leaf's parent upwards, until a subtree keeps
	 * its height: nothing above it changes then.
	 */
	while (depth-- > 0) {
		uint32_t was = ix->links[path[depth]].height;
		uint32_t top = rebalance(ix->links, path[depth]);

		if (!depth)
			*root = top;
		else if (right[depth - 1])
			ix->links[path[depth - 1]].right = top;
		else
			ix->links[path[depth - 1]].left = top;
		if (ix->links[top].height == was)
			break;
	}
	ix->nr = i + 1;
	return 0;
}

/*
 * Room for every node, at most one per bucket on average: a table of twice
 * the buckets, every indexed node put back (its key was unique).
 */
static int index_rehash(struct sidecar *sc)
{
	struct sidecar_index *ix = sc->index;
	uint32_t size = ix->buckets ? (ix->mask + 1) * 2 : 64;
	uint32_t *buckets, nr = ix->nr, first;

	while (size < sc->nr_nodes && size < (1u << 31))
		size *= 2;
	buckets = bigalloc((size_t)size * sizeof(*buckets));
	if (!buckets)
		return -1;
	memset(buckets, 0xff, (size_t)size * sizeof(*buckets));
	free(ix->buckets);
	ix->buckets = buckets;
	ix->mask = size - 1;
	/* links for every node now (a decoded sidecar's million at once),
	 * not by doubling in index_insert() */
	if (sc->nr_nodes > ix->alloc) {
		struct index_link *links = ix->links
			? realloc(ix->links, (size_t)sc->nr_nodes * sizeof(*links))
			: bigalloc((size_t)sc->nr_nodes * sizeof(*links));

		if (!links)
			return -1;
		ix->links = links;
		ix->alloc = sc->nr_nodes;
	}
	ix->nr = 0;
	while (ix->nr < nr)
		if (index_insert(sc, ix->nr, &first) < 0)
			return -1;
	return 0;
}

/*
 * Bring the cache lines that inserting node i + INDEX_AHEAD will read in
 * now: its bucket, and (a stage later) the node and links at the bucket's
 * top.  A decoded million-node sidecar is indexed in one pass, and each
 * insert otherwise waits for two or three cache misses in tables of tens
 * of megabytes.  Only a hint: the trees may change before the insert.
 */
#define INDEX_AHEAD 8
static void index_prefetch(const struct sidecar *sc, uint32_t i)
{
	const struct sidecar_index *ix = sc->index;
	const struct sidecar_node *n;
	uint32_t top;

	if (i + 2 * INDEX_AHEAD < sc->nr_nodes) {
		n = &sc->nodes[i + 2 * INDEX_AHEAD];
		__builtin_prefetch(&ix->buckets[key_hash(n->parent, n->call_site,
							 n->callee) & ix->mask]);
	}
	if (i + INDEX_AHEAD < sc->nr_nodes) {
		n = &sc->nodes[i + INDEX_AHEAD];
		top = ix->buckets[key_hash(n->parent, n->call_site, n->callee) &
				  ix->mask];
		if (top != INDEX_NONE && top < ix->nr) {
			__builtin_prefetch(&sc->nodes[top]);
			__builtin_prefetch(&ix->links[top]);
		}
	}
}

/*
 * Bring the index up to every node (built lazily: a tree that is only
 * written or printed never needs it).  0, 1 (a duplicate: *first, *dup) or
 * -1 (out of memory).
 */
static int index_catch_up(struct sidecar *sc, uint32_t *first, uint32_t *dup)
{
	if (!sc->index) {
		sc->index = calloc(1, sizeof(*sc->index));
		if (!sc->index)
			return -1;
	}
	if ((!sc->index->buckets || sc->nr_nodes > sc->index->mask + 1) &&
	    index_rehash(sc) < 0)
		return -1;
	while (sc->index->nr < sc->nr_nodes) {
		uint32_t i = sc->index->nr;
		int rc;

		index_prefetch(sc, i);
		rc = index_insert(sc, i, first);

		if (rc < 0)
			return -1;
		if (rc) {
			*dup = i;
			return 1;
		}
	}
	return 0;
}

static void index_free(struct sidecar_index *ix)
{
	if (ix) {
		free(ix->links);
		free(ix->buckets);
	}
	free(ix);
}

uint64_t sidecar_index_comparisons(const struct sidecar *sc)
{
	return sc->index ? sc->index->comparisons : 0;
}

uint32_t sidecar_find(const struct sidecar *sc, uint32_t parent,
		      uint64_t call_site, uint64_t callee)
{
	if (!sc->index)
		return SIDECAR_ROOT;
	return index_lookup(sc, parent, call_site, callee);
}

/* sidecar_add(), setting *saturated when a count passes 2^64 - 1. */
static int add_node(struct sidecar *sc, uint32_t parent, uint64_t call_site,
		    uint64_t callee, uint64_t count, uint32_t *idx, int *saturated)
{
	uint32_t i, first, dup;

	if (parent != SIDECAR_ROOT && parent >= sc->nr_nodes)
		return -1;
	/* a duplicate among nodes stored directly keeps the first of them */
	while (index_catch_up(sc, &first, &dup) > 0)
		;
	if (!sc->index)
		return -1;
	i = index_lookup(sc, parent, call_site, callee);
	if (i != SIDECAR_ROOT) {
		sat_add_u64_flag(&sc->nodes[i].count, count, saturated);
		*idx = i;
		return 0;
	}
	if (sc->nr_nodes >= SIDECAR_ROOT - 1)
		return -1;
	if (sc->nr_nodes == sc->alloc_nodes) {
		uint32_t alloc = sc->alloc_nodes ? sc->alloc_nodes * 2 : 64;
		struct sidecar_node *nodes;

		if (alloc < sc->alloc_nodes)
			alloc = SIDECAR_ROOT - 1;
		nodes = realloc(sc->nodes, (size_t)alloc * sizeof(*nodes));
		if (!nodes)
			return -1;
		sc->nodes = nodes;
		sc->alloc_nodes = alloc;
	}
	if (extra_reserve(sc, sc->nr_nodes + 1) < 0)
		return -1;
	i = sc->nr_nodes++;
	sc->nodes[i] = (struct sidecar_node){
		.parent = parent,
		.call_site = call_site,
		.callee = callee,
		.count = count,
	};
	if (index_catch_up(sc, &first, &dup) < 0) {
		sc->nr_nodes--;
		return -1;
	}
	*idx = i;
	return 0;
}

int sidecar_add(struct sidecar *sc, uint32_t parent, uint64_t call_site,
		uint64_t callee, uint64_t count, uint32_t *idx)
{
	return add_node(sc, parent, call_site, callee, count, idx, NULL);
}

int sidecar_add_leaf(struct sidecar *sc, uint32_t parent, uint32_t kind,
		     uint64_t pc, uint32_t *idx)
{
	if (kind != SIDECAR_LEAF_PC && kind != SIDECAR_LEAF_OVERHEAD)
		return -1;
	if (parent != SIDECAR_ROOT && parent < sc->nr_nodes &&
	    (sc->nodes[parent].flags & (SIDECAR_NODE_FOLDED | SIDECAR_NODE_LEAF)))
		return -1;
	if (sidecar_add(sc, parent, kind, pc, 0, idx) < 0)
		return -1;
	sc->nodes[*idx].flags |= SIDECAR_NODE_LEAF;
	return 0;
}

const struct sidecar_object *sidecar_object_of(const struct sidecar *sc,
					       uint64_t addr)
{
	for (uint32_t i = 0; i < sc->nr_objects; i++)
		if (addr >= sc->objects[i].start && addr < sc->objects[i].end)
			return &sc->objects[i];
	return NULL;
}

static void hex(char *buf, size_t buflen, const unsigned char *id, uint32_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < len && k + 3 <= buflen; i++, k += 2)
		snprintf(buf + k, buflen - k, "%02x", id[i]);
}

/* dst's extra metric `m` describes, appended when dst has none: -1 no memory. */
static int extra_index(struct sidecar *dst, const struct sidecar_metric *m)
{
	for (uint32_t j = 0; j < dst->nr_extra; j++) {
		const struct sidecar_metric *d = &dst->extra_metrics[j];

		if (d->kind == m->kind && d->period == m->period &&
		    !strcmp(d->name, m->name) && !strcmp(d->unit, m->unit))
			return (int)j;
	}
	return sidecar_add_metric(dst, m->name, m->unit, m->kind, m->flags, m->period);
}

/*
 * The metrics beyond time of src into dst (node i of src is node map[i] of
 * dst): summed by name, kind, unit and period.  0 or -1.
 */
static int merge_extras(struct sidecar *dst, const struct sidecar *src,
			const uint32_t *map)
{
	for (uint32_t k = 0; k < src->nr_extra; k++) {
		const struct sidecar_metric *m = &src->extra_metrics[k];
		int j = extra_index(dst, m);

		if (j < 0)
			return -1;
		dst->extra_metrics[j].flags |= m->flags;
		dst->extra_metrics[j].unplaced += m->unplaced;
		dst->extra_metrics[j].taken += m->taken;
		for (uint32_t i = 0; i < src->nr_nodes; i++)
			dst->extra_values[(size_t)map[i] * dst->nr_extra + (uint32_t)j] +=
				src->extra_values[(size_t)i * src->nr_extra + k];
	}
	if (!dst->time_period)
		dst->time_period = src->time_period;
	dst->time_taken += src->time_taken;
	return 0;
}

static int same_object(const struct sidecar_object *a, const struct sidecar_object *b)
{
	return !strcmp(a->path, b->path) && a->build_id_len == b->build_id_len &&
	       !memcmp(a->build_id, b->build_id, a->build_id_len);
}

/* Does [start, end) overlap an object of `sc` or its program's image? */
static int overlaps(const struct sidecar *sc, uint64_t start, uint64_t end)
{
	if (start < sc->program_end && sc->program_start < end)
		return 1;
	for (uint32_t i = 0; i < sc->nr_objects; i++)
		if (start < sc->objects[i].end && sc->objects[i].start < end)
			return 1;
	return 0;
}

/*
 * src's objects into dst's address space: delta[k] is what src's object k
 * moves by.  An object dst lists (path and build-id) moves to dst's place
 * for it; one dst lacks is appended where src had it, or above everything
 * dst maps when that place is taken (its bias moved with it, so that its
 * leaves still name the same bytes of the file).  src's main program is
 * moved by `shift` as its nodes are, and appended only when dst lists no
 * main program.  0 or -1 (out of memory).
 */
static int merge_objects(struct sidecar *dst, const struct sidecar *src,
			 uint64_t shift, uint64_t *delta)
{
	for (uint32_t k = 0; k < src->nr_objects; k++) {
		const struct sidecar_object *o = &src->objects[k];
		uint64_t d = 0, top = dst->program_end;
		uint32_t j, flags = o->flags;

		if (o->flags & SIDECAR_OBJECT_MAIN) {
			delta[k] = shift;
			for (j = 0; j < dst->nr_objects; j++)
				if (dst->objects[j].flags & SIDECAR_OBJECT_MAIN)
					break;
			if (j < dst->nr_objects)
				continue;
			d = shift;
		} else {
			for (j = 0; j < dst->nr_objects; j++)
				if (!(dst->objects[j].flags & SIDECAR_OBJECT_MAIN) &&
				    same_object(&dst->objects[j], o))
					break;
			if (j < dst->nr_objects) {
				delta[k] = dst->objects[j].bias - o->bias;
				continue;
			}
			flags &= ~SIDECAR_OBJECT_MAIN;
			if (overlaps(dst, o->start, o->end)) {
				for (j = 0; j < dst->nr_objects; j++)
					if (dst->objects[j].end > top)
						top = dst->objects[j].end;
				d = ((top + 0xfffff) & ~(uint64_t)0xfffff) - o->start;
			}
		}
		delta[k] = d;
		if (sidecar_add_object(dst, o->path, o->start + d, o->end + d, o->bias + d,
				       flags, o->build_id, o->build_id_len) < 0)
			return -1;
	}
	return 0;
}

/*
 * Where src's address `a` (a callee or a leaf's program counter) lies in
 * dst's address space: the program's addresses move by `shift`, a leaf's
 * in a shared object by that object's delta.
 */
static uint64_t merged_address(const struct sidecar *src, uint64_t a, int leaf,
			       uint64_t shift, const uint64_t *delta)
{
	if (src->program_end ? sidecar_in_program(src, a) : a != 0)
		return a + shift;
	if (leaf && delta)
		for (uint32_t k = 0; k < src->nr_objects; k++)
			if (a >= src->objects[k].start && a < src->objects[k].end)
				return a + delta[k];
	return a;
}

int sidecar_merge(struct sidecar *dst, const struct sidecar *src,
		  char *err, size_t errlen)
{
	/*
	 * Run-time addresses of one PIE program differ between processes by
	 * their load biases; the sum is expressed in dst's address space.
	 * Unsigned arithmetic: the shift is exact modulo 2^64 either way.
	 */
	uint64_t shift = dst->load_address - src->load_address;
	int src_range = src->program_end != 0;
	uint32_t *map = NULL;
	uint64_t *delta = NULL;
	int ret = -1, sat = 0;

	if (dst->build_id_len && src->build_id_len &&
	    (dst->build_id_len != src->build_id_len ||
	     memcmp(dst->build_id, src->build_id, dst->build_id_len))) {
		char a[2 * SIDECAR_BUILD_ID_MAX + 1], b[2 * SIDECAR_BUILD_ID_MAX + 1];

		hex(a, sizeof(a), src->build_id, src->build_id_len);
		hex(b, sizeof(b), dst->build_id, dst->build_id_len);
		set_err(err, errlen, "cannot merge sidecars: build-id %s differs "
			"from %s (recorded from another binary)", a, b);
		return -1;
	}
	if (dst->nr_nodes && src->nr_nodes &&
	    sidecar_folds_recursion(dst) != sidecar_folds_recursion(src)) {
		/* a folded node and a path of full recursion share their key */
		set_err(err, errlen, "cannot merge sidecars: one folds recursion, "
			"the other was recorded with CALLPATH_RECURSION=full or by an "
			"older runtime");
		return -1;
	}
	if (dst->nr_nodes && src->nr_nodes &&
	    (dst->flags & SIDECAR_F_SAMPLED) != (src->flags & SIDECAR_F_SAMPLED)) {
		/* counts of calls and counts of nothing do not add up */
		set_err(err, errlen, "cannot merge sidecars: one has sampled paths (a "
			"build without -pg: no call counts), the other counted calls");
		return -1;
	}
	/*
	 * Per-thread values are one process's: a sum of processes (or a
	 * file summed with itself) keeps none, rather than values that no
	 * longer add up to its nodes.
	 */
	sidecar_threads_clear(dst);
	if (!dst->nr_nodes && !sidecar_folds_recursion(src))
		dst->flags |= SIDECAR_F_RECURSION_FULL;
	if (!dst->nr_nodes)
		dst->flags |= src->flags & SIDECAR_F_SAMPLED;
	if (src->nr_nodes) {
		map = malloc((size_t)src->nr_nodes * sizeof(*map));
		if (!map) {
			set_err(err, errlen, "cannot merge sidecars: out of memory");
			goto out;
		}
	}
	if (src->nr_objects) {
		delta = calloc(src->nr_objects, sizeof(*delta));
		if (!delta || merge_objects(dst, src, shift, delta) < 0) {
			set_err(err, errlen, "cannot merge sidecars: out of memory");
			goto out;
		}
	}
	/* parents precede children, so map[parent] is known in time */
	for (uint32_t i = 0; i < src->nr_nodes; i++) {
		const struct sidecar_node *n = &src->nodes[i];
		uint32_t parent = n->parent == SIDECAR_ROOT ? SIDECAR_ROOT
							    : map[n->parent];
		int leaf = sidecar_node_is_leaf(n);
		uint64_t site = n->call_site;
		/* a sampled frame's function may be a library's: moved with it */
		uint64_t callee = merged_address(src, n->callee,
						 leaf || (src->flags & SIDECAR_F_SAMPLED),
						 shift, delta);

		/* only the program moves; 0 (external) stays 0, a leaf's
		 * call site is its kind */
		if (!leaf && (src_range ? sidecar_in_program(src, site) : site != 0))
			site += shift;
		if (add_node(dst, parent, site, callee, n->count, &map[i], &sat) < 0) {
			set_err(err, errlen,
				"cannot merge sidecars: out of memory at node %u", i);
			goto out;
		}
		dst->nodes[map[i]].flags |= n->flags;
		sat_add_u64_flag(&dst->nodes[map[i]].recursive, n->recursive, &sat);
		sat_add_u64_flag(&dst->nodes[map[i]].self_samples, n->self_samples, &sat);
	}
	if (merge_extras(dst, src, map) < 0) {
		set_err(err, errlen, "cannot merge sidecars: out of memory");
		goto out;
	}
	/* a sum pairs with no one process's gmon file: its writer says which */
	dst->id.flags = SIDECAR_ID_SUM;
	for (int d = 0; d < SIDECAR_DROP_NR; d++)
		sat_add_u64_flag(&dst->dropped[d], src->dropped[d], &sat);
	dst->threads = dst->threads > UINT32_MAX - src->threads ? UINT32_MAX
								 : dst->threads + src->threads;
	dst->flags |= src->flags & (SIDECAR_F_DEPTH_LIMITED | SIDECAR_F_MERGED |
				    SIDECAR_F_RECURSION_FULL);
	dst->sampling |= src->sampling;
	sat_add_u64_flag(&dst->unplaced_samples, src->unplaced_samples, &sat);
	if (src->unwind.max_frames > dst->unwind.max_frames)
		dst->unwind.max_frames = src->unwind.max_frames;
	sat_add_u64_flag(&dst->unwind.walked, src->unwind.walked, &sat);
	for (int e = 0; e < SIDECAR_UNWIND_END_NR; e++)
		sat_add_u64_flag(&dst->unwind.ends[e], src->unwind.ends[e], &sat);
	/* a sum's CPU time: every process's, or unknown */
	if (dst->process_cpu.valid && src->process_cpu.valid) {
		sat_add_u64_flag(&dst->process_cpu.user_ns, src->process_cpu.user_ns, &sat);
		sat_add_u64_flag(&dst->process_cpu.sys_ns, src->process_cpu.sys_ns, &sat);
	} else
		dst->process_cpu.valid = 0;
	if (dst->pid != src->pid)
		dst->flags |= SIDECAR_F_MERGED;
	if (dst->rank != src->rank)
		dst->rank = -1;	/* a sum of several ranks is no one rank */
	if (!dst->build_id_len && src->build_id_len &&
	    src->build_id_len <= SIDECAR_BUILD_ID_MAX) {
		/* later sources are then checked against this binary */
		memcpy(dst->build_id, src->build_id, src->build_id_len);
		dst->build_id_len = src->build_id_len;
	}
	if (!dst->program_end && src_range) {
		dst->program_start = src->program_start + shift;
		dst->program_end = src->program_end + shift;
	}
	if (!dst->failure)
		dst->failure = src->failure;
	ret = sat;
out:
	free(map);
	free(delta);
	return ret;
}

uint32_t sidecar_path(const struct sidecar *sc, uint32_t idx,
		      uint32_t *path, uint32_t max)
{
	uint32_t depth = 0;

	for (uint32_t i = idx; i != SIDECAR_ROOT; i = sc->nodes[i].parent)
		depth++;
	if (path) {
		uint32_t d = depth;

		for (uint32_t i = idx; i != SIDECAR_ROOT; i = sc->nodes[i].parent) {
			d--;
			if (d < max)
				path[d] = i;
		}
	}
	return depth;
}

uint64_t sidecar_total(const struct sidecar *sc)
{
	uint64_t total = 0;

	for (uint32_t i = 0; i < sc->nr_nodes; i++)
		total = sat_add_u64(total, sat_add_u64(sc->nodes[i].count,
						       sc->nodes[i].recursive));
	return total;
}

uint64_t sidecar_total_samples(const struct sidecar *sc)
{
	uint64_t total = 0;

	for (uint32_t i = 0; i < sc->nr_nodes; i++)
		total = sat_add_u64(total, sc->nodes[i].self_samples);
	return total;
}

void sidecar_folded_sums(const struct sidecar *sc, uint64_t *into)
{
	for (uint32_t i = 0; i < sc->nr_nodes; i++)
		into[i] = 0;
	for (uint32_t i = 0; i < sc->nr_nodes; i++) {
		const struct sidecar_node *n = &sc->nodes[i];

		if ((n->flags & SIDECAR_NODE_FOLDED) && n->parent != SIDECAR_ROOT)
			into[n->parent] = sat_add_u64(into[n->parent], n->recursive);
	}
}

/* ---- the gmon file's hash ---- */

/*
 * 64-bit words of the input, little-endian, the last one padded with
 * zeros, each mixed in as MurmurHash3's 64-bit body does; the length and
 * its finaliser last.  Not cryptographic: it tells a gmon file from
 * another run's, which differ in their histogram or counts.
 */
#define HASH_K1 0x87c37b91114253d5ull
#define HASH_K2 0x4cf5ad432745937full

static uint64_t rotl64(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static uint64_t hash_word(uint64_t h, uint64_t w)
{
	w *= HASH_K1;
	w = rotl64(w, 31);
	w *= HASH_K2;
	h ^= w;
	h = rotl64(h, 27);
	return h * 5 + 0x52dce729;
}

void sidecar_hash_begin(struct sidecar_hash *hs)
{
	hs->h = 0x9e3779b97f4a7c15ull;
	hs->len = 0;
	hs->tail = 0;
	hs->ntail = 0;
}

void sidecar_hash_add(struct sidecar_hash *hs, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	hs->len += len;
	while (len && hs->ntail) {
		hs->tail |= (uint64_t)*p++ << (8 * hs->ntail);
		len--;
		if (++hs->ntail == 8) {
			hs->h = hash_word(hs->h, hs->tail);
			hs->tail = 0;
			hs->ntail = 0;
		}
	}
	for (; len >= 8; p += 8, len -= 8)
		hs->h = hash_word(hs->h, get64(p));
	while (len--)
		hs->tail |= (uint64_t)*p++ << (8 * hs->ntail++);
}

uint64_t sidecar_hash_end(const struct sidecar_hash *hs)
{
	uint64_t h = hs->h;

	if (hs->ntail)
		h = hash_word(h, hs->tail);
	h ^= hs->len;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return h;
}

int sidecar_hash_file(const char *path, uint64_t *size, uint64_t *hash)
{
	unsigned char buf[8192];
	struct sidecar_hash hs;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK), e;
	ssize_t n;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		e = S_ISREG(st.st_mode) ? errno : EINVAL;
		close(fd);
		errno = e;
		return -1;
	}
	sidecar_hash_begin(&hs);
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			e = errno;
			close(fd);
			errno = e;
			return -1;
		}
		sidecar_hash_add(&hs, buf, (size_t)n);
	}
	close(fd);
	*size = hs.len;
	*hash = sidecar_hash_end(&hs);
	return 0;
}

/* ---- encoding (version 4) ---- */

/* Version 4: format/sidecar_layout.h has the layout's names and sizes. */
static const char *const sect_names[] = {
	[SIDECAR_SECT_PROCESS] = "process section", [SIDECAR_SECT_IDENTITY] = "identity section",
	[SIDECAR_SECT_METRICS] = "metrics section", [SIDECAR_SECT_OBJECTS] = "objects section",
	[SIDECAR_SECT_NODES] = "node table", [SIDECAR_SECT_SAMPLING] = "sampling section",
	[SIDECAR_SECT_UNWIND] = "sampled section", [SIDECAR_SECT_THREADS] = "threads section",
};

/* Everything before the node records (headers included). */
static size_t threads_size(const struct sidecar *sc);

/* Everything before the node records: the sections (the threads section
 * last of them), then the node table's headers. */
static size_t head_size(const struct sidecar *sc)
{
	return sidecar_v4_head_size(sc) + threads_size(sc) + SIDECAR_V4_SECT_HDR +
	       SIDECAR_V4_NODES_FIXED;
}

/* One entry of the threads section (its name and records included). */
static size_t thread_entry_size(const struct sidecar_thread *t)
{
	return SIDECAR_V4_THREAD_FIXED + sidecar_v4_pad8(sidecar_v4_len16(t->name)) +
	       (size_t)t->nr_values * SIDECAR_V4_THREAD_RECORD(SIDECAR_V4_THREAD_VALUES);
}

/* The threads section, its header included; 0 when there is none. */
static size_t threads_size(const struct sidecar *sc)
{
	size_t n = SIDECAR_V4_SECT_HDR + SIDECAR_V4_THREADS_FIXED;

	if (!sc->nr_thread_views)
		return 0;
	for (uint32_t i = 0; i < sc->nr_thread_views; i++)
		n += thread_entry_size(&sc->thread_views[i]);
	return n;
}

size_t sidecar_encoded_size(const struct sidecar *sc)
{
	return head_size(sc) + (size_t)sc->nr_nodes * sidecar_v4_node_size(sc);
}

double sidecar_cpu_coverage(const struct sidecar *sc, uint64_t samples)
{
	double cpu = (double)sc->process_cpu.user_ns + (double)sc->process_cpu.sys_ns;

	if (!sc->process_cpu.valid || !sc->time_period || cpu <= 0)
		return -1;
	return (double)samples * (double)sc->time_period / cpu;
}

static unsigned char *put_str(unsigned char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

static unsigned char *put_section(unsigned char *p, uint32_t tag, uint32_t flags,
				  uint64_t len)
{
	put32(p, tag);
	put32(p + 4, flags);
	put64(p + 8, len);
	return p + SIDECAR_V4_SECT_HDR;
}

static unsigned char *put_metric(unsigned char *p, const char *name,
				 const char *unit, uint32_t kind, uint32_t flags,
				 uint64_t period, uint64_t unplaced)
{
	size_t nl = sidecar_v4_len16(name), ul = sidecar_v4_len16(unit);

	put32(p, kind);
	put32(p + 4, flags);
	put64(p + 8, period);
	put64(p + 16, unplaced);
	put16(p + 24, (uint16_t)nl);
	put16(p + 26, (uint16_t)ul);
	put_str(put_str(p + SIDECAR_V4_METRIC_FIXED, name, nl), unit, ul);
	return p + sidecar_v4_metric_size(name, unit);
}

/* The process CPU section, when known (sidecar_v4_cpu_size() bytes). */
static void encode_cpu(const struct sidecar *sc, unsigned char *p)
{
	if (!sc->process_cpu.valid)
		return;
	p = put_section(p, SIDECAR_SECT_CPU, 0, SIDECAR_V4_CPU_SIZE);
	memset(p, 0, SIDECAR_V4_CPU_SIZE);
	put32(p, 1);
	put64(p + 8, sc->process_cpu.user_ns);
	put64(p + 16, sc->process_cpu.sys_ns);
}

/* Thread entry `t`'s bytes at p (thread_entry_size(t) of them). */
static unsigned char *encode_thread(const struct sidecar_thread *t, unsigned char *p)
{
	size_t nl = sidecar_v4_len16(t->name);

	memset(p, 0, SIDECAR_V4_THREAD_FIXED + sidecar_v4_pad8(nl));
	put64(p, t->tid);
	put32(p + 8, t->flags);
	put32(p + 12, t->threads);
	put64(p + 16, t->nr_values);
	put16(p + 24, (uint16_t)nl);
	put_str(p + SIDECAR_V4_THREAD_FIXED, t->name, nl);
	p += SIDECAR_V4_THREAD_FIXED + sidecar_v4_pad8(nl);
	for (uint32_t k = 0; k < t->nr_values; k++) {
		put32(p, t->values[k].node);
		put32(p + 4, 0);
		put64(p + 8, t->values[k].calls);
		put64(p + 16, t->values[k].samples);
		p += SIDECAR_V4_THREAD_RECORD(SIDECAR_V4_THREAD_VALUES);
	}
	return p;
}

/* The threads section's headers (SIDECAR_V4_SECT_HDR + _THREADS_FIXED bytes). */
static unsigned char *encode_threads_head(const struct sidecar *sc, unsigned char *p)
{
	p = put_section(p, SIDECAR_SECT_THREADS, 0, threads_size(sc) - SIDECAR_V4_SECT_HDR);
	put32(p, sc->nr_thread_views);
	put32(p + 4, SIDECAR_V4_THREAD_VALUES);
	put32(p + 8, sc->thread_limit);
	put32(p + 12, 0);
	return p + SIDECAR_V4_THREADS_FIXED;
}

/* Everything before the node records; `buf` has head_size(sc) bytes. */
static void encode_head(const struct sidecar *sc, unsigned char *buf)
{
	size_t hl = sidecar_v4_text_len16(sc->host, sc->host_len);
	size_t el = sidecar_v4_text_len16(sc->exe, sc->exe_len);
	uint32_t bl = sidecar_v4_bid_len(sc->build_id_len), tflags = 0;
	unsigned char *p = buf, *q;

	memset(buf, 0, head_size(sc));
	memcpy(p, SIDECAR_MAGIC, 8);
	put32(p + 8, SIDECAR_VERSION);
	put32(p + 12, SIDECAR_V4_FILE_HDR);
	put32(p + 16, sc->flags);
	put32(p + 20, sidecar_v4_sections_before_nodes(sc) + 1 + !!sc->process_cpu.valid +
		      !!sc->nr_thread_views);
	put64(p + 24, sidecar_encoded_size(sc));
	p += SIDECAR_V4_FILE_HDR;

	q = p = put_section(p, SIDECAR_SECT_PROCESS, SIDECAR_SECT_REQUIRED, sidecar_v4_process_size(sc));
	put64(q, sc->pid);
	put64(q + 8, sc->ppid);
	put32(q + 16, (uint32_t)sc->rank);
	put32(q + 20, sc->depth);
	put32(q + 24, sc->failure);
	put32(q + 28, sc->threads);
	put64(q + 32, sc->load_address);
	put64(q + 40, sc->program_start);
	put64(q + 48, sc->program_end);
	put32(q + 56, SIDECAR_DROP_NR);
	put16(q + 60, (uint16_t)hl);
	put16(q + 62, (uint16_t)el);
	put16(q + 64, (uint16_t)bl);
	for (int d = 0; d < SIDECAR_DROP_NR; d++)
		put64(q + SIDECAR_V4_PROCESS_FIXED + 8 * d, sc->dropped[d]);
	q += SIDECAR_V4_PROCESS_FIXED + 8 * SIDECAR_DROP_NR;
	memcpy(put_str(put_str(q, sc->host, hl), sc->exe, el), sc->build_id, bl);
	p += sidecar_v4_process_size(sc);

	q = p = put_section(p, SIDECAR_SECT_IDENTITY, 0, sidecar_v4_identity_size(sc));
	put32(q, sc->id.flags);
	put32(q + 4, sc->id.snapshot);
	put64(q + 8, sc->id.gmon_size);
	put64(q + 16, sc->id.gmon_hash);
	put64(q + 24, sc->id.run_id);
	put64(q + 32, sc->id.time_ns);
	put16(q + 40, (uint16_t)sidecar_v4_len16(sc->id.gmon_name));
	put_str(q + SIDECAR_V4_IDENTITY_FIXED, sc->id.gmon_name, sidecar_v4_len16(sc->id.gmon_name));
	p += sidecar_v4_identity_size(sc);

	q = p = put_section(p, SIDECAR_SECT_METRICS, SIDECAR_SECT_REQUIRED, sidecar_v4_metrics_size(sc));
	put32(q, sidecar_v4_nmetrics(sc));
	q += 8;
	if (!(sc->sampling & SIDECAR_SAMPLING_SELF))
		tflags |= SIDECAR_METRIC_INACTIVE;
	if (sc->sampling & SIDECAR_SAMPLING_STOPPED)
		tflags |= SIDECAR_METRIC_STOPPED;
	q = put_metric(q, sidecar_v4_time_name(sc), SIDECAR_TIME_METRIC_UNIT,
		       SIDECAR_METRIC_CPU_SAMPLES, tflags, sc->time_period,
		       sc->unplaced_samples);
	for (uint32_t i = 0; i < sc->nr_extra; i++) {
		const struct sidecar_metric *m = &sc->extra_metrics[i];

		q = put_metric(q, m->name, m->unit, m->kind, m->flags, m->period,
			       m->unplaced);
	}
	p += sidecar_v4_metrics_size(sc);

	q = p = put_section(p, SIDECAR_SECT_OBJECTS, 0, sidecar_v4_objects_size(sc));
	put32(q, sc->nr_objects);
	q += 8;
	for (uint32_t i = 0; i < sc->nr_objects; i++) {
		const struct sidecar_object *o = &sc->objects[i];
		size_t pl = sidecar_v4_len16(o->path);
		uint32_t ol = sidecar_v4_bid_len(o->build_id_len);

		put64(q, o->start);
		put64(q + 8, o->end);
		put64(q + 16, o->bias);
		put32(q + 24, o->flags);
		put16(q + 28, (uint16_t)pl);
		put16(q + 30, (uint16_t)ol);
		memcpy(put_str(q + SIDECAR_V4_OBJECT_FIXED, o->path, pl), o->build_id, ol);
		q += sidecar_v4_object_size(o);
	}
	p += sidecar_v4_objects_size(sc);

	q = p = put_section(p, SIDECAR_SECT_SAMPLING, 0, sidecar_v4_sampling_size(sc));
	put32(q, sidecar_v4_nmetrics(sc));
	put64(q + 8, sc->time_taken);
	for (uint32_t i = 0; i < sc->nr_extra; i++)
		put64(q + 16 + 8 * i, sc->extra_metrics[i].taken);
	p += sidecar_v4_sampling_size(sc);

	encode_cpu(sc, p);
	p += sidecar_v4_cpu_size(sc);

	if (sidecar_v4_has_unwind(sc)) {
		q = p = put_section(p, SIDECAR_SECT_UNWIND, SIDECAR_SECT_REQUIRED,
				    sidecar_v4_unwind_size(sc));
		put32(q, SIDECAR_UNWIND_END_NR);
		put32(q + 4, sc->unwind.max_frames);
		put64(q + 8, sc->unwind.walked);
		for (int i = 0; i < SIDECAR_UNWIND_END_NR; i++)
			put64(q + SIDECAR_V4_UNWIND_FIXED + 8 * i, sc->unwind.ends[i]);
		p += sidecar_v4_unwind_size(sc);
	}

	if (sc->nr_thread_views) {
		p = encode_threads_head(sc, p);
		for (uint32_t i = 0; i < sc->nr_thread_views; i++)
			p = encode_thread(&sc->thread_views[i], p);
	}
	q = put_section(p, SIDECAR_SECT_NODES, SIDECAR_SECT_REQUIRED,
			SIDECAR_V4_NODES_FIXED + (uint64_t)sc->nr_nodes * sidecar_v4_node_size(sc));
	put32(q, (uint32_t)sidecar_v4_node_size(sc));
	put32(q + 4, sidecar_v4_nmetrics(sc));
	put64(q + 8, sc->nr_nodes);
	put32(q + 16, SIDECAR_NODES_PROCESS);
	put32(q + 20, sc->threads);
}

static void encode_nodes(const struct sidecar *sc, uint32_t first, uint32_t n,
			 unsigned char *p)
{
	size_t nsize = sidecar_v4_node_size(sc);

	for (uint32_t i = first; i < first + n; i++, p += nsize) {
		const struct sidecar_node *node = &sc->nodes[i];

		put32(p, node->parent);
		put32(p + 4, node->flags);
		put64(p + 8, node->call_site);
		put64(p + 16, node->callee);
		put64(p + 24, node->count);
		put64(p + 32, node->recursive);
		put64(p + 40, node->self_samples);
		for (uint32_t k = 0; k < sc->nr_extra; k++)
			put64(p + 48 + 8 * k,
			      sc->extra_values[(size_t)i * sc->nr_extra + k]);
	}
}

void sidecar_encode(const struct sidecar *sc, unsigned char *buf)
{
	encode_head(sc, buf);
	encode_nodes(sc, 0, sc->nr_nodes, buf + head_size(sc));
}

static int write_all(int fd, const unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

#define WRITE_CHUNK 1024u	/* nodes encoded per write(2) */

/*
 * The one encoder both writers use: the head, then the nodes a chunk at a
 * time (a big tree is not copied whole at exit), each piece handed to put().
 * 0, or put()'s -1 (errno as it left it), or -1 with ENOMEM.
 */
static int write_encoded(const struct sidecar *sc,
			 int (*put)(void *ctx, const unsigned char *buf, size_t len),
			 void *ctx)
{
	size_t hsize = head_size(sc), nsize = sidecar_v4_node_size(sc);
	size_t buflen = hsize > WRITE_CHUNK * nsize ? hsize : WRITE_CHUNK * nsize;
	unsigned char *buf = malloc(buflen);
	int ret;

	if (!buf) {
		errno = ENOMEM;
		return -1;
	}
	encode_head(sc, buf);
	ret = put(ctx, buf, hsize);
	for (uint32_t i = 0; i < sc->nr_nodes && ret == 0; i += WRITE_CHUNK) {
		uint32_t n = sc->nr_nodes - i < WRITE_CHUNK ? sc->nr_nodes - i
							     : WRITE_CHUNK;

		encode_nodes(sc, i, n, buf);
		ret = put(ctx, buf, (size_t)n * nsize);
	}
	free(buf);
	return ret;
}

static int put_stream(void *ctx, const unsigned char *buf, size_t len)
{
	return fwrite(buf, 1, len, ctx) == len ? 0 : -1;
}

static int put_fd(void *ctx, const unsigned char *buf, size_t len)
{
	return write_all(*(int *)ctx, buf, len);
}

int sidecar_write_fp(const struct sidecar *sc, FILE *fp)
{
	return write_encoded(sc, put_stream, fp) < 0 || ferror(fp) ? -1 : 0;
}

/*
 * A new file beside `path` for the rename: `path`.tmpNNNNNN, created
 * exclusively with mode 0666, which the kernel masks with the umask as it
 * does gmon.out's (mkstemp's 0600 would need a chmod, and reading the umask
 * means setting it, process-wide, while other threads run).
 */
static int create_temp(const char *path, char *tmp, size_t tmplen)
{
	static unsigned counter;
	uint64_t seed = (uint64_t)getpid() * 0x9e3779b97f4a7c15ull ^ (uintptr_t)tmp;

	for (int tries = 0; tries < 100; tries++) {
		unsigned k = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
		int fd;

		seed = (seed ^ k) * 0xbf58476d1ce4e5b9ull;
		snprintf(tmp, tmplen, "%s.tmp%06u", path, (unsigned)(seed >> 40) % 1000000u);
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

int sidecar_write_atomic(const struct sidecar *sc, const char *path,
			 char *err, size_t errlen)
{
	size_t tmplen = strlen(path) + 16;
	char *tmp = malloc(tmplen);
	struct stat st;
	int fd = -1, ret = -1;

	if (!tmp) {
		set_err(err, errlen, "%s: cannot write: out of memory", path);
		goto out;
	}
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		/* glibc opens gmon.out with O_NOFOLLOW: the same here */
		set_err(err, errlen, "%s: not written: it is a symbolic link", path);
		goto out;
	}
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* a FIFO or a device: written into, never replaced */
		fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
		if (fd < 0) {
			set_err(err, errlen, "%s: cannot open: %s", path, strerror(errno));
			goto out;
		}
		if (write_encoded(sc, put_fd, &fd) < 0) {
			set_err(err, errlen, "%s: cannot write: %s", path, strerror(errno));
			goto out;
		}
		ret = close(fd);
		fd = -1;
		if (ret < 0)
			set_err(err, errlen, "%s: cannot write: %s", path, strerror(errno));
		goto out;
	}
	fd = create_temp(path, tmp, tmplen);
	if (fd < 0) {
		set_err(err, errlen, "%s: cannot create: %s", tmp, strerror(errno));
		goto out;
	}
	if (write_encoded(sc, put_fd, &fd) < 0)
		goto write_error;
	if (close(fd) < 0) {
		fd = -1;
		goto write_error;
	}
	fd = -1;
	if (rename(tmp, path) < 0) {
		set_err(err, errlen, "%s: cannot rename to '%s': %s", tmp, path,
			strerror(errno));
		goto out_unlink;
	}
	ret = 0;
	goto out;
write_error:
	set_err(err, errlen, "%s: cannot write: %s", tmp, strerror(errno));
out_unlink:
	if (fd >= 0)
		close(fd);
	fd = -1;
	unlink(tmp);
out:
	if (fd >= 0)
		close(fd);
	free(tmp);
	return ret;
}

/* ---- decoding ---- */

static char *dup_bytes(const unsigned char *p, size_t n)
{
	char *s = malloc(n + 1);

	if (!s)
		return NULL;
	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

/* Versions 1 to 3: a fixed header, strings, one node table. */
static int decode_v3(const unsigned char *buf, size_t len, uint32_t version,
		     const char *name, struct sidecar **out, char *err, size_t errlen)
{
	struct sidecar *sc = NULL;
	uint32_t hsize, node_size, fixed, node_min;
	uint64_t nr_nodes;
	size_t host_len, exe_len, bid_len, table;

	fixed = version == 1 ? HDR_FIXED_V1 : version == 2 ? HDR_FIXED_V2 : HDR_FIXED;
	node_min = version >= 3 ? SIDECAR_NODE_SIZE_V3 : SIDECAR_NODE_SIZE_V1;
	if (len < fixed) {
		set_err(err, errlen, "%s: truncated header at byte %zu",
			name, len);
		return -1;
	}
	hsize = get32(buf + 12);
	node_size = get32(buf + 16);
	nr_nodes = get64(buf + 24);
	host_len = get16(buf + 104);
	exe_len = get16(buf + 106);
	bid_len = get16(buf + 108);
	if (hsize < fixed + host_len + exe_len + bid_len || hsize % 8) {
		set_err(err, errlen, "%s: bad header size %u",
			name, hsize);
		return -1;
	}
	if (bid_len > SIDECAR_BUILD_ID_MAX) {
		set_err(err, errlen, "%s: build-id of %zu bytes is too long",
			name, bid_len);
		return -1;
	}
	if (version >= 2 && get64(buf + 112) > get64(buf + 120)) {
		set_err(err, errlen, "%s: bad program range "
			"0x%llx-0x%llx", name, (unsigned long long)get64(buf + 112),
			(unsigned long long)get64(buf + 120));
		return -1;
	}
	if (len < hsize) {
		set_err(err, errlen, "%s: truncated header at byte %zu",
			name, len);
		return -1;
	}
	if (node_size < node_min || node_size > NODE_SIZE_MAX ||
	    node_size % 8) {
		set_err(err, errlen, "%s: bad node size %u",
			name, node_size);
		return -1;
	}
	if (nr_nodes >= SIDECAR_ROOT ||
	    nr_nodes > (SIZE_MAX - hsize) / node_size) {
		set_err(err, errlen, "%s: bad node count %llu",
			name, (unsigned long long)nr_nodes);
		return -1;
	}
	table = (size_t)nr_nodes * node_size;
	if (len - hsize < table) {
		set_err(err, errlen, "%s: truncated node table at byte %zu",
			name, len);
		return -1;
	}
	if (len - hsize > table) {
		set_err(err, errlen, "%s: trailing data at byte %zu",
			name, hsize + table);
		return -1;
	}

	/* sampled paths came with version 4's sampled section */
	if (get32(buf + 20) & SIDECAR_F_SAMPLED) {
		set_err(err, errlen, "%s: header flag %#x (sampled paths) in a version %u file, "
			"which cannot hold them", name, SIDECAR_F_SAMPLED, version);
		return -1;
	}
	sc = calloc(1, sizeof(*sc));
	if (!sc)
		goto oom;
	sc->version = version;
	sc->flags = get32(buf + 20);
	sc->pid = get64(buf + 32);
	sc->ppid = get64(buf + 40);
	sc->rank = (int32_t)get32(buf + 48);
	sc->depth = get32(buf + 52);
	sc->failure = get32(buf + 56);
	sc->threads = get32(buf + 60);
	sc->load_address = get64(buf + 64);
	for (int d = 0; d < SIDECAR_DROP_NR; d++)
		sc->dropped[d] = get64(buf + 72 + 8 * d);
	if (version >= 2) {
		sc->program_start = get64(buf + 112);
		sc->program_end = get64(buf + 120);
	}
	if (version >= 3) {
		sc->sampling = get32(buf + 128);
		sc->unplaced_samples = get32(buf + 132);
	}
	/* its samples were glibc's 100 Hz SIGPROF ticks */
	free(sc->time_name);
	sc->time_name = dup_bytes((const unsigned char *)"prof-timer", 10);
	if (!sc->time_name)
		goto oom;
	sc->host = dup_bytes(buf + fixed, host_len);
	sc->exe = dup_bytes(buf + fixed + host_len, exe_len);
	sc->id.gmon_name = dup_bytes(buf, 0);
	if (!sc->host || !sc->exe || !sc->id.gmon_name)
		goto oom;
	sc->host_len = (uint32_t)host_len;
	sc->exe_len = (uint32_t)exe_len;
	memcpy(sc->build_id, buf + fixed + host_len + exe_len, bid_len);
	sc->build_id_len = (uint32_t)bid_len;

	if (nr_nodes) {
		sc->nodes = bigalloc((size_t)nr_nodes * sizeof(*sc->nodes));
		if (!sc->nodes)
			goto oom;
		sc->alloc_nodes = (uint32_t)nr_nodes;
	}
	for (uint32_t i = 0; i < nr_nodes; i++) {
		const unsigned char *p = buf + hsize + (size_t)i * node_size;
		struct sidecar_node *n = &sc->nodes[i];

		n->parent = get32(p);
		/* reserved before version 3, which defines bit 0 only */
		n->flags = version >= 3 ? get32(p + 4) & SIDECAR_NODE_FOLDED : 0;
		n->call_site = get64(p + 8);
		n->callee = get64(p + 16);
		n->count = get64(p + 24);
		n->recursive = version >= 3 ? get64(p + 32) : 0;
		n->self_samples = version >= 3 ? get64(p + 40) : 0;
		if (n->parent != SIDECAR_ROOT && n->parent >= i) {
			set_err(err, errlen,
				"%s: node %u has bad parent %u at byte %zu",
				name, i, n->parent, (size_t)(p - buf));
			sidecar_free(sc);
			return -1;
		}
		if (n->parent != SIDECAR_ROOT &&
		    (sc->nodes[n->parent].flags & SIDECAR_NODE_FOLDED)) {
			set_err(err, errlen, "%s: node %u is a child of "
				"folded-recursion node %u at byte %zu", name, i,
				n->parent, (size_t)(p - buf));
			sidecar_free(sc);
			return -1;
		}
		if ((n->flags & SIDECAR_NODE_FOLDED) &&
		    (n->parent == SIDECAR_ROOT ||
		     sc->nodes[n->parent].callee != n->callee)) {
			set_err(err, errlen, "%s: folded-recursion node "
				"%u does not call its parent's function at byte %zu",
				name, i, (size_t)(p - buf));
			sidecar_free(sc);
			return -1;
		}
		if ((n->flags & SIDECAR_NODE_FOLDED) && n->count) {
			set_err(err, errlen, "%s: folded-recursion node %u has calls of its "
				"own at byte %zu", name, i, (size_t)(p - buf));
			sidecar_free(sc);
			return -1;
		}
		sc->nr_nodes = i + 1;
	}
	/* the format forbids two children with one (call site, callee): a
	 * reader summing such a tree would merge what the writer kept apart */
	{
		uint32_t first, dup;
		int rc = index_catch_up(sc, &first, &dup);

		if (rc < 0)
			goto oom;
		if (rc) {
			set_err(err, errlen, "%s: node %u duplicates node "
				"%u (same parent, call site and callee) at byte %zu",
				name, dup, first, (size_t)hsize + (size_t)dup * node_size);
			sidecar_free(sc);
			return -1;
		}
	}
	*out = sc;
	return 0;
oom:
	set_err(err, errlen, "%s: out of memory", name);
	sidecar_free(sc);
	return -1;
}

/* Where a version-4 decoder is: the file, its name, what it has read. */
struct v4_reader {
	const unsigned char *buf;
	size_t len;
	size_t base;		/* the file offset of buf[0] (sidecar_read_head) */
	const char *name;
	char *err;
	size_t errlen;
	struct sidecar *sc;
	int seen[SIDECAR_SECT_UNWIND + 1];
	uint32_t nmetrics;	/* metrics per node record */
	int time_first;		/* the file's first metric is the time samples */
	int seen_cpu;		/* the process CPU section */
	int seen_threads;	/* the threads section */
	const unsigned char *threads_at;	/* its payload, read last */
	uint64_t threads_len;
	uint32_t tables;	/* node tables read */
	/* tables of the whole process (kind 0): no per-thread values then
	 * but a threads section's */
	uint32_t process_tables;
	/* the last node table's record indices in the tree (the threads
	 * section's node indices are its) */
	uint32_t *map;
	uint32_t map_count;
};

/* A string of `n` bytes at p, inside [p, end): copied, or NULL. */
static char *v4_string(const unsigned char *p, size_t n, const unsigned char *end)
{
	if (n > (size_t)(end - p))
		return NULL;
	return dup_bytes(p, n);
}

static int v4_bad(struct v4_reader *r, const unsigned char *at, const char *what)
{
	set_err(r->err, r->errlen, "%s: bad %s at byte %zu", r->name, what,
		r->base + (size_t)(at - r->buf));
	return -1;
}

static int v4_oom(struct v4_reader *r)
{
	set_err(r->err, r->errlen, "%s: out of memory", r->name);
	return -1;
}

static int v4_process(struct v4_reader *r, const unsigned char *p, uint64_t len)
{
	const unsigned char *end = p + len;
	struct sidecar *sc = r->sc;
	uint32_t ndropped;
	size_t hl, el, bl, strings;

	if (len < SIDECAR_V4_PROCESS_FIXED)
		return v4_bad(r, p, "process section (too short)");
	sc->pid = get64(p);
	sc->ppid = get64(p + 8);
	sc->rank = (int32_t)get32(p + 16);
	sc->depth = get32(p + 20);
	sc->failure = get32(p + 24);
	sc->threads = get32(p + 28);
	sc->load_address = get64(p + 32);
	sc->program_start = get64(p + 40);
	sc->program_end = get64(p + 48);
	ndropped = get32(p + 56);
	hl = get16(p + 60);
	el = get16(p + 62);
	bl = get16(p + 64);
	if (sc->program_start > sc->program_end) {
		set_err(r->err, r->errlen, "%s: bad program range 0x%llx-0x%llx",
			r->name, (unsigned long long)sc->program_start,
			(unsigned long long)sc->program_end);
		return -1;
	}
	if (bl > SIDECAR_BUILD_ID_MAX) {
		set_err(r->err, r->errlen, "%s: build-id of %zu bytes is too long",
			r->name, bl);
		return -1;
	}
	if (ndropped > (len - SIDECAR_V4_PROCESS_FIXED) / 8)
		return v4_bad(r, p + 56, "count of dropped-call counters");
	for (uint32_t d = 0; d < ndropped && d < SIDECAR_DROP_NR; d++)
		sc->dropped[d] = get64(p + SIDECAR_V4_PROCESS_FIXED + 8 * d);
	p += SIDECAR_V4_PROCESS_FIXED + 8 * (size_t)ndropped;
	strings = hl + el + bl;
	if (strings > (size_t)(end - p))
		return v4_bad(r, p, "string lengths in the process section");
	free(sc->host);
	free(sc->exe);
	sc->host = v4_string(p, hl, end);
	sc->exe = v4_string(p + hl, el, end);
	if (!sc->host || !sc->exe)
		return v4_oom(r);
	/* the bytes as written, a NUL inside included (cpdump shows it) */
	sc->host_len = (uint32_t)hl;
	sc->exe_len = (uint32_t)el;
	memcpy(sc->build_id, p + hl + el, bl);
	sc->build_id_len = (uint32_t)bl;
	return 0;
}

static int v4_identity(struct v4_reader *r, const unsigned char *p, uint64_t len)
{
	struct sidecar_identity *id = &r->sc->id;
	size_t nl;

	if (len < SIDECAR_V4_IDENTITY_FIXED)
		return v4_bad(r, p, "identity section (too short)");
	id->flags = get32(p);
	id->snapshot = get32(p + 4);
	id->gmon_size = get64(p + 8);
	id->gmon_hash = get64(p + 16);
	id->run_id = get64(p + 24);
	id->time_ns = get64(p + 32);
	nl = get16(p + 40);
	if (nl > len - SIDECAR_V4_IDENTITY_FIXED)
		return v4_bad(r, p + 40, "gmon file name length");
	free(id->gmon_name);
	id->gmon_name = dup_bytes(p + SIDECAR_V4_IDENTITY_FIXED, nl);
	return id->gmon_name ? 0 : v4_oom(r);
}

static int v4_metrics(struct v4_reader *r, const unsigned char *p, uint64_t len)
{
	const unsigned char *end = p + len;
	struct sidecar *sc = r->sc;
	uint32_t n;

	if (len < 8)
		return v4_bad(r, p, "metrics section (too short)");
	n = get32(p);
	if (n > SIDECAR_METRICS_MAX)
		return v4_bad(r, p, "metric count");
	p += 8;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t kind, flags;
		uint64_t period, unplaced;
		size_t nl, ul;
		char *mname, *unit;
		int k;

		if ((size_t)(end - p) < SIDECAR_V4_METRIC_FIXED)
			return v4_bad(r, p, "metric (past its section)");
		kind = get32(p);
		flags = get32(p + 4);
		period = get64(p + 8);
		unplaced = get64(p + 16);
		nl = get16(p + 24);
		ul = get16(p + 26);
		if (nl + ul > (size_t)(end - p) - SIDECAR_V4_METRIC_FIXED)
			return v4_bad(r, p + 24, "metric name length");
		if (i == 0 && kind == SIDECAR_METRIC_CPU_SAMPLES) {
			/* the time samples: the model's own metric */
			mname = dup_bytes(p + SIDECAR_V4_METRIC_FIXED, nl);
			if (!mname)
				return v4_oom(r);
			free(sc->time_name);
			sc->time_name = mname;
			r->time_first = 1;
			sc->sampling = (flags & SIDECAR_METRIC_INACTIVE ? 0 : SIDECAR_SAMPLING_SELF) |
				       (flags & SIDECAR_METRIC_STOPPED ? SIDECAR_SAMPLING_STOPPED : 0);
			sc->unplaced_samples = unplaced;
			sc->time_period = period;
		} else {
			mname = dup_bytes(p + SIDECAR_V4_METRIC_FIXED, nl);
			unit = dup_bytes(p + SIDECAR_V4_METRIC_FIXED + nl, ul);
			k = mname && unit ? sidecar_add_metric(sc, mname, unit, kind, flags, period)
					  : -1;
			free(mname);
			free(unit);
			if (k < 0)
				return v4_oom(r);
			sc->extra_metrics[k].unplaced = unplaced;
		}
		p += sidecar_v4_pad8(SIDECAR_V4_METRIC_FIXED + nl + ul);
		if (p > end)
			return v4_bad(r, end, "metric (past its section)");
	}
	r->nmetrics = n;
	return 0;
}

static int v4_objects(struct v4_reader *r, const unsigned char *p, uint64_t len)
{
	const unsigned char *end = p + len;
	uint32_t n;

	if (len < 8)
		return v4_bad(r, p, "objects section (too short)");
	n = get32(p);
	if (n > len / SIDECAR_V4_OBJECT_FIXED)
		return v4_bad(r, p, "object count");
	p += 8;
	for (uint32_t i = 0; i < n; i++) {
		size_t pl, bl;
		char *path;
		int rc;

		if ((size_t)(end - p) < SIDECAR_V4_OBJECT_FIXED)
			return v4_bad(r, p, "object (past its section)");
		pl = get16(p + 28);
		bl = get16(p + 30);
		if (bl > SIDECAR_BUILD_ID_MAX || pl + bl > (size_t)(end - p) - SIDECAR_V4_OBJECT_FIXED)
			return v4_bad(r, p + 28, "object name or build-id length");
		if (get64(p) > get64(p + 8))
			return v4_bad(r, p, "object address range");
		path = dup_bytes(p + SIDECAR_V4_OBJECT_FIXED, pl);
		rc = path ? sidecar_add_object(r->sc, path, get64(p), get64(p + 8),
					       get64(p + 16), get32(p + 24),
					       p + SIDECAR_V4_OBJECT_FIXED + pl, (uint32_t)bl) : -1;
		free(path);
		if (rc < 0)
			return v4_oom(r);
		p += sidecar_v4_pad8(SIDECAR_V4_OBJECT_FIXED + pl + bl);
		if (p > end)
			return v4_bad(r, end, "object (past its section)");
	}
	return 0;
}

/* The samples taken of each metric (after the metrics section). */
/*
 * The process CPU section (optional, tag 7): flags (1: known), user ns,
 * system ns; longer payloads are a later version's (the rest skipped).
 */
static int v4_cpu(struct v4_reader *r, const unsigned char *p, uint64_t len)
{
	struct sidecar *sc = r->sc;

	if (r->seen_cpu)
		return v4_bad(r, p, "second process CPU section");
	r->seen_cpu = 1;
	if (len < SIDECAR_V4_CPU_SIZE)
		return v4_bad(r, p, "process CPU section (too short)");
	if (!(get32(p) & 1))
		return 0;
	sc->process_cpu.valid = 1;
	sc->process_cpu.user_ns = get64(p + 8);
	sc->process_cpu.sys_ns = get64(p + 16);
	return 0;
}

static int v4_sampling(struct v4_reader *r, const unsigned char *p, uint64_t len)
{
	struct sidecar *sc = r->sc;
	uint32_t n;

	if (len < 8)
		return v4_bad(r, p, "sampling section (too short)");
	n = get32(p);
	if (n != r->nmetrics || (len - 8) / 8 < n)
		return v4_bad(r, p, "metric count of the sampling section (not the metrics section's)");
	for (uint32_t k = 0; k < n; k++) {
		uint64_t v = get64(p + 8 + 8 * k);

		if (k == 0 && r->time_first)
			sc->time_taken = v;
		else
			sc->extra_metrics[k - (uint32_t)r->time_first].taken = v;
	}
	return 0;
}

/* The sampled section: how many walks ended each way (reasons a later
 * writer adds beyond ours are counted with the last we know). */
static int v4_unwind(struct v4_reader *r, const unsigned char *p, uint64_t len)
{
	struct sidecar *sc = r->sc;
	uint32_t n;

	if (len < SIDECAR_V4_UNWIND_FIXED)
		return v4_bad(r, p, "sampled section (too short)");
	n = get32(p);
	if (!n || (len - SIDECAR_V4_UNWIND_FIXED) / 8 < n)
		return v4_bad(r, p, "count of the sampled section");
	if (!(sc->flags & SIDECAR_F_SAMPLED))
		return v4_bad(r, p, "sampled section (the header does not say sampled)");
	sc->unwind.max_frames = get32(p + 4);
	sc->unwind.walked = get64(p + 8);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t at = k < SIDECAR_UNWIND_END_NR ? k : SIDECAR_UNWIND_END_NR - 1;

		sc->unwind.ends[at] = sat_add_u64(sc->unwind.ends[at],
						  get64(p + SIDECAR_V4_UNWIND_FIXED + 8 * k));
	}
	return 0;
}

/* The sections this reader knows (others are skipped unless required). */
static int v4_known(uint32_t tag)
{
	return (tag >= SIDECAR_SECT_PROCESS && tag <= SIDECAR_SECT_SAMPLING) ||
	       tag == SIDECAR_SECT_UNWIND;
}

/*
 * One node table: its nodes summed into the tree (a file may hold a table
 * per thread, and a table may repeat a key, e.g. two call sites outside
 * the program that the writer wrote as 0: the reader sums them).
 */
static int v4_nodes(struct v4_reader *r, const unsigned char *p, uint64_t len)
{
	struct sidecar *sc = r->sc;
	uint32_t nsize, nm, *map = NULL;
	uint64_t count;
	int ret = -1, view = -1;

	if (len < SIDECAR_V4_NODES_FIXED)
		return v4_bad(r, p, "node table header (too short)");
	nsize = get32(p);
	nm = get32(p + 4);
	count = get64(p + 8);
	if (nm != r->nmetrics)
		return v4_bad(r, p + 4, "metric count of the node table (not the metrics section's)");
	if (nsize < SIDECAR_NODE_SIZE_V4(nm) || nsize > NODE_SIZE_MAX || nsize % 8)
		return v4_bad(r, p, "node size");
	if (count >= SIDECAR_ROOT || count != (len - SIDECAR_V4_NODES_FIXED) / nsize ||
	    (len - SIDECAR_V4_NODES_FIXED) % nsize)
		return v4_bad(r, p + 8, "node count (not the section's length)");
	if (sc->nr_nodes + count >= SIDECAR_ROOT)
		return v4_bad(r, p + 8, "node count (more than 2^32 - 2 in all)");
	if (count && !(map = malloc((size_t)count * sizeof(*map))))
		return v4_oom(r);
	/*
	 * A table per live thread and one of the threads that ended (a
	 * snapshot, a killed run): each an entry of the per-thread values,
	 * kept where the file has no table of the whole process.
	 */
	if (get32(p + 16) == SIDECAR_NODES_PROCESS || get32(p + 16) > SIDECAR_NODES_RETIRED) {
		r->process_tables++;
	} else if (!r->seen_threads) {
		int retired = get32(p + 16) == SIDECAR_NODES_RETIRED;

		view = sidecar_thread_new(sc, retired ? 0 : get64(p + 24),
					  retired ? SIDECAR_THREAD_OTHER
					  : get64(p + 24) == sc->pid ? SIDECAR_THREAD_MAIN : 0,
					  get32(p + 20), retired ? "ended threads" : "");
		if (view < 0) {
			free(map);
			return v4_oom(r);
		}
	}
	p += SIDECAR_V4_NODES_FIXED;
	for (uint32_t i = 0; i < count; i++, p += nsize) {
		uint32_t parent = get32(p), flags = get32(p + 4), before = sc->nr_nodes, at;
		uint64_t site = get64(p + 8), callee = get64(p + 16);
		struct sidecar_node *n;

		if (parent != SIDECAR_ROOT && parent >= i) {
			set_err(r->err, r->errlen, "%s: node %u has bad parent %u at byte %zu",
				r->name, i, parent, (size_t)(p - r->buf));
			goto out;
		}
		parent = parent == SIDECAR_ROOT ? SIDECAR_ROOT : map[parent];
		if (parent != SIDECAR_ROOT &&
		    (sc->nodes[parent].flags & (SIDECAR_NODE_FOLDED | SIDECAR_NODE_LEAF))) {
			set_err(r->err, r->errlen, "%s: node %u is a child of "
				"%s node %u at byte %zu", r->name, i,
				sc->nodes[parent].flags & SIDECAR_NODE_FOLDED
					? "folded-recursion" : "leaf",
				get32(p), (size_t)(p - r->buf));
			goto out;
		}
		if ((flags & SIDECAR_NODE_LEAF) &&
		    ((flags & SIDECAR_NODE_FOLDED) || get64(p + 24) || get64(p + 32) ||
		     (site != SIDECAR_LEAF_PC && site != SIDECAR_LEAF_OVERHEAD))) {
			set_err(r->err, r->errlen, "%s: leaf node %u has calls, a fold or "
				"an unknown kind at byte %zu", r->name, i, (size_t)(p - r->buf));
			goto out;
		}
		if ((sc->flags & SIDECAR_F_SAMPLED) && (get64(p + 24) || get64(p + 32))) {
			set_err(r->err, r->errlen, "%s: node %u has calls in a file of sampled "
				"paths, which counts none, at byte %zu", r->name, i,
				(size_t)(p - r->buf));
			goto out;
		}
		if ((flags & SIDECAR_NODE_FOLDED) &&
		    (parent == SIDECAR_ROOT || sc->nodes[parent].callee != callee)) {
			set_err(r->err, r->errlen, "%s: folded-recursion node %u does not "
				"call its parent's function at byte %zu", r->name, i,
				(size_t)(p - r->buf));
			goto out;
		}
		/* its calls are its parent's recursive ones: a count would be
		 * calls no output shows */
		if ((flags & SIDECAR_NODE_FOLDED) && get64(p + 24)) {
			set_err(r->err, r->errlen, "%s: folded-recursion node %u has calls of "
				"its own at byte %zu", r->name, i, (size_t)(p - r->buf));
			goto out;
		}
		if (sidecar_add(sc, parent, site, callee, 0, &at) < 0) {
			v4_oom(r);
			goto out;
		}
		n = &sc->nodes[at];
		if (at < before && ((n->flags ^ flags) & (SIDECAR_NODE_FOLDED | SIDECAR_NODE_LEAF))) {
			set_err(r->err, r->errlen, "%s: node %u repeats node %u's key with "
				"other flags at byte %zu", r->name, i, at,
				(size_t)(p - r->buf));
			goto out;
		}
		map[i] = at;
		n->flags |= flags;
		n->count += get64(p + 24);
		n->recursive += get64(p + 32);
		if (view >= 0 &&
		    sidecar_thread_add(sc, (uint32_t)view, at,
				       sat_add_u64(get64(p + 24), get64(p + 32)),
				       r->time_first ? get64(p + 40) : 0) < 0) {
			v4_oom(r);
			goto out;
		}
		for (uint32_t k = 0; k < nm; k++) {
			uint64_t v = get64(p + 40 + 8 * k);

			if (k == 0 && r->time_first)
				n->self_samples += v;
			else
				sc->extra_values[(size_t)at * sc->nr_extra +
						 (k - (uint32_t)r->time_first)] += v;
		}
	}
	ret = 0;
	free(r->map);
	r->map = map;
	r->map_count = (uint32_t)count;
	r->tables++;
	map = NULL;
out:
	free(map);
	return ret;
}

/*
 * The threads section: per-thread values of the one node table's records,
 * moved to the tree's indices (two records the reader summed into one node
 * sum there too), then checked to add up to every node's values.
 */
static int v4_threads(struct v4_reader *r, const unsigned char *p, uint64_t len)
{
	const unsigned char *end = p + len, *at;
	struct sidecar *sc = r->sc;
	uint32_t count, nvalues, others = 0;
	char why[256];

	/* the writer's values, not the tables' */
	sidecar_threads_clear(sc);
	if (r->tables != 1)
		return v4_bad(r, p, "threads section (in a file of more than one node table)");
	if (len < SIDECAR_V4_THREADS_FIXED)
		return v4_bad(r, p, "threads section header (too short)");
	count = get32(p);
	nvalues = get32(p + 4);
	if (nvalues < 1 || nvalues > r->nmetrics || !r->time_first)
		return v4_bad(r, p + 4, "threads section's value count");
	if (count > (len - SIDECAR_V4_THREADS_FIXED) / SIDECAR_V4_THREAD_FIXED)
		return v4_bad(r, p, "thread count (more than the section holds)");
	sc->thread_limit = get32(p + 8);
	at = p + SIDECAR_V4_THREADS_FIXED;
	for (uint32_t i = 0; i < count; i++) {
		size_t rsize = SIDECAR_V4_THREAD_RECORD(nvalues), nl;
		uint64_t nrec;
		uint32_t last = 0, flags;
		char *name;
		int t;

		if ((size_t)(end - at) < SIDECAR_V4_THREAD_FIXED)
			return v4_bad(r, at, "thread entry (cut short)");
		flags = get32(at + 8);
		nrec = get64(at + 16);
		nl = get16(at + 24);
		if (flags & ~(uint32_t)(SIDECAR_THREAD_OTHER | SIDECAR_THREAD_MAIN) ||
		    ((flags & SIDECAR_THREAD_OTHER) && others++))
			return v4_bad(r, at + 8, "thread flags");
		if (sidecar_v4_pad8(nl) > (size_t)(end - at) - SIDECAR_V4_THREAD_FIXED)
			return v4_bad(r, at + 24, "thread name length");
		name = dup_bytes(at + SIDECAR_V4_THREAD_FIXED, nl);
		if (!name)
			return v4_oom(r);
		t = sidecar_thread_new(sc, get64(at), flags, get32(at + 12), name);
		free(name);
		if (t < 0)
			return v4_oom(r);
		at += SIDECAR_V4_THREAD_FIXED + sidecar_v4_pad8(nl);
		if (nrec > (size_t)(end - at) / rsize)
			return v4_bad(r, at - SIDECAR_V4_THREAD_FIXED - sidecar_v4_pad8(nl) + 16,
				      "thread record count (more than the section holds)");
		for (uint64_t k = 0; k < nrec; k++, at += rsize) {
			uint32_t node = get32(at);

			if (node >= r->map_count || (k && node <= last))
				return v4_bad(r, at, "thread record's node (out of range or "
					      "out of order)");
			last = node;
			if (sidecar_thread_add(sc, (uint32_t)t, r->map[node], get64(at + 8),
					       get64(at + 16)) < 0)
				return v4_oom(r);
		}
		thread_values_normalise(&sc->thread_views[t]);
	}
	if (at != end)
		return v4_bad(r, at, "threads section (bytes after its last thread)");
	if (sidecar_threads_check(sc, why, sizeof(why)) < 0) {
		set_err(r->err, r->errlen, "%s: bad threads section: %s", r->name, why);
		return -1;
	}
	return 0;
}

/*
 * The process section's load address and program range are the main
 * program's, which the objects section lists too (the runtime writes both
 * from one dl_iterate_phdr entry, and a sum moves both alike): a file
 * where they differ has been damaged, and its addresses would be named as
 * other functions.
 */
static int v4_main_object_check(struct v4_reader *r)
{
	const struct sidecar *sc = r->sc;

	for (uint32_t i = 0; i < sc->nr_objects; i++) {
		const struct sidecar_object *o = &sc->objects[i];

		if (!(o->flags & SIDECAR_OBJECT_MAIN))
			continue;
		if (o->bias != sc->load_address) {
			set_err(r->err, r->errlen, "%s: bad load address 0x%llx (the objects "
				"section's main program is loaded at 0x%llx)", r->name,
				(unsigned long long)sc->load_address,
				(unsigned long long)o->bias);
			return -1;
		}
		if (sc->program_end && o->end &&
		    (o->start != sc->program_start || o->end != sc->program_end)) {
			set_err(r->err, r->errlen, "%s: bad program range 0x%llx-0x%llx (the "
				"objects section's main program spans 0x%llx-0x%llx)", r->name,
				(unsigned long long)sc->program_start,
				(unsigned long long)sc->program_end,
				(unsigned long long)o->start, (unsigned long long)o->end);
			return -1;
		}
		return 0;	/* the first main program is the process's */
	}
	return 0;
}

static int decode_v4(const unsigned char *buf, size_t len, const char *name,
		     struct sidecar **out, char *err, size_t errlen)
{
	struct v4_reader r = { .buf = buf, .len = len, .name = name, .err = err,
			       .errlen = errlen };
	uint32_t hsize, nsect;
	size_t at;

	if (len < SIDECAR_V4_FILE_HDR) {
		set_err(err, errlen, "%s: truncated header at byte %zu", name, len);
		return -1;
	}
	hsize = get32(buf + 12);
	nsect = get32(buf + 20);
	if (hsize < SIDECAR_V4_FILE_HDR || hsize % 8) {
		set_err(err, errlen, "%s: bad header size %u", name, hsize);
		return -1;
	}
	if (len < hsize) {
		set_err(err, errlen, "%s: truncated header at byte %zu", name, len);
		return -1;
	}
	r.sc = sidecar_new();
	if (!r.sc)
		return v4_oom(&r);
	r.sc->version = 4;
	r.sc->flags = get32(buf + 16);
	at = hsize;
	for (uint32_t s = 0; s < nsect; s++) {
		uint32_t tag, flags;
		uint64_t slen;
		int rc;

		if (len - at < SIDECAR_V4_SECT_HDR) {
			set_err(err, errlen, "%s: truncated after %u of %u sections at byte %zu",
				name, s, nsect, len);
			goto fail;
		}
		tag = get32(buf + at);
		flags = get32(buf + at + 4);
		slen = get64(buf + at + 8);
		if (slen % 8) {
			v4_bad(&r, buf + at + 8, "section length");
			goto fail;
		}
		if (slen > len - at - SIDECAR_V4_SECT_HDR) {
			set_err(err, errlen, "%s: truncated %s at byte %zu", name,
				v4_known(tag) ? sect_names[tag] : "section", len);
			goto fail;
		}
		if (tag == SIDECAR_SECT_CPU) {
			if (v4_cpu(&r, buf + at + SIDECAR_V4_SECT_HDR, slen) < 0)
				goto fail;
			at += SIDECAR_V4_SECT_HDR + slen;
			continue;
		}
		if (tag == SIDECAR_SECT_THREADS) {
			/* read once the node table is: its indices are the table's */
			if (r.threads_at) {
				v4_bad(&r, buf + at, "threads section (a second one)");
				goto fail;
			}
			r.threads_at = buf + at + SIDECAR_V4_SECT_HDR;
			r.threads_len = slen;
			r.seen_threads = 1;
			at += SIDECAR_V4_SECT_HDR + slen;
			continue;
		}
		if (!v4_known(tag)) {
			if (flags & SIDECAR_SECT_REQUIRED) {
				set_err(err, errlen, "%s: unsupported section %u at byte %zu "
					"(a newer format)", name, tag, at);
				goto fail;
			}
			at += SIDECAR_V4_SECT_HDR + slen;
			continue;
		}
		if (tag != SIDECAR_SECT_NODES && r.seen[tag]) {
			set_err(err, errlen, "%s: second %s at byte %zu", name,
				sect_names[tag], at);
			goto fail;
		}
		if ((tag == SIDECAR_SECT_NODES &&
		     (!r.seen[SIDECAR_SECT_PROCESS] || !r.seen[SIDECAR_SECT_METRICS])) ||
		    (tag == SIDECAR_SECT_METRICS && r.seen[SIDECAR_SECT_NODES]) ||
		    (tag == SIDECAR_SECT_SAMPLING && !r.seen[SIDECAR_SECT_METRICS]) ||
		    (tag == SIDECAR_SECT_UNWIND && r.seen[SIDECAR_SECT_NODES])) {
			set_err(err, errlen, "%s: %s out of order at byte %zu", name,
				sect_names[tag], at);
			goto fail;
		}
		r.seen[tag] = 1;
		at += SIDECAR_V4_SECT_HDR;
		switch (tag) {
		case SIDECAR_SECT_PROCESS:
			rc = v4_process(&r, buf + at, slen);
			break;
		case SIDECAR_SECT_IDENTITY:
			rc = v4_identity(&r, buf + at, slen);
			break;
		case SIDECAR_SECT_METRICS:
			rc = v4_metrics(&r, buf + at, slen);
			break;
		case SIDECAR_SECT_OBJECTS:
			rc = v4_objects(&r, buf + at, slen);
			break;
		case SIDECAR_SECT_SAMPLING:
			rc = v4_sampling(&r, buf + at, slen);
			break;
		case SIDECAR_SECT_UNWIND:
			rc = v4_unwind(&r, buf + at, slen);
			break;
		default:
			rc = v4_nodes(&r, buf + at, slen);
			break;
		}
		if (rc < 0)
			goto fail;
		at += slen;
	}
	if (at != len) {
		set_err(err, errlen, "%s: trailing data at byte %zu", name, at);
		goto fail;
	}
	if (!r.seen[SIDECAR_SECT_PROCESS]) {
		set_err(err, errlen, "%s: no process section", name);
		goto fail;
	}
	if ((r.sc->flags & SIDECAR_F_SAMPLED) && !r.seen[SIDECAR_SECT_UNWIND]) {
		set_err(err, errlen, "%s: sampled paths (header flag 0x%x) without their "
			"sampled section", name, SIDECAR_F_SAMPLED);
		goto fail;
	}
	if (v4_main_object_check(&r) < 0)
		goto fail;
	if (get64(buf + 24) != len) {
		set_err(err, errlen, "%s: bad file size %llu (the file has %zu bytes)",
			name, (unsigned long long)get64(buf + 24), len);
		goto fail;
	}
	if (r.threads_at && v4_threads(&r, r.threads_at, r.threads_len) < 0)
		goto fail;
	if (!r.seen_threads && (r.process_tables || !r.time_first)) {
		sidecar_threads_clear(r.sc);
	} else if (!r.seen_threads) {
		struct sidecar *sc = r.sc;
		uint32_t o = 0;

		for (uint32_t i = 0; i < sc->nr_thread_views; i++) {
			struct sidecar_thread *t = &sc->thread_views[i];

			thread_values_normalise(t);
			/* no thread had ended */
			if (!t->nr_values && !t->threads) {
				free(t->name);
				free(t->values);
				continue;
			}
			sc->thread_views[o++] = *t;
		}
		sc->nr_thread_views = o;
		if (o && threads_order(sc) < 0) {
			v4_oom(&r);
			goto fail;
		}
	}
	free(r.map);
	*out = r.sc;
	return 0;
fail:
	free(r.map);
	sidecar_free(r.sc);
	return -1;
}

int sidecar_decode(const void *data, size_t len, const char *name,
		   struct sidecar **out, char *err, size_t errlen)
{
	const unsigned char *buf = data;
	uint32_t version;

	*out = NULL;
	if (len < 8 && memcmp(buf, SIDECAR_MAGIC, len) == 0) {
		set_err(err, errlen, "%s: truncated header at byte %zu",
			name, len);
		return -1;
	}
	if (len < 8 || memcmp(buf, SIDECAR_MAGIC, 8) != 0) {
		set_err(err, errlen,
			"%s: bad magic (not a call-path sidecar)", name);
		return -1;
	}
	if (len < 12) {
		set_err(err, errlen, "%s: truncated header at byte %zu",
			name, len);
		return -1;
	}
	version = get32(buf + 8);
	if (version < SIDECAR_VERSION_MIN || version > SIDECAR_VERSION) {
		set_err(err, errlen,
			"%s: unsupported version %u (this reader knows %u to %u)",
			name, version, SIDECAR_VERSION_MIN, SIDECAR_VERSION);
		return -1;
	}
	if (version >= 4)
		return decode_v4(buf, len, name, out, err, errlen);
	return decode_v3(buf, len, version, name, out, err, errlen);
}

int sidecar_read(const char *path, struct sidecar **out, char *err, size_t errlen)
{
	unsigned char *buf;
	size_t len;
	int ret;

	*out = NULL;
	/* regular files only, read to their size (utils/infile.h) */
	if (infile_read_all(path, &buf, &len, err, errlen) < 0)
		return -1;
	ret = sidecar_decode(buf, len, path, out, err, errlen);
	free(buf);
	return ret;
}

/* `len` bytes at `off` of fd into buf: 0, or -1 (short: the file ended) */
static int pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = pread(fd, (char *)buf + got, len - got, (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

/* Version 4: the chain of section headers to the end of the file, and the
 * process and identity sections' payloads; no other section is read. */
static int read_head_v4(int fd, uint64_t size, const unsigned char *hdr, const char *path,
			struct sidecar **out, char *err, size_t errlen)
{
	struct v4_reader r = { .name = path, .err = err, .errlen = errlen };
	uint32_t hsize = get32(hdr + 12), nsect = get32(hdr + 20);
	uint64_t at = hsize;

	if (hsize < SIDECAR_V4_FILE_HDR || hsize % 8) {
		set_err(err, errlen, "%s: bad header size %u", path, hsize);
		return -1;
	}
	if (get64(hdr + 24) != size) {
		set_err(err, errlen, "%s: bad file size %llu (the file has %llu bytes)", path,
			(unsigned long long)get64(hdr + 24), (unsigned long long)size);
		return -1;
	}
	if (!(r.sc = sidecar_new()))
		return v4_oom(&r);
	r.sc->version = 4;
	r.sc->flags = get32(hdr + 16);
	for (uint32_t s = 0; s < nsect; s++) {
		unsigned char sh[SIDECAR_V4_SECT_HDR], *payload;
		uint32_t tag;
		uint64_t slen;
		int rc;

		if (size - at < SIDECAR_V4_SECT_HDR || pread_all(fd, sh, sizeof(sh), at) < 0) {
			set_err(err, errlen, "%s: truncated after %u of %u sections at byte %llu",
				path, s, nsect, (unsigned long long)size);
			goto fail;
		}
		tag = get32(sh);
		slen = get64(sh + 8);
		if (slen % 8 || slen > size - at - SIDECAR_V4_SECT_HDR) {
			set_err(err, errlen, "%s: bad section length at byte %llu", path,
				(unsigned long long)(at + 8));
			goto fail;
		}
		at += SIDECAR_V4_SECT_HDR;
		if ((tag == SIDECAR_SECT_PROCESS || tag == SIDECAR_SECT_IDENTITY) &&
		    !r.seen[tag]) {
			if (!(payload = malloc(slen ? slen : 1)))
				goto oom;
			if (pread_all(fd, payload, slen, at) < 0) {
				free(payload);
				set_err(err, errlen, "%s: truncated %s at byte %llu", path,
					sect_names[tag], (unsigned long long)size);
				goto fail;
			}
			r.buf = payload;
			r.len = slen;
			r.base = at;
			rc = tag == SIDECAR_SECT_PROCESS ? v4_process(&r, payload, slen)
							 : v4_identity(&r, payload, slen);
			free(payload);
			if (rc < 0)
				goto fail;
			r.seen[tag] = 1;
		}
		at += slen;
	}
	if (at != size) {
		set_err(err, errlen, "%s: trailing data at byte %llu", path, (unsigned long long)at);
		goto fail;
	}
	if (!r.seen[SIDECAR_SECT_PROCESS]) {
		set_err(err, errlen, "%s: no process section", path);
		goto fail;
	}
	*out = r.sc;
	return 0;
oom:
	v4_oom(&r);
fail:
	sidecar_free(r.sc);
	return -1;
}

int sidecar_read_head(const char *path, struct sidecar **out, char *err, size_t errlen)
{
	unsigned char hdr[SIDECAR_V4_FILE_HDR];
	uint64_t size;
	int fd, ret;

	*out = NULL;
	if ((fd = infile_open(path, &size, err, errlen)) < 0)
		return -1;
	if (size < sizeof(hdr) || pread_all(fd, hdr, sizeof(hdr), 0) < 0 ||
	    memcmp(hdr, SIDECAR_MAGIC, 8) != 0 || get32(hdr + 8) != 4) {
		/* too short, not a sidecar, or a version before sections:
		 * the whole reader says what it is */
		close(fd);
		return sidecar_read(path, out, err, errlen);
	}
	ret = read_head_v4(fd, size, hdr, path, out, err, errlen);
	close(fd);
	return ret;
}

int sidecar_belongs_to(const struct sidecar *sc, const char *gmon,
		       char *why, size_t whylen)
{
	uint64_t size, hash;
	struct stat st;

	if (!(sc->id.flags & SIDECAR_ID_HASHED))
		return 1;	/* nothing to compare: an older sidecar, a FIFO */
	if (stat(gmon, &st) != 0 || !S_ISREG(st.st_mode) ||
	    sidecar_hash_file(gmon, &size, &hash) != 0)
		return 1;	/* the gmon file's reader says what is wrong with it */
	if (size == sc->id.gmon_size && hash == sc->id.gmon_hash)
		return 1;
	set_err(why, whylen, "recorded with a gmon file of %llu bytes, hash %016llx, "
		"and '%s' has %llu bytes, hash %016llx",
		(unsigned long long)sc->id.gmon_size, (unsigned long long)sc->id.gmon_hash,
		gmon, (unsigned long long)size, (unsigned long long)hash);
	return 0;
}

int sidecar_name_for(const char *gmon_name, char *buf, size_t buflen)
{
	int n = snprintf(buf, buflen, "%s%s", gmon_name, SIDECAR_SUFFIX);

	if (n < 0 || (size_t)n >= buflen)
		return -1;
	return n;
}
