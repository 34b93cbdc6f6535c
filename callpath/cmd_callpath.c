/*
 * cmd_callpath.c - the call-path features wired to the front end: find the
 * sidecars beside the gmon operands, check they belong to the image, name
 * them through the profile and print or write what the options ask for.
 */
#include "callpath/cmd_callpath.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callpath/buildid.h"
#include "callpath/arcs.h"
#include "callpath/folded.h"
#include "callpath/pathdiff.h"
#include "callpath/report.h"
#include "callpath/sidecar.h"
#include "callpath/stale.h"
#include "callpath/sum.h"
#include "diff/diff.h"
#include "diff/profile.h"
#include "gprof-ext/options.h"
#include "export/callpath_export.h"
#include "gprof-ext/upstream.h"
#include "utils/error.h"
#include "utils/banned.h"

/*
 * Name the sidecar through the profile, after checking that it belongs to
 * the image (build-id) and to the gmon files (callpath/stale.h): a stale
 * sidecar is refused, naming both files.
 */
static int model_of(const struct sidecar *sc, const char *source,
		    const struct profile *p, const struct callpath_symopts *so,
		    struct callpath_model **m)
{
	char why[1024];
	int stale;

	if (sidecar_check_build_id(sc, source, p->binary) < 0 ||
	    callpath_model_build(sc, p, so, m) < 0)
		return -1;
	stale = callpath_stale_check(*m, sc, p, why, sizeof(why));
	if (stale < 0)
		return -1;
	if (stale)
		return error("%s: does not match '%s' (%s): a sidecar left from "
			     "another run?", source,
			     p->ngmon ? p->gmon_files[0] : "gmon.out", why);
	return 0;
}

/* Sidecars beside every gmon file, summed; an error when some lack one. */
static int load_sidecar(const char *explicit_file, char *const *gmons, size_t n,
			struct sidecar **out, char *source, size_t source_len)
{
	char err[4096];
	size_t missing;

	if (explicit_file) {
		snprintf(source, source_len, "%s", explicit_file);
		if (sidecar_read(explicit_file, out, err, sizeof(err)) < 0)
			return error("%s", err);
		return 0;
	}
	if (callpath_sum_read(gmons, n, out, &missing) < 0)
		return -1;
	if (missing != n) {
		char name[4096];

		if (sidecar_name_for(gmons[missing], name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "%s", SIDECAR_SUFFIX);
		if (!*out)
			return error("%s: %s (run the program with "
				     "libcallpath to record call paths)",
				     name, strerror(ENOENT));
		sidecar_free(*out);
		*out = NULL;
		return error("%s: %s (the other gmon files have "
			     "call-path sidecars)", name, strerror(ENOENT));
	}
	if (n == 1)
		snprintf(source, source_len, "%s%s", gmons[0], SIDECAR_SUFFIX);
	else
		snprintf(source, source_len, "%s%s and %zu more", gmons[0],
			 SIDECAR_SUFFIX, n - 1);
	return 0;
}

/* The sidecar has time samples: the runtime chained the profiling timer. */
static int check_samples(const struct callpath_model *m, const char *source,
			 const char *output)
{
	if (m->sampling & SIDECAR_SAMPLING_SELF)
		return 0;
	return error("%s: cannot write: '%s' has no time samples (written by an "
		     "older runtime, or the program ran without the profiling "
		     "timer); --folded-calls writes call counts", output, source);
}

int callpath_cmd_gprof(const struct egprof_opts *o, const struct profile *p)
{
	struct callpath_symopts so = { 0, 0, upstream_addr_to_line };
	struct sidecar *sc = NULL;
	struct callpath_model *m = NULL;
	struct folded *ft = NULL, *fc = NULL;
	char source[4200];
	int ret = 1;

	if (!o->callpath && !o->folded_path && !o->folded_calls_path)
		return 0;
	upstream_line_options(&so.lines, &so.full_paths);
	/* p->binary is the image upstream read (a.out without operands),
	 * p->gmon_files the gmon files (gmon.out without any): cmd_gprof.c. */
	if (load_sidecar(o->callpath_file, p->gmon_files, p->ngmon, &sc, source,
			 sizeof(source)) < 0 ||
	    model_of(sc, source, p, &so, &m) < 0)
		goto out;
	if (o->folded_path && check_samples(m, source, o->folded_path) < 0)
		goto out;
	if (o->callpath && o->format != TABLE_TEXT) {
		if (callpath_export(stdout, (enum table_format)o->format, m, source) < 0)
			goto out;
	} else if (o->callpath) {
		fflush(stdout);
		if (callpath_report_print(stdout, m, source) < 0)
			goto out;
		fflush(stdout);
	}
	/* both built before either is written: all outputs or none */
	if ((o->folded_path && folded_build(m, FOLDED_SAMPLES, &ft) < 0) ||
	    (o->folded_calls_path && folded_build(m, FOLDED_CALLS, &fc) < 0))
		goto out;
	if ((ft && folded_save(o->outs, o->folded_path, ft) < 0) ||
	    (fc && folded_save(o->outs, o->folded_calls_path, fc) < 0))
		goto out;
	ret = 0;
out:
	folded_free(ft);
	folded_free(fc);
	callpath_model_free(m);
	sidecar_free(sc);
	return ret;
}

/* One side of a diff: its paths by calls, and by time when it has samples. */
struct side_paths {
	struct folded *calls;
	struct folded *time;	/* NULL without samples */
	double hz;
};

static void side_paths_release(struct side_paths *sp)
{
	folded_free(sp->calls);
	folded_free(sp->time);
}

/* One side's folded stacks; sp->calls NULL when it has no sidecars. */
static int side_folded(const struct callpath_side *s, int required,
		       struct side_paths *sp)
{
	char *const *gmons = s->gmon_files ? s->gmon_files : s->p->gmon_files;
	size_t n = s->gmon_files ? s->ngmon : s->p->ngmon, missing;
	struct callpath_symopts so = { 0, 0, NULL };	/* names only */
	struct callpath_model *m = NULL;
	struct sidecar *sc = NULL;
	char source[4200];
	int ret = -1;

