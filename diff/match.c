#include <stdlib.h>
#include <string.h>
#include "diff/match.h"
#include "diff/diff.h"
#include "utils/array.h"
#include "utils/error.h"
#include "utils/banned.h"

/* ---------------------------------------------------------------------- */
/* GCC clone suffixes                                                      */

static const char *const clone_kinds[] = {
	"constprop", "isra", "part", "cold", "lto_priv", "localalias", "clone",
	/* OpenMP: GCC outlines a parallel region of foo as foo._omp_fn.N
	 * (and its task copy functions as foo._omp_cpyfn.N); the region's
	 * time is foo's, not that of whatever symbol precedes it */
	"_omp_fn", "_omp_cpyfn",
};

/* Length of the clone suffix component at s (".isra.3", ".cold"), 0 if none. */
static size_t clone_component(const char *s)
{
	size_t k, len, i;

	if (*s != '.')
		return 0;
	for (k = 0; k < sizeof(clone_kinds) / sizeof(clone_kinds[0]); k++) {
		len = strlen(clone_kinds[k]);
		if (strncmp(s + 1, clone_kinds[k], len) != 0)
			continue;
		i = 1 + len;
		if (s[i] == '.' && s[i + 1] >= '0' && s[i + 1] <= '9') {
			i++;
			while (s[i] >= '0' && s[i] <= '9')
				i++;
		} else if (strcmp(clone_kinds[k], "cold") != 0) {
			continue; /* only .cold comes without a number */
		}
		if (s[i] == '\0' || s[i] == '.' || s[i] == ' ')
			return i;
	}
	return 0;
}

size_t match_clone_base(const char *name, char *buf, size_t n)
{
	size_t len = strlen(name), base = len, i;
	const char *clone = strstr(name, " [clone .");

	if (clone) {
		/* Demangled C++: "f(int) [clone .constprop.0] [clone .isra.0]". */
		base = (size_t)(clone - name);
	} else {
		/* Mangled or C: the first '.' that starts a chain of suffixes. */
		for (i = 1; i < len; i++) {
			size_t j = i, c;

			if (name[i] != '.')
				continue;
			while ((c = clone_component(name + j)) != 0)
				j += c;
			if (j > i && name[j] == '\0') {
				base = i;
				break;
			}
		}
	}
	if (base == len || base == 0)
		return 0;
	if (n) {
		size_t m = base < n - 1 ? base : n - 1;

		memcpy(buf, name, m);
		buf[m] = '\0';
	}
	return base;
}

/* ---------------------------------------------------------------------- */
/* A name index: open addressing over one side's symbols                  */

struct name_index {
	long *slot;      /* symbol index + 1, 0 for empty */
	size_t mask;
	const struct profile *p;
};

