/*
 * names.c - the one naming rule of every output (names.h).
 */
#define _GNU_SOURCE /* qsort_r */
#include "utils/names.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "utils/banned.h"

#define ELLIPSIS "\xe2\x80\xa6"

/* The operators whose names hold '<' or '>', longest first. */
static const char *const angle_ops[] = {
	"<=>", "<<=", ">>=", "->*", "<<", ">>", "<=", ">=", "->", "<", ">",
};

static int ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '$';
}

/* Length of the operator token after "operator" at s[i] (the keyword
 * itself included) when it holds '<' or '>', else 0. */
static size_t angle_operator(const char *s, size_t i)
{
	static const char kw[] = "operator";
	size_t k = sizeof(kw) - 1;

	if (strncmp(s + i, kw, k) || (i && ident_char(s[i - 1])))
		return 0;
	for (size_t j = 0; j < sizeof(angle_ops) / sizeof(angle_ops[0]); j++) {
		size_t n = strlen(angle_ops[j]);

		if (!strncmp(s + i + k, angle_ops[j], n))
			return k + n;
	}
	return 0;
}

/* Whether every template bracket of s closes. */
static int balanced(const char *s)
{
	long depth = 0;

	for (size_t j = 0; s[j]; j++) {
		size_t op = angle_operator(s, j);

		if (op)
			j += op - 1;
		else if (s[j] == '<')
			depth++;
		else if (s[j] == '>' && --depth < 0)
			return 0;
	}
	return depth == 0;
}

/* Index of the '>' closing the '<' at s[i] (s balanced). */
static size_t closing(const char *s, size_t i)
{
	size_t depth = 0;

	for (size_t j = i; s[j]; j++) {
		size_t op = angle_operator(s, j);

		if (op) {
			j += op - 1;
			continue;
		}
		if (s[j] == '<') {
			depth++;
		} else if (s[j] == '>') {
			if (--depth == 0)
				return j;
		}
	}
	return i;
}

char *name_shorten(const char *name, unsigned keep)
{
	size_t len = strlen(name), n = 0;
	char *out = malloc(3 * len + 8);	/* "<>" becomes 5 bytes */
	unsigned depth = 0;

	if (!out)
		return NULL;
	if (!balanced(name)) {
		/* not a demangled C++ name */
		memcpy(out, name, len + 1);
		return out;
	}
	for (size_t i = 0; name[i];) {
		size_t op = angle_operator(name, i);

		if (op) {
			memcpy(out + n, name + i, op);
			n += op;
			i += op;
			continue;
		}
		if (name[i] == '<' && depth >= keep) {
			memcpy(out + n, "<" ELLIPSIS ">", sizeof(ELLIPSIS) + 1);
			n += sizeof(ELLIPSIS) + 1;
			i = closing(name, i) + 1;
			continue;
		}
		if (name[i] == '<')
			depth++;
		else if (name[i] == '>')
			depth--;
		out[n++] = name[i++];
	}
	out[n] = '\0';
	return out;
}

/* ------------------------------------------------------------------------ */
/* The map                                                                   */

struct name_entry {
	char *full, *shrt;
	unsigned keep;
};

struct name_map {
	struct name_entry *e;
	size_t n, cap;
	uint32_t *by_full, *by_short;	/* open addressing: entry index + 1 */
	size_t slots;			/* a power of two, over twice n */
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* The slot of `key` in `tab` (its entry, or the empty slot it would take). */
static size_t slot_of(const struct name_map *nm, const uint32_t *tab, const char *key,
		      int by_short)
{
	size_t i = (size_t)hash_str(key) & (nm->slots - 1);

	while (tab[i]) {
		const struct name_entry *x = &nm->e[tab[i] - 1];

		if (!strcmp(by_short ? x->shrt : x->full, key))
			return i;
		i = (i + 1) & (nm->slots - 1);
	}
	return i;
}

static int rehash(struct name_map *nm, size_t want)
{
	size_t slots = 64;
	uint32_t *bf, *bs;

	while (slots < 2 * want + 2)
		slots *= 2;
	if (slots <= nm->slots)
		return 0;
	bf = calloc(slots, sizeof(*bf));
	bs = calloc(slots, sizeof(*bs));
	if (!bf || !bs) {
		free(bf);
		free(bs);
		return -1;
	}
	free(nm->by_full);
	free(nm->by_short);
	nm->by_full = bf;
	nm->by_short = bs;
	nm->slots = slots;
	for (size_t k = 0; k < nm->n; k++) {
		size_t s = slot_of(nm, bs, nm->e[k].shrt, 1);

		bf[slot_of(nm, bf, nm->e[k].full, 0)] = (uint32_t)k + 1;
		if (!bs[s])
			bs[s] = (uint32_t)k + 1;
	}
	return 0;
}

struct name_map *name_map_new(void)
{
	struct name_map *nm = calloc(1, sizeof(*nm));

