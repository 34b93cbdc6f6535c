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
	struct progress_opts o = { mem, tty, delay };
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_progress__not_a_terminal_prints_nothing),
		cmocka_unit_test(test_progress__quick_work_prints_nothing_on_a_terminal),
		cmocka_unit_test(test_progress__long_work_on_a_terminal_shows_then_erases_the_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
