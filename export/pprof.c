/*
 * profile.proto in memory and on the wire (pprof.h).  The wire format:
 * every field is a key, (field number << 3) | wire type, as a varint, then
 * a varint (type 0) or a varint length and that many bytes (type 2:
 * strings, nested messages, packed repeated numbers).  proto3 leaves out
 * fields equal to 0; repeated fields are written every time.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "export/pprof.h"
#include "utils/array.h"
#include "utils/error.h"
#include "utils/banned.h"

/* ------------------------------------------------------------------------ */
/* The wire format                                                           */

struct pb {
	unsigned char *data;
	size_t len, cap;
	int oom;
};

static void pb_raw(struct pb *b, const void *p, size_t n)
{
	if (b->oom || array_grow(&b->data, &b->cap, b->len + n, 1) < 0) {
		b->oom = 1;
		return;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void pb_varint(struct pb *b, uint64_t v)
{
	unsigned char *p;

	/* a deep sample's location list is millions of these: room for the
	 * longest varint is made once, not per byte */
	if (b->oom || (b->cap - b->len < 10 && array_grow(&b->data, &b->cap, b->len + 10, 1) < 0)) {
		b->oom = 1;
		return;
	}
	p = b->data + b->len;
	for (; v >= 0x80; v >>= 7)
		*p++ = (unsigned char)(v | 0x80);
	*p++ = (unsigned char)v;
	b->len = (size_t)(p - b->data);
}

static size_t varint_size(uint64_t v)
{
	size_t n = 1;

	for (; v >= 0x80; v >>= 7)
		n++;
	return n;
}

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

static void pb_key(struct pb *b, unsigned field, unsigned wire)
{
	pb_varint(b, (uint64_t)field << 3 | wire);
}

/* A number field, left out when 0 (proto3); int64s are written as their
 * two's complement, as profile.proto's int64 (not sint64) says. */
static void pb_u64(struct pb *b, unsigned field, uint64_t v)
{
	if (!v)
		return;
	pb_key(b, field, WIRE_VARINT);
	pb_varint(b, v);
}

static void pb_i64(struct pb *b, unsigned field, int64_t v)
{
	pb_u64(b, field, (uint64_t)v);
}

static void pb_bytes(struct pb *b, unsigned field, const void *p, size_t n)
{
	pb_key(b, field, WIRE_LEN);
	pb_varint(b, n);
	pb_raw(b, p, n);
}

/* A nested message: its bytes built in `sub` (then emptied). */
static void pb_message(struct pb *b, unsigned field, struct pb *sub)
{
	if (sub->oom)
		b->oom = 1;
	pb_bytes(b, field, sub->data, sub->len);
	sub->len = 0;
}

/* A packed repeated field of varints (written even when empty: a sample's
 * values are positional). */
static void pb_packed(struct pb *b, unsigned field, const uint64_t *v, size_t n,
		      struct pb *tmp)
{
	tmp->len = 0;
	for (size_t i = 0; i < n; i++)
		pb_varint(tmp, v[i]);
	if (tmp->oom)
		b->oom = 1;
	pb_bytes(b, field, tmp->data, tmp->len);
	tmp->len = 0;
}

/* ------------------------------------------------------------------------ */
/* The model                                                                 */

struct pp_mapping {
	uint64_t start, limit;
	int64_t file, build_id;
	int has_filenames, has_lines;
};

struct pp_function {
	int64_t name, system_name, file, start_line;
};

struct pp_location {
	uint64_t mapping, address, function;
	int64_t line;
};

/*
 * A stack is a node of a tree of locations: its innermost location and the
 * stack of its caller (prefixes shared), so that a calling-context tree of
 * n frames is n nodes whatever its depth; a sample's location list is
 * walked out of it as the profile is written.
 */
struct pp_stack {
	uint64_t loc;
	uint64_t up;          /* the caller's stack id, 0 for none */
};

struct pp_sample {
	uint64_t stack;       /* leaf's stack id (0: no location) */
	size_t val0;          /* into values[], ntypes of them */
	int64_t label_key, label_str; /* 0: none */
};

/* An interning table over one of the arrays: slots hold index + 1. */
struct intern {
	size_t *slots, nslots;
};

struct pprof {
	char **strings;
	size_t nstrings, alloc_strings;
	struct intern string_index;

	int64_t types[8][2];
	int ntypes;
	int default_type;       /* -1: none (written only when set) */
	int64_t period_type[2], period;
	int64_t *comments;
	size_t ncomments, alloc_comments;

	struct pp_mapping *mappings;
	size_t nmappings, alloc_mappings;
	struct pp_function *functions;
	size_t nfunctions, alloc_functions;
	struct intern function_index;
	struct pp_location *locations;
	size_t nlocations, alloc_locations;
	struct intern location_index;

	struct pp_stack *stacks;
	size_t nstacks, alloc_stacks;
	struct pp_sample *samples;
	size_t nsamples, alloc_samples;
	int64_t *values;
	size_t nvalues, alloc_values;

	int oom;
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 33);
}

static size_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (size_t)h;
}

