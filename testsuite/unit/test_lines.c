/*
 * test_lines.c - source lines: program counters mapped to file, line and
 * inlined function on a fixture binary (gprof-ext/srcmap.c), a run's
 * samples put on their lines from its sidecar's leaves (model/lines.c),
 * and two runs compared line by line.
 *
 * The fixture (testsuite/fixtures/lines/pcmap.c) is built here with -O2
 * -g; the addresses of its lines come from objdump's decoded line table,
 * an independent reader of the same DWARF, and its functions' from nm.
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

#include "model/callpath_model.h"
#include "format/sidecar.h"
#include "diff/profile.h"
#include "gprof-ext/srcmap.h"
#include "model/lines.h"
#include "utils/banned.h"

/* The adapter's demangler (gprof-ext/upstream.c), which this test does not
 * link: the fixture is C, nothing to demangle. */
char *upstream_demangle(const char *name);
char *upstream_demangle(const char *name)
{
	(void)name;
	return NULL;
}

static char dir[64];
static char binary[128];

/* The source line holding `marker`, 0 when none. */
static int marked_line(const char *marker)
{
	char path[4096], text[1024];
	FILE *fp;
	int l = 0, found = 0;

	snprintf(path, sizeof(path), "%s/testsuite/fixtures/lines/pcmap.c", getenv("SRCDIR"));
	fp = fopen(path, "r");
	assert_non_null(fp);
	while (!found && fgets(text, sizeof(text), fp)) {
		l++;
		found = strstr(text, marker) != NULL;
	}
	fclose(fp);
	return found ? l : 0;
}

/*
 * An address the line table starts line `line` of pcmap.c at, and at which
 * no other row of the table starts (a row sharing it could name another
 * line there); 0 when none.
 */
static uint64_t line_address(int line)
{
	char path[256], text[1024];
	uint64_t addrs[4096], found = 0;
	int lines[4096];
	size_t n = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/lines.txt", dir);
	fp = fopen(path, "r");
	assert_non_null(fp);
	while (n < 4096 && fgets(text, sizeof(text), fp)) {
		char file[256];
		int l;
		unsigned long long a;

		if (sscanf(text, "%255s %d %llx", file, &l, &a) == 3 && !strcmp(file, "pcmap.c")) {
			addrs[n] = a;
			lines[n++] = l;
		}
	}
	fclose(fp);
	for (size_t i = 0; i < n && !found; i++) {
		size_t same = 0;

		for (size_t k = 0; k < n; k++)
			same += addrs[k] == addrs[i];
		if (lines[i] == line && same == 1)
			found = addrs[i];
	}
	return found;
}

/* nm -S's address and size of function `name`. */
static void func_range(const char *name, uint64_t *addr, uint64_t *size)
{
	char path[256], text[1024];
	FILE *fp;

	*addr = *size = 0;
	snprintf(path, sizeof(path), "%s/nm.txt", dir);
	fp = fopen(path, "r");
	assert_non_null(fp);
	while (fgets(text, sizeof(text), fp)) {
		unsigned long long a, s;
		char type, sym[256];

		if (sscanf(text, "%llx %llx %c %255s", &a, &s, &type, sym) == 4 &&
		    !strcmp(sym, name)) {
			*addr = a;
			*size = s;
		}
	}
	fclose(fp);
	assert_true(*addr != 0);
}

static int build_fixture(void **state)
{
	char cmd[8192];

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test_lines.XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(binary, sizeof(binary), "%s/pcmap", dir);
	snprintf(cmd, sizeof(cmd),
		 "cd %s && cc -O2 -g -o pcmap '%s/testsuite/fixtures/lines/pcmap.c' && "
		 "objdump --dwarf=decodedline pcmap > lines.txt && nm -S pcmap > nm.txt", dir,
		 getenv("SRCDIR"));
	assert_int_equal(system(cmd), 0);
	return 0;
}