	if (nm && rehash(nm, 16) < 0) {
		free(nm);
		return NULL;
	}
	return nm;
}

void name_map_free(struct name_map *nm)
{
	if (!nm)
		return;
	for (size_t k = 0; k < nm->n; k++) {
		free(nm->e[k].full);
		free(nm->e[k].shrt);
	}
	free(nm->e);
	free(nm->by_full);
	free(nm->by_short);
	free(nm);
}

/* Whether a short name is taken by an entry of another full name. */
static int taken(const struct name_map *nm, const char *shrt, const char *full)
{
	uint32_t k = nm->by_short[slot_of(nm, nm->by_short, shrt, 1)];

	return k && strcmp(nm->e[k - 1].full, full);
}

/* One more level of arguments kept: 0 when the name cannot grow. */
static int deepen(struct name_entry *x)
{
	char *s;

	if (!strcmp(x->shrt, x->full))
		return 0;
	if (!(s = name_shorten(x->full, x->keep + 1)))
		return -1;
	free(x->shrt);
	x->shrt = s;
	x->keep++;
	return 1;
}

static int append(struct name_map *nm, const char *full)
{
	struct name_entry *x;

	if (nm->n == nm->cap) {
		size_t cap = nm->cap ? 2 * nm->cap : 64;
		struct name_entry *e = realloc(nm->e, cap * sizeof(*e));

		if (!e)
			return -1;
		nm->e = e;
		nm->cap = cap;
	}
	x = &nm->e[nm->n];
	x->keep = 0;
	x->full = strdup(full);
	x->shrt = x->full ? name_shorten(full, 0) : NULL;
	if (!x->full || !x->shrt) {
		free(x->full);
		free(x->shrt);
		return -1;
	}
	nm->n++;
	return 0;
}

/* Entries [from, n) into the indexes (their short names final). */
static void index_new(struct name_map *nm, size_t from)
{
	for (size_t k = from; k < nm->n; k++) {
		size_t s = slot_of(nm, nm->by_short, nm->e[k].shrt, 1);

		nm->by_full[slot_of(nm, nm->by_full, nm->e[k].full, 0)] = (uint32_t)k + 1;
		if (!nm->by_short[s])
			nm->by_short[s] = (uint32_t)k + 1;
	}
}

static int cmp_short(const void *a, const void *b, void *ctx)
{
	const struct name_entry *e = ctx;

	return strcmp(e[*(const size_t *)a].shrt, e[*(const size_t *)b].shrt);
}

int name_map_add_all(struct name_map *nm, const char *const *names, size_t n)
{
	size_t from = nm->n, *order = NULL;
	int changed = 1, ret = -1;

	if (rehash(nm, nm->n + n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		/* new and not yet appended (a duplicate in names) */
		if (nm->by_full[slot_of(nm, nm->by_full, names[i], 0)])
			continue;
		if (append(nm, names[i]) < 0)
			goto out;
		nm->by_full[slot_of(nm, nm->by_full, names[i], 0)] = (uint32_t)nm->n;
	}
	if (!(order = malloc((nm->n - from + 1) * sizeof(*order))))
		goto out;
	/* Names that read the same keep a level more, all of them, until
	 * none does: the result does not depend on their order. */
	for (int round = 0; changed && round < 256; round++) {
		size_t m = nm->n - from;

		changed = 0;
		for (size_t k = 0; k < m; k++)
			order[k] = from + k;
		qsort_r(order, m, sizeof(*order), cmp_short, nm->e);
		for (size_t a = 0, b; a < m; a = b) {
			int clash = 0;

			for (b = a + 1; b < m && !strcmp(nm->e[order[a]].shrt,
							  nm->e[order[b]].shrt); b++)
				clash = 1;
			clash |= taken(nm, nm->e[order[a]].shrt, nm->e[order[a]].full);
			for (size_t k = a; clash && k < b; k++) {
				int r = deepen(&nm->e[order[k]]);

				if (r < 0)
					goto out;
				changed |= r;
			}
		}
	}
	index_new(nm, from);
	ret = 0;
out:
	free(order);
	return ret;
}

const char *name_map_short(struct name_map *nm, const char *full)
{
	uint32_t k = nm->by_full[slot_of(nm, nm->by_full, full, 0)];
	struct name_entry *x;

	if (k)
		return nm->e[k - 1].shrt;
	/* a short name the map gave stays as it is: an output may name a
	 * function by a name already shortened */
	k = nm->by_short[slot_of(nm, nm->by_short, full, 1)];
	if (k)
		return nm->e[k - 1].shrt;
	if (rehash(nm, nm->n + 1) < 0 || append(nm, full) < 0)
		return NULL;
	x = &nm->e[nm->n - 1];
	for (;;) {
		int r;

		if (!taken(nm, x->shrt, x->full))
			break;
		if ((r = deepen(x)) < 0) {
			nm->n--;
			free(x->full);
			free(x->shrt);
			return NULL;
		}
		if (!r)
			break;
	}
	index_new(nm, nm->n - 1);
	return x->shrt;
}

/* ------------------------------------------------------------------------ */
/* Labels                                                                    */

char *name_wrap(const char *name, size_t width, size_t max_lines)
{
	size_t len = strlen(name), n = 0, line = 0, lines = 1, brk = 0, brk_in = 0;
	const char *suffix = NULL;
	int weak = 0;	/* brk is before a "::", not after ", " or "(" */
	char *out;

	/* a trailing " [clone .isra.0]" or " [libm.so.6]" tells the function
	 * apart: it stays when the middle goes */
	if (len && name[len - 1] == ']')
		suffix = strrchr(name, '[');
	if (suffix && (suffix == name || suffix[-1] != ' '))
		suffix = NULL;
	out = malloc(len + max_lines + sizeof(ELLIPSIS) + 2);
	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		out[n++] = name[i];
		line++;
		/* a break may follow ", " or "(", or come before " [" (a
		 * clone's or a library's suffix) */
		if ((name[i] == ' ' && i && name[i - 1] == ',') || name[i] == '(' ||
		    (name[i + 1] == ' ' && name[i + 2] == '[')) {
			brk = n;
			brk_in = i + 1;
			weak = 0;
		} else if (name[i + 1] == ':' && name[i + 2] == ':' && name[i] != ':' &&
			   (!brk || weak) && line > width / 2) {
			/* before "::" when the line has no better place (a long
			 * namespace path: nlohmann::json_abi_v3_11_3::detail::) */
			brk = n;
			brk_in = i + 1;
			weak = 1;
		}
		if (line <= width || !brk)
			continue;
		if (lines == max_lines) {
			/* the rest left out, said with an ellipsis */
			n = brk;
			memcpy(out + n, ELLIPSIS, sizeof(ELLIPSIS) - 1);
			n += sizeof(ELLIPSIS) - 1;
			if (suffix && suffix - 1 >= name + brk_in) {
				out[n++] = ' ';
				memcpy(out + n, suffix, strlen(suffix));
				n += strlen(suffix);
			}
			out[n] = '\0';
			return out;
		}
		if (out[brk - 1] == ' ') {
			/* the space after a comma becomes the line break */
			out[brk - 1] = '\n';
		} else {
			memmove(out + brk + 1, out + brk, n - brk);
			out[brk] = '\n';
			n++;
		}
		lines++;
		line = i + 1 - brk_in;
		brk = 0;
		weak = 0;
	}
	out[n] = '\0';
	return out;
}
