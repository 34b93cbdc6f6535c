#ifndef CALLPATH_ELFSYMS_H
#define CALLPATH_ELFSYMS_H
/*
 * elfsyms.h - the function symbols of an ELF64 image's .symtab, for the
 * functions gprof leaves out of its own table.
 *
 * gprof ignores symbols whose names hold a '.' it does not know (OpenMP's
 * outlined `main._omp_fn.0`, `foo.lto_priv.0`, `.cold` parts) and
 * attributes their addresses to the function before them, so a worker
 * thread's root would read `work` (or a C++ static initialiser).  The
 * call-path reports name such a callee by its own symbol.
 *
 *   struct elf_funcs *ef = NULL;
 *   elf_funcs_read("prog", &ef);            // NULL set: none, or unreadable
 *   const char *n = elf_funcs_find(ef, 0x1234);
 *   elf_funcs_free(ef);
 */
#include <stdint.h>

struct elf_func {
	uint64_t addr, size;	/* link-time [addr, addr + size) */
	char *name;
};

struct elf_funcs {
	struct elf_func *f;	/* sorted by addr */
	uint64_t n;
};

/*
 * Read `path`'s STT_FUNC symbols of non-zero size.  0 with *out set (may
 * be empty: not ELF64, stripped), -1 when out of memory.
 */
int elf_funcs_read(const char *path, struct elf_funcs **out);

/* The function symbol whose range holds `addr`, or NULL. */
const struct elf_func *elf_funcs_find(const struct elf_funcs *ef, uint64_t addr);

void elf_funcs_free(struct elf_funcs *ef);

#endif
