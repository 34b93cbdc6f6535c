/*
 * test_callpath_report.c - naming sidecars through a profile, the printed
 * call-path profile and tree, folded stacks and summed sidecars
 * (callpath/report.c, folded.c, sum.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callpath/folded.h"
#include "callpath/report.h"
#include "format/sidecar.h"
#include "model/sum.h"
#include "diff/profile.h"
#include "utils/banned.h"

/* Link-time layout of the fixture program: each function 0x20 bytes. */
enum { MAIN = 0x1000, A = 0x1020, B = 0x1040, C = 0x1060, D = 0x1080, LIBC = 0x7000 };
#define LOAD 0x555555554000ull

static void add_fn(struct profile *p, const char *name, uint64_t addr)
{
	struct profile_sym s;

	memset(&s, 0, sizeof(s));
	s.name = strdup(name);
	s.print_name = strdup(name);
	s.addr = addr;
	s.end_addr = addr + 0x1f;
	s.flags = PSYM_FUNC;
	assert_true(profile_add_sym(p, &s) >= 0);
}

static struct profile *fixture_profile(void)
{
	struct profile *p = profile_new();

	assert_non_null(p);
	add_fn(p, "main", MAIN);
	add_fn(p, "a", A);
	add_fn(p, "b", B);
	add_fn(p, "c", C);
	add_fn(p, "d", D);
	return p;
}

/*
 * The acceptance tree, at run-time addresses (a PIE loaded at LOAD); the
 * call site of each node is a return address inside its caller:
 *
 *   main [1] (from the C library, outside the image)
 *   ├── a [3] (main+0x5)
 *   │   └── c [3] (a+0x5)
 *   └── b [9] (main+0x9)
 *       ├── c [7] (b+0x5)
 *       └── d [2] (b+0x9)
 *           └── c [2] (d+0x5)
 */
static struct sidecar *fixture_sidecar(uint64_t load)
{
	struct sidecar *sc = sidecar_new();
	uint32_t m, a, b, d, x;

	assert_non_null(sc);
	sc->load_address = load;
	assert_int_equal(sidecar_add(sc, SIDECAR_ROOT, LIBC + load, MAIN + 4 + load, 1, &m), 0);
	assert_int_equal(sidecar_add(sc, m, MAIN + 5 + load, A + 4 + load, 3, &a), 0);
	assert_int_equal(sidecar_add(sc, a, A + 5 + load, C + 4 + load, 3, &x), 0);
	assert_int_equal(sidecar_add(sc, m, MAIN + 9 + load, B + 4 + load, 9, &b), 0);
	assert_int_equal(sidecar_add(sc, b, B + 5 + load, C + 4 + load, 7, &x), 0);
	assert_int_equal(sidecar_add(sc, b, B + 9 + load, D + 4 + load, 2, &d), 0);
	assert_int_equal(sidecar_add(sc, d, D + 5 + load, C + 4 + load, 2, &x), 0);
	return sc;
}

static char *folded_text(const struct callpath_model *m)
{
	struct folded *f;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	assert_non_null(mem);
	assert_int_equal(folded_build(m, FOLDED_CALLS, &f), 0);
	assert_int_equal(folded_write(mem, f), 0);
	folded_free(f);
	fclose(mem);
	return buf;
}

static struct callpath_model *build(const struct sidecar *sc, const struct profile *p)
{
	struct callpath_model *m;

	assert_int_equal(callpath_model_build(sc, p, NULL, &m), 0);
	return m;
}

static const char acceptance_folded[] =
	"main 1\n"
	"main;a 3\n"
	"main;a;c 3\n"
	"main;b 9\n"
	"main;b;c 7\n"
	"main;b;d 2\n"
	"main;b;d;c 2\n";

