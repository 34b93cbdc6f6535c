/*
 * buildid.c - does a sidecar come from this binary?  (format/buildid.h)
 */
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "format/buildid.h"
#include "format/sidecar.h"
#include "utils/error.h"
#include "utils/infile.h"
#include "utils/banned.h"

/*
 * The GNU build-id note of an ELF64 image, read from its section headers.
 * Returns its length, 0 when the image has none or is not ELF64 (nothing to
 * compare then), -1 when the file cannot be read.
 */
int elf_build_id(const char *path, unsigned char *id, size_t max)
{
	FILE *f = infile_fopen(path, NULL, 0);	/* regular files only: a FIFO waits */
	Elf64_Ehdr eh;
	int ret = 0;

	if (!f)
		return -1;
	if (fread(&eh, sizeof(eh), 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_shentsize != sizeof(Elf64_Shdr))
		goto out;
	for (unsigned i = 0; i < eh.e_shnum && !ret; i++) {
		Elf64_Shdr sh;
		unsigned char buf[1024];
		size_t len, off = 0;

		if (fseek(f, (long)(eh.e_shoff + (uint64_t)i * sizeof(sh)), SEEK_SET) ||
		    fread(&sh, sizeof(sh), 1, f) != 1)
			break;
		if (sh.sh_type != SHT_NOTE || sh.sh_size > sizeof(buf))
			continue;
		len = (size_t)sh.sh_size;
		if (fseek(f, (long)sh.sh_offset, SEEK_SET) || fread(buf, 1, len, f) != len)
			continue;
		while (off + sizeof(Elf64_Nhdr) <= len) {
			Elf64_Nhdr nh;
			size_t name_at = off + sizeof(nh), desc_at;

			memcpy(&nh, buf + off, sizeof(nh));
			desc_at = name_at + ((nh.n_namesz + 3) & ~3u);
			if (desc_at + nh.n_descsz > len)
				break;
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp(buf + name_at, "GNU", 4) && nh.n_descsz <= max) {
				memcpy(id, buf + desc_at, nh.n_descsz);
				ret = (int)nh.n_descsz;
				break;
			}
			off = desc_at + ((nh.n_descsz + 3) & ~3u);
		}
	}
out:
	fclose(f);
	return ret;
}

int sidecar_check_build_id(const struct sidecar *sc, const char *source, const char *image)
{
	unsigned char id[SIDECAR_BUILD_ID_MAX];
	int n;

	if (!sc->build_id_len || !image)
		return 0;
	n = elf_build_id(image, id, sizeof(id));
	if (n <= 0)
		return 0;	/* upstream read it; it has no build-id to compare */
	if ((uint32_t)n != sc->build_id_len || memcmp(id, sc->build_id, (size_t)n))
		return error("%s: recorded from another binary than '%s' "
			     "(build-id differs)", source, image);
	return 0;
}

