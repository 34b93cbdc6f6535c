/* Unit tests for the pre-checks of upstream's own inputs
 * (gprof-ext/input_check.h): what stock gprof would hang or crash on is
 * refused with a message naming the file; everything else is left to it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "gprof-ext/input_check.h"
#include "utils/error.h"
#include "utils/banned.h"

static char dir[] = "/tmp/test_input_check.XXXXXX";
static char said[4096];

/* input_check(path, kind) with what it printed on stderr in said[] */
static int check_saying(const char *path, enum upstream_input kind)
{
	char tmp[64];
	int fd, saved, ret;
	ssize_t n;

	snprintf(tmp, sizeof(tmp), "%s/stderr", dir);
	fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	ret = input_check(path, kind);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, said, sizeof(said) - 1, 0);
	said[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(tmp);
	return ret;
}

/* A file of the test's directory holding `text`; its path in a static buffer. */
static const char *file_with(const char *name, const char *text)
{
	static char path[128];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	return path;
}

static int setup(void **state)
{
	(void)state;
	error_set_program("gprof");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_input_check__refuses_an_empty_map(void **state)
{
	const char *p = file_with("empty.map", "");

	(void)state;
	assert_int_equal(check_saying(p, INPUT_MAP), -1);
	assert_non_null(strstr(said, "empty.map: the function map is empty"));
	/* the same file is a fine empty symbol table or program for upstream
	 * to refuse itself */
	assert_int_equal(check_saying(p, INPUT_SYMTAB), 0);
	assert_int_equal(check_saying(p, INPUT_IMAGE), 0);
	assert_string_equal(said, "");
}

static void test_input_check__accepts_nm_output_and_no_symbols_lines(void **state)
{
	(void)state;
	assert_int_equal(check_saying(file_with("good.map",
		"No symbols in empty.o\n"
		"a.o:0000000000000010 T main\n"
		"b.o:0000000000000000 t helper\n"), INPUT_MAP), 0);
	assert_int_equal(check_saying(file_with("nosyms.map", "No symbols in x.o\n"),
				      INPUT_MAP), 0);
	/* no newline at the end */
	assert_int_equal(check_saying(file_with("last.map", "a.o:0 T f"), INPUT_MAP), 0);
	assert_string_equal(said, "");
}

static void test_input_check__names_the_line_without_a_symbol(void **state)
{
	(void)state;
	assert_int_equal(check_saying(file_with("nospace.map",
		"a.o:0000000000000010 T main\n"
		"b.o:nospace\n"
		"c.o:0000000000000000 T f\n"), INPUT_MAP), -1);
	assert_non_null(strstr(said, "nospace.map: line 2 is not `nm -A` output"));
	/* a last line that is a file name alone, without a newline */
	assert_int_equal(check_saying(file_with("bare.map", "a.o:0 T f\nabc"), INPUT_MAP), -1);
	assert_non_null(strstr(said, "bare.map: line 2 "));
}

static void test_input_check__says_a_long_name_is_too_long_for_upstream(void **state)
{
	char text[4096];
	int n;

	(void)state;
	/* upstream's fields are 1,023 bytes: a 2,500-byte C++ name leaves
	 * remains without a space, on which it crashes */
	n = snprintf(text, sizeof(text), "a.o:0000000000000000 T main\n"
		     "big.o:0000000000000000 T _Z%02500d\n", 0);
	assert_true(n > 2500 && n < (int)sizeof(text));
	assert_int_equal(check_saying(file_with("long.map", text), INPUT_MAP), -1);
	assert_non_null(strstr(said, "long.map: line 2 is too long for gprof's map "
			       "reader, which takes 1023 bytes a field"));
	/* 1,500 bytes: upstream says "unable to parse" itself */
	snprintf(text, sizeof(text), "big.o:0000000000000000 T _Z%01500d\n", 0);
	assert_int_equal(check_saying(file_with("mid.map", text), INPUT_MAP), 0);
}

static void test_input_check__leaves_parse_errors_to_upstream(void **state)
{
	(void)state;
	/* upstream's first pass says "unable to parse mapping file" before
	 * its second would crash on line 1 */
	assert_int_equal(check_saying(file_with("later.map",
		"b.o:nospace\n:no file name\n"), INPUT_MAP), 0);
	assert_int_equal(check_saying(file_with("blank.map", "\n"), INPUT_MAP), 0);
	assert_string_equal(said, "");
}

static void test_input_check__refuses_a_directory_only_as_the_map(void **state)
{
	(void)state;
	assert_int_equal(check_saying(dir, INPUT_MAP), -1);
	assert_non_null(strstr(said, ": not a regular file (a directory)"));
	assert_int_equal(check_saying(dir, INPUT_SYMTAB), 0);
	assert_int_equal(check_saying(dir, INPUT_IMAGE), 0);
	assert_int_equal(check_saying(dir, INPUT_GMON), 0);
}

static void test_input_check__refuses_devices_for_every_input(void **state)
{
	const enum upstream_input kinds[] = { INPUT_IMAGE, INPUT_GMON, INPUT_MAP, INPUT_SYMTAB };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		assert_int_equal(check_saying("/dev/zero", kinds[i]), -1);
		assert_string_equal(said, "gprof: /dev/zero: not a regular file "
				    "(a character device)\n");
	}
}