static size_t string_hash_of(const void *ctx, size_t i)
{
	return str_hash(((const struct pprof *)ctx)->strings[i]);
}

static size_t function_hash(const struct pp_function *f)
{
	return (size_t)mix(mix(mix(mix(0, (uint64_t)f->name), (uint64_t)f->system_name),
			       (uint64_t)f->file), (uint64_t)f->start_line);
}

static size_t function_hash_of(const void *ctx, size_t i)
{
	return function_hash(&((const struct pprof *)ctx)->functions[i]);
}

static size_t location_hash(const struct pp_location *l)
{
	return (size_t)mix(mix(mix(mix(1, l->mapping), l->address), l->function),
			   (uint64_t)l->line);
}

static size_t location_hash_of(const void *ctx, size_t i)
{
	return location_hash(&((const struct pprof *)ctx)->locations[i]);
}

static int64_t intern_string(struct pprof *pp, const char *s)
{
	size_t h, j;
	char *copy;

	if (!s)
		s = "";
	if (pp->oom)
		return 0;
	if (2 * (pp->nstrings + 1) > pp->string_index.nslots &&
	    array_index_grow(&pp->string_index.slots, &pp->string_index.nslots, pp->nstrings,
			     string_hash_of, pp) < 0)
		goto oom;
	h = str_hash(s);
	for (j = h & (pp->string_index.nslots - 1); pp->string_index.slots[j];
	     j = (j + 1) & (pp->string_index.nslots - 1))
		if (!strcmp(pp->strings[pp->string_index.slots[j] - 1], s))
			return (int64_t)(pp->string_index.slots[j] - 1);
	if (array_grow(&pp->strings, &pp->alloc_strings, pp->nstrings + 1, sizeof(char *)) < 0 ||
	    !(copy = strdup(s)))
		goto oom;
	pp->strings[pp->nstrings] = copy;
	pp->string_index.slots[j] = ++pp->nstrings;
	return (int64_t)(pp->nstrings - 1);
oom:
	pp->oom = 1;
	return 0;
}

struct pprof *pprof_new(void)
{
	struct pprof *pp = calloc(1, sizeof(*pp));

	if (!pp)
		return NULL;
	intern_string(pp, "");	/* string_table[0] must be "" */
	pp->default_type = -1;
	if (pp->oom) {
		pprof_free(pp);
		return NULL;
	}
	return pp;
}

void pprof_free(struct pprof *pp)
{
	if (!pp)
		return;
	for (size_t i = 0; i < pp->nstrings; i++)
		free(pp->strings[i]);
	free(pp->strings);
	free(pp->string_index.slots);
	free(pp->comments);
	free(pp->mappings);
	free(pp->functions);
	free(pp->function_index.slots);
	free(pp->locations);
	free(pp->location_index.slots);
	free(pp->stacks);
	free(pp->samples);
	free(pp->values);
	free(pp);
}

int pprof_sample_type(struct pprof *pp, const char *type, const char *unit)
{
	if (pp->ntypes == (int)(sizeof(pp->types) / sizeof(pp->types[0])) || pp->nsamples) {
		pp->oom = 1; /* a programming error; reported as a failure */
		return 0;
	}
	pp->types[pp->ntypes][0] = intern_string(pp, type);
	pp->types[pp->ntypes][1] = intern_string(pp, unit);
	return pp->ntypes++;
}

void pprof_default_type(struct pprof *pp, int type)
{
	pp->default_type = type;
}

void pprof_period(struct pprof *pp, const char *type, const char *unit, int64_t period)
{
	pp->period_type[0] = intern_string(pp, type);
	pp->period_type[1] = intern_string(pp, unit);
	pp->period = period;
}

void pprof_comment(struct pprof *pp, const char *text)
{
	int64_t s = intern_string(pp, text);

	if (array_grow(&pp->comments, &pp->alloc_comments, pp->ncomments + 1,
		       sizeof(*pp->comments)) < 0) {
		pp->oom = 1;
		return;
	}
	pp->comments[pp->ncomments++] = s;
}

