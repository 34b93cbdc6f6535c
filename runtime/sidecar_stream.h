/*
 * sidecar_stream.h - the sidecar written from a signal handler: the bytes
 * of format/sidecar.c's encoder, streamed to a file descriptor from node
 * sources read in place, with no malloc, no stdio and no locks.
 *
 * The runtime's exit writer sums every thread's tree into a struct sidecar
 * (malloc) and encodes it.  A profile written when the process is killed,
 * or a snapshot taken while it runs, cannot allocate: the interrupted code
 * may hold the allocator's lock.  The format allows several node tables
 * that a reader sums (doc/dev/sidecar-format.md, "Several tables"), so this
 * encoder writes one table per source (a live thread's tree, the retired
 * tree) straight from the runtime's node pools.
 *
 * `head` gives every field but the nodes (its nodes, if any, are ignored):
 * header flags, process section, identity, metrics, objects, built once in
 * normal context.  Each table announces its record count first (the file's
 * size and each table's length precede the records), then yields exactly
 * that many records, parents before children, `parent` an index into the
 * same table.  With one table of kind SIDECAR_NODES_PROCESS and
 * head->threads threads yielding a sidecar's nodes in order, the bytes are
 * sidecar_encode()'s exactly (test_sidecar_stream checks it).
 *
 * Async-signal-safe: write(2) only (partial writes and EINTR retried,
 * errno kept), into the caller's buffer (any size >= 64 bytes).
 */
#ifndef CALLPATH_RUNTIME_SIDECAR_STREAM_H
#define CALLPATH_RUNTIME_SIDECAR_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "format/sidecar.h"
#include "format/sidecar_layout.h"

struct sidecar_stream_table {
	uint32_t kind;		/* SIDECAR_NODES_* (format/sidecar_layout.h) */
	uint32_t threads;	/* thread trees in this table */
	uint64_t tid;		/* the thread's id for a thread's table, else 0 */
	uint64_t count;		/* records it yields, exactly */
	/*
	 * Record i (0, 1, ... count - 1) in *n (self_samples the time metric)
	 * and, when the head has extra metrics, head->nr_extra values in
	 * extra[].  0, or -1 to abandon the file.
	 */
	int (*get)(void *ctx, uint64_t i, struct sidecar_node *n, uint64_t *extra);
	void *ctx;
};

/* Bytes the file will have. */
uint64_t sidecar_stream_size(const struct sidecar *head,
			     const struct sidecar_stream_table *tables, size_t ntables);

/*
 * Write the file into `fd` at its offset.  0, or -errno (-EINVAL: a buffer
 * under 64 bytes or more than SIDECAR_METRICS_MAX metrics; a source's -1 is
 * -EIO): the file is then partly written, and the caller removes it.
 */
int sidecar_stream_write(int fd, const struct sidecar *head,
			 const struct sidecar_stream_table *tables, size_t ntables,
			 unsigned char *buf, size_t buflen);

#endif