	if (s->model && *s->model) {
		m = *s->model;
		goto build;
	}
	if (!required) {
		/* only look: a side without sidecars turns the feature off */
		if (callpath_sum_read(gmons, n, &sc, &missing) < 0)
			return -1;
		if (!sc || missing != n) {
			sidecar_free(sc);
			return 0;
		}
		snprintf(source, sizeof(source), "%s%s", n ? gmons[0] : "?",
			 SIDECAR_SUFFIX);
	} else if (load_sidecar(NULL, gmons, n, &sc, source, sizeof(source)) < 0) {
		return -1;
	}
	if (model_of(sc, source, s->p, &so, &m) < 0)
		goto out;
	if (s->model)
		*s->model = m;
build:
	if (folded_build(m, FOLDED_CALLS_GPROF, &sp->calls) < 0)
		goto out;
	sp->hz = m->hz;
	if ((m->sampling & SIDECAR_SAMPLING_SELF) &&
	    folded_build(m, FOLDED_SAMPLES, &sp->time) < 0)
		goto out;
	ret = 0;
out:
	if (!s->model || *s->model != m)
		callpath_model_free(m);
	sidecar_free(sc);
	return ret;
}

int callpath_cmd_diff(const struct egprof_opts *o, const struct callpath_side *a,
		      const struct callpath_side *b)
{
	struct side_paths sa = { NULL, NULL, 0 }, sb = { NULL, NULL, 0 };
	struct pathdiff *d = NULL, *dt = NULL;
	const char *la = a->label ? a->label : "A", *lb = b->label ? b->label : "B";
	int ret = 1;

	if (!o->callpath && !o->folded_path && !o->folded_calls_path && !o->extended)
		return 0;
	if (side_folded(a, o->callpath, &sa) < 0 || side_folded(b, o->callpath, &sb) < 0)
		goto out;
	if (!sa.calls || !sb.calls) {
		if (o->folded_path)
			warning("not writing '%s': both profiles need call-path "
				"sidecars", o->folded_path);
		if (o->folded_calls_path)
			warning("not writing '%s': both profiles need call-path "
				"sidecars", o->folded_calls_path);
		ret = 0;
		goto out;
	}
	if (pathdiff_compute(sa.calls, sb.calls, &d) < 0 ||
	    (sa.time && sb.time && pathdiff_compute(sa.time, sb.time, &dt) < 0))
		goto out;
	if (o->folded_path && !dt) {
		error("%s: cannot write: both profiles' call-path sidecars need time "
		      "samples; --folded-calls writes call counts", o->folded_path);
		goto out;
	}
	if (o->callpath || o->extended) {
		struct pathdiff_time_opts to = { sa.hz, sb.hz, o->noise_sigmas, 0 };

		fflush(stdout);
		if (dt && pathdiff_print_time(stdout, dt, la, lb, &to) < 0)
			goto out;
		if (pathdiff_print(stdout, d, la, lb, o->noise_sigmas) < 0)
			goto out;
		fflush(stdout);
	}
	if ((o->folded_path && folded_save_diff(o->outs, o->folded_path, dt) < 0) ||
	    (o->folded_calls_path && folded_save_diff(o->outs, o->folded_calls_path, d) < 0))
		goto out;
	ret = 0;
out:
	pathdiff_free(d);
	pathdiff_free(dt);
	side_paths_release(&sa);
	side_paths_release(&sb);
	return ret;
}

/* One side's calls per function name (names borrowed from m). */
static int model_calls(const struct callpath_model *m, uint64_t **counts)
{
	*counts = calloc(m->nr_names ? m->nr_names : 1, sizeof(**counts));
	if (!*counts)
		return error("out of memory");
	for (uint32_t i = 0; i < m->nr_frames; i++)
		(*counts)[m->frames[i].attributed] += m->frames[i].count +
						      m->frames[i].recursive;
	return 0;
}

/* One side's sidecars named through its profile; *m NULL without them. */
static int side_model(const struct callpath_side *s, struct callpath_model **m)
{
	char *const *gmons = s->gmon_files ? s->gmon_files : s->p->gmon_files;
	size_t n = s->gmon_files ? s->ngmon : s->p->ngmon, missing = n;
	struct callpath_symopts so = { 0, 0, NULL };	/* names only */
	struct sidecar *sc = NULL;
	char source[4200];
	int ret;

	*m = NULL;
	if (s->model && *s->model) {
		*m = *s->model;
		return 0;
	}
	if (callpath_sum_read(gmons, n, &sc, &missing) < 0)
		return -1;
	if (!sc || missing != n) {
		sidecar_free(sc);
		return 0;
	}
	snprintf(source, sizeof(source), "%s%s", n ? gmons[0] : "gmon.out", SIDECAR_SUFFIX);
	ret = model_of(sc, source, s->p, &so, m);
	sidecar_free(sc);
	if (ret < 0) {
		callpath_model_free(*m);
		*m = NULL;
	} else if (s->model) {
		*s->model = *m;
	}
	return ret;
}

/* A model from side_model(), given back: freed unless the side keeps it. */
static void side_model_release(const struct callpath_side *s, struct callpath_model *m)
{
	if (!s->model)
		callpath_model_free(m);
}

int callpath_exact_calls_load(const struct callpath_side *a,
			      const struct callpath_side *b, struct diff *d)
{
	struct callpath_model *m[2] = { NULL, NULL };
	uint64_t *counts[2] = { NULL, NULL };
	int ret = 1;

	if (side_model(a, &m[0]) < 0 || (m[0] && side_model(b, &m[1]) < 0))
		goto out;
	if (!m[0] || !m[1]) {
		ret = 0;	/* gmon's counts, with their tolerance */
		goto out;
	}
	for (int s = 0; s < 2; s++)
		if (model_calls(m[s], &counts[s]) < 0)
			goto out;
	for (int s = 0; s < 2; s++)
		diff_set_exact_calls(d, s, m[s]->names, counts[s], m[s]->nr_names);
	ret = 0;
out:
	for (int s = 0; s < 2; s++)
		free(counts[s]);
	side_model_release(a, m[0]);
	side_model_release(b, m[1]);
	return ret;
}

static double graph_arc_seconds(const void *ctx, int side, const char *caller,
				const char *callee)
{
	const struct callpath_graph_times *t = ctx;
	const struct callpath_arc *a;

	if (!t->arcs[side])
		return 0.0;
	a = callpath_arcs_find(t->arcs[side], caller, callee);
	return a ? callpath_arc_seconds(t->arcs[side], a) : 0.0;
}

int callpath_graph_times_load(const struct egprof_opts *o,
			      const struct callpath_side *sides, int nsides,
			      struct callpath_graph_times *t)
{
	memset(t, 0, sizeof(*t));
	t->gm.arc_seconds = graph_arc_seconds;
	t->gm.ctx = t;
	if (!o->gml_path && !o->dot_path && !o->graphml_path)
		return 0;
	for (int i = 0; i < nsides && i < 2; i++) {
		struct callpath_model *m = NULL;
		int bad;

		if (nsides == 1 && o->callpath_file) {
			struct callpath_symopts so = { 0, 0, NULL };	/* names only */
			struct sidecar *sc = NULL;
			char err[4200];

			if (sidecar_read(o->callpath_file, &sc, err, sizeof(err)) < 0) {
				error("%s", err);
				return 1;
			}
			bad = model_of(sc, o->callpath_file, sides[i].p, &so, &m) < 0;
			sidecar_free(sc);
			if (bad)
				return 1;
		} else if (side_model(&sides[i], &m) < 0) {
			return 1;
		}
		if (!m)		/* no sidecars: gprof's numbers */
			continue;
		bad = callpath_arcs_build(m, &t->arcs[i]) < 0;
		if (nsides == 1 && o->callpath_file)
			callpath_model_free(m);
		else
			side_model_release(&sides[i], m);
		if (bad)
			return 1;
		t->gm.timed[i] = t->arcs[i]->timed;
	}
	return 0;
}

void callpath_graph_times_release(struct callpath_graph_times *t)
{
	callpath_arcs_free(t->arcs[0]);
	callpath_arcs_free(t->arcs[1]);
	t->arcs[0] = t->arcs[1] = NULL;
}
