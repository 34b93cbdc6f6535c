/*
 * srcmap.c - source positions through BFD (srcmap.h).  No upstream gprof
 * state: BFD is a library, and each map is its own bfd.
 */
#include "sysdep.h"
#include "bfd.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gprof-ext/srcmap.h"
#include "model/callpath_model.h"	/* struct callpath_inline */
#include "utils/infile.h"
#include "utils/banned.h"

struct srcmap {
	bfd *abfd;
	asymbol **syms;
	int has_lines;
};

struct srcmap *srcmap_open(const char *path)
{
	struct srcmap *sm = calloc(1, sizeof(*sm));
	char err[512];
	uint64_t fsize;
	long size;
	int fd;

	if (!sm)
		return NULL;
	/* regular files only (utils/infile.h): a path that is now a FIFO
	 * would wait for a writer for ever */
	if ((fd = infile_open(path, &fsize, err, sizeof(err))) < 0) {
		free(sm);
		return NULL;
	}
	bfd_init();
	sm->abfd = bfd_fdopenr(path, NULL, fd);	/* closes fd, now or at bfd_close */
	if (!sm->abfd || !bfd_check_format(sm->abfd, bfd_object)) {
		srcmap_close(sm);
		return NULL;
	}
	/* the symbols, as addr2line passes them: BFD names a function from
	 * them where the debug information does not */
	size = (bfd_get_file_flags(sm->abfd) & HAS_SYMS) ? bfd_get_symtab_upper_bound(sm->abfd)
							 : 0;
	if (size > 0 && (sm->syms = malloc((size_t)size)) &&
	    bfd_canonicalize_symtab(sm->abfd, sm->syms) < 0) {
		free(sm->syms);
		sm->syms = NULL;
	}
	sm->has_lines = bfd_get_section_by_name(sm->abfd, ".debug_line") != NULL ||
			bfd_get_section_by_name(sm->abfd, ".gnu_debuglink") != NULL ||
			bfd_get_section_by_name(sm->abfd, ".note.gnu.build-id") != NULL;
	return sm;
}

void srcmap_close(struct srcmap *sm)
{
	if (!sm)
		return;
	if (sm->abfd)
		bfd_close(sm->abfd);
	free(sm->syms);
	free(sm);
}

int srcmap_has_lines(struct srcmap *sm)
{
	return sm && sm->has_lines;
}

int srcmap_find(struct srcmap *sm, uint64_t addr, struct callpath_inline *out, int max)
{
	const char *file = NULL, *func = NULL;
	unsigned int line = 0;
	asection *sec;
	int n = 0;

	if (!sm || max < 1)
		return -1;
	for (sec = sm->abfd->sections; sec; sec = sec->next)
		if ((bfd_section_flags(sec) & SEC_CODE) && addr >= bfd_section_vma(sec) &&
		    addr - bfd_section_vma(sec) < bfd_section_size(sec))
			break;
	if (!sec || !bfd_find_nearest_line(sm->abfd, sec, sm->syms, addr - bfd_section_vma(sec),
					   &file, &func, &line) ||
	    !file || !line)
		return -1;
	do {
		out[n].func = func;
		out[n].file = file;
		out[n].line = (int)line;
		n++;
	} while (n < max && bfd_find_inliner_info(sm->abfd, &file, &func, &line));
	return n;
}