uint64_t pprof_mapping(struct pprof *pp, uint64_t start, uint64_t limit, const char *file,
		       const char *build_id, int has_filenames, int has_lines)
{
	struct pp_mapping m = { start, limit, intern_string(pp, file),
				intern_string(pp, build_id), has_filenames, has_lines };

	if (pp->oom || array_grow(&pp->mappings, &pp->alloc_mappings, pp->nmappings + 1,
				  sizeof(m)) < 0) {
		pp->oom = 1;
		return 0;
	}
	pp->mappings[pp->nmappings++] = m;
	return pp->nmappings;
}

uint64_t pprof_function(struct pprof *pp, const char *name, const char *system_name,
			const char *file, int64_t start_line)
{
	struct pp_function f = { intern_string(pp, name), intern_string(pp, system_name),
				 intern_string(pp, file), start_line };
	struct intern *ix = &pp->function_index;
	size_t j;

	if (pp->oom)
		return 0;
	if (2 * (pp->nfunctions + 1) > ix->nslots &&
	    array_index_grow(&ix->slots, &ix->nslots, pp->nfunctions, function_hash_of, pp) < 0)
		goto oom;
	for (j = function_hash(&f) & (ix->nslots - 1); ix->slots[j]; j = (j + 1) & (ix->nslots - 1))
		if (!memcmp(&pp->functions[ix->slots[j] - 1], &f, sizeof(f)))
			return ix->slots[j];
	if (array_grow(&pp->functions, &pp->alloc_functions, pp->nfunctions + 1, sizeof(f)) < 0)
		goto oom;
	pp->functions[pp->nfunctions] = f;
	ix->slots[j] = ++pp->nfunctions;
	return pp->nfunctions;
oom:
	pp->oom = 1;
	return 0;
}

uint64_t pprof_location(struct pprof *pp, uint64_t mapping, uint64_t address,
			uint64_t function, int64_t line)
{
	struct pp_location l = { mapping, address, function, line };
	struct intern *ix = &pp->location_index;
	size_t j;

	if (pp->oom)
		return 0;
	if (2 * (pp->nlocations + 1) > ix->nslots &&
	    array_index_grow(&ix->slots, &ix->nslots, pp->nlocations, location_hash_of, pp) < 0)
		goto oom;
	for (j = location_hash(&l) & (ix->nslots - 1); ix->slots[j]; j = (j + 1) & (ix->nslots - 1))
		if (!memcmp(&pp->locations[ix->slots[j] - 1], &l, sizeof(l)))
			return ix->slots[j];
	if (array_grow(&pp->locations, &pp->alloc_locations, pp->nlocations + 1, sizeof(l)) < 0)
		goto oom;
	pp->locations[pp->nlocations] = l;
	ix->slots[j] = ++pp->nlocations;
	return pp->nlocations;
oom:
	pp->oom = 1;
	return 0;
}

uint64_t pprof_stack(struct pprof *pp, uint64_t up, uint64_t loc)
{
	if (pp->oom || up > pp->nstacks ||
	    array_grow(&pp->stacks, &pp->alloc_stacks, pp->nstacks + 1, sizeof(*pp->stacks)) < 0) {
		pp->oom = 1;
		return 0;
	}
	pp->stacks[pp->nstacks] = (struct pp_stack){ loc, up };
	return ++pp->nstacks;
}

void pprof_sample_stack(struct pprof *pp, uint64_t stack, const int64_t *values,
			const char *label_key, const char *label_value)
{
	struct pp_sample s;
	int any = 0, t;

	for (t = 0; t < pp->ntypes; t++)
		any |= values[t] != 0;
	if (!any || pp->oom)
		return;
	if (stack > pp->nstacks) {
		pp->oom = 1; /* a programming error; reported as a failure */
		return;
	}
	s.stack = stack;
	s.val0 = pp->nvalues;
	s.label_key = label_key ? intern_string(pp, label_key) : 0;
	s.label_str = label_key ? intern_string(pp, label_value) : 0;
	if (array_grow(&pp->samples, &pp->alloc_samples, pp->nsamples + 1, sizeof(s)) < 0 ||
	    array_grow(&pp->values, &pp->alloc_values, pp->nvalues + (size_t)pp->ntypes,
		       sizeof(*values)) < 0) {
		pp->oom = 1;
		return;
	}
	memcpy(pp->values + pp->nvalues, values, (size_t)pp->ntypes * sizeof(*values));
	pp->nvalues += (size_t)pp->ntypes;
	pp->samples[pp->nsamples++] = s;
}

