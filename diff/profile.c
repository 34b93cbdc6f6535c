#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "diff/profile.h"
#include "utils/array.h"
#include "utils/bigalloc.h"
#include "utils/error.h"
#include "utils/names.h"
#include "utils/banned.h"

struct profile *profile_new(void)
{
	struct profile *p = calloc(1, sizeof(*p));

	if (p)
		p->rank = -1;
	return p;
}

const char *profile_sym_kind(unsigned flags)
{
	return flags & PSYM_CYCLE ? "cycle" :
	       flags & PSYM_LIBRARY ? "library" :
	       flags & PSYM_INSTRUMENTATION ? "instrumentation" :
	       flags & PSYM_UNKNOWN ? "unknown" : "function";
}

struct profile_pool *profile_pool_new(size_t size)
{
	/* malloc, not bigalloc: a pool is sized for its frame, most of whose
	 * bytes are numbers, and a huge page is cleared whole when touched */
	struct profile_pool *pool = size < SIZE_MAX - sizeof(*pool) ?
				    malloc(sizeof(*pool) + (size ? size : 1)) : NULL;

	if (pool) {
		pool->refs = 1;
		pool->size = size;
		pool->used = 0;
	}
	return pool;
}

void profile_pool_release(struct profile_pool *pool)
{
	if (pool && --pool->refs == 0)
		free(pool);
}

int profile_use_pool(struct profile *p, struct profile_pool *pool)
{
	size_t k;

	for (k = 0; k < PROFILE_MAX_POOLS; k++)
		if (p->pools[k] == pool)
			return 0;
	for (k = 0; k < PROFILE_MAX_POOLS; k++)
		if (!p->pools[k]) {
			p->pools[k] = pool;
			pool->refs++;
			return 0;
		}
	return -1;
}

void profile_str_free(struct profile *p, char *s)
{
	size_t k;

	for (k = 0; s && k < PROFILE_MAX_POOLS; k++) {
		const struct profile_pool *pool = p->pools[k];

		/* compared as integers: s may be from another object */
		if (pool && (uintptr_t)s >= (uintptr_t)pool->bytes &&
		    (uintptr_t)s < (uintptr_t)(pool->bytes + pool->size))
			return;
	}
	free(s);
}

static void sym_release(struct profile *p, struct profile_sym *s)
{
	profile_str_free(p, s->name);
	profile_str_free(p, s->print_name);
	profile_str_free(p, s->file);
	profile_str_free(p, s->unit);
}

void profile_free(struct profile *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nsyms; i++)
		sym_release(p, &p->syms[i]);
	for (i = 0; i < p->ngmon; i++)
		free(p->gmon_files[i]);
	free(p->gmon_files);
	free(p->syms);
	free(p->arcs);
	profile_str_free(p, p->binary);
	profile_str_free(p, p->label);
	for (i = 0; i < PROFILE_MAX_POOLS; i++)
		profile_pool_release(p->pools[i]);
	free(p);
}

int profile_shorten_names(struct profile *p, struct name_map *nm)
{
	const char **names = malloc((p->nsyms + 1) * sizeof(*names));
	size_t n = 0, i;

	if (!names)
		return error("out of memory");
	for (i = 0; i < p->nsyms; i++)
		if (p->syms[i].print_name && !(p->syms[i].flags & PSYM_CYCLE))
			names[n++] = p->syms[i].print_name;
	if (name_map_add_all(nm, names, n) < 0) {
		free(names);
		return error("out of memory");
	}
	free(names);
	for (i = 0; i < p->nsyms; i++) {
		struct profile_sym *s = &p->syms[i];
		const char *sn;
		char *dup;

		if (!s->print_name || (s->flags & PSYM_CYCLE))
			continue;
		if (!(sn = name_map_short(nm, s->print_name)) || !(dup = strdup(sn)))
			return error("out of memory");
		profile_str_free(p, s->print_name);
		s->print_name = dup;
	}
	return 0;
}

long profile_add_sym(struct profile *p, const struct profile_sym *s)
{
	if (array_grow(&p->syms, &p->alloc_syms, p->nsyms + 1, sizeof(*p->syms)) < 0)
		return -1;
	p->syms[p->nsyms] = *s;
	return (long)p->nsyms++;
}

long profile_add_named_sym(struct profile *p, const char *name, const char *print_name,
			   unsigned flags)
{
	struct profile_sym y;
	long at;

	memset(&y, 0, sizeof(y));
	y.flags = flags;
	if (!(y.name = strdup(name)) || !(y.print_name = strdup(print_name ? print_name : name)) ||
	    (at = profile_add_sym(p, &y)) < 0) {
		free(y.name);
		free(y.print_name);
		return -1;
	}
	return at;
}

/* An empty array's first room, when it is megabytes: in huge pages where
 * the kernel offers them (utils/bigalloc.h): a 20,000-function profile's
 * symbols are 2.4 MB, a fault per 4 KiB otherwise. */
static int reserve(void *arrp, size_t *cap, size_t n, size_t elem)
{
	void *old, *q;

	memcpy(&old, arrp, sizeof(old));
	if (old || n <= *cap || n > SIZE_MAX / elem || n * elem < BIGALLOC_HUGE_PAGE)
		return array_grow(arrp, cap, n, elem);
	if (!(q = bigalloc_aligned(n * elem)))
		return -1;
	memcpy(arrp, &q, sizeof(q));
	*cap = n;
	return 0;
}

int profile_reserve(struct profile *p, size_t nsyms, size_t narcs)
{
	if (reserve(&p->syms, &p->alloc_syms, nsyms, sizeof(*p->syms)) < 0 ||
	    reserve(&p->arcs, &p->alloc_arcs, narcs, sizeof(*p->arcs)) < 0)
		return -1;
	return 0;
}

long profile_add_arc(struct profile *p, const struct profile_arc *a)
{
	if (array_grow(&p->arcs, &p->alloc_arcs, p->narcs + 1, sizeof(*p->arcs)) < 0)
		return -1;
	p->arcs[p->narcs] = *a;
	return (long)p->narcs++;
}

int profile_add_gmon_file(struct profile *p, const char *path)
{
	char *copy = strdup(path);

	if (!copy || array_grow(&p->gmon_files, &p->alloc_gmon, p->ngmon + 1,
					 sizeof(*p->gmon_files)) < 0) {
		free(copy);
		return -1;
	}
	p->gmon_files[p->ngmon++] = copy;
	return 0;
}

long profile_find(const struct profile *p, const char *name, const char *file)
{
	size_t i;

	for (i = 0; i < p->nsyms; i++) {
		const struct profile_sym *s = &p->syms[i];

		if (strcmp(s->name, name) != 0)
			continue;
		if (file && (!s->file || strcmp(s->file, file) != 0))
			continue;
		return (long)i;
	}
	return -1;
}

int profile_check_rate(const struct profile *p, const char *what)
{
	if (!(p->input & PROFILE_HAS_HIST) || (p->hz > 0 && isfinite(p->hz)))
		return 0;
	return error("%s: its histogram's sampling rate is %g per "
		     "second (a corrupt gmon header): its samples have no duration",
		     what, p->hz);
}
