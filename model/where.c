/*
 * Where a run's sampled time went (where.h), from its sidecar's leaves.
 */
#include <stdint.h>
#include <string.h>
#include "model/where.h"
#include "format/sidecar.h"
#include "utils/banned.h"

int time_where_of(const struct sidecar *sc, struct time_where *w)
{
	uint64_t lib = 0, instr = 0, all = 0;
	int leaves = 0, offk = -1;
	double period;

	*w = TIME_WHERE_UNKNOWN;
	if (!sc->time_period)
		return -1;
	/* CALLPATH_CLOCK=wall: the off-CPU samples are time too (MPI waits) */
	for (uint32_t k = 0; k < sc->nr_extra; k++)
		if (sc->extra_metrics[k].kind == SIDECAR_METRIC_WALL_SAMPLES &&
		    sc->extra_metrics[k].period == sc->time_period)
			offk = (int)k;
	for (uint32_t i = 0; i < sc->nr_nodes; i++) {
		const struct sidecar_node *n = &sc->nodes[i];
		uint64_t v = n->self_samples;
		const struct sidecar_object *o;
		const char *base;

		if (offk >= 0)
			v += sidecar_extra_value(sc, i, (uint32_t)offk);
		all += v;
		if (!sidecar_node_is_leaf(n))
			continue;
		leaves = 1;
		if (n->call_site == SIDECAR_LEAF_OVERHEAD) {
			instr += v;
			continue;
		}
		if ((sc->program_end && sidecar_in_program(sc, n->callee)) ||
		    !(o = sidecar_object_of(sc, n->callee)) || (o->flags & SIDECAR_OBJECT_MAIN))
			continue;
		base = strrchr(o->path, '/');
		base = base ? base + 1 : o->path;
		if (!strncmp(base, "libcallpath", 11))
			instr += v;
		else
			lib += v;
	}
	period = (double)sc->time_period / 1e9;
	if (!leaves)
		return -1;
	w->libraries = (double)lib * period;
	w->instrumentation = (double)instr * period;
	w->total = (double)all * period;
	return 0;
}
