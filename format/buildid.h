#ifndef CALLPATH_BUILDID_H
#define CALLPATH_BUILDID_H
/*
 * buildid.h - the GNU build-id of a binary, and whether a sidecar (which
 * records the build-id of the program that wrote it) comes from it.  Used
 * by the call-path reports and by the check that every gmon file of a
 * --diff, --rank-stats or graph export belongs to its binary
 * (gprof-ext/gmon_owner.h).
 */
#include <stddef.h>

struct sidecar;

/* The build-id note of an ELF64 image into id (at most max bytes): its
 * length, 0 when the image has none or is not ELF64, -1 when unreadable. */
int elf_build_id(const char *path, unsigned char *id, size_t max);

/* 0 when sc's build-id is image's (or either has none), else -1 reported:
 * "'SOURCE' was recorded from another binary than 'IMAGE' (build-id
 * differs)". */
int sidecar_check_build_id(const struct sidecar *sc, const char *source, const char *image);

#endif