static void test_model__pie_addresses_are_named_after_subtracting_the_load_address(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = fixture_sidecar(LOAD);
	struct callpath_model *m = build(sc, p);
	char *text = folded_text(m);

	(void)state;
	assert_string_equal(text, acceptance_folded);
	assert_int_equal(m->total, 27);
	free(text);
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

static void test_model__call_sites_are_function_plus_offset(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = fixture_sidecar(0);
	struct callpath_model *m = build(sc, p);

	(void)state;
	/* node 0 is main, called from outside the image */
	assert_string_equal(m->names[m->frames[0].site], "[unknown]");
	assert_string_equal(m->names[m->frames[1].func], "a");
	assert_string_equal(m->names[m->frames[1].site], "main+0x5");
	assert_string_equal(m->names[m->frames[6].site], "d+0x5");
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

static int fake_line(uint64_t addr, const char **file, int *line)
{
	*file = "/src/prog.c";
	*line = (int)(addr & 0xfff);
	return 0;
}

static void test_model__with_lines_call_sites_are_file_and_line_of_the_call(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = fixture_sidecar(0);
	struct callpath_symopts so = { 1, 0, fake_line, NULL, NULL, NULL };
	struct callpath_model *m;

	(void)state;
	assert_int_equal(callpath_model_build(sc, p, &so, &m), 0);
	/* return address main+0x5 = 0x1005; the call is the byte before */
	assert_string_equal(m->names[m->frames[1].site], "prog.c:4");
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

/*
 * Two call sites of c in b with the same names: separate frames in the
 * tree, one folded line with the sum.
 *   main ── b ─┬─ c (b+0x5) [4]
 *              └─ c (b+0x9) [5]
 */
static void test_folded__same_names_from_two_call_sites_are_one_line(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = sidecar_new();
	struct callpath_model *m;
	uint32_t mi, b, x;
	char *text;

	(void)state;
	assert_int_equal(sidecar_add(sc, SIDECAR_ROOT, LIBC, MAIN, 1, &mi), 0);
	assert_int_equal(sidecar_add(sc, mi, MAIN + 9, B, 1, &b), 0);
	assert_int_equal(sidecar_add(sc, b, B + 5, C, 4, &x), 0);
	assert_int_equal(sidecar_add(sc, b, B + 9, C, 5, &x), 0);
	m = build(sc, p);
	assert_int_equal(m->nr_frames, 4);
	text = folded_text(m);
	assert_string_equal(text, "main 1\nmain;b 1\nmain;b;c 9\n");
	free(text);
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

/* Line symbols (gprof -l) after a function extend it. */
static void test_model__line_symbols_extend_their_function(void **state)
{
	struct profile *p = profile_new();
	struct profile_sym s;
	struct sidecar *sc = sidecar_new();
	struct callpath_model *m;
	uint32_t x;

	(void)state;
	add_fn(p, "main", MAIN);
	p->syms[0].end_addr = MAIN + 0x7;	/* first line only */
	memset(&s, 0, sizeof(s));
	s.name = strdup("main");
	s.print_name = strdup("main");
	s.line = 12;
	s.addr = MAIN + 0x8;
	s.end_addr = MAIN + 0x1f;
	assert_true(profile_add_sym(p, &s) >= 0);
	assert_int_equal(sidecar_add(sc, SIDECAR_ROOT, MAIN + 0x10, MAIN + 0x4, 1, &x), 0);
	m = build(sc, p);
	assert_string_equal(m->names[m->frames[0].site], "main+0x10");
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

static char *report_text(const struct callpath_model *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	assert_non_null(mem);
	assert_int_equal(callpath_report_print(mem, m, "gmon.out.callpath"), 0);
	fclose(mem);
	return buf;
}

static void test_report__paths_of_a_function_with_counts_and_shares(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = fixture_sidecar(0);
	struct callpath_model *m = build(sc, p);
	char *text = report_text(m);

	(void)state;
	assert_non_null(strstr(text, "From 'gmon.out.callpath': 27 calls along 7 paths "
				     "to 5 functions.\n"));
	assert_non_null(strstr(text, "c: 12 calls, 3 paths\n"
				     "       calls  %calls  path\n"
				     "           7  58.33  main -> b (main+0x9) -> c (b+0x5)\n"
				     "           3  25.00  main -> a (main+0x5) -> c (a+0x5)\n"
				     "           2  16.67  main -> b (main+0x9) -> d (b+0x9) -> c (d+0x5)\n"));
	free(text);
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

static void test_report__tree_is_indented_by_depth_and_marks_several_parents(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = fixture_sidecar(0);
	struct callpath_model *m = build(sc, p);
	char *text = report_text(m);

	(void)state;
	assert_non_null(strstr(text, "       calls  function (call site)\n"
				     "           1  main\n"
				     "           9    b (main+0x9)\n"
				     "           7      *c (b+0x5)\n"
				     "           2      d (b+0x9)\n"
				     "           2        *c (d+0x5)\n"
				     "           3    a (main+0x5)\n"
				     "           3      *c (a+0x5)\n"));
	free(text);
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

/*
 * Call sites outside the program are 0 in a version-2 sidecar: main's (the
 * C library calls it) and a callback's (c, called back by qsort from a):
 *
 *   main [1] (0)
 *   └── a [3] (main+0x5)
 *       └── c [3] (0)
 */
static void test_report__external_call_sites_are_named_and_left_out_at_the_top(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = sidecar_new();
	struct callpath_model *m;
	uint32_t mn, a, x;
	char *text;

	(void)state;
	sc->load_address = LOAD;
	sc->program_start = LOAD;
	sc->program_end = LOAD + 0x2000;
	assert_int_equal(sidecar_add(sc, SIDECAR_ROOT, 0, MAIN + 4 + LOAD, 1, &mn), 0);
	assert_int_equal(sidecar_add(sc, mn, MAIN + 5 + LOAD, A + 4 + LOAD, 3, &a), 0);
	assert_int_equal(sidecar_add(sc, a, 0, C + 4 + LOAD, 3, &x), 0);
	m = build(sc, p);
	assert_string_equal(m->names[m->frames[0].site], "[external]");
	text = report_text(m);
	assert_non_null(strstr(text, "           3 100.00  main -> a (main+0x5) -> c ([external])\n"));
	assert_non_null(strstr(text, "           1 100.00  main\n"));
	assert_non_null(strstr(text, "       calls  function (call site)\n"
				     "           1  main\n"
				     "           3    a (main+0x5)\n"
				     "           3      c ([external])\n"));
	free(text);
	text = folded_text(m);
	assert_string_equal(text, "main 1\nmain;a 3\nmain;a;c 3\n");
	free(text);
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

/* Two runs of one PIE at different load addresses sum as one tree. */
/*
 * Samples on the acceptance tree (fixture_sidecar): c is called 3 times
 * from a, 7 from b and 2 from d, but its time is on a's path:
 *
 *   main            self  2
 *   ├── a           self  0
 *   │   └── c       self 80   (3 of c's 12 calls: gprof gives a 25%)
 *   └── b           self  8
 *       ├── c       self 10   (7 calls: gprof gives b 58%)
 *       └── d       self  0
 *           └── c   self 10   (2 calls: gprof gives d 17%)
 */
static struct sidecar *timed_sidecar(void)
{
	struct sidecar *sc = fixture_sidecar(LOAD);
	static const uint64_t self[] = { 2, 0, 80, 8, 10, 0, 10 };

	for (uint32_t i = 0; i < sc->nr_nodes; i++)
		sc->nodes[i].self_samples = self[i];
	sc->sampling = SIDECAR_SAMPLING_SELF;
	sc->unplaced_samples = 4;
	return sc;
}

static struct callpath_model *build_timed(const struct sidecar *sc, struct profile *p)
{
	p->hz = 100;
	return build(sc, p);
}

static void test_model__inclusive_samples_add_up_the_subtree(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = timed_sidecar();
	struct callpath_model *m = build_timed(sc, p);
	uint64_t incl[7];

	(void)state;
	assert_int_equal(m->nr_frames, 7);
	assert_int_equal(m->total_samples, 110);
	assert_int_equal(m->unplaced_samples, 4);
	callpath_model_inclusive(m, incl);
	/* frames are in sidecar order: main, a, a;c, b, b;c, b;d, b;d;c */
	assert_int_equal(incl[0], 110);
	assert_int_equal(incl[1], 80);
	assert_int_equal(incl[3], 28);
	assert_int_equal(incl[5], 10);
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

/*
 * Leaves (issue 22): main's node with sampled program counters in main
 * itself (its self time), in c's first bytes (c's, under main), in a
 * shared library the sidecar lists (named by the object, whose file is
 * not there), in the instrumentation (the runtime's leaf kind) and at no
 * object; a leaf at the top level.
 */
static void test_model__leaves_are_self_time_callees_libraries_or_overhead(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = sidecar_new();
	struct callpath_model *m;
	uint32_t mn, x;
	char *text;

	(void)state;
	assert_non_null(sc);
	sc->program_start = 0x1000;
	sc->program_end = 0x2000;
	assert_int_equal(sidecar_add_object(sc, "/nonexistent/libfoo.so.1", 0x7f0000, 0x7f1000,
					    0x7f0000, 0, NULL, 0), 0);
	assert_int_equal(sidecar_add(sc, SIDECAR_ROOT, 0, MAIN + 4, 1, &mn), 0);
	assert_int_equal(sidecar_add_leaf(sc, mn, SIDECAR_LEAF_PC, MAIN + 0x10, &x), 0);
	sc->nodes[x].self_samples = 5;
	assert_int_equal(sidecar_add_leaf(sc, mn, SIDECAR_LEAF_PC, C + 1, &x), 0);
	sc->nodes[x].self_samples = 3;
	assert_int_equal(sidecar_add_leaf(sc, mn, SIDECAR_LEAF_PC, 0x7f0100, &x), 0);
	sc->nodes[x].self_samples = 7;
	assert_int_equal(sidecar_add_leaf(sc, mn, SIDECAR_LEAF_OVERHEAD, 0x7f0100, &x), 0);
	sc->nodes[x].self_samples = 2;
	assert_int_equal(sidecar_add_leaf(sc, mn, SIDECAR_LEAF_PC, 0x900000, &x), 0);
	sc->nodes[x].self_samples = 1;
	assert_int_equal(sidecar_add_leaf(sc, SIDECAR_ROOT, SIDECAR_LEAF_OVERHEAD, 0x1, &x), 0);
	sc->nodes[x].self_samples = 4;
	/* a leaf takes no children, and no call takes a leaf's key */
	assert_int_equal(sidecar_add_leaf(sc, x, SIDECAR_LEAF_PC, MAIN, &x), -1);
	sc->sampling = SIDECAR_SAMPLING_SELF;
	sc->time_period = 1000000;
	m = build_timed(sc, p);
	assert_int_equal(m->total_samples, 22);
	assert_true(m->hz == 1000.0);
	assert_int_equal(m->class_samples[0], 8);	/* main 5, c's first bytes 3 */
	assert_int_equal(m->class_samples[1], 7);	/* libfoo */
	assert_int_equal(m->class_samples[2], 6);	/* the runtime's, twice */
	assert_int_equal(m->class_samples[3], 1);	/* no object */
	text = folded_text(m);
	free(text);
	text = report_text(m);
	assert_non_null(strstr(text, "main -> c\n"));
	assert_non_null(strstr(text, "main -> [libfoo.so.1]\n"));
	assert_non_null(strstr(text, "main -> [instrumentation]\n"));
	assert_non_null(strstr(text, "main -> [unknown]\n"));
	assert_non_null(strstr(text, "36.4% ran\nin the program's code, 31.8% in libraries, 27.3% in the\n"));
	free(text);
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

static void test_report__paths_with_self_and_inclusive_seconds_sorted_by_time(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = timed_sidecar();
	struct callpath_model *m = build_timed(sc, p);
	char *text = report_text(m);

	(void)state;
	assert_non_null(strstr(text, "Time: 110 samples of each thread's CPU time "
				      "(1.10 seconds at 100 Hz)"));
	assert_non_null(strstr(text, "; 4 (3.5%) could not be\nplaced"));
	/* c first (most self time), its a path first although it has fewest calls */
	assert_non_null(strstr(text,
		"c: 12 calls, 3 paths, 1.00 self seconds\n"
		"       calls  %calls    self s    incl s   %time  path\n"
		"           3  25.00      0.80      0.80  80.00  main -> a (main+0x5) -> c (a+0x5)\n"));
	/* the tree: calls, inclusive, self; b's subtree after a's (less time) */
	assert_non_null(strstr(text,
		"           1      1.10      0.02  main\n"
		"           3      0.80      0.00    a (main+0x5)\n"
		"           3      0.80      0.80      *c (a+0x5)\n"
		"           9      0.28      0.08    b (main+0x9)\n"));
	free(text);
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

/*
 * A model of main calling c from four call sites, scaled: c's paths with
 * (samples, calls) of (2, 1), (1, 5), (1, 1) and (1, 5) times `unit`; the
 * order of c's rows by their call sites.
 */
static void paths_order_at_scale(uint64_t unit, char *order, size_t len)
{
	struct callpath_model *m = callpath_model_new();
	uint32_t fmain, fc, ext, top, idx;
	const uint64_t samples[4] = { 2, 1, 1, 1 }, calls[4] = { 1, 5, 1, 5 };
	const char *sites[4] = { "main+0x1", "main+0x2", "main+0x3", "main+0x4" };
	char *text, *at;

	assert_non_null(m);
	fmain = callpath_model_intern(m, "main");
	fc = callpath_model_intern(m, "c");
	ext = callpath_model_intern(m, "[external]");
	assert_int_equal(callpath_model_add(m, CALLPATH_NONE, fmain, ext, 1, &top), 0);
	for (int i = 0; i < 4; i++) {
		uint32_t site = callpath_model_intern(m, sites[i]);

		assert_int_equal(callpath_model_add(m, top, fc, site, calls[i] * unit, &idx), 0);
		callpath_model_add_samples(m, idx, samples[i] * unit);
	}
	m->sampling = SIDECAR_SAMPLING_SELF;
	m->hz = 100;
	text = report_text(m);
	at = strstr(text, "c: ");
	assert_non_null(at);
	assert_true(len > 4);
	for (int i = 0; i < 4; i++) {
		at = strstr(at, "-> c (main+0x");
		assert_non_null(at);
		at += strlen("-> c (main+0x");
		order[i] = *at;
	}
	order[4] = '\0';
	free(text);
	callpath_model_free(m);
}

static void test_report__paths_sort_alike_whether_their_key_fits_128_bits_or_not(void **state)
{
	char small[8], huge[8];

	(void)state;
	/* most self time first, then most calls, then path text */
	paths_order_at_scale(1, small, sizeof(small));
	assert_string_equal(small, "1243");
	/* samples and calls near 2^62: 62 + 62 + 63 bits, sorted by qsort */
	paths_order_at_scale((uint64_t)1 << 60, huge, sizeof(huge));
	assert_string_equal(huge, "1243");
}

/*
 * Issue 24 item 4: the time per caller is tested by the diff's rule,
 * corrected for the arcs tested.  Twelve callees, each called 5 times
 * from x and 5 from y (gprof: 50% each), with 2 to 6 samples all along x:
 * twelve chances for a few samples to fall one way, no evidence (the old
 * test listed every one of them: 2 sigmas of 3 samples).  One callee of
 * 1,000 samples, 80% along x: listed.
 */
static void test_report__time_per_caller_needs_evidence_beyond_a_few_samples(void **state)
{
	struct callpath_model *m = callpath_model_new();
	uint32_t fmain, fx, fy, ext, site, top, px, py, idx;
	char *text, name[16];

	(void)state;
	assert_non_null(m);
	fmain = callpath_model_intern(m, "main");
	fx = callpath_model_intern(m, "x");
	fy = callpath_model_intern(m, "y");
	ext = callpath_model_intern(m, "[external]");
	site = callpath_model_intern(m, "main+0x1");
	assert_int_equal(callpath_model_add(m, CALLPATH_NONE, fmain, ext, 1, &top), 0);
	assert_int_equal(callpath_model_add(m, top, fx, site, 1, &px), 0);
	assert_int_equal(callpath_model_add(m, top, fy, site, 1, &py), 0);
	for (int i = 0; i < 13; i++) {
		uint32_t fc, sx, sy;
		uint64_t n = i < 12 ? 2 + (uint64_t)i % 5 : 1000;

		snprintf(name, sizeof(name), "c%02d", i);
		fc = callpath_model_intern(m, name);
		sx = callpath_model_intern(m, "x+0x1");
		sy = callpath_model_intern(m, "y+0x1");
		assert_int_equal(callpath_model_add(m, px, fc, sx, 5, &idx), 0);
		callpath_model_add_samples(m, idx, i < 12 ? n : 800);
		assert_int_equal(callpath_model_add(m, py, fc, sy, 5, &idx), 0);
		callpath_model_add_samples(m, idx, i < 12 ? 0 : 200);
	}
	m->sampling = SIDECAR_SAMPLING_SELF;
	m->hz = 100;
	text = report_text(m);
	assert_non_null(strstr(text, "c12: gprof gives 50.0% to x, measured 80.0%"));
	assert_null(strstr(text, "c00: gprof gives"));
	assert_null(strstr(text, "c04: gprof gives"));
	assert_null(strstr(text, "c11: gprof gives"));
	assert_non_null(strstr(text, "(corrected for the"));
	free(text);
	callpath_model_free(m);
}

static void test_report__misattribution_names_arcs_whose_measured_share_differs(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = timed_sidecar();
	struct callpath_model *m = build_timed(sc, p);
	char *text = report_text(m);
	char *a, *b;

	(void)state;
	a = strstr(text, "c: gprof gives 25.0% to a, measured 80.0% (3 of 12 calls, 0.80 of 1.00 seconds)\n");
	b = strstr(text, "c: gprof gives 58.3% to b, measured 10.0% (7 of 12 calls, 0.10 of 1.00 seconds)\n");
	assert_non_null(a);
	assert_non_null(b);
	assert_true(a < b);	/* largest difference first */
	/* d's 16.7% against a measured 10%: under the 10-point threshold */
	assert_null(strstr(text, "to d,"));
	/* one caller each: nothing to compare */
	assert_null(strstr(text, "a: gprof gives"));
	free(text);
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

static void test_report__misattribution_silent_when_time_follows_calls(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = fixture_sidecar(LOAD);
	struct callpath_model *m;
	char *text;

	(void)state;
	/* c's samples in proportion to its calls on each path (3, 7, 2) */
	sc->nodes[2].self_samples = 30;
	sc->nodes[4].self_samples = 70;
	sc->nodes[6].self_samples = 20;
	sc->sampling = SIDECAR_SAMPLING_SELF;
	m = build_timed(sc, p);
	text = report_text(m);
	assert_non_null(strstr(text, "none: gprof's split is right within that margin.\n"));
	free(text);
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

static void test_report__without_samples_prints_calls_only(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = fixture_sidecar(LOAD);
	struct callpath_model *m;
	char *text;

	(void)state;
	sc->sampling = SIDECAR_SAMPLING_SELF;	/* sampled, but no sample landed */
	m = build_timed(sc, p);
	text = report_text(m);
	assert_null(strstr(text, "Time:"));
	assert_null(strstr(text, "self s"));
	assert_null(strstr(text, "gprof gives"));
	free(text);
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

static void test_report__warns_when_the_program_replaced_the_timer(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = timed_sidecar();
	struct callpath_model *m;
	char *text;

	(void)state;
	sc->sampling |= SIDECAR_SAMPLING_STOPPED;
	m = build_timed(sc, p);
	text = report_text(m);
	assert_non_null(strstr(text, "warning: the program replaced the SIGPROF handler"));
	free(text);
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

static void test_folded__time_lines_are_self_samples_per_path(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = timed_sidecar();
	struct callpath_model *m = build_timed(sc, p);
	struct folded *f;
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(mem);
	assert_int_equal(folded_build(m, FOLDED_SAMPLES, &f), 0);
	assert_int_equal(folded_write(mem, f), 0);
	fclose(mem);
	/* frames without samples (a, b;d) are left out */
	assert_string_equal(buf, "main 2\nmain;a;c 80\nmain;b 8\nmain;b;c 10\nmain;b;d;c 10\n");
	free(buf);
	folded_free(f);
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

static void test_sum__pie_runs_at_different_addresses_merge(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *one = fixture_sidecar(LOAD), *two = fixture_sidecar(LOAD + 0x10000);
	struct callpath_model *m;
	char *text;

	(void)state;
	assert_int_equal(sidecar_merge(one, two, NULL, 0), 0);
	assert_int_equal(one->nr_nodes, 7);
	m = build(one, p);
	text = folded_text(m);
	assert_string_equal(text, "main 2\nmain;a 6\nmain;a;c 6\nmain;b 18\n"
				  "main;b;c 14\nmain;b;d 4\nmain;b;d;c 4\n");
	free(text);
	callpath_model_free(m);
	sidecar_free(one);
	sidecar_free(two);
	profile_free(p);
}

/* gmon.1 and gmon.2 have sidecars of two different binaries. */
static void test_sum__refuses_sidecars_of_another_binary(void **state)
{
	char dir[] = "/tmp/test_callpath_XXXXXX", g1[64], g2[64], s1[128], s2[128];
	char *files[2] = { g1, g2 };
	struct sidecar *one = fixture_sidecar(LOAD), *two = fixture_sidecar(LOAD + 0x10000);
	struct sidecar *sum = (struct sidecar *)1;
	char err[512];
	size_t missing;

	(void)state;
	assert_non_null(mkdtemp(dir));
	one->build_id_len = two->build_id_len = 4;
	memcpy(one->build_id, "\x01\x02\x03\x04", 4);
	memcpy(two->build_id, "\x01\x02\x03\x05", 4);
	snprintf(g1, sizeof(g1), "%s/gmon.1", dir);
	snprintf(g2, sizeof(g2), "%s/gmon.2", dir);
	snprintf(s1, sizeof(s1), "%s.callpath", g1);
	snprintf(s2, sizeof(s2), "%s.callpath", g2);
	assert_int_equal(sidecar_write_atomic(one, s1, err, sizeof(err)), 0);
	assert_int_equal(sidecar_write_atomic(two, s2, err, sizeof(err)), 0);
	assert_int_equal(callpath_sum_read(files, 2, 0, &sum, &missing), -1);
	assert_null(sum);
	unlink(s1);
	unlink(s2);
	rmdir(dir);
	sidecar_free(one);
	sidecar_free(two);
}

/* Files: gmon.1 and gmon.2 with sidecars write the sum; a third without
 * one makes it write nothing. */
static void test_sum__writes_only_when_every_gmon_file_has_a_sidecar(void **state)
{
	char dir[] = "/tmp/test_callpath_XXXXXX", g1[64], g2[64], g3[64], s[128], out[128];
	char *files[3] = { g1, g2, g3 };
	struct sidecar *sc = fixture_sidecar(0), *sum;
	char err[512];
	size_t missing;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(g1, sizeof(g1), "%s/gmon.1", dir);
	snprintf(g2, sizeof(g2), "%s/gmon.2", dir);
	snprintf(g3, sizeof(g3), "%s/gmon.3", dir);
	snprintf(out, sizeof(out), "%s/gmon.sum.callpath", dir);
	snprintf(s, sizeof(s), "%s.callpath", g1);
	assert_int_equal(sidecar_write_atomic(sc, s, err, sizeof(err)), 0);
	snprintf(s, sizeof(s), "%s.callpath", g2);
	assert_int_equal(sidecar_write_atomic(sc, s, err, sizeof(err)), 0);

	/* no gmon file with a sidecar (gmon.3 alone): nothing, silently */
	assert_int_equal(callpath_sum_write(files + 2, 1, 0, out), 0);
	assert_int_not_equal(access(out, F_OK), 0);
	/* some with, some without: nothing either (a warning) */
	assert_int_equal(callpath_sum_write(files, 3, 0, out), 0);
	assert_int_not_equal(access(out, F_OK), 0);
	assert_int_equal(callpath_sum_write(files, 2, 0, out), 0);
	/* a sum left by an earlier run would not match the new gmon sum:
	 * removed when nothing is written, with or without sidecars */
	assert_int_equal(access(out, F_OK), 0);
	assert_int_equal(callpath_sum_write(files, 3, 0, out), 0);
	assert_int_not_equal(access(out, F_OK), 0);
	assert_int_equal(callpath_sum_write(files, 2, 0, out), 0);
	assert_int_equal(callpath_sum_write(files + 2, 1, 0, out), 0);
	assert_int_not_equal(access(out, F_OK), 0);
	assert_int_equal(callpath_sum_write(files, 2, 0, out), 0);
	assert_int_equal(callpath_sum_read(files, 3, 0, &sum, &missing), 0);
	assert_int_equal(missing, 2);
	assert_int_equal(sidecar_total(sum), 54);
	sidecar_free(sum);
	assert_int_equal(sidecar_read(out, &sum, err, sizeof(err)), 0);
	assert_int_equal(sidecar_total(sum), 54);
	sidecar_free(sum);

	/* a truncated sidecar is an error, and no sum is left beside the
	 * gmon sum (the earlier one would not match it) */
	assert_int_equal(truncate(s, 10), 0);
	assert_int_equal(callpath_sum_write(files, 2, 0, out), -1);
	assert_int_not_equal(access(out, F_OK), 0);
	unlink(s);
	snprintf(s, sizeof(s), "%s.callpath", g1);
	unlink(s);
	rmdir(dir);
	sidecar_free(sc);
}

/*
 * Indirect recursion folded by the runtime: c calls a back while a is on
 * the path, and the calls are folded into a's frame, keyed by their call
 * site in c:
 *
 *   main [1]
 *   └── a [1]
 *       ├── b [5]
 *       │   └── c [5]
 *       ├── (folded: 5 calls of a from c+0x5)
 *       └── d [2] (with `twice`)
 *           └── c [2]
 *
 * The folded stack is the path of the c that made the calls, then a:
 * main;a;b;c;a, never main;a;c;a (a never called c).  With two frames of c
 * under a (`twice`), which one made the calls is unknown: they count on
 * a's own line, as gprof counts recursive calls.
 */
static struct sidecar *indirect_sidecar(int twice)
{
	struct sidecar *sc = sidecar_new();
	uint32_t m, a, b, d, x, f;

	assert_non_null(sc);
	assert_int_equal(sidecar_add(sc, SIDECAR_ROOT, 0, MAIN + 4, 1, &m), 0);
	assert_int_equal(sidecar_add(sc, m, MAIN + 5, A + 4, 1, &a), 0);
	assert_int_equal(sidecar_add(sc, a, A + 5, B + 4, 5, &b), 0);
	assert_int_equal(sidecar_add(sc, b, B + 5, C + 4, 5, &x), 0);
	assert_int_equal(sidecar_add(sc, a, C + 5, A + 4, 0, &f), 0);
	sc->nodes[f].flags |= SIDECAR_NODE_FOLDED;
	sc->nodes[f].recursive = 5;
	if (twice) {
		assert_int_equal(sidecar_add(sc, a, A + 9, D + 4, 2, &d), 0);
		assert_int_equal(sidecar_add(sc, d, D + 5, C + 4, 2, &x), 0);
	}
	return sc;
}

static void test_folded__indirect_recursion_keeps_every_frames_real_parent(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = indirect_sidecar(0);
	struct callpath_model *m = build(sc, p);
	char *text = folded_text(m);

	(void)state;
	assert_string_equal(text, "main 1\n"
				  "main;a 1\n"
				  "main;a;b 5\n"
				  "main;a;b;c 5\n"
				  "main;a;b;c;a 5\n");
	free(text);
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

static void test_folded__recursion_made_by_one_of_two_frames_counts_on_the_frame_it_folds_into(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = indirect_sidecar(1);
	struct callpath_model *m = build(sc, p);
	char *text = folded_text(m);

	(void)state;
	assert_string_equal(text, "main 1\n"
				  "main;a 6\n"
				  "main;a;b 5\n"
				  "main;a;b;c 5\n"
				  "main;a;d 2\n"
				  "main;a;d;c 2\n");
	free(text);
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

/* main -> a -> b -> a -> b ... unfolded (CALLPATH_RECURSION=full), `depth`
 * frames in all, one call each */
static struct sidecar *chain_sidecar(uint32_t depth)
{
	struct sidecar *sc = sidecar_new();
	uint32_t at = SIDECAR_ROOT, x;

	assert_non_null(sc);
	for (uint32_t d = 0; d < depth; d++) {
		uint64_t fn = d == 0 ? MAIN : d % 2 ? A : B;
		uint64_t site = d == 0 ? 0 : (d % 2 ? MAIN : B) + 5;

		if (d > 1)
			site = (d % 2 ? B : A) + 5;
		assert_int_equal(sidecar_add(sc, at, site, fn + 4, 1, &x), 0);
		at = x;
	}
	return sc;
}

/* The longest line of text, in bytes. */
static size_t longest_line(const char *text)
{
	size_t most = 0;

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		most = n > most ? n : most;
		p += n + (nl != NULL);
	}
	return most;
}

static void test_folded__deep_paths_are_printed_with_their_middle_elided(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = chain_sidecar(1000);
	struct callpath_model *m = build(sc, p);
	char *text = folded_text(m), *report = report_text(m);
	const char *line;

	(void)state;
	/* one line per frame, none longer than 16 + 16 names and the marker */
	assert_true(longest_line(text) < 32 * 2 + 40);
	line = strstr(text, "\nmain;a;b;a;b;a;b;a;b;a;b;a;b;a;b;a;\xe2\x80\xa6(968 frames)\xe2\x80\xa6;"
			    "b;a;b;a;b;a;b;a;b;a;b;a;b;a;b;a 1\n");
	assert_non_null(line);
	/* depth 32 whole, 33 elided */
	assert_non_null(strstr(text, "\xe2\x80\xa6(1 frame)\xe2\x80\xa6"));
	assert_null(strstr(text, "(0 frames)"));
	/* the report: a path is at most 32 frames, the tree says the depth */
	assert_non_null(strstr(report, "-> \xe2\x80\xa6(968 frames)\xe2\x80\xa6 -> "));
	assert_non_null(strstr(report, "[depth 1,000] *a (b+0x5)\n"));
	assert_true(longest_line(report) < 32 * 16 + 120);
	assert_true(strlen(report) < 1000 * (32 * 16 + 120));
	free(text);
	free(report);
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

/*
 * A folded node whose names are a frame of calls' (the sidecar's addresses
 * differ, the names do not: a callee in a -pg library is [unknown], a
 * wrong load address names other functions): the folded calls of a into
 * main's a, made from b, and a call of a (another address in it) from the
 * same call site in b, which calls b:
 *
 *   main [1]
 *   └── a [1] (main+0x5)
 *       ├── a folded +4 (b+0x5)      a's recursive calls, made in b
 *       └── a [3] (b+0x5)            callee a+0x8, named a as well
 *           └── b [3] (a+0x5)
 *
 * As one frame, the folded frame had a child, b, which was then the maker
 * of its own parent's folded calls: --folded-calls walked from b to the
 * frame and back for ever, writing past its buffer (valgrind: invalid
 * write of size 4).  They are two frames; every call is counted once.
 */
static void test_folded__a_folded_node_named_as_a_frame_of_calls_stays_apart(void **state)
{
	struct profile *p = fixture_profile();
	struct sidecar *sc = sidecar_new();
	struct callpath_model *m;
	uint32_t mn, a, a2, f, x;
	char *text;

	(void)state;
	assert_non_null(sc);
	assert_int_equal(sidecar_add(sc, SIDECAR_ROOT, 0, MAIN + 4, 1, &mn), 0);
	assert_int_equal(sidecar_add(sc, mn, MAIN + 5, A + 4, 1, &a), 0);
	assert_int_equal(sidecar_add(sc, a, B + 5, A + 4, 0, &f), 0);
	sc->nodes[f].flags |= SIDECAR_NODE_FOLDED;
	sc->nodes[f].recursive = 4;
	assert_int_equal(sidecar_add(sc, a, B + 5, A + 8, 3, &a2), 0);
	assert_int_equal(sidecar_add(sc, a2, A + 5, B + 4, 3, &x), 0);
	m = build(sc, p);
	assert_int_equal(m->nr_frames, 5);
	for (uint32_t i = 0; i < m->nr_frames; i++)
		if (m->frames[i].parent != CALLPATH_NONE)
			assert_false(m->frames[m->frames[i].parent].folded);
	assert_int_equal(m->total, 1 + 1 + 4 + 3 + 3);
	text = folded_text(m);
	/* the folded calls' maker is b, a frame of the other a: one line per
	 * call site, as ever, and the calls of a from b on their own line */
	assert_string_equal(text, "main 1\nmain;a 1\nmain;a;a 3\nmain;a;a;b 3\nmain;a;a;b;a 4\n");
	free(text);
	callpath_model_free(m);
	sidecar_free(sc);
	profile_free(p);
}

/*
 * A model whose folded frame has a child (what naming made of the sidecar
 * above before its frames were kept apart) is folded without going round:
 * the frame is taken as a frame of calls, so the walk from its child b goes
 * to its parent and ends (it went from b to the frame, the frame's maker b,
 * and again, for ever).
 */
static void test_folded__a_folded_frame_with_a_child_is_walked_through_its_parent(void **state)
{
	struct callpath_model *m = callpath_model_new();
	uint32_t fm, fa, fb, s0, sa, sb, x;
	char *text;

	(void)state;
	assert_non_null(m);
	fm = callpath_model_intern(m, "main");
	fa = callpath_model_intern(m, "a");
	fb = callpath_model_intern(m, "b");
	s0 = callpath_model_intern(m, "[external]");
	sa = callpath_model_intern(m, "a+0x5");
	sb = callpath_model_intern(m, "b+0x5");
	assert_int_equal(callpath_model_add(m, CALLPATH_NONE, fm, s0, 1, &x), 0);
	assert_int_equal(callpath_model_add(m, 0, fa, sa, 1, &x), 0);
	assert_int_equal(callpath_model_add(m, 1, fa, sb, 3, &x), 0);
	m->frames[2].folded = 1;
	m->frames[2].recursive = 4;
	m->frames[2].caller = fb;
	assert_int_equal(callpath_model_add(m, 2, fb, sa, 3, &x), 0);
	text = folded_text(m);
	assert_string_equal(text, "main 1\nmain;a 5\nmain;a;a;b 3\n");
	free(text);
	callpath_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model__pie_addresses_are_named_after_subtracting_the_load_address),
		cmocka_unit_test(test_folded__indirect_recursion_keeps_every_frames_real_parent),
		cmocka_unit_test(test_folded__recursion_made_by_one_of_two_frames_counts_on_the_frame_it_folds_into),
		cmocka_unit_test(test_folded__deep_paths_are_printed_with_their_middle_elided),
		cmocka_unit_test(test_model__call_sites_are_function_plus_offset),
		cmocka_unit_test(test_model__with_lines_call_sites_are_file_and_line_of_the_call),
		cmocka_unit_test(test_model__line_symbols_extend_their_function),
		cmocka_unit_test(test_folded__same_names_from_two_call_sites_are_one_line),
		cmocka_unit_test(test_report__paths_of_a_function_with_counts_and_shares),
		cmocka_unit_test(test_report__tree_is_indented_by_depth_and_marks_several_parents),
		cmocka_unit_test(test_report__external_call_sites_are_named_and_left_out_at_the_top),
		cmocka_unit_test(test_model__inclusive_samples_add_up_the_subtree),
		cmocka_unit_test(test_report__paths_with_self_and_inclusive_seconds_sorted_by_time),
		cmocka_unit_test(test_model__leaves_are_self_time_callees_libraries_or_overhead),
		cmocka_unit_test(test_report__paths_sort_alike_whether_their_key_fits_128_bits_or_not),
		cmocka_unit_test(test_report__misattribution_names_arcs_whose_measured_share_differs),
		cmocka_unit_test(test_report__time_per_caller_needs_evidence_beyond_a_few_samples),
		cmocka_unit_test(test_report__misattribution_silent_when_time_follows_calls),
		cmocka_unit_test(test_report__without_samples_prints_calls_only),
		cmocka_unit_test(test_report__warns_when_the_program_replaced_the_timer),
		cmocka_unit_test(test_folded__time_lines_are_self_samples_per_path),
		cmocka_unit_test(test_sum__pie_runs_at_different_addresses_merge),
		cmocka_unit_test(test_sum__refuses_sidecars_of_another_binary),
		cmocka_unit_test(test_sum__writes_only_when_every_gmon_file_has_a_sidecar),
		cmocka_unit_test(test_folded__a_folded_node_named_as_a_frame_of_calls_stays_apart),
		cmocka_unit_test(test_folded__a_folded_frame_with_a_child_is_walked_through_its_parent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
