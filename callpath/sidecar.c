/*
 * sidecar.c - read, write and merge call-path sidecars.
 *
 * All integers are little-endian on disk and read byte by byte, so a reader
 * on any host accepts a file from any host.  See doc/sidecar-format.md.
 */
#include "sidecar.h"

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
	if (!sc->host || !sc->exe) {
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
	free(sc->nodes);
	index_free(sc->index);
	free(sc);
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

static void hex(char *buf, size_t buflen, const unsigned char *id, uint32_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < len && k + 3 <= buflen; i++, k += 2)
		snprintf(buf + k, buflen - k, "%02x", id[i]);
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
	if (!dst->nr_nodes && !sidecar_folds_recursion(src))
		dst->flags |= SIDECAR_F_RECURSION_FULL;
	if (src->nr_nodes) {
		map = malloc((size_t)src->nr_nodes * sizeof(*map));
		if (!map) {
			set_err(err, errlen, "cannot merge sidecars: out of memory");
			goto out;
		}
	}
	/* parents precede children, so map[parent] is known in time */
	for (uint32_t i = 0; i < src->nr_nodes; i++) {
		const struct sidecar_node *n = &src->nodes[i];
		uint32_t parent = n->parent == SIDECAR_ROOT ? SIDECAR_ROOT
							    : map[n->parent];

		uint64_t site = n->call_site, callee = n->callee;

		/* only the program moves; 0 (external) stays 0 */
		if (src_range ? sidecar_in_program(src, site) : site != 0)
			site += shift;
		if (src_range ? sidecar_in_program(src, callee) : callee != 0)
			callee += shift;
		if (add_node(dst, parent, site, callee, n->count, &map[i], &sat) < 0) {
			set_err(err, errlen,
				"cannot merge sidecars: out of memory at node %u", i);
			goto out;
		}
		dst->nodes[map[i]].flags |= n->flags;
		sat_add_u64_flag(&dst->nodes[map[i]].recursive, n->recursive, &sat);
		sat_add_u64_flag(&dst->nodes[map[i]].self_samples, n->self_samples, &sat);
	}
	for (int d = 0; d < SIDECAR_DROP_NR; d++)
		sat_add_u64_flag(&dst->dropped[d], src->dropped[d], &sat);
	dst->threads = dst->threads > UINT32_MAX - src->threads ? UINT32_MAX
								 : dst->threads + src->threads;
	dst->flags |= src->flags & (SIDECAR_F_DEPTH_LIMITED | SIDECAR_F_MERGED |
				    SIDECAR_F_RECURSION_FULL);
	dst->sampling |= src->sampling;
	sat_add_u64_flag(&dst->unplaced_samples, src->unplaced_samples, &sat);
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

/* ---- encoding ---- */

static size_t str_len16(const char *s)
{
	size_t n = strlen(s);

	return n > UINT16_MAX ? UINT16_MAX : n;
}

static size_t header_size(const struct sidecar *sc)
{
	size_t n = HDR_FIXED + str_len16(sc->host) + str_len16(sc->exe) +
		   sc->build_id_len;

	return (n + 7) & ~(size_t)7;
}

size_t sidecar_encoded_size(const struct sidecar *sc)
{
	return header_size(sc) + (size_t)sc->nr_nodes * SIDECAR_NODE_SIZE_V3;
}

static void encode_nodes(const struct sidecar *sc, uint32_t first, uint32_t n,
			 unsigned char *p)
{
	for (uint32_t i = first; i < first + n; i++, p += SIDECAR_NODE_SIZE_V3) {
		const struct sidecar_node *node = &sc->nodes[i];

		put32(p, node->parent);
		put32(p + 4, node->flags);
		put64(p + 8, node->call_site);
		put64(p + 16, node->callee);
		put64(p + 24, node->count);
		put64(p + 32, node->recursive);
		put64(p + 40, node->self_samples);
	}
}

static void encode_header(const struct sidecar *sc, unsigned char *buf)
{
	size_t hsize = header_size(sc);
	size_t host_len = str_len16(sc->host), exe_len = str_len16(sc->exe);
	uint32_t bid_len = sc->build_id_len > SIDECAR_BUILD_ID_MAX
				   ? SIDECAR_BUILD_ID_MAX : sc->build_id_len;
	unsigned char *p;

	memset(buf, 0, hsize);
	memcpy(buf, SIDECAR_MAGIC, 8);
	put32(buf + 8, SIDECAR_VERSION);
	put32(buf + 12, (uint32_t)hsize);
	put32(buf + 16, SIDECAR_NODE_SIZE_V3);
	put32(buf + 20, sc->flags);
	put64(buf + 24, sc->nr_nodes);
	put64(buf + 32, sc->pid);
	put64(buf + 40, sc->ppid);
	put32(buf + 48, (uint32_t)sc->rank);
	put32(buf + 52, sc->depth);
	put32(buf + 56, sc->failure);
	put32(buf + 60, sc->threads);
	put64(buf + 64, sc->load_address);
	for (int d = 0; d < SIDECAR_DROP_NR; d++)
		put64(buf + 72 + 8 * d, sc->dropped[d]);
	put16(buf + 104, (uint16_t)host_len);
	put16(buf + 106, (uint16_t)exe_len);
	put16(buf + 108, (uint16_t)bid_len);
	put64(buf + 112, sc->program_start);
	put64(buf + 120, sc->program_end);
	put32(buf + 128, sc->sampling);
	put32(buf + 132, sc->unplaced_samples > UINT32_MAX ? UINT32_MAX
							   : (uint32_t)sc->unplaced_samples);
	p = buf + HDR_FIXED;
	memcpy(p, sc->host, host_len);
	p += host_len;
	memcpy(p, sc->exe, exe_len);
	p += exe_len;
	memcpy(p, sc->build_id, bid_len);
}

void sidecar_encode(const struct sidecar *sc, unsigned char *buf)
{
	encode_header(sc, buf);
	encode_nodes(sc, 0, sc->nr_nodes, buf + header_size(sc));
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
 * The one encoder both writers use: the header, then the nodes a chunk at a
 * time (a big tree is not copied whole at exit), each piece handed to put().
 * 0, or put()'s -1 (errno as it left it), or -1 with ENOMEM.
 */
static int write_encoded(const struct sidecar *sc,
			 int (*put)(void *ctx, const unsigned char *buf, size_t len),
			 void *ctx)
{
	size_t hsize = header_size(sc);
	size_t buflen = hsize > WRITE_CHUNK * SIDECAR_NODE_SIZE_V3
				? hsize : WRITE_CHUNK * SIDECAR_NODE_SIZE_V3;
	unsigned char *buf = malloc(buflen);
	int ret;

	if (!buf) {
		errno = ENOMEM;
		return -1;
	}
	encode_header(sc, buf);
	ret = put(ctx, buf, hsize);
	for (uint32_t i = 0; i < sc->nr_nodes && ret == 0; i += WRITE_CHUNK) {
		uint32_t n = sc->nr_nodes - i < WRITE_CHUNK ? sc->nr_nodes - i
							     : WRITE_CHUNK;

		encode_nodes(sc, i, n, buf);
		ret = put(ctx, buf, (size_t)n * SIDECAR_NODE_SIZE_V3);
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

int sidecar_write_atomic(const struct sidecar *sc, const char *path,
			 char *err, size_t errlen)
{
	size_t tmplen = strlen(path) + 16;
	char *tmp = malloc(tmplen);
	int fd = -1, ret = -1;

	if (!tmp) {
		set_err(err, errlen, "%s: cannot write: out of memory", path);
		goto out;
	}
	snprintf(tmp, tmplen, "%s.tmpXXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		set_err(err, errlen, "%s: cannot create: %s", tmp, strerror(errno));
		goto out;
	}
	if (write_encoded(sc, put_fd, &fd) < 0)
		goto write_error;
	/* mkstemp creates 0600; gmon.out is 0666 & ~umask, match it */
	{
		mode_t mask = umask(0);

		umask(mask);
		fchmod(fd, 0666 & ~mask);
	}
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

int sidecar_decode(const void *data, size_t len, const char *name,
		   struct sidecar **out, char *err, size_t errlen)
{
	const unsigned char *buf = data;
	struct sidecar *sc = NULL;
	uint32_t version, hsize, node_size, fixed, node_min;
	uint64_t nr_nodes;
	size_t host_len, exe_len, bid_len, table;

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
	sc->host = dup_bytes(buf + fixed, host_len);
	sc->exe = dup_bytes(buf + fixed + host_len, exe_len);
	if (!sc->host || !sc->exe)
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
		n->flags = version >= 3 ? get32(p + 4) : 0;	/* reserved before */
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

int sidecar_name_for(const char *gmon_name, char *buf, size_t buflen)
{
	int n = snprintf(buf, buflen, "%s%s", gmon_name, SIDECAR_SUFFIX);

	if (n < 0 || (size_t)n >= buflen)
		return -1;
	return n;
}
