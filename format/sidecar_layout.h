/*
 * sidecar_layout.h - the byte layout of the sidecar's version 4, written
 * once for its two writers: format/sidecar.c's encoder (and reader) and
 * runtime/sidecar_stream.c, which streams the same bytes from a signal
 * handler.  doc/dev/sidecar-format.md has the layout; these are its names:
 * the fixed parts of the file, section and record headers, the section
 * tags, the node table kinds, and the size of each part of a struct
 * sidecar as encoded (functions a signal handler may call: they read the
 * struct and call strlen only).
 *
 * Version 4 is a 32-byte file header and tagged sections, each a 16-byte
 * header (tag, flags, payload length, a multiple of 8) and its payload:
 * process, identity, metrics, objects, sampling, the sampled paths' walks
 * (sampling mode only), then one or more node tables (a reader sums them).
 */
#ifndef CALLPATH_SIDECAR_LAYOUT_H
#define CALLPATH_SIDECAR_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "format/sidecar.h"

#define SIDECAR_V4_FILE_HDR 32u
#define SIDECAR_V4_SECT_HDR 16u
#define SIDECAR_V4_PROCESS_FIXED 72u	/* then dropped[], host, exe, build-id */
#define SIDECAR_V4_IDENTITY_FIXED 48u	/* then the gmon file name */
#define SIDECAR_V4_METRIC_FIXED 32u	/* per metric; then name and unit */
#define SIDECAR_V4_OBJECT_FIXED 32u	/* per object; then path and build-id */
#define SIDECAR_V4_NODES_FIXED 32u	/* then the records, SIDECAR_NODE_SIZE_V4 each */
#define SIDECAR_V4_UNWIND_FIXED 16u	/* then the walks' ends, 8 bytes each */
#define SIDECAR_V4_THREADS_FIXED 16u	/* then the threads */
#define SIDECAR_V4_THREAD_FIXED 32u	/* per thread; then its name and records */
#define SIDECAR_V4_THREAD_VALUES 1u	/* values per record written: the time samples */
#define SIDECAR_V4_THREAD_RECORD(nvalues) (16u + 8u * (nvalues))

enum sidecar_sect_tag {
	SIDECAR_SECT_PROCESS = 1,
	SIDECAR_SECT_IDENTITY = 2,
	SIDECAR_SECT_METRICS = 3,
	SIDECAR_SECT_OBJECTS = 4,
	SIDECAR_SECT_NODES = 5,
	SIDECAR_SECT_SAMPLING = 6,
	SIDECAR_SECT_CPU = 7,	/* optional, after sampling when known: the process's CPU time */
	/*
	 * Sampling mode (SIDECAR_F_SAMPLED): how the stacks were walked.
	 * Required: its node tables' counts are not calls, which a reader
	 * that does not know it would show as calls.
	 */
	SIDECAR_SECT_UNWIND = 8,
	/*
	 * Optional, after the one node table: per-thread values of its
	 * nodes (struct sidecar_thread).  Readers that do not know it keep
	 * the merged tree they always read.
	 */
	SIDECAR_SECT_THREADS = 9,
};
/* a reader that does not know the tag refuses the file */
#define SIDECAR_SECT_REQUIRED 1u
/* the writers' sections before the node tables: process, identity,
 * metrics, objects, sampling, and the walks' in sampling mode */
#define SIDECAR_V4_SECTIONS_BEFORE_NODES 5u

/* node table kinds */
enum sidecar_nodes_kind {
	SIDECAR_NODES_PROCESS = 0,	/* the whole process (or a sum) */
	SIDECAR_NODES_THREAD = 1,	/* one live thread's tree */
	SIDECAR_NODES_RETIRED = 2,	/* the merged trees of threads that ended */
};

static inline size_t sidecar_v4_pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* a string's length as recorded: 16 bits */
static inline size_t sidecar_v4_len16(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return n > UINT16_MAX ? UINT16_MAX : n;
}

/* host and exe as read, a NUL inside kept (len counts the bytes read;
 * the buffer holds len + 1), so that what decodes encodes the same */
static inline size_t sidecar_v4_text_len16(const char *s, uint32_t len)
{
	size_t n = sidecar_v4_len16(s);

	if (s && len > n)
		n = len > UINT16_MAX ? UINT16_MAX : len;
	return n;
}

static inline uint32_t sidecar_v4_bid_len(uint32_t n)
{
	return n > SIDECAR_BUILD_ID_MAX ? SIDECAR_BUILD_ID_MAX : n;
}

/* Metrics in the file: the time samples first, then the extra ones. */
static inline uint32_t sidecar_v4_nmetrics(const struct sidecar *sc)
{
	return 1 + sc->nr_extra;
}

