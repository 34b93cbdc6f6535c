/*
 * run.c - one run, loaded once (model/run.h).
 */
#include "model/run.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "format/buildid.h"
#include "model/metric.h"
#include "model/callpath_model.h"
#include "format/sidecar.h"
#include "model/stale.h"
#include "model/sum.h"
#include "diff/profile.h"
#include "gprof-ext/gmon_check.h"
#include "gprof-ext/input_check.h"
#include "gprof-ext/operands.h"
#include "gprof-ext/upstream.h"
#include "model/lines.h"
#include "model/measured.h"
#include "model/paths.h"
#include "utils/error.h"
#include "utils/banned.h"

void run_init(struct run *r, const char *binary, const char *operand)
{
	memset(r, 0, sizeof(*r));
	r->binary = binary;
	r->operand = operand;
}

/* One model's names through nm, in place (callpath_model_shorten copies). */
static int shorten_model(struct callpath_model **m, struct name_map *nm)
{
	struct callpath_model *sh;

	if (!*m)
		return 0;
	if (callpath_model_shorten(*m, nm, &sh) < 0)
		return -1;
	callpath_model_free(*m);
	*m = sh;
	return 0;
}

int run_shorten_names(struct run *r, struct name_map *nm)
{
	if (r->gmon && profile_shorten_names(r->gmon, nm) < 0)
		return -1;
	for (size_t i = 0; i < r->neach; i++)
		if (profile_shorten_names(r->gmon_each[i], nm) < 0)
			return -1;
	if (shorten_model(&r->paths, nm) < 0)
		return -1;
	for (size_t i = 0; r->paths_each && i < r->nfiles; i++)
		if (shorten_model(&r->paths_each[i], nm) < 0)
			return -1;
	return 0;
}

void run_release(struct run *r)
{
	struct upstream_job *jobs[2] = { r->job_sum, r->job_each };

	/* a failed start leaves loaders running: collect them */
	for (int k = 0; k < 2; k++) {
		struct profile **p;
		size_t n;

		if (jobs[k] && upstream_load_finish(jobs[k], &p, &n) == 0) {
			for (size_t i = 0; i < n; i++)
				profile_free(p[i]);
			free(p);
		}
	}
	profile_free(r->gmon);
	for (size_t i = 0; i < r->neach; i++)
		profile_free(r->gmon_each[i]);
	free(r->gmon_each);
	callpath_model_free(r->paths);
	line_pcs_free(r->pcs);
	sidecar_free(r->sidecar);
	for (size_t i = 0; r->paths_each && i < r->nfiles; i++)
		callpath_model_free(r->paths_each[i]);
	free(r->paths_each);
	free(r->paths_source);
	operands_free(r->files, r->nfiles);
	free(r->rank);
	free(r->label);
	memset(r, 0, sizeof(*r));
}

/* ------------------------------------------------------------------------ */
/* gmon.out, through upstream's loaders                                      */

static int check_readable(const char *path)
{
	if (access(path, R_OK) != 0)
		return error("%s: %s", path, strerror(errno));
	return input_check(path, INPUT_IMAGE);
}

static char *run_label(const struct run *r)
{
	size_t n = strlen(r->binary) + strlen(r->operand) + 64;
	char *out = malloc(n);

	if (!out)
		return NULL;
	if (r->is_dir)
		snprintf(out, n, "%s %s (%zu gmon files)", r->binary, r->operand, r->nfiles);
	else
		snprintf(out, n, "%s %s", r->binary, r->operand);
	return out;
}

static int start(struct run *r, const struct run_load_opts *o, char *const *files, size_t n,
		 int each, int jobs, struct upstream_job **job)
{
	struct upstream_load req;

	memset(&req, 0, sizeof(req));
	req.argv0 = o->argv0;
	req.gprof_args = o->gprof_args;
	req.nargs = o->nargs;
	req.binary = r->binary;
	req.gmon_files = files;
	req.ngmon = n;
	req.each = each;
	req.jobs = jobs > 0 ? jobs : 1;
	req.force = o->force;
	req.clones = o->clones;
	/* read_paths reads every sidecar beside the files and checks its
	 * build-id (not those beside the files when --callpath names one) */
	req.sidecars_checked = !o->sidecar;
	return upstream_load_start(&req, job);
}

