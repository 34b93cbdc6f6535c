#ifndef EGPROF_MODEL_LINES_H
#define EGPROF_MODEL_LINES_H
/*
 * lines.h - where a run's time fell, line by line: per function, the
 * samples of each source line (and of each function inlined there), and
 * the line-by-line comparison of two runs.  Part of the model of a run
 * (model.md): built once per run, only when a view asks for lines, and
 * read by the views (--diff -l, --diff -A, --pprof's locations), which
 * open no file but the source files they print.
 *
 * The source, one rule for every view:
 *  - the call-path sidecars where they measured time: their leaves hold
 *    every sampled program counter (sidecar-format.md, "Where samples
 *    fell"), collected as the run reads its sidecars (line_pcs_add, from
 *    run.c's one read of each), then mapped to file:line and to the
 *    inlined function with the debug information of the program and of
 *    each library that has some (gprof-ext/srcmap.h);
 *  - otherwise gmon.out's histogram: each bin's samples on the line of
 *    the bin's middle address, as gprof -l gives the bins to lines.
 * lp->source says which, once.
 *
 *   struct line_pcs *pcs = line_pcs_new();
 *   line_pcs_add(pcs, sidecar);            each sidecar as it is read
 *   struct line_profile *lp;
 *   lines_build(&(struct lines_input){ ... }, &lp);
 *   struct line_diff *ld;
 *   lines_diff(lp_a, lp_b, &opts, &ld);
 *
 * Ownership: a line_profile owns its rows and their strings; a line_diff
 * points into the two profiles it compares, which must outlive it.
 */
#include <stddef.h>
#include <stdint.h>

struct sidecar;
struct profile;

/* ------------------------------------------------------------------ */
/* The sampled program counters of a run's sidecars                    */

struct line_pcs;
struct line_pcs *line_pcs_new(void);
void line_pcs_free(struct line_pcs *pcs);
/* Add every time sample of `sc` that kept its program counter: the
 * program's at their link-time address, a library's at its file address
 * under its object's path (so that the files of a run sum).  0, or -1
 * when out of memory (reported). */
int line_pcs_add(struct line_pcs *pcs, const struct sidecar *sc);
/* The distinct program counters kept (0: none, or NULL). */
size_t line_pcs_size(const struct line_pcs *pcs);

/* ------------------------------------------------------------------ */
/* A run's lines                                                       */

struct line_row {
	const char *func;	/* the function as the tables name it */
	const char *file;	/* the source file as the debug information names
				   it; NULL: no line is known (line 0) */
	int line;
	const char *inlined;	/* the function inlined at this line (the
				   innermost), NULL: the function's own code */
	uint64_t samples;
	int library;		/* a shared library's code */
};

struct line_profile {
	struct line_row *rows;	/* by function, then file, line, inlined */
	size_t n;
	double hz;		/* samples per second */
	uint64_t total;		/* every sample given a function */
	uint64_t no_line;	/* of them, those of code without line
				   information (rows with file NULL) */
	uint64_t unplaced;	/* samples left out: the instrumentation's,
				   no known object's, no program counter kept */
	int from_sidecars;	/* the source: the sidecars, else gmon.out */
	char source[512];	/* it, in words */
	char skipped[512];	/* the libraries sampled without line
				   information, in words ("" none) */
	const char *binary;	/* the image (the run's) */

	/* private: the interned strings */
	char **strs;
	size_t nstrs, alloc_strs, alloc_rows;
};

struct lines_input {
	const char *binary;
	const struct profile *gmon;	/* its functions (names, addresses) */
	char *const *gmon_files;	/* for the histogram when no pcs */
	size_t ngmon;
	const struct line_pcs *pcs;	/* NULL: the run has no sidecars */
	double hz;			/* the sidecars' rate */
};

/* 0, or -1 after reporting (out of memory, an unreadable gmon file). */
int lines_build(const struct lines_input *in, struct line_profile **out);
void lines_free(struct line_profile *lp);

/* --short-names: each row's function and inlined function named as the
 * command's one map names them (utils/names.h), so the lines read as every
 * other output.  0, or -1 when out of memory (reported). */
struct name_map;
int lines_shorten_names(struct line_profile *lp, struct name_map *nm);

/* The samples of function `func` (0 when none). */
uint64_t lines_func_samples(const struct line_profile *lp, const char *func);

/* ------------------------------------------------------------------ */
/* Two runs, line by line                                              */

struct line_diff_row {
	const char *func, *file, *inlined;	/* the baseline's, else the second's */
	int line;
	uint64_t a, b;		/* samples in each run */
	double a_s, b_s;	/* seconds */
	double change;		/* a_s - b_s: baseline minus second */
	double z;		/* the change over its noise */
	int significant;	/* beyond the noise (the one rule) */
};

struct line_diff {
	struct line_diff_row *rows;	/* beyond the noise first, by |change|,
					   then the others, then equal lines */
	size_t n, changed, nsig;
	size_t counted;		/* tests the family was corrected for */
	double jitter;		/* the run-to-run jitter used (relative) */
	double k;		/* --noise */
	double total_s[2];
	/* what the matching could not tell: the builds differ, so a line
	 * that moved shows as two rows ("" when they are one build) */
	char warning[512];
};

struct line_diff_opts {
	double noise_sigmas;	/* K of the rule (--noise) */
	double jitter_prior;	/* 0: the diff's */
	const char *binary[2];	/* the images: one build or two */
};

/*
 * Lines matched by function, the file's last path component and line
 * number, and inlined function (so two builds in two directories match).
 * 0, or -1 (out of memory, reported).
 */
int lines_diff(const struct line_profile *a, const struct line_profile *b,
	       const struct line_diff_opts *o, struct line_diff **out);
void lines_diff_free(struct line_diff *d);

#endif
