/* Unit tests for output files and output sets (utils/outfile.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>
#include "utils/error.h"
#include "utils/outfile.h"
#include "utils/banned.h"

/* Each test runs in a fresh directory of its own. */
static int in_tmpdir(void **state)
{
	char *dir = strdup("/tmp/test_outfile.XXXXXX");

	if (!dir || !mkdtemp(dir) || chdir(dir) < 0)
		return -1;
	*state = dir;
	return 0;
}

static int out_of_tmpdir(void **state)
{
	char cmd[256];

	if (chdir("/") < 0)
		return -1;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", (char *)*state);
	free(*state);
	return system(cmd) == 0 ? 0 : -1;
}

static void put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

static int same_text(const char *path, const char *text)
{
	char buf[256];
	FILE *fp = fopen(path, "r");
	size_t n;

	if (!fp)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	return !strcmp(buf, text);
}

static int entries(void)
{
	FILE *ls = popen("ls -A | wc -l", "r");
	int n = -1;

	if (ls) {
		if (fscanf(ls, "%d", &n) != 1)
			n = -1;
		pclose(ls);
	}
	return n;
}

static void test_outfile__regular_file_changes_only_at_commit(void **state)
{
	struct outfile of;

	(void)state;
	put("out.txt", "old\n");
	assert_int_equal(outfile_open(&of, "out.txt"), 0);
	assert_int_equal(of.kind, OUTFILE_RENAME);
	fputs("new\n", of.fp);
	fflush(of.fp);
	assert_true(same_text("out.txt", "old\n"));
	assert_int_equal(outfile_commit(&of), 0);
	assert_true(same_text("out.txt", "new\n"));
	assert_int_equal(entries(), 1); /* no temporary left */
}

static void test_outfile__abort_leaves_the_file_and_no_temporary(void **state)
{
	struct outfile of;

	(void)state;
	put("out.txt", "old\n");
	assert_int_equal(outfile_open(&of, "out.txt"), 0);
	fputs("new\n", of.fp);
	outfile_abort(&of);
	assert_true(same_text("out.txt", "old\n"));
	assert_int_equal(entries(), 1);
}

