#ifndef EGPROF_INPUT_CHECK_H
#define EGPROF_INPUT_CHECK_H
/*
 * Pre-checks of the files upstream gprof opens itself, before it runs: the
 * program, the gmon files, -R's function map and -S's symbol table.
 * Upstream hangs or crashes on some of them, and a crash or a hang is no
 * answer to give a user (doc/dev/reliability.md has each case with what stock
 * gprof 2.40 does):
 *
 *   - a FIFO nobody writes blocks it for ever, /dev/zero never ends (of
 *     the devices, only /dev/null is read: it is an empty file);
 *   - -R reads its map twice, rewinding between: a directory makes it loop
 *     for ever, a pipe leaves the second reading empty;
 *   - an empty map makes it compare and copy a buffer it never filled, and
 *     an entry without a space after its file name (not `nm -A` output)
 *     makes it copy from address 1: both crash, or not, by luck.
 *
 * Those are refused, with one error() naming the file and the problem, in
 * every mode: gmon_check() checks each gmon file's kind here first.
 * Every other problem (a missing file, a directory given as the program,
 * a map upstream cannot parse) is left to upstream, so its messages stay
 * byte-identical, and so is every input upstream reads well: a gmon file
 * from a pipe (`gprof app <(zcat gmon.out.gz)`) reads once, front to back.
 */

/* What upstream does with a file decides what it may be. */
enum upstream_input {
	INPUT_IMAGE,   /* the program: BFD seeks in it */
	INPUT_GMON,    /* a gmon file: read once, front to back */
	INPUT_MAP,     /* -R FILE: read twice, rewound between */
	INPUT_SYMTAB,  /* -S FILE: read twice, with a seek between */
};

/* 0 (upstream may read it, or will say itself what is wrong), or -1 after
 * an error() naming the file. */
int input_check(const char *path, enum upstream_input kind);

/* The program (the first operand, or a.out) and the last -R and -S of a
 * split command line (cmdline.h): what --rank-stats's loader opens besides
 * its gmon files.  0, or -1 after the first error. */
struct cmdline;
int input_check_cmdline(const struct cmdline *cl);

/*
 * Every file upstream's main will open for this gprof command line: the
 * above, and the gmon files (the other operands, or gmon.out) with
 * gmon_check() at GMON_CHECK_LIMITS.  Nothing is checked when upstream
 * would open no file (-v, --help, a bad option).  0, or -1 after the first
 * error.
 */
int input_check_gprof_args(int argc, char **argv);

/*
 * Plain gprof's warning, one line on stderr, that leaves upstream's output
 * as it is: a gmon file does not belong to the program (gmon_owner.h:
 * another program's or another build's profile, which upstream reads into
 * plausible, wrong numbers).  Reads the binary's ELF symbols and the gmon
 * files: run it where its allocations cannot move upstream's heap.
 */
void input_warn_plain(int argc, char **argv);

/* What a file starts with, by its magic: a program, a gmon file, or
 * neither (or it cannot be read). */
enum file_kind { KIND_OTHER, KIND_ELF, KIND_GMON };
enum file_kind input_file_kind(const char *path);

#endif
