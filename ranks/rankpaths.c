#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "format/sidecar.h"
#include "ranks/rankpaths.h"
#include "utils/array.h"
#include "utils/error.h"
#include "utils/satmath.h"
#include "utils/banned.h"

int rankpaths_syms_init(struct rankpaths_syms *syms, const struct profile *p)
{
	size_t i, n = 0;

	memset(syms, 0, sizeof(*syms));
	syms->lo = malloc((p->nsyms + 1) * sizeof(uint64_t));
	syms->hi = malloc((p->nsyms + 1) * sizeof(uint64_t));
	syms->names = calloc(p->nsyms + 1, sizeof(char *));
	if (!syms->lo || !syms->hi || !syms->names)
		goto oom;
	/* syms[] ascend by address (diff/profile.h); cycles come last */
	for (i = 0; i < p->nsyms; i++) {
		const struct profile_sym *s = &p->syms[i];

		if (s->flags & PSYM_CYCLE)
			continue;
		syms->lo[n] = s->addr;
		syms->hi[n] = s->end_addr > s->addr ? s->end_addr : s->addr + 1;
		if (!(syms->names[n] = strdup(s->print_name ? s->print_name : s->name)))
			goto oom;
		syms->n = ++n;
	}
	return 0;
oom:
	rankpaths_syms_release(syms);
	return error("out of memory");
}

void rankpaths_syms_release(struct rankpaths_syms *syms)
{
	size_t i;

	for (i = 0; syms->names && i < syms->n; i++)
		free(syms->names[i]);
	free(syms->names);
	free(syms->lo);
	free(syms->hi);
	memset(syms, 0, sizeof(*syms));
}

