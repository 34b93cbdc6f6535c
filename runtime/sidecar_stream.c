/*
 * sidecar_stream.c - the sidecar's version-4 bytes, streamed from a signal
 * handler (sidecar_stream.h).  The layout's names and sizes are
 * format/sidecar_layout.h's, format/sidecar.c's encoder's too;
 * test_sidecar_stream compares the two writers byte for byte, so a change
 * to the fields one writes that the other misses fails there.
 */
#include "sidecar_stream.h"
#include "format/sidecar_layout.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "utils/banned.h"

uint64_t sidecar_stream_size(const struct sidecar *h,
			     const struct sidecar_stream_table *t, size_t nt)
{
	uint64_t n = sidecar_v4_head_size(h);

	for (size_t i = 0; i < nt; i++)
		n += sidecar_v4_table_size(h, t[i].count);
	return n;
}

/* ---- a buffered writer of little-endian fields ---- */

struct out {
	int fd;
	unsigned char *buf;
	size_t cap, len;
	int err;	/* first -errno */
};

static void flush(struct out *o)
{
	size_t off = 0;

	while (off < o->len && !o->err) {
		ssize_t n = write(o->fd, o->buf + off, o->len - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			o->err = -errno;
		} else if (n == 0) {
			o->err = -EIO;
		} else {
			off += (size_t)n;
		}
	}
	o->len = 0;
}

static void bytes(struct out *o, const void *p, size_t n)
{
	const unsigned char *s = p;

	while (n && !o->err) {
		size_t k = o->cap - o->len < n ? o->cap - o->len : n;

		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
		if (o->len == o->cap)
			flush(o);
	}
}

static void zeros(struct out *o, size_t n)
{
	static const unsigned char z[8];

	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);

		bytes(o, z, k);
		n -= k;
	}
}

static void u16(struct out *o, uint16_t v)
{
	unsigned char b[2] = { (unsigned char)v, (unsigned char)(v >> 8) };

	bytes(o, b, 2);
}