/* Whether a and b name one file (a path given twice, or two names of it). */
static int same_file(const char *a, const char *b)
{
	struct stat x, y;

	if (strcmp(a, b) == 0)
		return 1;
	return stat(a, &x) == 0 && stat(b, &y) == 0 &&
	       x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/*
 * Both runs one gmon file of the same binary: one loader serves both,
 * reading and indexing the binary's symbols once and forking a worker per
 * gmon file (the adapter's `each` mode), instead of two loaders doing the
 * same work twice.
 */
static int may_share(const struct run *a, const struct run *b)
{
	return !a->is_dir && a->nfiles == 1 && same_file(a->binary, b->binary);
}

static int shares_loader(const struct run *a, const struct run *b)
{
	return may_share(a, b) && !b->is_dir && b->nfiles == 1;
}

/* The shared loader's two profiles, one to each run. */
static int finish_shared(struct run *a, struct run *b)
{
	struct profile **p;
	size_t n, i;
	int ret;

	ret = upstream_load_finish(a->job_sum, &p, &n);
	a->job_sum = NULL;
	if (ret < 0)
		return -1;
	if (n != 2) {
		for (i = 0; i < n; i++)
			profile_free(p[i]);
		free(p);
		return -1;
	}
	a->gmon = p[0];
	b->gmon = p[1];
	free(p);
	return 0;
}

/*
 * Upstream silently gives nothing for a gmon file of another program: its
 * samples and arcs fall outside every function.  Refuse that, naming the
 * files.
 */
static int check_belongs(const struct run *r, const struct profile *p)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	double assigned = 0;
	int any_calls = 0;
	size_t i;

	for (i = 0; i < p->nsyms; i++) {
		const struct profile_sym *y = &p->syms[i];

		if (y->flags & PSYM_CYCLE)
			continue;
		if (y->addr < lo)
			lo = y->addr;
		if (y->end_addr > hi)
			hi = y->end_addr;
		assigned += y->self_ticks;
		any_calls |= y->ncalls != 0;
	}
	if ((p->input & PROFILE_HAS_HIST) && p->hist_highpc > p->hist_lowpc &&
	    (p->hist_highpc <= lo || p->hist_lowpc >= hi))
		return error("%s: does not belong to '%s': its histogram covers "
			     "0x%llx-0x%llx, the binary's functions 0x%llx-0x%llx",
			     r->operand, r->binary, (unsigned long long)p->hist_lowpc,
			     (unsigned long long)p->hist_highpc, (unsigned long long)lo,
			     (unsigned long long)hi);
	if ((p->input & PROFILE_HAS_HIST) && p->total_ticks > 0 && assigned == 0)
		return error("%s: does not belong to '%s': none of its %.0f samples "
			     "falls in a function of the binary",
			     r->operand, r->binary, p->total_ticks);
	/* after -k the arcs left say nothing of the file's: its raw arcs
	 * were checked before upstream read it (gprof-ext/gmon_owner.h) */
	if ((p->input & PROFILE_HAS_CG) && !(p->input & PROFILE_ARCS_FILTERED) &&
	    p->narcs == 0 && !any_calls)
		return error("%s: does not belong to '%s': none of its calls "
			     "connects two functions of the binary", r->operand, r->binary);
	return 0;
}

static int finish(struct run *r)
{
	int ret = 0;

	if (r->job_sum) {
		struct profile **p = NULL;
		size_t n = 0;

		/* the adapter names the file that failed */
		if (upstream_load_finish(r->job_sum, &p, &n) < 0 || n != 1) {
			for (size_t i = 0; i < n; i++)
				profile_free(p[i]);
			ret = -1;
		} else {
			r->gmon = p[0];
		}
		free(p);
		r->job_sum = NULL;
	}
	if (r->job_each) {
		if (upstream_load_finish(r->job_each, &r->gmon_each, &r->neach) < 0)
			ret = -1;
		r->job_each = NULL;
	}
	if (ret == 0 && check_belongs(r, r->gmon) < 0)
		ret = -1;
	return ret;
}

