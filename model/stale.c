/*
 * stale.c - a hint from the counts that an old sidecar (no identity) is
 * left from another run (model/stale.h).
 */
#include "model/stale.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/callpath_model.h"
#include "format/sidecar.h"
#include "diff/profile.h"
#include "utils/error.h"
#include "utils/satmath.h"
#include "utils/banned.h"

int callpath_stale_check(struct callpath_model *m, const struct sidecar *sc,
			 const struct profile *p, char *why, size_t whylen)
{
	uint64_t *ours = NULL, *theirs = NULL, dropped = 0, worst_diff = 0;
	uint32_t *sym_name = NULL, external, worst = CALLPATH_NONE;
	int ret = 0;

	if (sc->threads != 1 || (sc->flags & SIDECAR_F_MERGED) ||
	    !(p->input & PROFILE_HAS_CG))
		return 0;
	for (int d = 0; d < SIDECAR_DROP_NR; d++)
		dropped = sat_add_u64(dropped, sc->dropped[d]);
	if (dropped)
		return 0;	/* the sidecar may count fewer: nothing to say */
	/* frames are named like gprof's symbols: compare by (interned) name */
	sym_name = malloc((p->nsyms + 1) * sizeof(*sym_name));
	if (!sym_name)
		goto oom;
	for (size_t i = 0; i < p->nsyms; i++) {
		sym_name[i] = callpath_model_intern(m, p->syms[i].print_name);
		if (sym_name[i] == CALLPATH_NONE)
			goto oom;
	}
	external = callpath_model_intern(m, "[external]");
	ours = calloc((size_t)m->nr_names + 1, sizeof(*ours));
	theirs = calloc((size_t)m->nr_names + 1, sizeof(*theirs));
	if (external == CALLPATH_NONE || !ours || !theirs)
		goto oom;
	for (uint32_t i = 0; i < m->nr_frames; i++) {
		const struct callpath_frame *f = &m->frames[i];

		/* gprof's attribution: it names no function gprof left out */
		if (f->site != external)
			ours[f->attributed] = sat_add_u64(ours[f->attributed],
							  sat_add_u64(f->count, f->recursive));
	}
	for (size_t i = 0; i < p->narcs; i++)
		theirs[sym_name[p->arcs[i].child]] =
			sat_add_u64(theirs[sym_name[p->arcs[i].child]], p->arcs[i].count);
	for (uint32_t k = 0; k < m->nr_names; k++) {
		/* more calls than gmon.out: the known reasons (stale.h) */
		if (ours[k] >= theirs[k] || m->names[k][0] == '[')
			continue;
		if (theirs[k] - ours[k] > worst_diff) {
			worst_diff = theirs[k] - ours[k];
			worst = k;
		}
	}
	if (worst != CALLPATH_NONE) {
		snprintf(why, whylen, "%s: %" PRIu64 " calls in the sidecar, %" PRIu64
			 " in the gmon file", m->names[worst], ours[worst], theirs[worst]);
		ret = 1;
	}
	goto out;
oom:
	ret = error("out of memory while checking call paths");
out:
	free(sym_name);
	free(ours);
	free(theirs);
	return ret;
}