static void u32(struct out *o, uint32_t v)
{
	unsigned char b[4];

	for (int i = 0; i < 4; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	bytes(o, b, 4);
}

static void u64(struct out *o, uint64_t v)
{
	unsigned char b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	bytes(o, b, 8);
}

static void section(struct out *o, uint32_t tag, uint32_t flags, uint64_t len)
{
	u32(o, tag);
	u32(o, flags);
	u64(o, len);
}

/* the strings of a section, then zeros up to its padded length */
static void tail(struct out *o, uint64_t fixed, uint64_t padded,
		 const void *a, size_t al, const void *b, size_t bl,
		 const void *c, size_t cl)
{
	bytes(o, a, al);
	bytes(o, b, bl);
	bytes(o, c, cl);
	zeros(o, (size_t)(padded - fixed - al - bl - cl));
}

static void metric(struct out *o, const char *name, const char *unit,
		   uint32_t kind, uint32_t flags, uint64_t period, uint64_t unplaced)
{
	size_t nl = sidecar_v4_len16(name), ul = sidecar_v4_len16(unit);

	u32(o, kind);
	u32(o, flags);
	u64(o, period);
	u64(o, unplaced);
	u16(o, (uint16_t)nl);
	u16(o, (uint16_t)ul);
	u32(o, 0);
	tail(o, SIDECAR_V4_METRIC_FIXED, sidecar_v4_metric_size(name, unit), name, nl, unit, ul,
	     "", 0);
}

static void head(struct out *o, const struct sidecar *h, uint64_t file_size,
		 uint32_t nsections)
{
	size_t hl = sidecar_v4_text_len16(h->host, h->host_len);
	size_t el = sidecar_v4_text_len16(h->exe, h->exe_len);
	size_t gl = sidecar_v4_len16(h->id.gmon_name);
	uint32_t bl = sidecar_v4_bid_len(h->build_id_len), tflags = 0;

	bytes(o, SIDECAR_MAGIC, 8);
	u32(o, SIDECAR_VERSION);
	u32(o, SIDECAR_V4_FILE_HDR);
	u32(o, h->flags);
	u32(o, nsections);
	u64(o, file_size);

	section(o, SIDECAR_SECT_PROCESS, SIDECAR_SECT_REQUIRED, sidecar_v4_process_size(h));
	u64(o, h->pid);
	u64(o, h->ppid);
	u32(o, (uint32_t)h->rank);
	u32(o, h->depth);
	u32(o, h->failure);
	u32(o, h->threads);
	u64(o, h->load_address);
	u64(o, h->program_start);
	u64(o, h->program_end);
	u32(o, SIDECAR_DROP_NR);
	u16(o, (uint16_t)hl);
	u16(o, (uint16_t)el);
	u16(o, (uint16_t)bl);
	zeros(o, 6);
	for (int d = 0; d < SIDECAR_DROP_NR; d++)
		u64(o, h->dropped[d]);
	tail(o, SIDECAR_V4_PROCESS_FIXED + 8 * SIDECAR_DROP_NR, sidecar_v4_process_size(h),
	     h->host, hl, h->exe, el, h->build_id, bl);

	section(o, SIDECAR_SECT_IDENTITY, 0, sidecar_v4_identity_size(h));
	u32(o, h->id.flags);
	u32(o, h->id.snapshot);
	u64(o, h->id.gmon_size);
	u64(o, h->id.gmon_hash);
	u64(o, h->id.run_id);
	u64(o, h->id.time_ns);
	u16(o, (uint16_t)gl);
	zeros(o, 6);
	tail(o, SIDECAR_V4_IDENTITY_FIXED, sidecar_v4_identity_size(h), h->id.gmon_name, gl,
	     "", 0, "", 0);

	section(o, SIDECAR_SECT_METRICS, SIDECAR_SECT_REQUIRED, sidecar_v4_metrics_size(h));
	u32(o, 1 + h->nr_extra);
	u32(o, 0);
	if (!(h->sampling & SIDECAR_SAMPLING_SELF))
		tflags |= SIDECAR_METRIC_INACTIVE;
	if (h->sampling & SIDECAR_SAMPLING_STOPPED)
		tflags |= SIDECAR_METRIC_STOPPED;
	metric(o, sidecar_v4_time_name(h), SIDECAR_TIME_METRIC_UNIT,
	       SIDECAR_METRIC_CPU_SAMPLES, tflags, h->time_period, h->unplaced_samples);
	for (uint32_t i = 0; i < h->nr_extra; i++) {
		const struct sidecar_metric *m = &h->extra_metrics[i];

		metric(o, m->name, m->unit, m->kind, m->flags, m->period, m->unplaced);
	}

	section(o, SIDECAR_SECT_OBJECTS, 0, sidecar_v4_objects_size(h));
	u32(o, h->nr_objects);
	u32(o, 0);
	for (uint32_t i = 0; i < h->nr_objects; i++) {
		const struct sidecar_object *ob = &h->objects[i];
		size_t pl = sidecar_v4_len16(ob->path);
		uint32_t ol = sidecar_v4_bid_len(ob->build_id_len);

		u64(o, ob->start);
		u64(o, ob->end);
		u64(o, ob->bias);
		u32(o, ob->flags);
		u16(o, (uint16_t)pl);
		u16(o, (uint16_t)ol);
		tail(o, SIDECAR_V4_OBJECT_FIXED, sidecar_v4_object_size(ob), ob->path, pl,
		     ob->build_id, ol, "", 0);
	}

	section(o, SIDECAR_SECT_SAMPLING, 0, sidecar_v4_sampling_size(h));
	u32(o, 1 + h->nr_extra);
	u32(o, 0);
	u64(o, h->time_taken);
	for (uint32_t i = 0; i < h->nr_extra; i++)
		u64(o, h->extra_metrics[i].taken);

	if (h->process_cpu.valid) {
		section(o, SIDECAR_SECT_CPU, 0, SIDECAR_V4_CPU_SIZE);
		u32(o, 1);
		zeros(o, 4);
		u64(o, h->process_cpu.user_ns);
		u64(o, h->process_cpu.sys_ns);
	}

	if (sidecar_v4_has_unwind(h)) {
		section(o, SIDECAR_SECT_UNWIND, SIDECAR_SECT_REQUIRED, sidecar_v4_unwind_size(h));
		u32(o, SIDECAR_UNWIND_END_NR);
		u32(o, h->unwind.max_frames);
		u64(o, h->unwind.walked);
		for (int i = 0; i < SIDECAR_UNWIND_END_NR; i++)
			u64(o, h->unwind.ends[i]);
	}
}

static void put_le64(unsigned char *p, uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &v, 8);
#else
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
#endif
}

