#ifndef CALLPATH_LEAVES_H
#define CALLPATH_LEAVES_H
/*
 * leaves.h - what a sampled program counter outside the program's own
 * functions was: the name of a leaf frame (sidecar.h, SIDECAR_NODE_LEAF)
 * in a shared library, the vDSO or the instrumentation, from the objects
 * the sidecar lists (path, address range, load bias, build-id).
 *
 * A library's functions come from its .symtab, else from its detached
 * debug file (/usr/lib/debug/.build-id/xx/yyyy.debug, Debian's -dbg
 * packages), else from its .dynsym (exported functions only: a program
 * counter in an unexported function, such as the memcpy variant glibc
 * chose at run time, is then named by the object alone, "[libc.so.6]").
 * An object whose file now has another build-id than the run recorded is
 * named by the object alone too: its symbols would be another build's.
 * The vDSO is read from the kernel's copy in /lib/modules when present.
 *
 *   struct leaf_namer *ln = leaf_namer_new(sc, NULL);
 *   char name[512];
 *   enum leaf_class c = leaf_name(ln, pc, name, sizeof(name));
 *   // "exp [libm.so.6]", LEAF_LIBRARY
 *   leaf_namer_free(ln);
 */
#include <stddef.h>
#include <stdint.h>

struct sidecar;

/* Where a sample's time goes in the report's split. */
enum leaf_class {
	LEAF_PROGRAM,		/* the program's own code */
	LEAF_LIBRARY,		/* a shared library or the vDSO */
	LEAF_INSTRUMENTATION,	/* mcount, the runtime, its signal handling */
	LEAF_UNKNOWN,		/* no object holds the program counter */
	LEAF_CLASSES
};

/* The name the instrumentation's leaves take (one frame per path). */
#define LEAF_INSTRUMENTATION_NAME "[instrumentation]"

struct leaf_namer;

/* A namer for the objects of `sc` (kept by pointer: it must outlive the
 * namer), demangling C++ names with `demangle` (malloc'd result, NULL when
 * not mangled; NULL: names as in the symbol table); NULL when out of
 * memory.  Symbols are read on first use. */
struct leaf_namer *leaf_namer_new(const struct sidecar *sc,
				  char *(*demangle)(const char *name));
void leaf_namer_free(struct leaf_namer *ln);

/*
 * Name run-time address `pc`, which lies outside the main program: "sym
 * [object]" (the object's last path component), "[object]" when no
 * symbol holds it, LEAF_INSTRUMENTATION_NAME for the instrumentation's
 * code (libcallpath, glibc's mcount and profiling handler, the signal
 * return trampoline), "[unknown]" outside every object.  The class.
 */
enum leaf_class leaf_name(struct leaf_namer *ln, uint64_t pc, char *buf, size_t len);

/* Is `name` (a function's symbol-table name) part of the instrumentation:
 * glibc's mcount, __fentry__, its profiling handler, the signal return
 * trampoline? */
int leaf_name_is_instrumentation(const char *name);

#endif