/* The run's operand checked and expanded, and its label. */
static int prepare(struct run *r)
{
	if (check_readable(r->binary) < 0 ||
	    gmon_operand_expand(r->operand, &r->files, &r->nfiles) < 0)
		return -1;
	r->is_dir = gmon_operand_is_dir(r->operand);
	for (size_t f = 0; f < r->nfiles; f++)
		if (gmon_check(r->files[f], GMON_CHECK_STRICT) < 0)
			return -1;
	if (!(r->label = run_label(r)))
		return error("out of memory");
	return 0;
}

/* ------------------------------------------------------------------------ */
/* The sidecars, each read once                                              */

/*
 * Does gprof demangle this profile's names (its default; not with
 * --no-demangle or -T)?  Its print names say: the first C++ symbol's is
 * demangled or not.  Without C++ symbols, as gprof's default.
 */
static int profile_demangles(const struct profile *p)
{
	for (size_t i = 0; i < p->nsyms; i++) {
		const struct profile_sym *s = &p->syms[i];

		if (s->name && s->print_name && !strncmp(s->name, "_Z", 2))
			return strcmp(s->name, s->print_name) != 0;
	}
	return 1;
}

static struct callpath_symopts symopts_of(const struct profile *gmon, int lines,
					  const char *metric)
{
	struct callpath_symopts so = { 0, 0, NULL, NULL, metric, NULL };

	if (lines) {
		upstream_line_options(&so.lines, &so.full_paths);
		so.addr_to_line = upstream_addr_to_line;
	}
	if (profile_demangles(gmon))
		so.demangle = upstream_demangle;
	so.inlines = upstream_addr_inlines;	/* used for sampled paths only */
	return so;
}

struct callpath_symopts run_symopts(const struct run *r, int lines, const char *metric)
{
	return symopts_of(r->gmon, lines, metric);
}

/* The gmon file's own message when its sidecar's build-id is another
 * build's (the loader's owner check left the sidecars to us: start). */
static int foreign_sidecar(const char *gmon, const char *binary)
{
	if (gmon)
		error("%s: does not belong to '%s': its sidecar records another build-id (a "
		      "profile of another program or another build; --force reads it anyway)",
		      gmon, binary);
	return -2;
}

/*
 * One sidecar named through the run's symbols, after checking that it
 * belongs to its gmon file (when there is one) and to the image
 * (build-id).  A sidecar without identity (versions 1 to 3) gets the
 * counts' hint as a warning only, when it is the run's one file.
 */
static int read_decoded(struct sidecar *sc, const char *binary, const struct profile *gp,
			size_t nfiles, const char *path, const char *gmon, int force,
			const struct callpath_symopts *so, struct callpath_model **m, int *rank,
			uint64_t *time_ns, struct sidecar **keep, struct line_pcs *pcs);

static int read_one(const char *binary, const struct profile *gp, size_t nfiles,
		    const char *path, const char *gmon, int force,
		    const struct callpath_symopts *so, struct callpath_model **m, int *rank,
		    uint64_t *time_ns, struct sidecar **keep, struct line_pcs *pcs)
{
	struct sidecar *sc = NULL;
	char err[4200];

	*m = NULL;
	if (sidecar_read(path, &sc, err, sizeof(err)) < 0)
		return error("%s", err);
	return read_decoded(sc, binary, gp, nfiles, path, gmon, force, so, m, rank, time_ns, keep,
			    pcs);
}

/* read_one's work once `sc` (the caller's, freed here unless kept) was
 * read from `path` */
