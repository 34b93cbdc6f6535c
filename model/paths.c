/*
 * paths.c - calling-context trees of several files as one (model/paths.h).
 */
#include "model/paths.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/callpath_model.h"
#include "model/measured.h"
#include "utils/error.h"
#include "utils/satmath.h"
#include "utils/banned.h"

int paths_merge(struct callpath_model *into, const struct callpath_model *m)
{
	uint32_t *name = malloc(((size_t)m->nr_names + 1) * sizeof(*name));
	uint32_t *frame = malloc(((size_t)m->nr_frames + 1) * sizeof(*frame));
	int ret = -1;

	if (!name || !frame)
		goto out;
	for (uint32_t k = 0; k < m->nr_names; k++)
		if ((name[k] = callpath_model_intern(into, m->names[k])) == CALLPATH_NONE)
			goto out;
	/* parents come first in both models */
	for (uint32_t i = 0; i < m->nr_frames; i++) {
		const struct callpath_frame *f = &m->frames[i];
		struct callpath_frame *t;

		if (callpath_model_add(into, f->parent == CALLPATH_NONE ? CALLPATH_NONE
								   : frame[f->parent],
				       name[f->func], name[f->site], f->count, &frame[i]) < 0)
			goto out;
		callpath_model_add_samples(into, frame[i], f->samples);
		t = &into->frames[frame[i]];
		t->attributed = name[f->attributed];
		t->leaf = f->leaf;
		t->code = f->code;
		if (f->folded) {
			t->folded = 1;
			t->caller = f->caller == CALLPATH_NONE ? CALLPATH_NONE : name[f->caller];
			sat_add_u64_flag(&t->recursive, f->recursive, &into->saturated);
			sat_add_u64_flag(&into->total, f->recursive, &into->saturated);
		}
	}
	for (int c = 0; c < 4; c++)
		sat_add_u64_flag(&into->class_samples[c], m->class_samples[c], &into->saturated);
	sat_add_u64_flag(&into->unplaced_samples, m->unplaced_samples, &into->saturated);
	sat_add_u64_flag(&into->time_taken, m->time_taken, &into->saturated);
	into->sampling |= m->sampling;
	into->saturated |= m->saturated;
	/* a sum with a sampled run's paths holds calls some run never
	 * counted (a directory of sampled ranks: none of them) */
	into->calls_unmeasured |= m->calls_unmeasured;
	if (!(into->hz > 0))
		into->hz = m->hz;
	if (!into->metric.name[0] && m->metric.name[0])
		into->metric = m->metric;
	if (!into->time_name && m->time_name && !(into->time_name = strdup(m->time_name)))
		goto out;
	ret = 0;
out:
	free(name);
	free(frame);
	return ret < 0 ? error("out of memory while summing call paths") : 0;
}

int paths_copy(const struct callpath_model *m, struct callpath_model **out)
{
	struct callpath_model *c = callpath_model_new();

	*out = NULL;
	if (!c)
		return error("out of memory while summing call paths");
	c->hz = m->hz;
	c->metric = m->metric;
	if (paths_merge(c, m) < 0) {
		callpath_model_free(c);
		return -1;
	}
	*out = c;
	return 0;
}

int paths_as_functions(const struct callpath_model *m, const struct profile *gmon,
		       struct callpath_model **out, int *copied)
{
	struct callpath_model *c = NULL;
	uint32_t *frame = NULL, i;
	const char **fn = NULL;
	int ret = -1;

	*out = (struct callpath_model *)m;
	*copied = 0;
	if (measured_frame_functions(m, gmon, &fn) < 0)
		return -1;
	for (i = 0; i < m->nr_frames && !strcmp(fn[i], m->names[m->frames[i].func]); i++)
		;
	if (i == m->nr_frames) {
		free(fn);
		return 0;
	}
	if (!(c = callpath_model_new()) ||
	    !(frame = malloc(((size_t)m->nr_frames + 1) * sizeof(*frame))))
		goto out;
	c->hz = m->hz;
	c->metric = m->metric;
	c->sampling = m->sampling;
	c->calls_unmeasured = m->calls_unmeasured;
	c->unplaced_samples = m->unplaced_samples;
	c->time_taken = m->time_taken;
	c->saturated = m->saturated;
	memcpy(c->class_samples, m->class_samples, sizeof(c->class_samples));
	if (m->time_name && !(c->time_name = strdup(m->time_name)))
		goto out;
	for (i = 0; i < m->nr_frames; i++) {
		const struct callpath_frame *f = &m->frames[i];
		uint32_t parent = f->parent == CALLPATH_NONE ? CALLPATH_NONE : frame[f->parent];
		uint32_t fnx, site;
		struct callpath_frame *t;

		fnx = callpath_model_intern(c, fn[i]);
		site = callpath_model_intern(c, m->names[f->site]);
		if (fnx == CALLPATH_NONE || site == CALLPATH_NONE ||
		    callpath_model_add(c, parent, fnx, site, f->count, &frame[i]) < 0)
			goto out;
		t = &c->frames[frame[i]];
		sat_add_u64_flag(&t->samples, f->samples, &c->saturated);
		t->leaf = f->leaf;
		t->code = f->code;
		if (f->folded) {
			t->folded = 1;
			t->caller = f->caller == CALLPATH_NONE ? CALLPATH_NONE
				    : callpath_model_intern(c, m->names[f->caller]);
			sat_add_u64_flag(&t->recursive, f->recursive, &c->saturated);
			sat_add_u64_flag(&c->total, f->recursive, &c->saturated);
		}
	}
	c->total_samples = m->total_samples;
	if (callpath_model_threads_carry(c, m, frame, NULL) < 0)
		goto out;
	*out = c;
	*copied = 1;
	c = NULL;
	ret = 0;
out:
	callpath_model_free(c);
	free(frame);
	free(fn);
	return ret < 0 ? error("out of memory while naming call paths") : 0;
}
