/*
 * Pre-checks of the files upstream gprof opens itself (input_check.h).
 * Needs nothing of upstream, so the unit test links it alone; the walk over
 * a command line is in input_check_args.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "gprof-ext/input_check.h"
#include "utils/infile.h"
#include "utils/error.h"
#include "utils/banned.h"

/* Upstream's read_function_mappings (corefile.c) reads into a buffer of
 * BUFSIZE (1024) bytes with these formats; they must stay its own. */
#define MAP_FIELD "%1023[^\n:]"
#define MAP_REST "%1023[^\n]\n"
#define MAP_NOSYMS "No symbols in "

/* The 1-based line of byte `pos`, for a message; *midline: `pos` is not
 * where its line starts (upstream's reader split a long line there). */
static unsigned long line_of(FILE *fp, off_t pos, int *midline)
{
	unsigned long line = 1;
	int c = '\n';

	*midline = 0;
	if (fseeko(fp, 0, SEEK_SET) != 0)
		return 0;
	while (pos-- > 0 && (c = getc(fp)) != EOF)
		line += c == '\n';
	*midline = c != '\n';
	return line;
}

/*
 * -R's map, parsed as upstream parses it (its second pass, which does what
 * the first does and copies the names), with the same formats on the same
 * C library, so both see the same fields.  Where upstream would report a
 * parse error it exits before its second pass: left to it.  Refused: a
 * file that ends before the first field (upstream then reads its
 * uninitialised buffer), an entry whose rest has no space (upstream takes
 * strrchr(rest, ' ') + 1 of NULL: a line that is not `nm -A` output, or the
 * remains of one longer than two fields, as a C++ name of 2,000 bytes
 * makes), a read error (its loop waits for an end of file that never
 * comes).
 */
static int check_map(const char *path, FILE *fp)
{
	char buf[1024] = "";
	off_t start = 0, bad = -1;

	while (!feof(fp)) {
		int m;

		start = ftello(fp);
		m = fscanf(fp, MAP_FIELD, buf);
		if (m == 0)
			return 0; /* upstream: "unable to parse mapping file" */
		if (m == EOF && ferror(fp))
			return error("%s: %s", path, strerror(errno ? errno : EIO));
		if (m == EOF && start == 0)
			return error("%s: the function map is empty (-R reads `nm -A` "
				     "output: one 'FILE:ADDRESS TYPE NAME' a line)", path);
		if (strncmp(buf, MAP_NOSYMS, strlen(MAP_NOSYMS)) == 0) {
			if (fscanf(fp, "\n") == EOF)
				return 0; /* upstream: "unable to parse" */
			continue;
		}
		/* buf keeps the file name when the rest is missing, as
		 * upstream's does */
		m = fscanf(fp, MAP_REST, buf);
		if (m == 0)
			return 0;
		if (m == EOF && ferror(fp))
			return error("%s: %s", path, strerror(errno ? errno : EIO));
		if (bad < 0 && !strchr(buf, ' '))
			bad = start;
	}
	if (bad >= 0) {
		int midline;
		unsigned long line = line_of(fp, bad, &midline);

		if (midline)
			return error("%s: line %lu is too long for gprof's map reader, "
				     "which takes %d bytes a field: its remains are read as "
				     "an entry without 'ADDRESS TYPE NAME'", path, line,
				     (int)sizeof(buf) - 1);
		return error("%s: line %lu is not `nm -A` output: no 'ADDRESS TYPE "
			     "NAME' after its file name", path, line);
	}
	return 0;
}

/* Why a pipe cannot be this input: upstream reads it twice, or seeks. */
static const char *needs_seeks(enum upstream_input kind)
{
	switch (kind) {
	case INPUT_IMAGE: return "; the program is read with seeks";
	case INPUT_MAP: return "; -R reads its function map twice";
	case INPUT_SYMTAB: return "; -S reads its symbol table twice";
	default: return "";
	}
}

/* /dev/null (character device 1:3 on Linux, Documentation/admin-guide/
 * devices.txt) reads as an empty file, and upstream refuses it as one:
 * "not in executable format", "file too short to be a gmon file", "has no
 * symbols".  Every other device may never end (/dev/zero) or block. */
static int is_null_device(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3;
}

int input_check(const char *path, enum upstream_input kind)
{
	struct stat st;
	FILE *fp;
	int ret;

	if (stat(path, &st) != 0)
		return 0; /* upstream says why */
	if (is_null_device(&st)) {
		if (kind == INPUT_MAP)
			return error("%s: the function map is empty (it is the null "
				     "device)", path);
		return 0;
	}
	if (S_ISREG(st.st_mode)) {
		if (kind != INPUT_MAP || !(fp = fopen(path, "r")))
			return 0; /* only the map's contents matter; upstream
				   * says "could not open" itself */
		errno = 0;
		ret = check_map(path, fp);
		fclose(fp);
		return ret;
	}
	/* upstream refuses a directory, except as -R's map (it loops) */
	if (S_ISDIR(st.st_mode) && kind != INPUT_MAP)
		return 0;
	/* a gmon file is read once, front to back: a pipe will do */
	if (S_ISFIFO(st.st_mode) && kind == INPUT_GMON)
		return 0;
	/* a device may never end (/dev/zero) or block (a terminal); a pipe
	 * may never be written, and these readers need more than one pass */
	return error("%s: not a regular file (%s)%s", path, infile_kind(st.st_mode),
		     S_ISFIFO(st.st_mode) ? needs_seeks(kind) : "");
}