static int read_decoded(struct sidecar *sc, const char *binary, const struct profile *gp,
			size_t nfiles, const char *path, const char *gmon, int force,
			const struct callpath_symopts *so, struct callpath_model **m, int *rank,
			uint64_t *time_ns, struct sidecar **keep, struct line_pcs *pcs)
{
	char why[1024];
	int stale = 0, k, ret = -1;

	*m = NULL;
	if (rank)
		*rank = sc->rank;
	if (time_ns)
		*time_ns = sc->id.time_ns;
	if (gmon && callpath_pair_check(sc, path, gmon, force) < 0)
		goto out;
	/* a metric the sidecar lacks, named by the sidecar's path */
	if (so->metric && callpath_metric_find(sc, so->metric, path, &k) < 0)
		goto out;
	if (sidecar_check_build_id(sc, path, binary) < 0) {
		foreign_sidecar(gmon, binary);
		goto out;
	}
	if (callpath_model_build(sc, gp, so, m) < 0)
		goto out;
	/* the same read gives the source lines their program counters */
	if (pcs && line_pcs_add(pcs, sc) < 0)
		goto out;
	if ((*m)->saturated)
		warning("%s: %s", path, CALLPATH_SATURATED);
	if (!(sc->id.flags & SIDECAR_ID_HASHED) && nfiles <= 1 &&
	    (stale = callpath_stale_check(*m, sc, gp, why, sizeof(why))) < 0)
		goto out;
	if (stale)
		warning("%s: may be left from another run beside '%s' (%s); it is "
			"read, but a sidecar of this version cannot tell", path,
			gmon ? gmon : "gmon.out", why);
	ret = 0;
	if (keep) {
		*keep = sc;	/* the caller's now */
		sc = NULL;
	}
out:
	if (ret < 0) {
		callpath_model_free(*m);
		*m = NULL;
	}
	sidecar_free(sc);
	return ret;
}

/* The run's sum of its sidecars themselves (opts.keep_sidecars): `sc`,
 * read from `path`, added to it (and freed).  0, or -1 after reporting. */
static int keep_sidecar(struct run *r, struct sidecar *sc, const char *path,
			const char *first)
{
	char err[4200];
	int k;

	if (!r->sidecar) {
		r->sidecar = sc;
		return 0;
	}
	k = sidecar_merge(r->sidecar, sc, err, sizeof(err));
	sidecar_free(sc);
	if (k < 0)
		return error("%s: cannot sum with '%s': %s", path, first, err);
	if (k > 0)
		warning("%s: %s", path, SIDECAR_SATURATED);
	return 0;
}

/* The rank a sidecar records (-1 when unreadable), after its build-id
 * (the loader leaves it to us: start): -2 when another build wrote it. */
static int sidecar_rank(const char *binary, const char *gmon, const char *path, int force)
{
	struct sidecar *sc = NULL;
	char err[4200];
	int rank;

	if (sidecar_read(path, &sc, err, sizeof(err)) < 0)
		return -1;
	rank = sc->rank;
	if (!force && sidecar_check_build_id(sc, path, binary) < 0)
		rank = foreign_sidecar(gmon, binary);
	sidecar_free(sc);
	return rank;
}

/*
 * Every file's sidecar, read once: named, summed, each file's kept with
 * opts.each.  No sidecar beside a file: the run has no paths (an error
 * with opts.paths_required), but the files that have one still give
 * their ranks.
 */