/* one record (40 bytes + 8 per metric) at p */
static void put_node(unsigned char *p, const struct sidecar_node *n,
		     const uint64_t *extra, uint32_t nr_extra)
{
	put_le64(p, (uint64_t)n->parent | (uint64_t)n->flags << 32);
	put_le64(p + 8, n->call_site);
	put_le64(p + 16, n->callee);
	put_le64(p + 24, n->count);
	put_le64(p + 32, n->recursive);
	put_le64(p + 40, n->self_samples);
	for (uint32_t m = 0; m < nr_extra; m++)
		put_le64(p + 48 + 8 * m, extra[m]);
}

int sidecar_stream_write(int fd, const struct sidecar *h,
			 const struct sidecar_stream_table *t, size_t nt,
			 unsigned char *buf, size_t buflen)
{
	struct out o = { fd, buf, buflen, 0, 0 };
	uint64_t extra[SIDECAR_METRICS_MAX];
	size_t nsize = sidecar_v4_node_size(h);
	int saved = errno;

	if (buflen < 64 || h->nr_extra + 1 > SIDECAR_METRICS_MAX)
		return -EINVAL;
	head(&o, h, sidecar_stream_size(h, t, nt),
	     sidecar_v4_sections_before_nodes(h) + !!h->process_cpu.valid + (uint32_t)nt);
	for (size_t k = 0; k < nt && !o.err; k++) {
		section(&o, SIDECAR_SECT_NODES, SIDECAR_SECT_REQUIRED,
			sidecar_v4_table_size(h, t[k].count) - SIDECAR_V4_SECT_HDR);
		u32(&o, (uint32_t)nsize);
		u32(&o, 1 + h->nr_extra);
		u64(&o, t[k].count);
		u32(&o, t[k].kind);
		u32(&o, t[k].threads);
		u64(&o, t[k].tid);
		for (uint64_t i = 0; i < t[k].count && !o.err; i++) {
			struct sidecar_node n;

			memset(&n, 0, sizeof(n));
			/* a source that fills fewer values writes zeros, not stack */
			memset(extra, 0, 8 * (size_t)h->nr_extra);
			if (t[k].get(t[k].ctx, i, &n, extra) < 0) {
				o.err = -EIO;
				break;
			}
			if (o.cap - o.len >= nsize) {
				/* the common case: the record fits, put in place */
				put_node(o.buf + o.len, &n, extra, h->nr_extra);
				o.len += nsize;
				if (o.len == o.cap)
					flush(&o);
				continue;
			}
			u32(&o, n.parent);
			u32(&o, n.flags);
			u64(&o, n.call_site);
			u64(&o, n.callee);
			u64(&o, n.count);
			u64(&o, n.recursive);
			u64(&o, n.self_samples);
			for (uint32_t m = 0; m < h->nr_extra; m++)
				u64(&o, extra[m]);
		}
	}
	if (!o.err)
		flush(&o);
	errno = saved;
	return o.err;
}
