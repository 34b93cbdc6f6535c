/* Unit tests for the progress line (utils/progress.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "utils/progress.h"
#include "utils/banned.h"

static char *run(int tty, double delay)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	struct progress_opts o = { mem, tty, delay, 0, 10.0 };
	struct progress pg;

	assert_non_null(mem);
	progress_start(&pg, &o, "rank files", 1024);
	progress_update(&pg, 412);
	progress_end(&pg);
	fclose(mem);
	return buf;
}

static void test_progress__not_a_terminal_prints_nothing(void **state)
{
	char *s = run(0, 0);

	(void)state;
	assert_string_equal(s, "");
	free(s);
}

static void test_progress__quick_work_prints_nothing_on_a_terminal(void **state)
{
	char *s = run(1, 3600);

	(void)state;
	assert_string_equal(s, "");
	free(s);
}

static void test_progress__long_work_on_a_terminal_shows_then_erases_the_line(void **state)
{
	char *s = run(1, 0);

	(void)state;
	/* the line is 26 characters: erased with 26 blanks */
	assert_string_equal(s, "\rrank files: 412/1024 (40%)"
			    "\r                          \r");
	free(s);
}

/* --progress into a log: whole lines, the first after the delay, then one
 * every `every` seconds, and one at the end with the time */
static void test_progress__asked_into_a_log_writes_whole_lines(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	struct progress_opts o = { mem, 1, 0, 1, 3600 };
	struct progress pg;

	(void)state;
	assert_non_null(mem);
	progress_start(&pg, &o, "rank files", 1024);
	progress_update(&pg, 412);
	progress_update(&pg, 500);	/* within `every`: not written */
	progress_update(&pg, 1024);
	progress_end(&pg);
	fclose(mem);
	assert_non_null(strstr(buf, "rank files: 412/1024 (40%)\n"));
	assert_null(strstr(buf, "500/1024"));
	assert_null(strchr(buf, '\r'));
	assert_non_null(strstr(buf, "\nrank files: 1024/1024 (100%) in "));
	assert_int_equal(buf[strlen(buf) - 1], '\n');
	free(buf);
}

/* PROGRESS_OPTS_ASKED: lines when the output is not a terminal */
static void test_progress__asked_on_a_file_is_a_log(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	struct progress_opts o = PROGRESS_OPTS_ASKED;
	struct progress pg;

	(void)state;
	o.out = mem;
	o.delay = 0;
	progress_start(&pg, &o, "rank files", 10);
	progress_update(&pg, 5);
	progress_end(&pg);
	fclose(mem);
	assert_non_null(strstr(buf, "rank files: 5/10 (50%)\nrank files: 5/10 (50%) in "));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_progress__not_a_terminal_prints_nothing),
		cmocka_unit_test(test_progress__quick_work_prints_nothing_on_a_terminal),
		cmocka_unit_test(test_progress__long_work_on_a_terminal_shows_then_erases_the_line),
		cmocka_unit_test(test_progress__asked_into_a_log_writes_whole_lines),
		cmocka_unit_test(test_progress__asked_on_a_file_is_a_log),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
