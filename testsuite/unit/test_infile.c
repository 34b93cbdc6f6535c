/* Unit tests for opening input files (utils/infile.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "utils/infile.h"
#include "utils/banned.h"

static void test_infile__reads_a_regular_file_whole(void **state)
{
	char path[] = "/tmp/test_infile.XXXXXX", err[256];
	unsigned char *buf;
	size_t len;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "hello", 5), 5);
	close(fd);
	assert_int_equal(infile_read_all(path, &buf, &len, err, sizeof(err)), 0);
	assert_int_equal(len, 5);
	assert_memory_equal(buf, "hello", 6); /* with its NUL */
	free(buf);
	unlink(path);
}

static void test_infile__refuses_dev_zero_at_once(void **state)
{
	char err[256];
	unsigned char *buf;
	size_t len;

	(void)state;
	assert_int_equal(infile_read_all("/dev/zero", &buf, &len, err, sizeof(err)), -1);
	assert_null(buf);
	assert_string_equal(err, "/dev/zero: not a regular file "
				 "(a character device)");
}

static void test_infile__refuses_a_fifo_without_waiting_for_a_writer(void **state)
{
	char path[] = "/tmp/test_infile.XXXXXX", fifo[64], err[256];

	(void)state;
	assert_non_null(mkdtemp(path));
	snprintf(fifo, sizeof(fifo), "%s/f", path);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(infile_open(fifo, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a regular file (a FIFO or pipe)"));
	unlink(fifo);
	rmdir(path);
}

static void test_infile__refuses_a_directory(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(infile_open("/tmp", NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "/tmp: not a regular file (a directory)");
}

static void test_infile__names_a_missing_file(void **state)
{
	char err[256];

	(void)state;
	assert_int_equal(infile_open("/nonexistent/x", NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "/nonexistent/x: No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_infile__reads_a_regular_file_whole),
		cmocka_unit_test(test_infile__refuses_dev_zero_at_once),
		cmocka_unit_test(test_infile__refuses_a_fifo_without_waiting_for_a_writer),
		cmocka_unit_test(test_infile__refuses_a_directory),
		cmocka_unit_test(test_infile__names_a_missing_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