static uint64_t hash_str(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	size_t i;

	for (i = 0; i < n && s[i]; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static int is_real(const struct profile_sym *s)
{
	return !(s->flags & PSYM_CYCLE);
}

static int index_build(struct name_index *ix, const struct profile *p)
{
	size_t cap = 16, i;

	while (cap < 2 * p->nsyms + 2)
		cap *= 2;
	ix->slot = calloc(cap, sizeof(long));
	if (!ix->slot)
		return error("out of memory");
	ix->mask = cap - 1;
	ix->p = p;
	/* Duplicates (same-name statics) all go in, in address order. */
	for (i = 0; i < p->nsyms; i++) {
		size_t h;

		if (!is_real(&p->syms[i]))
			continue;
		h = hash_str(p->syms[i].name, SIZE_MAX) & ix->mask;
		while (ix->slot[h])
			h = (h + 1) & ix->mask;
		ix->slot[h] = (long)i + 1;
	}
	return 0;
}

/* Call fn for every symbol named name (its first n chars with key_len). */
#define INDEX_FOREACH(ix, key, h, idx)                                        \
	for (h = hash_str(key, SIZE_MAX) & (ix)->mask; (ix)->slot[h];         \
	     h = (h + 1) & (ix)->mask)                                        \
		if ((idx = (ix)->slot[h] - 1), strcmp((ix)->p->syms[idx].name, key) == 0)

static const char *base_of(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

/* Copies of a static function defined in a header share its file: their
 * compilation units tell them apart (base names: the two builds may be in
 * two directories). */
static int same_unit(const struct profile_sym *x, const struct profile_sym *y)
{
	return x->unit && y->unit && strcmp(base_of(x->unit), base_of(y->unit)) == 0;
}

/* How well b's symbol fits a's: 3 same file, 2 same file base name, 1 no
 * file to compare, 0 different files (never matched); 4 more for the same
 * compilation unit. */
static int file_fit(const struct profile_sym *x, const struct profile_sym *y)
{
	if (!x->file || !y->file)
		return 1 + 4 * same_unit(x, y);
	if (strcmp(x->file, y->file) == 0)
		return 3 + 4 * same_unit(x, y);
	if (strcmp(base_of(x->file), base_of(y->file)) == 0)
		return 2 + 4 * same_unit(x, y);
	/* Globals are one per program: a moved function is the same function. */
	if (!(x->flags & PSYM_STATIC) && !(y->flags & PSYM_STATIC))
		return 1;
	return 0;
}

static int add_pair(struct match *m, size_t *cap, long a, long b, int kind)
{
	if (array_grow(&m->pairs, cap, m->npairs + 1, sizeof(*m->pairs)) < 0)
		return error("out of memory");
	m->pairs[m->npairs].sym[0] = a;
	m->pairs[m->npairs].sym[1] = b;
	m->pairs[m->npairs].kind = kind;
	m->npairs++;
	return 0;
}

/* Rule 1 for symbol i of a: the best unmatched same-name symbol of b.
 * Best fit first; among equals, the first in address order (so same-name
 * statics without debug info pair up in order). */
static long best_same_name(const struct name_index *ixb, const struct profile_sym *x,
			   const long *b_partner)
{
	long best = -1, idx;
	int best_fit = 0;
	size_t h;

	INDEX_FOREACH(ixb, x->name, h, idx) {
		int fit;

		if (b_partner[idx] >= 0)
			continue;
		fit = file_fit(x, &ixb->p->syms[idx]);
		if (fit > best_fit || (fit == best_fit && fit > 0 && idx < best)) {
			best = idx;
			best_fit = fit;
		}
	}
	return best;
}

/* ---------------------------------------------------------------------- */
/* Cycles, by their members                                               */

/* The highest cycle number of p, and for each cycle number its symbol
 * (cyc_sym[n], -1 when p has no cycle symbol numbered n). */
static int cycle_table(const struct profile *p, long **cyc_sym, int *ncyc)
{
	int max = 0, n;
	size_t i;

	for (i = 0; i < p->nsyms; i++)
		if (p->syms[i].cycle > max)
			max = p->syms[i].cycle;
	*ncyc = max;
	*cyc_sym = malloc(((size_t)max + 1) * sizeof(long));
	if (!*cyc_sym)
		return error("out of memory");
	for (n = 0; n <= max; n++)
		(*cyc_sym)[n] = -1;
	for (i = 0; i < p->nsyms; i++)
		if ((p->syms[i].flags & PSYM_CYCLE) && p->syms[i].cycle > 0)
			(*cyc_sym)[p->syms[i].cycle] = (long)i;
	return 0;
}

static int cmp_cycle_pair(const void *lp, const void *rp)
{
	const int *l = lp, *r = rp;

	return l[0] != r[0] ? (l[0] < r[0] ? -1 : 1) : (l[1] < r[1] ? -1 : l[1] > r[1]);
}

/*
 * best[c] for each cycle c of `from`: the cycle of `to` holding the most
 * partners of c's members (lowest number on a tie), 0 when none.  Sorting
 * the (member's cycle, partner's cycle) pairs keeps this O(n log n) however
 * many cycles there are.
 */
static int best_cycles(const struct profile *from, int nfrom, const struct profile *to,
		       int nto, const long *partner, int *best)
{
	int (*pairs)[2] = malloc((from->nsyms + 1) * sizeof(*pairs));
	size_t n = 0, i, j;

	if (!pairs)
		return error("out of memory");
	for (i = 0; i < from->nsyms; i++) {
		const struct profile_sym *x = &from->syms[i];
		int tc;

		if (x->cycle <= 0 || x->cycle > nfrom || !is_real(x) || partner[i] < 0)
			continue;
		tc = to->syms[partner[i]].cycle;
		if (tc > 0 && tc <= nto && is_real(&to->syms[partner[i]])) {
			pairs[n][0] = x->cycle;
			pairs[n][1] = tc;
			n++;
		}
	}
	qsort(pairs, n, sizeof(*pairs), cmp_cycle_pair);
	for (i = 0; i <= (size_t)nfrom; i++)
		best[i] = 0;
	for (i = 0; i < n; i = j) {
		size_t top = 0;

		for (j = i; j < n && pairs[j][0] == pairs[i][0];) {
			size_t k = j;

			while (k < n && pairs[k][0] == pairs[j][0] && pairs[k][1] == pairs[j][1])
				k++;
			if (k - j > top) {
				top = k - j;
				best[pairs[i][0]] = pairs[j][1];
			}
			j = k;
		}
	}
	free(pairs);
	return 0;
}

static int match_cycles(struct match *m, size_t *cap, const struct profile *a,
			const struct profile *b, const long *a_partner, const long *b_partner)
{
	long *acyc = NULL, *bcyc = NULL;
	int *abest = NULL, *bbest = NULL, *bpaired = NULL, na, nb, c;
	int ret = -1;

	if (cycle_table(a, &acyc, &na) < 0 || cycle_table(b, &bcyc, &nb) < 0)
		goto out;
	abest = calloc((size_t)na + 1, sizeof(int));
	bbest = calloc((size_t)nb + 1, sizeof(int));
	bpaired = calloc((size_t)nb + 1, sizeof(int));
	if (!abest || !bbest || !bpaired) {
		error("out of memory");
		goto out;
	}
	if (best_cycles(a, na, b, nb, a_partner, abest) < 0 ||
	    best_cycles(b, nb, a, na, b_partner, bbest) < 0)
		goto out;
	for (c = 1; c <= na; c++) {
		int k = abest[c];
		int mutual = k > 0 && bbest[k] == c && bcyc[k] >= 0;

		if (acyc[c] < 0)
			continue;
		if (mutual)
			bpaired[k] = 1;
		if (add_pair(m, cap, acyc[c], mutual ? bcyc[k] : -1,
			     mutual ? MATCH_CYCLE : MATCH_NONE) < 0)
			goto out;
	}
	for (c = 1; c <= nb; c++)
		if (bcyc[c] >= 0 && !bpaired[c] &&
		    add_pair(m, cap, -1, bcyc[c], MATCH_NONE) < 0)
			goto out;
	ret = 0;
out:
	free(acyc);
	free(bcyc);
	free(abest);
	free(bbest);
	free(bpaired);
	return ret;
}

int match_compute(struct match *m, const struct profile *a, const struct profile *b)
{
	struct name_index ixb = { 0 }, ixbase = { 0 };
	long *a_partner = NULL, *b_partner = NULL;
	int *a_kind = NULL;
	size_t cap = 0, i;
	int ret = -1;

	memset(m, 0, sizeof(*m));
	a_partner = malloc((a->nsyms + 1) * sizeof(long));
	b_partner = malloc((b->nsyms + 1) * sizeof(long));
	a_kind = calloc(a->nsyms + 1, sizeof(int));
	if (!a_partner || !b_partner || !a_kind) {
		error("out of memory");
		goto out;
	}
	for (i = 0; i < a->nsyms; i++)
		a_partner[i] = -1;
	for (i = 0; i < b->nsyms; i++)
		b_partner[i] = -1;
	if (index_build(&ixb, b) < 0)
		goto out;

	/* Rule 1: by name (statics by file).  Statics with a file first, so a
	 * file-less one cannot take another file's partner. */
	for (int pass = 0; pass < 2; pass++) {
		for (i = 0; i < a->nsyms; i++) {
			const struct profile_sym *x = &a->syms[i];
			long j;

			if (!is_real(x) || a_partner[i] >= 0 || (pass == 0) != (x->file != NULL))
				continue;
			j = best_same_name(&ixb, x, b_partner);
			if (j >= 0) {
				a_partner[i] = j;
				b_partner[j] = (long)i;
				a_kind[i] = MATCH_NAME;
			}
		}
	}

	/* Rule 2: unmatched clones and originals by base name.  Index b's
	 * unmatched symbols under their base names. */
	{
		size_t cap2 = 16;
		char buf[512];

		while (cap2 < 2 * b->nsyms + 2)
			cap2 *= 2;
		ixbase.slot = calloc(cap2, sizeof(long));
		if (!ixbase.slot) {
			error("out of memory");
			goto out;
		}
		ixbase.mask = cap2 - 1;
		for (i = 0; i < b->nsyms; i++) {
			const char *name = b->syms[i].name;
			size_t h;

			if (!is_real(&b->syms[i]) || b_partner[i] >= 0)
				continue;
			if (match_clone_base(name, buf, sizeof(buf)))
				name = buf;
			h = hash_str(name, SIZE_MAX) & ixbase.mask;
			while (ixbase.slot[h])
				h = (h + 1) & ixbase.mask;
			ixbase.slot[h] = (long)i + 1;
		}
		for (i = 0; i < a->nsyms; i++) {
			const struct profile_sym *x = &a->syms[i];
			char bbuf[512];
			const char *key = x->name;
			int a_clone;
			size_t h;

			if (!is_real(x) || a_partner[i] >= 0)
				continue;
			a_clone = match_clone_base(x->name, buf, sizeof(buf)) != 0;
			if (a_clone)
				key = buf;
			for (h = hash_str(key, SIZE_MAX) & ixbase.mask; ixbase.slot[h];
			     h = (h + 1) & ixbase.mask) {
				long j = ixbase.slot[h] - 1;
				const char *bn = b->syms[j].name;
				int b_clone = match_clone_base(bn, bbuf, sizeof(bbuf)) != 0;

				if (b_clone)
					bn = bbuf;
				/* One side at least must be a clone: two plain
				 * names that differ are different functions. */
				if (b_partner[j] >= 0 || strcmp(bn, key) != 0 ||
				    (!a_clone && !b_clone) ||
				    file_fit(x, &b->syms[j]) == 0)
					continue;
				a_partner[i] = j;
				b_partner[j] = (long)i;
				a_kind[i] = MATCH_CLONE_BASE;
				break;
			}
		}
	}

	/* Link: a's symbols in order (with partners), then b's leftovers. */
	for (i = 0; i < a->nsyms; i++)
		if (is_real(&a->syms[i]) &&
		    add_pair(m, &cap, (long)i, a_partner[i],
			     a_partner[i] >= 0 ? a_kind[i] : MATCH_NONE) < 0)
			goto out;
	for (i = 0; i < b->nsyms; i++)
		if (is_real(&b->syms[i]) && b_partner[i] < 0 &&
		    add_pair(m, &cap, -1, (long)i, MATCH_NONE) < 0)
			goto out;
	if (match_cycles(m, &cap, a, b, a_partner, b_partner) < 0)
		goto out;
	ret = 0;
out:
	if (ret < 0)
		match_release(m);
	free(ixb.slot);
	free(ixbase.slot);
	free(a_partner);
	free(b_partner);
	free(a_kind);
	return ret;
}

void match_release(struct match *m)
{
	free(m->pairs);
	memset(m, 0, sizeof(*m));
}
