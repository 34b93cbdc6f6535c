/*
 * elfsyms.c - function symbols of an ELF64 little-endian image.
 */
#include "model/elfsyms.h"

#include <elf.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utils/addrsearch.h"
#include "utils/infile.h"
#include "utils/banned.h"

static int cmp_func(const void *a, const void *b)
{
	const struct elf_func *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* `len` bytes of `f` at `off` into a new buffer, or NULL. */
int elf_funcs_read(const char *path, struct elf_funcs **out)
{
	struct elf_funcs *ef = calloc(1, sizeof(*ef));
	Elf64_Shdr *sh = NULL;
	Elf64_Sym *syms = NULL;
	char *str = NULL;
	FILE *f = NULL;
	Elf64_Ehdr eh;
	int ret = -1;

	*out = NULL;
	if (!ef)
		return -1;
	f = path ? infile_fopen(path, NULL, 0) : NULL;
	if (!f || fread(&eh, sizeof(eh), 1, f) != 1 ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_shentsize != sizeof(Elf64_Shdr))
		goto done;
	sh = infile_read_range(f, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(*sh));
	if (!sh)
		goto done;
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		uint64_t nsyms;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh.e_shnum)
			continue;
		nsyms = sh[i].sh_size / sizeof(Elf64_Sym);
		syms = infile_read_range(f, sh[i].sh_offset, nsyms * sizeof(Elf64_Sym));
		str = infile_read_range(f, sh[sh[i].sh_link].sh_offset, sh[sh[i].sh_link].sh_size);
		if (!syms || !str || !sh[sh[i].sh_link].sh_size)
			goto done;
		str[sh[sh[i].sh_link].sh_size - 1] = '\0';
		ef->f = calloc(nsyms + 1, sizeof(*ef->f));
		if (!ef->f)
			goto oom;
		for (uint64_t k = 0; k < nsyms; k++) {
			const Elf64_Sym *s = &syms[k];

			if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || !s->st_size ||
			    s->st_name >= sh[sh[i].sh_link].sh_size)
				continue;
			ef->f[ef->n].addr = s->st_value;
			ef->f[ef->n].size = s->st_size;
			ef->f[ef->n].name = strdup(str + s->st_name);
			if (!ef->f[ef->n].name)
				goto oom;
			ef->n++;
		}
		qsort(ef->f, ef->n, sizeof(*ef->f), cmp_func);
		break;
	}
done:
	*out = ef;
	ef = NULL;
	ret = 0;
oom:
	if (f)
		fclose(f);
	free(sh);
	free(syms);
	free(str);
	elf_funcs_free(ef);
	return ret;
}

const struct elf_func *elf_funcs_find(const struct elf_funcs *ef, uint64_t addr)
{
	size_t lo = ef ? addr_search(ef->f, (size_t)ef->n, sizeof(*ef->f),
				     offsetof(struct elf_func, addr), addr) : 0;

	if (!lo || addr >= ef->f[lo - 1].addr + ef->f[lo - 1].size)
		return NULL;
	return &ef->f[lo - 1];
}

void elf_funcs_free(struct elf_funcs *ef)
{
	if (!ef)
		return;
	for (uint64_t i = 0; i < ef->n; i++)
		free(ef->f[i].name);
	free(ef->f);
	free(ef);
}
