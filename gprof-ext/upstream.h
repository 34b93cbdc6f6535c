#ifndef EGPROF_UPSTREAM_H
#define EGPROF_UPSTREAM_H
/*
 * The adapter to upstream GNU gprof.  Upstream keeps its whole state in
 * globals and exits on errors, so this module is the only one that touches
 * them; everything else sees `struct profile` (diff/profile.h).
 *
 * Upstream's gprof.c is compiled unmodified with its main renamed to
 * gprof_upstream_main and its calls to getopt_long and gmon_out_read routed
 * through this module (-D on its compile line), which lets us (1) learn
 * upstream's option table, (2) add our section to --help and our line to -v,
 * and (3) fork once per gmon file after the binary's symbols are read.
 *
 * Calling sequence for loading profiles (each side of a diff, each rank):
 *
 *   struct upstream_job *job;
 *   upstream_load_start(&req, &job);     forks the loader; returns at once
 *   ... start another ...
 *   upstream_load_finish(job, &profiles, &n);   reads, waits, frees job
 *
 * Loaders run upstream gprof with the user's options, print nothing on
 * stdout, and let upstream's own error messages reach stderr.
 */
#include <stddef.h>
#include <stdint.h>
#include <getopt.h>
#include "diff/profile.h"

/* Exactly GNU gprof: upstream's main on this argv.  May exit. */
int upstream_main(int argc, char **argv);

/* Upstream's short-option string and long-option table, as its main passes
 * them to getopt_long, so our front end splits argv exactly as upstream
 * will.  The pointers are upstream's static data: do not free. */
int upstream_option_spec(const char **optstring, const struct option **longopts);

enum { UPSTREAM_CLONES_FOLD = 1, UPSTREAM_CLONES_OWN = 2 };

struct upstream_load {
	const char *argv0;         /* program name for upstream's messages */
	char *const *gprof_args;   /* the user's gprof options, no operands */
	size_t nargs;
	const char *binary;
	char *const *gmon_files;
	size_t ngmon;
	int each;                  /* one profile per gmon file, not their sum */
	int jobs;                  /* with each: files read at once (>= 1) */
	int force;                 /* --force: read gmon files that do not
				      belong to the binary (gmon_owner.h) */
	int clones;                /* GCC clones upstream drops (foo.isra.0,
				      foo.cold): 0 upstream's view (their
				      time on the function before them),
				      UPSTREAM_CLONES_FOLD the diff's view
				      (parts of their base, diff/clones.h),
				      UPSTREAM_CLONES_OWN functions of their
				      own ("foo [clone .isra.0]") */
	int counts;                /* with each: read with upstream_load_counts */
	int sidecars_checked;      /* the caller reads the sidecar beside each
				      gmon file and checks its build-id
				      itself: the owner check leaves them (a
				      sidecar is read once) */
};

struct upstream_job;

int upstream_load_start(const struct upstream_load *req, struct upstream_job **job);

/*
 * Fork the loader of a later upstream_load_start() (with `each`) now,
 * while this process is small, and keep it waiting: its per-file workers,
 * forked from it, then copy a small process whatever the caller builds
 * meanwhile (the names and plans of 100,000 rank files), so reading is
 * linear in the files.  Call it first thing; a failure only means the
 * loader is forked at start.  upstream_load_prefork_cancel() ends a
 * loader that was never used (call it on the way out).
 */
int upstream_load_prefork(void);
void upstream_load_prefork_cancel(void);
/* On success *profiles is a malloc'd array of *n profiles (one, or one per
 * gmon file with `each`, in the order given); the caller owns both.  Frees
 * the job.  With `each`, the profiles share one copy of the symbols'
 * strings (the loader sends its symbol table once: diff/profile.h, Pools),
 * and with `clones` each is clone-folded as it arrives. */
int upstream_load_finish(struct upstream_job *job, struct profile ***profiles, size_t *n);

/* Check that each gmon file belongs to the binary upstream has read
 * (gmon_owner.h).  0, or -1 (reported, naming both files).
 * sidecars_checked: the caller reads the sidecars beside the files and
 * checks their build-id itself (each is read once). */