static void test_input_check__leaves_dev_null_to_upstream_but_as_the_map(void **state)
{
	(void)state;
	/* upstream says "not in executable format", "file too short to be a
	 * gmon file", "has no symbols" */
	assert_int_equal(check_saying("/dev/null", INPUT_IMAGE), 0);
	assert_int_equal(check_saying("/dev/null", INPUT_GMON), 0);
	assert_int_equal(check_saying("/dev/null", INPUT_SYMTAB), 0);
	assert_string_equal(said, "");
	/* and crashes on it as an empty map */
	assert_int_equal(check_saying("/dev/null", INPUT_MAP), -1);
	assert_non_null(strstr(said, "/dev/null: the function map is empty"));
}

static void test_input_check__takes_a_pipe_only_as_a_gmon_file(void **state)
{
	char fifo[128];

	(void)state;
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	/* none of these opens it (that would wait for a writer) */
	assert_int_equal(check_saying(fifo, INPUT_GMON), 0);
	assert_int_equal(check_saying(fifo, INPUT_MAP), -1);
	assert_non_null(strstr(said, "(a FIFO or pipe); -R reads its function map twice"));
	assert_int_equal(check_saying(fifo, INPUT_SYMTAB), -1);
	assert_non_null(strstr(said, "(a FIFO or pipe); -S reads its symbol table twice"));
	assert_int_equal(check_saying(fifo, INPUT_IMAGE), -1);
	assert_non_null(strstr(said, "(a FIFO or pipe); the program is read with seeks"));
	unlink(fifo);
}

static void test_input_check__leaves_missing_files_to_upstream(void **state)
{
	(void)state;
	assert_int_equal(check_saying("/nonexistent/map", INPUT_MAP), 0);
	assert_int_equal(check_saying("/nonexistent/prog", INPUT_IMAGE), 0);
	assert_string_equal(said, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_input_check__refuses_an_empty_map),
		cmocka_unit_test(test_input_check__accepts_nm_output_and_no_symbols_lines),
		cmocka_unit_test(test_input_check__names_the_line_without_a_symbol),
		cmocka_unit_test(test_input_check__says_a_long_name_is_too_long_for_upstream),
		cmocka_unit_test(test_input_check__leaves_parse_errors_to_upstream),
		cmocka_unit_test(test_input_check__refuses_a_directory_only_as_the_map),
		cmocka_unit_test(test_input_check__refuses_devices_for_every_input),
		cmocka_unit_test(test_input_check__leaves_dev_null_to_upstream_but_as_the_map),
		cmocka_unit_test(test_input_check__takes_a_pipe_only_as_a_gmon_file),
		cmocka_unit_test(test_input_check__leaves_missing_files_to_upstream),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