static void test_outfile__replaced_file_keeps_its_permissions(void **state)
{
	struct outfile of;
	struct stat st;

	(void)state;
	put("out.txt", "old\n");
	assert_int_equal(chmod("out.txt", 0640), 0);
	assert_int_equal(outfile_open(&of, "out.txt"), 0);
	assert_int_equal(outfile_commit(&of), 0);
	assert_int_equal(stat("out.txt", &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
}

static void test_outfile__symlink_to_regular_file_is_written_through(void **state)
{
	struct outfile of;
	struct stat st;
	char target[64];
	ssize_t n;

	(void)state;
	put("real.txt", "old\n");
	assert_int_equal(symlink("real.txt", "link.txt"), 0);
	assert_int_equal(outfile_open(&of, "link.txt"), 0);
	fputs("new\n", of.fp);
	assert_int_equal(outfile_commit(&of), 0);
	assert_int_equal(lstat("link.txt", &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	n = readlink("link.txt", target, sizeof(target) - 1);
	assert_int_equal(n, 8);
	target[n] = '\0';
	assert_string_equal(target, "real.txt");
	assert_true(same_text("real.txt", "new\n"));
}

static void test_outfile__fifo_is_written_in_place_at_commit(void **state)
{
	struct outfile of;
	struct stat st;
	char buf[16] = { 0 };
	int rd;

	(void)state;
	assert_int_equal(mkfifo("fifo", 0600), 0);
	rd = open("fifo", O_RDONLY | O_NONBLOCK); /* a reader, so opening does not wait */
	assert_true(rd >= 0);
	assert_int_equal(outfile_open(&of, "fifo"), 0);
	assert_int_equal(of.kind, OUTFILE_IN_PLACE);
	fputs("data\n", of.fp);
	fflush(of.fp);
	/* nothing before commit: a writer is there, no data (EAGAIN) */
	assert_int_equal(read(rd, buf, sizeof(buf)), -1);
	assert_int_equal(errno, EAGAIN);
	assert_int_equal(outfile_commit(&of), 0);
	assert_int_equal(read(rd, buf, sizeof(buf)), 5);
	assert_string_equal(buf, "data\n");
	close(rd);
	assert_int_equal(lstat("fifo", &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
}

static void test_outfile__dev_fd_path_writes_to_that_descriptor(void **state)
{
	struct outfile of;
	char path[32], buf[16] = { 0 };
	int p[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	snprintf(path, sizeof(path), "/dev/fd/%d", p[1]);
	assert_int_equal(outfile_open(&of, path), 0);
	assert_int_equal(of.kind, OUTFILE_IN_PLACE);
	fputs("piped\n", of.fp);
	assert_int_equal(outfile_commit(&of), 0);
	close(p[1]);
	assert_int_equal(read(p[0], buf, sizeof(buf)), 6);
	assert_string_equal(buf, "piped\n");
	close(p[0]);
}

static void test_outfile__dash_is_standard_output(void **state)
{
	struct outfile of;

	(void)state;
	assert_int_equal(outfile_open(&of, "-"), 0);
	assert_int_equal(of.kind, OUTFILE_STDOUT);
	outfile_abort(&of);
	assert_int_equal(entries(), 0); /* no file named "-" */
}

static void test_outfile__directory_is_refused(void **state)
{
	struct outfile of;

	(void)state;
	assert_int_equal(mkdir("dir", 0700), 0);
	assert_int_equal(outfile_open(&of, "dir"), -1);
	assert_int_equal(entries(), 1);
}

/* A private copy of /dev/full (root only): a failed write at commit is an
 * error, and the device node stays. */
static void test_outfile__full_device_fails_at_commit_and_stays(void **state)
{
	struct outfile of;
	struct stat st;

	(void)state;
	if (mknod("full", S_IFCHR | 0600, makedev(1, 7)) < 0)
		skip();
	assert_int_equal(outfile_open(&of, "full"), 0);
	fputs("data\n", of.fp);
	assert_int_equal(outfile_commit(&of), -1);
	assert_int_equal(lstat("full", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
}

static void test_outset__refuses_an_output_that_is_an_input(void **state)
{
	struct outset set = OUTSET_INIT;

	(void)state;
	put("in.dat", "x");
	assert_int_equal(link("in.dat", "hard.dat"), 0);
	assert_int_equal(outset_input(&set, "in.dat"), 0);
	assert_int_equal(outset_output(&set, "other.dat", "--a"), 0);
	assert_int_equal(outset_check(&set), 0);
	assert_int_equal(outset_output(&set, "hard.dat", "--b"), 0);
	assert_int_equal(outset_check(&set), -1);
	outset_release(&set);
}

static void test_outset__refuses_an_input_by_another_spelling(void **state)
{
	struct outset set = OUTSET_INIT;

	(void)state;
	/* neither exists: compared by path */
	assert_int_equal(outset_input(&set, "missing.dat"), 0);
	assert_int_equal(outset_output(&set, "./missing.dat", "--a"), 0);
	assert_int_equal(outset_check(&set), -1);
	outset_release(&set);
}

static void test_outset__refuses_two_outputs_naming_one_file(void **state)
{
	struct outset set = OUTSET_INIT;

	(void)state;
	assert_int_equal(outset_output(&set, "a.out", "--a"), 0);
	assert_int_equal(outset_output(&set, "b.out", "--b"), 0);
	assert_int_equal(outset_check(&set), 0);
	assert_int_equal(outset_output(&set, "./a.out", "--c"), 0);
	assert_int_equal(outset_check(&set), -1);
	outset_release(&set);
}

static void test_outset__devices_and_stdout_may_be_named_twice(void **state)
{
	struct outset set = OUTSET_INIT;

	(void)state;
	assert_int_equal(outset_input(&set, "/dev/null"), 0);
	assert_int_equal(outset_output(&set, "/dev/null", "--a"), 0);
	assert_int_equal(outset_output(&set, "/dev/null", "--b"), 0);
	assert_int_equal(outset_output(&set, "-", "--c"), 0);
	assert_int_equal(outset_output(&set, "-", "--d"), 0);
	assert_int_equal(outset_check(&set), 0);
	outset_release(&set);
}

static void test_outset__rereading_output_is_checked_against_outputs_only(void **state)
{
	struct outset set = OUTSET_INIT;

	(void)state;
	put("gmon.sum", "x");
	assert_int_equal(outset_input(&set, "gmon.sum"), 0);
	assert_int_equal(outset_output_rereads(&set, "gmon.sum", "-s"), 0);
	assert_int_equal(outset_check(&set), 0);
	assert_int_equal(outset_output(&set, "gmon.sum", "--dot"), 0);
	assert_int_equal(outset_check(&set), -1);
	outset_release(&set);
}

/* gmon.sum -> g1: upstream's -s would write the sum through the link over
 * its input g1; a hard link is the same file by another name */
static void test_outset__rereading_output_linked_to_another_input_is_refused(void **state)
{
	struct outset set = OUTSET_INIT;

	(void)state;
	put("g1", "x");
	put("g2", "y");
	assert_int_equal(symlink("g1", "gmon.sum"), 0);
	assert_int_equal(outset_input(&set, "g1"), 0);
	assert_int_equal(outset_input(&set, "g2"), 0);
	assert_int_equal(outset_output_rereads(&set, "gmon.sum", "-s"), 0);
	assert_int_equal(outset_check(&set), -1);
	outset_release(&set);

	/* read by its own name, the link is the sum's to rewrite */
	assert_int_equal(outset_input(&set, "g2"), 0);
	assert_int_equal(outset_input(&set, "./gmon.sum"), 0);
	assert_int_equal(outset_output_rereads(&set, "gmon.sum", "-s"), 0);
	assert_int_equal(outset_check(&set), 0);
	outset_release(&set);

	assert_int_equal(unlink("gmon.sum"), 0);
	assert_int_equal(link("g2", "gmon.sum"), 0);
	assert_int_equal(outset_input(&set, "g1"), 0);
	assert_int_equal(outset_input(&set, "g2"), 0);
	assert_int_equal(outset_output_rereads(&set, "gmon.sum", "-s"), 0);
	assert_int_equal(outset_check(&set), -1);
	outset_release(&set);
}

/* link -> out, out not written yet: both outputs would write out */
static void test_outset__dangling_symlink_is_the_file_it_would_create(void **state)
{
	struct outset set = OUTSET_INIT;

	(void)state;
	assert_int_equal(symlink("out", "link"), 0);
	assert_int_equal(symlink("link", "link2"), 0);
	assert_int_equal(outset_output(&set, "out", "--dot"), 0);
	assert_int_equal(outset_output(&set, "link", "--gml"), 0);
	assert_int_equal(outset_check(&set), -1);
	outset_release(&set);

	assert_int_equal(outset_output(&set, "link2", "--dot"), 0);
	assert_int_equal(outset_output(&set, "out", "--gml"), 0);
	assert_int_equal(outset_check(&set), -1);
	outset_release(&set);

	/* a dangling link into another folder, named by an absolute path */
	assert_int_equal(mkdir("d", 0755), 0);
	assert_int_equal(symlink("../new", "d/l"), 0);
	assert_int_equal(outset_output(&set, "d/l", "--dot"), 0);
	assert_int_equal(outset_output(&set, "new", "--gml"), 0);
	assert_int_equal(outset_check(&set), -1);
	outset_release(&set);

	/* two different new files stay allowed */
	assert_int_equal(outset_output(&set, "link", "--dot"), 0);
	assert_int_equal(outset_output(&set, "other", "--gml"), 0);
	assert_int_equal(outset_check(&set), 0);
	outset_release(&set);
}

/* a.txt (there, "old a") and `second` opened in `set`, both written */
static void open_two(struct outset *set, const char *second)
{
	struct outfile *a, *b;

	put("a.txt", "old a\n");
	assert_int_equal(outset_open(set, &a, "a.txt"), 0);
	assert_int_equal(outset_open(set, &b, second), 0);
	fputs("new a\n", a->fp);
	fputs("new b\n", b->fp);
}

static void test_outset__nothing_is_written_when_the_command_fails(void **state)
{
	struct outset set = OUTSET_INIT;

	(void)state;
	open_two(&set, "b.txt");
	outset_abort(&set);
	assert_true(same_text("a.txt", "old a\n"));
	assert_int_equal(access("b.txt", F_OK), -1);
	assert_int_equal(entries(), 1);
	outset_release(&set);
}

static void test_outset__commit_writes_every_output(void **state)
{
	struct outset set = OUTSET_INIT;

	(void)state;
	open_two(&set, "b.txt");
	assert_int_equal(outset_commit(&set), 0);
	assert_true(same_text("a.txt", "new a\n"));
	assert_true(same_text("b.txt", "new b\n"));
	assert_int_equal(entries(), 2);
	outset_release(&set);
}

static void test_outset__a_full_device_keeps_the_regular_outputs_as_they_were(void **state)
{
	struct outset set = OUTSET_INIT;

	(void)state;
	if (mknod("full", S_IFCHR | 0600, makedev(1, 7)) < 0)
		skip();
	open_two(&set, "full");
	assert_int_equal(outset_commit(&set), -1);
	assert_true(same_text("a.txt", "old a\n"));
	assert_int_equal(entries(), 2);
	outset_release(&set);
}

static int write_text(FILE *fp, const void *ctx)
{
	return fputs(ctx, fp) < 0 ? -1 : 0;
}

static int write_fails(FILE *fp, const void *ctx)
{
	(void)fp;
	(void)ctx;
	errno = EIO;
	return -1;
}

static void test_outfile_write__a_failing_writer_leaves_no_file(void **state)
{
	(void)state;
	assert_int_equal(outfile_write(NULL, "x.txt", write_fails, NULL), -1);
	assert_int_equal(entries(), 0);
	assert_int_equal(outfile_write(NULL, "y.txt", write_text, "y\n"), 0);
	assert_true(same_text("y.txt", "y\n"));
}

#define T(f) cmocka_unit_test_setup_teardown(f, in_tmpdir, out_of_tmpdir)

/* What error() printed while f ran: stderr into a file for the while. */
static char *stderr_of(int (*f)(void))
{
	static char buf[1024];
	int saved = dup(2), fd = open("stderr.txt", O_CREAT | O_TRUNC | O_RDWR, 0600);
	ssize_t n;

	assert_true(saved >= 0 && fd >= 0);
	fflush(stderr);
	assert_int_equal(dup2(fd, 2), 2);
	assert_int_equal(f(), -1);
	fflush(stderr);
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* a writer that fails for a reason of its own, which it said */
static int write_own_failure(FILE *fp, const void *ctx)
{
	(void)fp;
	(void)ctx;
	errno = 0;
	return error("out of memory while building it");
}

static int write_x_own_failure(void)
{
	return outfile_write(NULL, "x.txt", write_own_failure, NULL);
}

/* An output whose writer failed for its own reason (out of memory) was
 * said to fail "cannot write: Input/output error", a reason made up from
 * an errno of 0: the file is named, and no reason added to the writer's. */
static void test_outfile_write__a_writers_own_failure_gets_no_made_up_reason(void **state)
{
	const char *err;

	(void)state;
	err = stderr_of(write_x_own_failure);
	assert_non_null(strstr(err, "out of memory while building it\n"));
	assert_non_null(strstr(err, ": x.txt: not written\n"));
	assert_null(strstr(err, "Input/output error"));
	assert_int_equal(access("x.txt", F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_outfile__regular_file_changes_only_at_commit),
		T(test_outfile__abort_leaves_the_file_and_no_temporary),
		T(test_outfile__replaced_file_keeps_its_permissions),
		T(test_outfile__symlink_to_regular_file_is_written_through),
		T(test_outfile__fifo_is_written_in_place_at_commit),
		T(test_outfile__dev_fd_path_writes_to_that_descriptor),
		T(test_outfile__dash_is_standard_output),
		T(test_outfile__directory_is_refused),
		T(test_outfile__full_device_fails_at_commit_and_stays),
		T(test_outset__refuses_an_output_that_is_an_input),
		T(test_outset__refuses_an_input_by_another_spelling),
		T(test_outset__refuses_two_outputs_naming_one_file),
		T(test_outset__devices_and_stdout_may_be_named_twice),
		T(test_outset__rereading_output_is_checked_against_outputs_only),
		T(test_outset__rereading_output_linked_to_another_input_is_refused),
		T(test_outset__dangling_symlink_is_the_file_it_would_create),
		T(test_outset__nothing_is_written_when_the_command_fails),
		T(test_outset__commit_writes_every_output),
		T(test_outset__a_full_device_keeps_the_regular_outputs_as_they_were),
		T(test_outfile_write__a_failing_writer_leaves_no_file),
		T(test_outfile_write__a_writers_own_failure_gets_no_made_up_reason),
	};

	error_set_program("test_outfile");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