/* The function holding link-time address a, or NULL. */
static const char *name_at(const struct rankpaths_syms *syms, uint64_t a)
{
	size_t lo = 0, hi = syms->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (syms->lo[mid] <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && a < syms->hi[lo - 1] ? syms->names[lo - 1] : NULL;
}

struct path_count {
	char *path;
	uint64_t on_max, on_min;
};

struct paths {
	struct path_count *v;
	size_t n, cap;
};

static const char *node_name(const struct sidecar *sc, const struct rankpaths_syms *syms,
			     uint32_t i)
{
	uint64_t a = sc->nodes[i].callee;

	/* run-time to link-time: PIE programs load at sc->load_address */
	if (!sc->program_end || sidecar_in_program(sc, a))
		a -= sc->load_address;
	return name_at(syms, a);
}

/* "main>sweep>smooth>f" for node i; NULL when out of memory. */
static char *path_of(const struct sidecar *sc, const struct rankpaths_syms *syms, uint32_t i)
{
	char *s = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&s, &len);
	uint32_t chain[256], depth = 0, k;

	if (!mem)
		return NULL;
	for (k = i; k != SIDECAR_ROOT && depth < 256; k = sc->nodes[k].parent)
		chain[depth++] = k;
	if (depth == 256)
		fputs("...>", mem);
	while (depth--) {
		const char *name = node_name(sc, syms, chain[depth]);

		fprintf(mem, "%s%s", name ? name : "?", depth ? ">" : "");
	}
	if (fclose(mem) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

/* Add the calls of every path ending in `fn` of sidecar `file`'s tree to
 * the max (which == 0) or min (which == 1) column. */
static int collect(struct paths *ps, const char *gmon, const struct rankpaths_syms *syms,
		   const char *fn, int which)
{
	char path[4096], err[512];
	struct sidecar *sc;
	uint32_t i;
	int ret = 0;

	if (sidecar_name_for(gmon, path, sizeof(path)) < 0 ||
	    sidecar_read(path, &sc, err, sizeof(err)) < 0)
		return 0; /* no sidecar: no paths */
	if (!sidecar_belongs_to(sc, gmon, err, sizeof(err))) {
		sidecar_free(sc);	/* another run's: diff/ranks.c warned */
		return 0;
	}
	for (i = 0; i < sc->nr_nodes && ret == 0; i++) {
		const char *name = node_name(sc, syms, i);
		char *p;
		size_t k;

		if (!name || strcmp(name, fn) != 0 || !sc->nodes[i].count)
			continue;
		if (!(p = path_of(sc, syms, i))) {
			ret = error("out of memory");
			break;
		}
		for (k = 0; k < ps->n && strcmp(ps->v[k].path, p); k++)
			;
		if (k == ps->n) {
			if (array_grow(&ps->v, &ps->cap, ps->n + 1, sizeof(*ps->v)) < 0) {
				free(p);
				ret = error("out of memory");
				break;
			}
			memset(&ps->v[k], 0, sizeof(ps->v[k]));
			ps->v[k].path = p;
			ps->n++;
		} else {
			free(p);
		}
		if (which == 0)
			ps->v[k].on_max = sat_add_u64(ps->v[k].on_max, sc->nodes[i].count);
		else
			ps->v[k].on_min = sat_add_u64(ps->v[k].on_min, sc->nodes[i].count);
	}
	sidecar_free(sc);
	return ret;
}

/*
 * A path's gap, on_max - on_min, as a sign and a magnitude: the counts go
 * up to 2^64 - 1, and their difference as an int64_t was wrong beyond
 * 2^63 (a large gap sorted as a negative one).  -1 when a's gap is the
 * larger.
 */
static int cmp_gaps(const struct path_count *a, const struct path_count *b)
{
	int na = a->on_min > a->on_max, nb = b->on_min > b->on_max;
	uint64_t ma = na ? a->on_min - a->on_max : a->on_max - a->on_min;
	uint64_t mb = nb ? b->on_min - b->on_max : b->on_max - b->on_min;

	if (na != nb)
		return na ? 1 : -1;
	if (ma == mb)
		return 0;
	return (ma > mb) != na ? -1 : 1;
}

static int cmp_gap(const void *pa, const void *pb)
{
	const struct path_count *a = pa, *b = pb;
	int c = cmp_gaps(a, b);

	if (c)
		return c;
	if (a->on_max != b->on_max)
		return a->on_max > b->on_max ? -1 : 1;
	return strcmp(a->path, b->path);
}

int rankpaths_fill(struct rankstats *rs, char *const *files,
		   const struct rankpaths_syms *syms, size_t items)
{
	size_t *idx, n, i, k;
	int ret = 0;

	if (rankstats_imbalanced(rs, &idx, &n) < 0)
		return error("out of memory");
	for (i = 0; i < n && i < items && ret == 0; i++) {
		struct rankstats_fn *f = &rs->fns[idx[i]];
		struct paths ps = { NULL, 0, 0 };

		ret = collect(&ps, files[f->self_max_rank], syms, f->name, 0);
		if (ret == 0 && f->self_min_rank != f->self_max_rank)
			ret = collect(&ps, files[f->self_min_rank], syms, f->name, 1);
		if (ps.n)
			qsort(ps.v, ps.n, sizeof(*ps.v), cmp_gap);
		f->paths = calloc(RANKSTATS_PATHS, sizeof(char *));
		if (!f->paths)
			ret = error("out of memory");
		for (k = 0; ret == 0 && k < ps.n && k < RANKSTATS_PATHS; k++) {
			char line[8192];

			snprintf(line, sizeof(line), "%s: %llu calls on rank %s, %llu on rank %s",
				 ps.v[k].path, (unsigned long long)ps.v[k].on_max,
				 rs->ranks[f->self_max_rank].tag,
				 (unsigned long long)ps.v[k].on_min,
				 rs->ranks[f->self_min_rank].tag);
			if (!(f->paths[k] = strdup(line)))
				ret = error("out of memory");
			else
				f->npaths++;
		}
		for (k = 0; k < ps.n; k++)
			free(ps.v[k].path);
		free(ps.v);
	}
	free(idx);
	return ret;
}
