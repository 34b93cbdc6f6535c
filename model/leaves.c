/*
 * leaves.c - name sampled program counters in the objects a sidecar lists
 * (model/leaves.h).
 */
#define _GNU_SOURCE
#include "model/leaves.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "format/buildid.h"
#include "format/sidecar.h"
#include "utils/addrsearch.h"
#include "utils/infile.h"
#include "utils/banned.h"

#define UNKNOWN_NAME "[unknown]"

struct sym {
	uint64_t addr, size;	/* link-time [addr, addr + size) */
	char *name;
	int rank;		/* which of several names at one address wins */
};

struct obj_syms {
	int read;		/* symbols looked for */
	int runtime;		/* the runtime's own library */
	int stale;		/* the file has another build-id now */
	struct sym *s;		/* sorted by addr, one per address */
	size_t n;
};

struct leaf_namer {
	const struct sidecar *sc;
	char *(*demangle)(const char *name);
	struct obj_syms *objs;	/* per sc->objects[i] */
};

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

int leaf_name_is_instrumentation(const char *name)
{
	static const char *const names[] = {
		"mcount", "_mcount", "__mcount_internal", "__fentry__",
		/* glibc's SIGPROF handler for gmon.out's histogram */
		"profil_counter", "__profil_counter",
		/* the return from every signal handler, ours at CALLPATH_HZ */
		"__restore_rt",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

struct leaf_namer *leaf_namer_new(const struct sidecar *sc,
				  char *(*demangle)(const char *name))
{
	struct leaf_namer *ln = calloc(1, sizeof(*ln));

	if (!ln)
		return NULL;
	ln->sc = sc;
	ln->demangle = demangle;
	ln->objs = calloc(sc->nr_objects ? sc->nr_objects : 1, sizeof(*ln->objs));
	if (!ln->objs) {
		free(ln);
		return NULL;
	}
	return ln;
}

void leaf_namer_free(struct leaf_namer *ln)
{
	if (!ln)
		return;
	for (uint32_t i = 0; i < ln->sc->nr_objects; i++) {
		for (size_t k = 0; k < ln->objs[i].n; k++)
			free(ln->objs[i].s[k].name);
		free(ln->objs[i].s);
	}
	free(ln->objs);
	free(ln);
}

/* `len` bytes of `f` at `off` into a new buffer, or NULL. */
static void *read_at(FILE *f, uint64_t off, uint64_t len)
{
	void *p;

	if (len > (1u << 30))
		return NULL;
	p = malloc(len ? len : 1);
	if (p && (fseek(f, (long)off, SEEK_SET) || fread(p, 1, len, f) != len)) {
		free(p);
		p = NULL;
	}
	return p;
}

/*
 * Of two names at one address, the one a user knows: a global symbol over
 * a weak one over a local one, then fewer leading underscores, then the
 * shorter (libm's exp over __exp and __exp_finite).
 */
static int sym_rank(const Elf64_Sym *s, const char *name)
{
	int bind = ELF64_ST_BIND(s->st_info), r = 0;
	size_t u = strspn(name, "_");

	r += bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
	return r * 100000 + (int)(u * 1000) + (int)(strlen(name) > 999 ? 999 : strlen(name));
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/*
 * The function symbols of the section of type `type` (SHT_SYMTAB or
 * SHT_DYNSYM) of ELF64 file `path` into o (sorted, one per address).
 * 0 (none found, or unreadable) or -1 (out of memory).
 */
static int read_syms(const char *path, uint32_t type, struct obj_syms *o)
{
	FILE *f = infile_fopen(path, NULL, 0);	/* a FIFO named here waits for ever */
	Elf64_Shdr *sh = NULL;
	Elf64_Sym *syms = NULL;
	char *str = NULL;
	Elf64_Ehdr eh;
	int ret = 0;

	if (!f)
		return 0;
	if (fread(&eh, sizeof(eh), 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_shentsize != sizeof(Elf64_Shdr))
		goto out;
	sh = read_at(f, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(*sh));
	for (unsigned i = 0; sh && i < eh.e_shnum; i++) {
		const Elf64_Shdr *ss;
		uint64_t nsyms, k, w = 0;

		if (sh[i].sh_type != type || sh[i].sh_link >= eh.e_shnum)
			continue;
		ss = &sh[sh[i].sh_link];
		nsyms = sh[i].sh_size / sizeof(Elf64_Sym);
		syms = read_at(f, sh[i].sh_offset, nsyms * sizeof(Elf64_Sym));
		str = read_at(f, ss->sh_offset, ss->sh_size);
		if (!syms || !str || !ss->sh_size)
			break;
		str[ss->sh_size - 1] = '\0';
		free(o->s);	/* an earlier file's table without functions */
		o->n = 0;
		o->s = calloc(nsyms + 1, sizeof(*o->s));
		if (!o->s) {
			ret = -1;
			break;
		}
		for (k = 0; k < nsyms; k++) {
			const Elf64_Sym *s = &syms[k];

			if ((ELF64_ST_TYPE(s->st_info) != STT_FUNC &&
			     ELF64_ST_TYPE(s->st_info) != STT_GNU_IFUNC) ||
			    !s->st_size || s->st_shndx == SHN_UNDEF || s->st_name >= ss->sh_size)
				continue;
			o->s[o->n].addr = s->st_value;
			o->s[o->n].size = s->st_size;
			o->s[o->n].rank = sym_rank(s, str + s->st_name);
			/* "exp@@GLIBC_2.29" in a debug file's .symtab: exp */
			o->s[o->n].name = strndup(str + s->st_name,
						  strcspn(str + s->st_name, "@"));
			if (!o->s[o->n].name) {
				ret = -1;
				goto out;
			}
			o->n++;
		}
		qsort(o->s, o->n, sizeof(*o->s), cmp_sym);
		/* one per address: the best ranked, first after the sort */
		for (k = 0; k < o->n; k++) {
			if (w && o->s[w - 1].addr == o->s[k].addr) {
				free(o->s[k].name);
				continue;
			}
			o->s[w++] = o->s[k];
		}
		o->n = w;
		break;
	}
out:
	fclose(f);
	free(sh);
	free(syms);
	free(str);
	return ret;
}

/* Does the file at `path` carry object `ob`'s build-id (or either none)? */
static int same_build(const char *path, const struct sidecar_object *ob)
{
	unsigned char id[SIDECAR_BUILD_ID_MAX];
	int n = elf_build_id(path, id, sizeof(id));

	if (n < 0)
		return 0;
	return !n || !ob->build_id_len ||
	       ((uint32_t)n == ob->build_id_len && !memcmp(id, ob->build_id, (size_t)n));
}

static void obj_load(struct leaf_namer *ln, uint32_t i)
{
	const struct sidecar_object *ob = &ln->sc->objects[i];
	struct obj_syms *o = &ln->objs[i];
	const char *base = base_name(ob->path);
	char path[4096];

	o->read = 1;
	o->runtime = !strncmp(base, "libcallpath", 11);
	if (o->runtime)
		return;
	snprintf(path, sizeof(path), "%s", ob->path);
	if (!strncmp(base, "linux-vdso", 10) || !strncmp(base, "linux-gate", 10)) {
		struct utsname u;

		/* the kernel's own copy of the vDSO, with its symbols */
		if (uname(&u) != 0)
			return;
		snprintf(path, sizeof(path), "/lib/modules/%s/vdso/vdso64.so", u.release);
	}
	if (!same_build(path, ob)) {
		o->stale = 1;
		return;
	}
	if (read_syms(path, SHT_SYMTAB, o) < 0 || o->n)
		return;
	if (ob->build_id_len) {
		int k = snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%02x/",
				 ob->build_id[0]);

		for (uint32_t b = 1; b < ob->build_id_len && k < (int)sizeof(path) - 8; b++)
			k += snprintf(path + k, sizeof(path) - (size_t)k, "%02x", ob->build_id[b]);
		snprintf(path + k, sizeof(path) - (size_t)k, ".debug");
		if (read_syms(path, SHT_SYMTAB, o) < 0 || o->n)
			return;
	}
	read_syms(ob->path, SHT_DYNSYM, o);
}

static const struct sym *sym_find(const struct obj_syms *o, uint64_t addr)
{
	size_t lo = o->n ? addr_search(o->s, o->n, sizeof(*o->s),
				       offsetof(struct sym, addr), addr) : 0;

	if (!lo || addr >= o->s[lo - 1].addr + o->s[lo - 1].size)
		return NULL;
	return &o->s[lo - 1];
}

enum leaf_class leaf_name(struct leaf_namer *ln, uint64_t pc, char *buf, size_t len)
{
	const struct sidecar *sc = ln->sc;
	const struct sidecar_object *ob = NULL;
	const struct sym *s;
	uint32_t i;

	for (i = 0; i < sc->nr_objects; i++)
		if (!(sc->objects[i].flags & SIDECAR_OBJECT_MAIN) &&
		    pc >= sc->objects[i].start && pc < sc->objects[i].end) {
			ob = &sc->objects[i];
			break;
		}
	if (!ob) {
		snprintf(buf, len, "%s", UNKNOWN_NAME);
		return LEAF_UNKNOWN;
	}
	if (!ln->objs[i].read)
		obj_load(ln, i);
	if (ln->objs[i].runtime) {
		snprintf(buf, len, "%s", LEAF_INSTRUMENTATION_NAME);
		return LEAF_INSTRUMENTATION;
	}
	s = sym_find(&ln->objs[i], pc - ob->bias);
	if (s && leaf_name_is_instrumentation(s->name)) {
		snprintf(buf, len, "%s", LEAF_INSTRUMENTATION_NAME);
		return LEAF_INSTRUMENTATION;
	}
	if (s) {
		char *d = ln->demangle ? ln->demangle(s->name) : NULL;

		snprintf(buf, len, "%s [%s]", d ? d : s->name, base_name(ob->path));
		free(d);
	} else
		snprintf(buf, len, "[%s]", base_name(ob->path));
	return LEAF_LIBRARY;
}