void pprof_sample(struct pprof *pp, const uint64_t *locs, size_t nlocs, const int64_t *values,
		  const char *label_key, const char *label_value)
{
	uint64_t stack = 0;
	int any = 0;

	for (int t = 0; t < pp->ntypes; t++)
		any |= values[t] != 0;
	if (!any)
		return;
	/* outermost first: each frame's caller is the one after it */
	for (size_t i = nlocs; i-- > 0;)
		stack = pprof_stack(pp, stack, locs[i]);
	pprof_sample_stack(pp, stack, values, label_key, label_value);
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                   */

/*
 * Where the encoded profile goes, a piece at a time: its samples' location
 * lists are as long as their paths, so a calling-context tree n deep
 * encodes to n^2/2 location ids, which are made as they are written and
 * never held whole (the gzipped file of a 100,000-deep recursion is a few
 * megabytes; its encoding 5 GB).
 */
struct sink {
	/* 0, or -1 (reported, except a write error: outfile_write names it) */
	int (*put)(void *ctx, const unsigned char *p, size_t n);
	void *ctx;
};

/* The top-level bytes are handed on once there are this many. */
#define SINK_CHUNK 65536

static int pb_drain(struct pb *b, const struct sink *out, int all)
{
	int ret = 0;

	if (b->oom || !b->len || (!all && b->len < SINK_CHUNK))
		return 0;
	ret = out->put(out->ctx, b->data, b->len);
	b->len = 0;
	return ret;
}

/*
 * A sample (field 2): its location ids, leaf first, walked out of its
 * stack into `locs`, then its values and label.  A long location list goes
 * to the sink as it is, not copied into the message.
 */
static int pb_sample(struct pb *b, const struct pprof *pp, const struct pp_sample *s,
		     struct pb *locs, struct pb *rest, struct pb *tmp, const struct sink *out)
{
	locs->len = 0;
	for (uint64_t id = s->stack; id; id = pp->stacks[id - 1].up)
		pb_varint(locs, pp->stacks[id - 1].loc);
	pb_packed(rest, 2, (const uint64_t *)(pp->values + s->val0), (size_t)pp->ntypes, tmp);
	if (s->label_key) {
		pb_i64(tmp, 1, s->label_key);
		pb_i64(tmp, 2, s->label_str);
		pb_message(rest, 3, tmp);
	}
	if (locs->oom || rest->oom) {
		b->oom = 1;
		return 0;
	}
	pb_key(b, 2, WIRE_LEN);
	pb_varint(b, 1 + varint_size(locs->len) + locs->len + rest->len);
	pb_key(b, 1, WIRE_LEN);
	pb_varint(b, locs->len);
	if (locs->len >= SINK_CHUNK) {
		if (pb_drain(b, out, 1) < 0 || (!b->oom && out->put(out->ctx, locs->data, locs->len) < 0))
			return -1;
	} else {
		pb_raw(b, locs->data, locs->len);
	}
	pb_raw(b, rest->data, rest->len);
	rest->len = 0;
	locs->len = 0;
	return 0;
}

static int encode(const struct pprof *pp, const struct sink *out)
{
	struct pb b = { NULL, 0, 0, 0 }, m = { NULL, 0, 0, 0 }, t = { NULL, 0, 0, 0 };
	struct pb v = { NULL, 0, 0, 0 };
	size_t i;
	int k, ret = 0;

	if (pp->oom)
		return error("out of memory while building the pprof profile");
	for (k = 0; k < pp->ntypes; k++) {
		pb_i64(&m, 1, pp->types[k][0]);
		pb_i64(&m, 2, pp->types[k][1]);
		pb_message(&b, 1, &m);
	}
	for (i = 0; i < pp->nsamples && ret == 0; i++)
		if ((ret = pb_sample(&b, pp, &pp->samples[i], &t, &m, &v, out)) == 0)
			ret = pb_drain(&b, out, 0);
	for (i = 0; i < pp->nmappings; i++) {
		const struct pp_mapping *mp = &pp->mappings[i];

		pb_u64(&m, 1, i + 1);
		pb_u64(&m, 2, mp->start);
		pb_u64(&m, 3, mp->limit);
		pb_i64(&m, 5, mp->file);
		pb_i64(&m, 6, mp->build_id);
		/* the names are ours: pprof must not symbolize again */
		pb_u64(&m, 7, 1);
		pb_u64(&m, 8, (uint64_t)mp->has_filenames);
		pb_u64(&m, 9, (uint64_t)mp->has_lines);
		pb_message(&b, 3, &m);
	}
	for (i = 0; i < pp->nlocations && ret == 0; i++) {
		const struct pp_location *l = &pp->locations[i];

		pb_u64(&m, 1, i + 1);
		pb_u64(&m, 2, l->mapping);
		pb_u64(&m, 3, l->address);
		pb_u64(&t, 1, l->function);
		pb_i64(&t, 2, l->line);
		pb_message(&m, 4, &t);
		pb_message(&b, 4, &m);
		ret = pb_drain(&b, out, 0);
	}
	for (i = 0; i < pp->nfunctions && ret == 0; i++) {
		const struct pp_function *f = &pp->functions[i];

		pb_u64(&m, 1, i + 1);
		pb_i64(&m, 2, f->name);
		pb_i64(&m, 3, f->system_name);
		pb_i64(&m, 4, f->file);
		pb_i64(&m, 5, f->start_line);
		pb_message(&b, 5, &m);
		ret = pb_drain(&b, out, 0);
	}
	for (i = 0; i < pp->nstrings && ret == 0; i++) {
		pb_bytes(&b, 6, pp->strings[i], strlen(pp->strings[i]));
		ret = pb_drain(&b, out, 0);
	}
	if (pp->period_type[0] || pp->period_type[1]) {
		pb_i64(&m, 1, pp->period_type[0]);
		pb_i64(&m, 2, pp->period_type[1]);
		pb_message(&b, 11, &m);
	}
	pb_i64(&b, 12, pp->period);
	for (i = 0; i < pp->ncomments; i++) {
		pb_key(&b, 13, WIRE_VARINT);
		pb_varint(&b, (uint64_t)pp->comments[i]);
	}
	if (pp->default_type >= 0 && pp->default_type < pp->ntypes)
		pb_i64(&b, 14, pp->types[pp->default_type][0]);
	if (ret == 0)
		ret = pb_drain(&b, out, 1);
	if (ret == 0 && (b.oom || m.oom || t.oom || v.oom))
		ret = error("out of memory while encoding the pprof profile");
	free(b.data);
	free(m.data);
	free(t.data);
	free(v.data);
	return ret;
}

/* The encoding in memory. */
static int put_mem(void *ctx, const unsigned char *p, size_t n)
{
	struct pb *mem = ctx;

	pb_raw(mem, p, n);
	return mem->oom ? error("out of memory while encoding the pprof profile") : 0;
}

int pprof_encode(const struct pprof *pp, unsigned char **buf, size_t *len)
{
	struct pb mem = { NULL, 0, 0, 0 };
	struct sink out = { put_mem, &mem };

	*buf = NULL;
	*len = 0;
	if (encode(pp, &out) < 0) {
		free(mem.data);
		return -1;
	}
	*buf = mem.data;
	*len = mem.len;
	return 0;
}

/* The encoding gzipped into a stream as it is made. */
struct gz_sink {
	z_stream z;
	FILE *fp;
};

/* Deflate what z holds with `flush`, writing out what comes of it. */
static int gz_run(struct gz_sink *g, int flush)
{
	unsigned char out[65536];
	int rc;

	do {
		size_t n;

		g->z.next_out = out;
		g->z.avail_out = sizeof(out);
		rc = deflate(&g->z, flush);
		if (rc == Z_STREAM_ERROR)
			return error("cannot compress the pprof profile");
		n = sizeof(out) - g->z.avail_out;
		if (n && fwrite(out, 1, n, g->fp) != n)
			return -1;
	} while (g->z.avail_out == 0);
	return 0;
}

static int put_gz(void *ctx, const unsigned char *p, size_t n)
{
	struct gz_sink *g = ctx;

	/* uInt is 32 bits: the input goes in pieces */
	while (n) {
		size_t chunk = n > 0x40000000u ? 0x40000000u : n;

		g->z.next_in = (unsigned char *)p;
		g->z.avail_in = (uInt)chunk;
		if (gz_run(g, Z_NO_FLUSH) < 0)
			return -1;
		p += chunk;
		n -= chunk;
	}
	return 0;
}

int pprof_write(FILE *fp, const struct pprof *pp)
{
	struct gz_sink g;
	struct sink out = { put_gz, &g };
	int ret;

	memset(&g, 0, sizeof(g));
	g.fp = fp;
	/* 15 + 16: a gzip header, as pprof's own files have (gzip -d reads them) */
	if (deflateInit2(&g.z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return error("out of memory while compressing the pprof profile");
	ret = encode(pp, &out);
	if (ret == 0)
		ret = gz_run(&g, Z_FINISH);
	deflateEnd(&g.z);
	return ret;
}