static int read_paths(struct run *r, const struct run_load_opts *o)
{
	struct callpath_symopts so = run_symopts(r, o->lines, o->metric);
	char name[4096], first[4096];
	size_t missing = r->nfiles, any = 0;
	int ret = -1;

	if (!(r->rank = malloc((r->nfiles + 1) * sizeof(*r->rank))))
		return error("out of memory");
	if (o->line_pcs && !r->pcs && !(r->pcs = line_pcs_new()))
		return error("out of memory");
	for (size_t i = 0; i < r->nfiles; i++) {
		r->rank[i] = -1;
		if (sidecar_name_for(r->files[i], name, sizeof(name)) < 0)
			return error("%s: file name too long", r->files[i]);
		if (access(name, F_OK) != 0) {
			if (missing == r->nfiles)
				missing = i;
		} else {
			any++;
		}
	}
	if (o->sidecar) {
		/* --callpath=FILE: that sidecar, checked against the one gmon
		 * file when there is one */
		if (read_one(r->binary, r->gmon, r->nfiles, o->sidecar,
			     r->nfiles == 1 ? r->files[0] : NULL, o->force, &so, &r->paths, NULL,
			     NULL, o->keep_sidecars ? &r->sidecar : NULL, r->pcs) < 0)
			return -1;
		return (r->paths_source = strdup(o->sidecar)) ? 0 : error("out of memory");
	}
	if (missing < r->nfiles) {
		if (sidecar_name_for(r->files[missing], name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "%s", SIDECAR_SUFFIX);
		if (o->paths_required)
			return error("%s: %s (%s)", name, strerror(ENOENT), !any
				     ? "run the program with libcallpath to record call paths"
				     : "the other gmon files have call-path sidecars");
		/* no paths; the ranks of the files that have a sidecar */
		for (size_t i = 0; i < r->nfiles; i++)
			if (sidecar_name_for(r->files[i], name, sizeof(name)) >= 0 &&
			    access(name, F_OK) == 0 &&
			    (r->rank[i] = sidecar_rank(r->binary, r->files[i], name, o->force)) == -2)
				return -1;
		return 0;
	}
	if (o->each && r->nfiles > 1 &&
	    !(r->paths_each = calloc(r->nfiles, sizeof(*r->paths_each))))
		return error("out of memory");
	sidecar_name_for(r->files[0], first, sizeof(first));
	for (size_t i = 0; i < r->nfiles; i++) {
		struct callpath_model *m = NULL;
		struct sidecar *sc = NULL;

		sidecar_name_for(r->files[i], name, sizeof(name));
		if (read_one(r->binary, r->gmon, r->nfiles, name, r->files[i], o->force, &so, &m,
			     &r->rank[i], NULL, o->keep_sidecars ? &sc : NULL, r->pcs) < 0)
			goto out;
		if (sc && keep_sidecar(r, sc, name, first) < 0) {
			callpath_model_free(m);
			goto out;
		}
		if (!r->paths) {
			r->paths = m;
			if (r->paths_each && paths_copy(m, &r->paths) < 0) {
				callpath_model_free(m);
				goto out;
			}
		} else if (paths_merge(r->paths, m) < 0) {
			callpath_model_free(m);
			goto out;
		}
		if (r->paths_each)
			r->paths_each[i] = m;
		else if (m != r->paths)
			callpath_model_free(m);
	}
	if (r->nfiles == 1)
		snprintf(name, sizeof(name), "%s%s", r->files[0], SIDECAR_SUFFIX);
	else
		snprintf(name, sizeof(name), "%s%s and %zu more", r->files[0], SIDECAR_SUFFIX,
			 r->nfiles - 1);
	if (!(r->paths_source = strdup(name))) {
		error("out of memory");
		goto out;
	}
	ret = 0;
out:
	return ret;
}

int run_load(struct run *r, size_t n, const struct run_load_opts *o)
{
	size_t s;

	/* both runs' loaders at once (the first starts before the second's
	 * files are checked); a directory is also read file by file when
	 * the noise model needs the spread across its runs */
	for (s = 0; s < n; s++) {
		if (prepare(&r[s]) < 0)
			return -1;
		if (n == 2 && s == 0 && may_share(&r[0], &r[1]))
			continue; /* started with the second */
		if (n == 2 && s == 1 && may_share(&r[0], &r[1])) {
			if (shares_loader(&r[0], &r[1])) {
				char *files[2] = { r[0].files[0], r[1].files[0] };

				if (start(&r[0], o, files, 2, 1, 2, &r[0].job_sum) < 0)
					return -1;
				r[0].shared = 1;
				continue;
			}
			if (start(&r[0], o, r[0].files, r[0].nfiles, 0, 1, &r[0].job_sum) < 0)
				return -1;
		}
		if (start(&r[s], o, r[s].files, r[s].nfiles, 0, 1, &r[s].job_sum) < 0)
			return -1;
	}
	for (s = 0; s < n; s++)
		if (o->each && r[s].nfiles > 1 &&
		    start(&r[s], o, r[s].files, r[s].nfiles, 1, o->jobs, &r[s].job_each) < 0)
			return -1;
	if (n == 2 && r[0].shared) {
		if (finish_shared(&r[0], &r[1]) < 0 || check_belongs(&r[0], r[0].gmon) < 0 ||
		    check_belongs(&r[1], r[1].gmon) < 0)
			return -1;
		for (s = 0; s < n; s++)
			if (r[s].job_each && finish(&r[s]) < 0)
				return -1;
	} else {
		int bad = 0;

		for (s = 0; s < n; s++)
			bad |= finish(&r[s]) < 0;
		if (bad)
			return -1;
	}
	for (s = 0; s < n; s++)
		if (read_paths(&r[s], o) < 0)
			return -1;
	return 0;
}

int run_adopt(struct run *r, struct profile *p, const struct run_load_opts *o)
{
	r->gmon = p;
	r->nfiles = p->ngmon;
	if (!(r->files = calloc(p->ngmon + 1, sizeof(*r->files))))
		return error("out of memory");
	for (size_t i = 0; i < p->ngmon; i++)
		if (!(r->files[i] = strdup(p->gmon_files[i])))
			return error("out of memory");
	if (!(r->label = strdup(r->binary)))
		return error("out of memory");
	return read_paths(r, o);
}

int run_paths_timed(const struct run *r)
{
	/* a sidecar whose timer never placed a sample (a run shorter than a
	 * tick, gmon files rewritten after the run) measured nothing: its
	 * gmon.out's histogram may still have */
	return r->paths && (r->paths->sampling & SIDECAR_SAMPLING_SELF) &&
	       r->paths->total_samples > 0;
}

int run_files_written(char *const *files, size_t n, uint64_t *written)
{
	for (size_t k = 0; k < n; k++) {
		char path[4096];
		struct sidecar *sc = NULL;

		written[k] = 0;
		if (sidecar_name_for(files[k], path, sizeof(path)) < 0 || access(path, F_OK) != 0 ||
		    sidecar_read(path, &sc, NULL, 0) < 0)
			continue;
		written[k] = sc->id.time_ns;
		sidecar_free(sc);
	}
	return 0;
}

int run_file_functions(const struct profile *gmon, const char *binary, const char *file,
		       const char *metric, int force, const struct profile *like,
		       struct run_file *out)
{
	struct callpath_symopts so = symopts_of(gmon, 0, metric);
	struct callpath_model *m = NULL;
	struct sidecar *sc = NULL;
	char name[4096];
	int ret;

	out->functions = NULL;
	out->written_ns = 0;
	out->where = TIME_WHERE_UNKNOWN;
	out->unreadable[0] = 0;
	if (sidecar_name_for(file, name, sizeof(name)) < 0)
		return error("%s: file name too long", file);
	if (access(name, F_OK) != 0)
		return 0;
	/* a damaged sidecar is the caller's to judge (--rank-stats reads
	 * every rank from gmon.out then) */
	if (sidecar_read(name, &sc, out->unreadable, sizeof(out->unreadable)) < 0) {
		if (!out->unreadable[0])
			snprintf(out->unreadable, sizeof(out->unreadable), "%s: cannot be read", name);
		return 0;
	}
	if (read_decoded(sc, binary, gmon, 1, name, file, force, &so, &m, NULL, &out->written_ns,
			 &sc, NULL) < 0)
		return -1;
	time_where_of(sc, &out->where);
	sidecar_free(sc);
	ret = measured_profile(m, gmon, like, &out->functions);
	callpath_model_free(m);
	return ret;
}

struct time_where run_file_where(const char *file)
{
	struct time_where w = TIME_WHERE_UNKNOWN;
	struct sidecar *sc = NULL;
	char name[4096];

	if (sidecar_name_for(file, name, sizeof(name)) < 0 || access(name, F_OK) != 0 ||
	    sidecar_read(name, &sc, NULL, 0) < 0)
		return w;
	/* another run's sidecar says nothing of this run */
	if (sidecar_belongs_to(sc, file, NULL, 0))
		time_where_of(sc, &w);
	sidecar_free(sc);
	return w;
}

int run_files_have_sidecars(char *const *files, size_t n)
{
	char name[4096];

	for (size_t i = 0; i < n; i++)
		if (sidecar_name_for(files[i], name, sizeof(name)) < 0 || access(name, F_OK) != 0)
			return 0;
	return n > 0;
}