/* the time metric's name (cpu-time, prof-timer) */
static inline const char *sidecar_v4_time_name(const struct sidecar *sc)
{
	return sc->time_name ? sc->time_name : SIDECAR_TIME_METRIC_NAME;
}

static inline size_t sidecar_v4_process_size(const struct sidecar *sc)
{
	return sidecar_v4_pad8(SIDECAR_V4_PROCESS_FIXED + 8 * SIDECAR_DROP_NR +
			       sidecar_v4_text_len16(sc->host, sc->host_len) +
			       sidecar_v4_text_len16(sc->exe, sc->exe_len) +
			       sidecar_v4_bid_len(sc->build_id_len));
}

static inline size_t sidecar_v4_identity_size(const struct sidecar *sc)
{
	return sidecar_v4_pad8(SIDECAR_V4_IDENTITY_FIXED + sidecar_v4_len16(sc->id.gmon_name));
}

static inline size_t sidecar_v4_metric_size(const char *name, const char *unit)
{
	return sidecar_v4_pad8(SIDECAR_V4_METRIC_FIXED + sidecar_v4_len16(name) +
			       sidecar_v4_len16(unit));
}

static inline size_t sidecar_v4_metrics_size(const struct sidecar *sc)
{
	size_t n = 8 + sidecar_v4_metric_size(sidecar_v4_time_name(sc), SIDECAR_TIME_METRIC_UNIT);

	for (uint32_t i = 0; i < sc->nr_extra; i++)
		n += sidecar_v4_metric_size(sc->extra_metrics[i].name, sc->extra_metrics[i].unit);
	return n;
}

static inline size_t sidecar_v4_object_size(const struct sidecar_object *o)
{
	return sidecar_v4_pad8(SIDECAR_V4_OBJECT_FIXED + sidecar_v4_len16(o->path) +
			       sidecar_v4_bid_len(o->build_id_len));
}

static inline size_t sidecar_v4_objects_size(const struct sidecar *sc)
{
	size_t n = 8;

	for (uint32_t i = 0; i < sc->nr_objects; i++)
		n += sidecar_v4_object_size(&sc->objects[i]);
	return n;
}

/* The sampling section: a count, then the samples taken of each metric. */
static inline size_t sidecar_v4_sampling_size(const struct sidecar *sc)
{
	return 8 + 8 * (size_t)sidecar_v4_nmetrics(sc);
}

/* Sampling mode's section: its presence, its size. */
static inline int sidecar_v4_has_unwind(const struct sidecar *sc)
{
	return (sc->flags & SIDECAR_F_SAMPLED) != 0;
}

static inline size_t sidecar_v4_unwind_size(const struct sidecar *sc)
{
	(void)sc;
	return SIDECAR_V4_UNWIND_FIXED + 8 * (size_t)SIDECAR_UNWIND_END_NR;
}

static inline uint32_t sidecar_v4_sections_before_nodes(const struct sidecar *sc)
{
	return SIDECAR_V4_SECTIONS_BEFORE_NODES + (sidecar_v4_has_unwind(sc) ? 1u : 0u);
}

/* The process CPU section (struct sidecar_process_cpu): flags, then user
 * and system ns; written only when known. */
#define SIDECAR_V4_CPU_SIZE 24u
static inline size_t sidecar_v4_cpu_size(const struct sidecar *sc)
{
	return sc->process_cpu.valid ? SIDECAR_V4_SECT_HDR + SIDECAR_V4_CPU_SIZE : 0;
}

static inline size_t sidecar_v4_node_size(const struct sidecar *sc)
{
	return SIDECAR_NODE_SIZE_V4(sidecar_v4_nmetrics(sc));
}

/* Everything before the first node table, section headers included. */
static inline size_t sidecar_v4_head_size(const struct sidecar *sc)
{
	return SIDECAR_V4_FILE_HDR + sidecar_v4_sections_before_nodes(sc) * SIDECAR_V4_SECT_HDR +
	       sidecar_v4_process_size(sc) + sidecar_v4_identity_size(sc) +
	       sidecar_v4_metrics_size(sc) + sidecar_v4_objects_size(sc) +
	       sidecar_v4_sampling_size(sc) + sidecar_v4_cpu_size(sc) +
	       (sidecar_v4_has_unwind(sc) ? sidecar_v4_unwind_size(sc) : 0);
}

/* One node table of `count` records. */
static inline size_t sidecar_v4_table_size(const struct sidecar *sc, uint64_t count)
{
	return SIDECAR_V4_SECT_HDR + SIDECAR_V4_NODES_FIXED +
	       (size_t)count * sidecar_v4_node_size(sc);
}

#endif
