#ifndef EGPROF_PPROF_H
#define EGPROF_PPROF_H
/*
 * pprof's profile.proto (github.com/google/pprof, proto/profile.proto),
 * built in memory and written gzipped, as pprof, speedscope and Perfetto
 * read it.  A small encoder of the protobuf wire format (varints and
 * length-delimited fields are all profile.proto uses), tested by reading
 * the files back with pprof itself (testsuite/e2e/t216..).
 *
 *   struct pprof *pp = pprof_new();
 *   int cpu = pprof_sample_type(pp, "cpu", "nanoseconds");  ...
 *   uint64_t m = pprof_mapping(pp, lo, hi, "app", "4a5f...");
 *   uint64_t fn = pprof_function(pp, "main", "main", "app.c", 12);
 *   uint64_t loc = pprof_location(pp, m, 0x1139, fn, 12);
 *   pprof_sample(pp, (uint64_t[]){ leaf_loc, ..., root_loc }, n, values, NULL);
 *   pprof_write(fp, pp);                 gzipped profile.proto
 *   pprof_free(pp);
 *
 * Stacks are leaf first, as profile.proto says.  Values are given in the
 * order of the sample types.  Strings are interned (string_table[0] is "").
 * Functions are one per (name, system name, file), locations one per
 * (mapping, address, function, line): asking again returns the same id, so
 * two sides of a diff share their functions and pprof's reports add them.
 * The builder keeps every error until pprof_write, which reports it
 * (out of memory) and returns -1.
 *
 * Ownership: the builder copies every string it is given.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pprof;

struct pprof *pprof_new(void);
void pprof_free(struct pprof *pp);

/* A sample type (profile.proto's ValueType): its index in each sample's
 * values.  Types are added before any sample. */
int pprof_sample_type(struct pprof *pp, const char *type, const char *unit);
/* The type shown first (its index; without it, viewers show the last
 * type), and what one sample stands for (period_type, period). */
void pprof_default_type(struct pprof *pp, int type);
void pprof_period(struct pprof *pp, const char *type, const char *unit, int64_t period);
void pprof_comment(struct pprof *pp, const char *text);

/* Ids start at 1; 0 is returned when out of memory (then pprof_write fails). */
uint64_t pprof_mapping(struct pprof *pp, uint64_t start, uint64_t limit, const char *file,
		       const char *build_id, int has_filenames, int has_lines);
uint64_t pprof_function(struct pprof *pp, const char *name, const char *system_name,
			const char *file, int64_t start_line);
uint64_t pprof_location(struct pprof *pp, uint64_t mapping, uint64_t address,
			uint64_t function, int64_t line);

/* A sample: nlocs location ids, leaf first; values[] one per sample type;
 * label_key/label_value a string label, or NULL.  Samples whose values are
 * all 0 are left out. */
void pprof_sample(struct pprof *pp, const uint64_t *locs, size_t nlocs, const int64_t *values,
		  const char *label_key, const char *label_value);

/*
 * Stacks that share their callers, for a calling-context tree: the stack
 * of location `loc` called from stack `up` (0: from nowhere), its id (> 0;
 * 0 when out of memory), and a sample of a stack.  A tree of n frames is n
 * stacks whatever its depth: each sample's location list (as long as its
 * path) is walked out of them as the profile is written, never stored.
 *
 *   uint64_t main_s = pprof_stack(pp, 0, main_loc);
 *   uint64_t f_s = pprof_stack(pp, main_s, f_loc);
 *   pprof_sample_stack(pp, f_s, values, NULL, NULL);   stack f, main
 */
uint64_t pprof_stack(struct pprof *pp, uint64_t up, uint64_t loc);
void pprof_sample_stack(struct pprof *pp, uint64_t stack, const int64_t *values,
			const char *label_key, const char *label_value);

/* The profile, gzipped, encoded and compressed a piece at a time (memory
 * of the builder's size, not the encoding's).  0, or -1 after a write
 * error (not reported: outfile_write names the file) or out of memory
 * (reported). */
int pprof_write(FILE *fp, const struct pprof *pp);
/* The same, ungzipped, into *buf (malloc'd): for the unit tests. */
int pprof_encode(const struct pprof *pp, unsigned char **buf, size_t *len);

#endif