static int remove_fixture(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void test_srcmap_names_the_line_of_an_address(void **state)
{
	struct srcmap *sm = srcmap_open(binary);
	struct callpath_inline in[8];
	int body = marked_line("COUNT_BODY"), n;
	uint64_t a = line_address(body);

	(void)state;
	assert_non_null(sm);
	assert_true(srcmap_has_lines(sm));
	assert_true(body > 0 && a != 0);
	n = srcmap_find(sm, a, in, 8);
	assert_int_equal(n, 1);
	assert_string_equal(base_name(in[0].file), "pcmap.c");
	assert_int_equal(in[0].line, body);
	assert_string_equal(in[0].func, "count_up");
	srcmap_close(sm);
}

static void test_srcmap_names_inlined_code_and_where_it_was_inlined(void **state)
{
	struct srcmap *sm = srcmap_open(binary);
	struct callpath_inline in[8];
	int body = marked_line("SQUARE_BODY"), call = marked_line("SUM_LOOP"), n;
	uint64_t a = line_address(body);

	(void)state;
	assert_non_null(sm);
	assert_true(a != 0);
	n = srcmap_find(sm, a, in, 8);
	assert_true(n >= 2);
	assert_string_equal(in[0].func, "square");
	assert_int_equal(in[0].line, body);
	assert_int_equal(in[1].line, call);
	assert_string_equal(in[n - 1].func, "sum_squares");
	srcmap_close(sm);
}

static void test_srcmap_refuses_what_it_cannot_map(void **state)
{
	char path[4096];
	struct srcmap *sm;
	struct callpath_inline in[8];

	(void)state;
	snprintf(path, sizeof(path), "%s/testsuite/fixtures/lines/pcmap.c", getenv("SRCDIR"));
	assert_null(srcmap_open(path));
	assert_null(srcmap_open("/nonexistent/file"));
	sm = srcmap_open(binary);
	assert_non_null(sm);
	assert_int_equal(srcmap_find(sm, 0x10, in, 8), -1);	/* no code there */
	srcmap_close(sm);
	assert_int_equal(srcmap_find(NULL, 0x1000, in, 8), -1);
}

/* A profile of the fixture's functions, as gprof's table has them. */
static struct profile *fixture_profile(void)
{
	static const char *const names[] = { "sum_squares", "count_up", "main" };
	struct profile *p = profile_new();

	assert_non_null(p);
	for (size_t i = 0; i < 3; i++) {
		struct profile_sym s;
		uint64_t a, size;

		memset(&s, 0, sizeof(s));
		func_range(names[i], &a, &size);
		s.name = strdup(names[i]);
		s.print_name = strdup(names[i]);
		s.addr = a;
		s.end_addr = a + size - 1;
		s.flags = PSYM_FUNC;
		assert_true(profile_add_sym(p, &s) >= 0);
	}
	return p;
}

/* A leaf of `samples` at pc under node parent. */
static void leaf(struct sidecar *sc, uint32_t parent, uint32_t kind, uint64_t pc,
		 uint64_t samples)
{
	uint32_t idx;

	assert_int_equal(sidecar_add_leaf(sc, parent, kind, pc, &idx), 0);
	sc->nodes[idx].self_samples += samples;
}

static const struct line_row *row_at(const struct line_profile *lp, const char *func, int line)
{
	for (size_t i = 0; i < lp->n; i++)
		if (!strcmp(lp->rows[i].func, func) && lp->rows[i].line == line)
			return &lp->rows[i];
	return NULL;
}

static void test_lines_build_puts_each_sample_on_its_line(void **state)
{
	struct sidecar *sc = sidecar_new();
	struct line_pcs *pcs = line_pcs_new();
	struct profile *p = fixture_profile();
	struct line_profile *lp = NULL;
	int body = marked_line("COUNT_BODY"), test = marked_line("COUNT_TEST");
	int sq = marked_line("SQUARE_BODY");
	uint64_t main_addr, size;
	uint32_t top;
	const struct line_row *r;

	(void)state;
	assert_non_null(sc);
	assert_non_null(pcs);
	func_range("main", &main_addr, &size);
	/* the program loaded where it was linked: its run-time addresses
	 * are its link-time ones */
	sc->program_start = 0x1;
	sc->program_end = 0x100000;
	assert_int_equal(sidecar_add(sc, SIDECAR_ROOT, 0, main_addr, 1, &top), 0);
	leaf(sc, top, SIDECAR_LEAF_PC, line_address(body), 30);
	leaf(sc, top, SIDECAR_LEAF_PC, line_address(test), 10);
	leaf(sc, top, SIDECAR_LEAF_PC, line_address(sq), 7);
	leaf(sc, top, SIDECAR_LEAF_OVERHEAD, line_address(body) + 1, 5);
	leaf(sc, top, SIDECAR_LEAF_PC, 0x7f0000001000ull, 2);	/* no object */
	assert_int_equal(line_pcs_add(pcs, sc), 0);
	assert_int_equal(line_pcs_size(pcs), 3);

	assert_int_equal(lines_build(&(struct lines_input){ binary, p, NULL, 0, pcs, 1000.0 },
				     &lp), 0);
	assert_true(lp->from_sidecars);
	assert_non_null(strstr(lp->source, "program counters"));
	assert_int_equal(lp->total, 47);
	assert_int_equal(lp->unplaced, 7);
	assert_int_equal(lp->no_line, 0);
	r = row_at(lp, "count_up", body);
	assert_non_null(r);
	assert_int_equal(r->samples, 30);
	assert_null(r->inlined);
	r = row_at(lp, "count_up", test);
	assert_non_null(r);
	assert_int_equal(r->samples, 10);
	/* inlined code: the caller's time, on the inlined function's line */
	r = row_at(lp, "sum_squares", sq);
	assert_non_null(r);
	assert_int_equal(r->samples, 7);
	assert_non_null(r->inlined);
	assert_string_equal(r->inlined, "square");
	assert_int_equal(lines_func_samples(lp, "count_up"), 40);
	lines_free(lp);
	line_pcs_free(pcs);
	sidecar_free(sc);
	profile_free(p);
}

/* A profile of two lines of "work" in file `file`, by hand. */
static void two_lines(struct line_profile *lp, struct line_row *rows, const char *file,
		      uint64_t first, uint64_t second)
{
	memset(lp, 0, sizeof(*lp));
	rows[0] = (struct line_row){ "work", file, 10, NULL, first, 0 };
	rows[1] = (struct line_row){ "work", file, 20, NULL, second, 0 };
	lp->rows = rows;
	lp->n = 2;
	lp->hz = 1000;
	lp->total = first + second;
}

static void test_lines_diff_puts_the_changed_line_first_beyond_the_noise(void **state)
{
	struct line_profile a, b;
	struct line_row ra[2], rb[2];
	struct line_diff *d = NULL;
	struct line_diff_opts o = { 2.0, 0, { "/nonexistent/app1", "/nonexistent/app2" } };

	(void)state;
	/* one build in two directories: lines matched by the file's name */
	two_lines(&a, ra, "/build/a/work.c", 200, 200);
	two_lines(&b, rb, "/build/b/work.c", 205, 800);
	assert_int_equal(lines_diff(&a, &b, &o, &d), 0);
	assert_int_equal(d->n, 2);
	assert_int_equal(d->rows[0].line, 20);
	assert_true(d->rows[0].significant);
	assert_true(d->rows[0].change < -0.5);
	assert_int_equal(d->rows[1].line, 10);
	assert_false(d->rows[1].significant);
	assert_int_equal(d->nsig, 1);
	/* two builds: said */
	assert_true(d->warning[0] != 0);
	lines_diff_free(d);
}

static void test_lines_diff_of_equal_runs_finds_nothing(void **state)
{
	struct line_profile a, b;
	struct line_row ra[2], rb[2];
	struct line_diff *d = NULL;
	struct line_diff_opts o = { 2.0, 0, { binary, binary } };

	(void)state;
	two_lines(&a, ra, "work.c", 300, 120);
	two_lines(&b, rb, "work.c", 310, 117);
	assert_int_equal(lines_diff(&a, &b, &o, &d), 0);
	assert_int_equal(d->n, 2);
	assert_int_equal(d->nsig, 0);
	assert_int_equal(d->changed, 2);
	assert_string_equal(d->warning, "");
	lines_diff_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_srcmap_names_the_line_of_an_address),
		cmocka_unit_test(test_srcmap_names_inlined_code_and_where_it_was_inlined),
		cmocka_unit_test(test_srcmap_refuses_what_it_cannot_map),
		cmocka_unit_test(test_lines_build_puts_each_sample_on_its_line),
		cmocka_unit_test(test_lines_diff_puts_the_changed_line_first_beyond_the_noise),
		cmocka_unit_test(test_lines_diff_of_equal_runs_finds_nothing),
	};

	return cmocka_run_group_tests(tests, build_fixture, remove_fixture);
}