int upstream_check_gmon(const char *binary, char *const *files, size_t n, int sidecars_checked);
/*
 * Streaming, for many files (--rank-stats over thousands of ranks): one
 * profile at a time, in the order the workers finish, so the caller holds
 * one profile, not all of them.
 *
 *   while ((r = upstream_load_next(job, &i, &p)) > 0) { ...use p (file i)...;
 *           profile_free(p); }
 *   upstream_load_free(job);         r == 0: all read; r < 0: reported
 *
 * upstream_load_next returns 1 with a profile the caller owns, 0 after the
 * last one (the loader exited cleanly), -1 on failure (reported, naming
 * the file).  upstream_load_stop ends reading early (the loader gets EPIPE
 * and is reaped; nothing more is reported: the caller says why it
 * stopped); upstream_load_free stops and frees the job.
 */
int upstream_load_next(struct upstream_job *job, size_t *index, struct profile **out);
int upstream_load_stop(struct upstream_job *job);
/*
 * The same stream, lighter, for statistics over many files: with `counts`
 * in the request, each file's profile carries only its symbols (no cycles,
 * no arcs) with their self ticks, calls and recursive calls -- the numbers
 * upstream computed for that file, as in a whole profile -- and the
 * symbols' names are sent once, not once per file.  *out is the job's:
 * valid until the next call or upstream_load_free.  Returns as
 * upstream_load_next.
 */
int upstream_load_counts(struct upstream_job *job, size_t *index, const struct profile **out);
void upstream_load_free(struct upstream_job *job);

/* The profile upstream computed in this process, after upstream_main
 * returned (for exports of a single profile next to gprof's own output). */
int upstream_current_profile(struct profile **out);
/* Whether the image upstream read in this process has GCC clones that
 * upstream left out of its table (their time went to the function before
 * them): exports then read the profile again with UPSTREAM_CLONES_OWN,
 * through a loader preforked before upstream ran here (upstream's globals
 * cannot be run twice in one process); upstream_load_preforked() says
 * whether one waits. */
int upstream_has_dropped_clones(void);
/* Whether upstream gave some histogram bin's samples to the padding after
 * a function's code (upstream.c, padding_credit: crt's frame_dummy read
 * the share of the first function's entry): every load for the views
 * gives that share to the code, so exports then read the profile again,
 * as for clones. */
int upstream_has_padding_samples(void);
int upstream_load_preforked(void);

/* The source position of a link-time text address in the image upstream
 * read (after upstream_main returned), from its debug info.  *file is owned
 * by BFD.  0, or -1 when unknown. */
int upstream_addr_to_line(uint64_t addr, const char **file, int *line);
/*
 * The functions inlined at a link-time text address of the image upstream
 * read (`binary`'s, else nothing is said), from its debug information
 * (addr2line -i's): out[0..n) innermost first, out[n - 1] the function
 * the code belongs to; out[0]'s file and line are the address's own,
 * out[k]'s for k > 0 where out[k - 1] was inlined into it.  Strings are
 * BFD's.  n (1 when nothing is inlined there), or -1 when unknown.
 */
struct callpath_inline;
int upstream_addr_inlines(const char *binary, uint64_t addr, struct callpath_inline *out,
			  int max);
/* Whether upstream's options asked for lines (-l) and their files' full
 * paths (-L), as upstream parsed them (after upstream_main returned). */
void upstream_line_options(int *lines, int *full_paths);
/* A symbol-table name demangled as gprof demangles its own (malloc'd), or
 * NULL when it is not a mangled name. */
char *upstream_demangle(const char *name);

/*
 * Stage the gmon.sum upstream's -s writes as one of `set`'s outputs
 * (utils/outfile.h), so it is replaced only when the whole command
 * succeeds; NULL (the default, plain gprof) lets upstream write it itself.
 */
struct outset;
void upstream_stage_sum(struct outset *set);

/* Hooks our front end registers before calling upstream_main: text to add
 * after upstream's --help and after its -v lines. */
struct upstream_hooks {
	void (*after_help)(FILE *out);
	void (*after_version)(FILE *out);
};
void upstream_set_hooks(const struct upstream_hooks *hooks);

#endif
