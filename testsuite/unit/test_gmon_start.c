/*
 * test_gmon_start.c - glibc 2.36's profiling start-up and file rules, done
 * by the runtime (runtime/gmon_start.c).  The geometry is checked against
 * glibc's own __monstartup, on many ranges, by t481.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "runtime/gmon_out.h"
#include "runtime/gmon_start.h"
#include "utils/banned.h"

/* Each test runs in a directory of its own. */
static int in_tmpdir(void **state)
{
	char *dir = strdup("/tmp/test_gmon_start.XXXXXX");

	assert_non_null(dir);
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chdir(dir), 0);
	*state = dir;
	return 0;
}

static int out_of_tmpdir(void **state)
{
	char cmd[128];

	assert_int_equal(chdir("/"), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", (char *)*state);
	assert_int_equal(system(cmd), 0);
	free(*state);
	return 0;
}

static void test_gmon_start__geometry_is_monstartups(void **state)
{
	struct gmon_geometry g;

	(void)state;
	/*
	 * A PIE's text, __executable_start 0x555555554000 to etext
	 * 0x555555555235: highpc rounded up to 4, textsize 0x1238 (4664):
	 * kcountsize ROUNDUP(2332, 8) = 2336, fromssize the same,
	 * tolimit 4664 * 3 / 100 = 139, s_scale (float)2336 / 4664 * 65536
	 * = 32824.5..., truncated.
	 */
	gmon_geometry_compute(0x555555554000, 0x555555555235, &g);
	assert_int_equal(g.lowpc, 0x555555554000);
	assert_int_equal(g.highpc, 0x555555555238);
	assert_int_equal(g.textsize, 0x1238);
	assert_int_equal(g.kcountsize, 2336);
	assert_int_equal(g.fromssize, 2336);
	assert_int_equal(g.hashfraction, 2);
	assert_int_equal(g.log_hashfraction, 4);
	assert_int_equal(g.tolimit, 139);
	assert_int_equal(g.tossize, 139 * 24);
	assert_int_equal(g.s_scale, 32824);
	assert_int_equal(gmon_geometry_buckets(&g), 292);
}

static void test_gmon_start__geometry_bounds_the_arc_table(void **state)
{
	struct gmon_geometry g;

	(void)state;
	gmon_geometry_compute(0x401003, 0x401010, &g);	/* tiny: MINARCS */
	assert_int_equal(g.lowpc, 0x401000);
	assert_int_equal(g.tolimit, 50);
	assert_int_equal(g.kcountsize, 8);
	assert_int_equal(g.s_scale, 32768);	/* 8 bins' bytes for 16 of text */
	gmon_geometry_compute(0x401000, 0x401004, &g);
	assert_int_equal(g.kcountsize, 8);	/* rounded up past the text */
	assert_int_equal(g.s_scale, 0x10000);
	gmon_geometry_compute(0x400000, 0x400000 + (1ull << 30), &g);	/* 1 GiB */
	assert_int_equal(g.tolimit, 1 << 20);	/* MAXARCS */
	assert_int_equal(g.kcountsize, 1u << 29);
	assert_int_equal(g.s_scale, 32768);
}

static void test_gmon_start__bucket_pc_is_glibcs_from_pc(void **state)
{
	struct gmon_geometry g;

	(void)state;
	gmon_geometry_compute(0x1000, 0x2000, &g);
	assert_int_equal(gmon_geometry_bucket(&g, 0x1000), 0);
	assert_int_equal(gmon_geometry_bucket(&g, 0x100f), 0);
	assert_int_equal(gmon_geometry_bucket(&g, 0x1010), 1);
	assert_int_equal(gmon_geometry_bucket(&g, 0xfff), -1);
	assert_int_equal(gmon_geometry_bucket_pc(&g, 1), 0x1010);
	assert_int_equal(gmon_geometry_bucket_pc(&g, 255), 0x1ff0);
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	assert_int_equal(lstat(path, &st), 0);
	return st.st_mode;
}

static void test_gmon_start__prefix_names_the_file_with_the_pid(void **state)
{
	char path[256];
	mode_t old = umask(022);
	int fd;

	(void)state;
	fd = gmon_open("run", 4321, path, sizeof(path));
	assert_true(fd >= 0);
	assert_string_equal(path, "run.4321");
	assert_int_equal(mode_of("run.4321") & 0777, 0644);
	close(fd);
	umask(old);
}

static void test_gmon_start__no_prefix_or_a_bad_one_falls_back_to_gmon_out(void **state)
{
	char path[256], longer[8192];
	int fd;

	(void)state;
	fd = gmon_open(NULL, 1, path, sizeof(path));
	assert_true(fd >= 0);
	assert_string_equal(path, "gmon.out");
	close(fd);
	assert_int_equal(unlink("gmon.out"), 0);
	fd = gmon_open("no/such/dir/p", 1, path, sizeof(path));
	assert_true(fd >= 0);
	assert_string_equal(path, "gmon.out");
	close(fd);
	assert_int_equal(unlink("gmon.out"), 0);
	/* a prefix longer than any path: glibc's open fails, then gmon.out */
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	fd = gmon_open(longer, 1, path, sizeof(path));
	assert_true(fd >= 0);
	assert_string_equal(path, "gmon.out");
	close(fd);
}

static void test_gmon_start__a_symbolic_link_is_refused(void **state)
{
	char path[256];

	(void)state;
	assert_int_equal(symlink("target", "gmon.out"), 0);
	assert_int_equal(symlink("target", "p.7"), 0);
	assert_int_equal(gmon_open("p", 7, path, sizeof(path)), -ELOOP);
	assert_int_equal(gmon_open(NULL, 7, path, sizeof(path)), -ELOOP);
	assert_int_equal(access("target", F_OK), -1);	/* nothing created */
}

static void test_gmon_start__an_existing_file_is_truncated_its_mode_kept(void **state)
{
	char path[256];
	int fd = open("gmon.out", O_CREAT | O_WRONLY, 0600);

	(void)state;
	assert_int_equal(write(fd, "old data", 8), 8);
	close(fd);
	fd = gmon_open(NULL, 1, path, sizeof(path));
	assert_true(fd >= 0);
	assert_int_equal(lseek(fd, 0, SEEK_END), 0);
	assert_int_equal(mode_of("gmon.out") & 0777, 0600);
	close(fd);
}

/* What gmon_report_open_error writes on fd 2. */
static void stderr_of_report(int errnum, int localized, char *buf, size_t len)
{
	int p[2], saved = dup(2);
	ssize_t n;

	assert_int_equal(pipe(p), 0);
	assert_int_equal(dup2(p[1], 2), 2);
	close(p[1]);
	gmon_report_open_error(errnum, localized);
	assert_int_equal(dup2(saved, 2), 2);
	close(saved);
	n = read(p[0], buf, len - 1);
	assert_true(n > 0);
	buf[n] = '\0';
	close(p[0]);
}

static void test_gmon_start__open_errors_read_as_glibcs(void **state)
{
	char buf[512];

	(void)state;
	stderr_of_report(ELOOP, 0, buf, sizeof(buf));
	assert_string_equal(buf, "_mcleanup: gmon.out: Too many levels of symbolic links\n");
	stderr_of_report(EISDIR, 1, buf, sizeof(buf));
	assert_string_equal(buf, "_mcleanup: gmon.out: Is a directory\n");
	stderr_of_report(9999, 0, buf, sizeof(buf));
	assert_string_equal(buf, "_mcleanup: gmon.out: Unknown error 9999\n");
	stderr_of_report(9999, 1, buf, sizeof(buf));
	assert_string_equal(buf, "_mcleanup: gmon.out: Unknown error 9999\n");
}

static void test_gmon_start__write_named_writes_where_glibc_would(void **state)
{
	struct gmon_geometry g;
	uint16_t bins[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct gmon_out_opts o = {
		.geom = &g, .kcount = bins, .prof_rate = 100, .parts = GMON_OUT_ALL,
	};
	char expected[64];

	(void)state;
	gmon_geometry_compute(0x1000, 0x1020, &g);
	assert_int_equal(setenv("GMON_OUT_PREFIX", "named", 1), 0);
	assert_int_equal(gmon_write_named(&o, 1), 0);
	unsetenv("GMON_OUT_PREFIX");
	snprintf(expected, sizeof(expected), "named.%u", (unsigned)getpid());
	{
		struct stat st;

		assert_int_equal(stat(expected, &st), 0);
		assert_int_equal(st.st_size, 20 + 41 + 16);
	}
	assert_int_equal(mkdir("gmon.out", 0755), 0);
	{
		int p[2], saved = dup(2);
		char buf[256];
		ssize_t n;

		assert_int_equal(pipe(p), 0);
		assert_int_equal(dup2(p[1], 2), 2);
		close(p[1]);
		assert_int_equal(gmon_write_named(&o, 1), -EISDIR);
		assert_int_equal(dup2(saved, 2), 2);
		close(saved);
		n = read(p[0], buf, sizeof(buf) - 1);
		assert_true(n > 0);
		buf[n] = '\0';
		close(p[0]);
		assert_string_equal(buf, "_mcleanup: gmon.out: Is a directory\n");
	}
}

static void test_gmon_start__snapshot_replaces_a_regular_file_only(void **state)
{
	char tmp[256];
	int fd;

	(void)state;
	fd = open("snap", O_CREAT | O_WRONLY, 0644);
	assert_int_equal(write(fd, "old", 3), 3);
	close(fd);
	/* a stale temporary file of a dead process with our pid */
	snprintf(tmp, sizeof(tmp), "snap.tmp.%u", (unsigned)getpid());
	fd = open(tmp, O_CREAT | O_WRONLY, 0600);
	assert_int_equal(write(fd, "stale", 5), 5);
	close(fd);
	fd = gmon_snapshot_open("snap", tmp, sizeof(tmp));
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "new!", 4), 4);
	close(fd);
	assert_int_equal(gmon_snapshot_commit(tmp, "snap"), 0);
	assert_int_equal(access(tmp, F_OK), -1);
	{
		struct stat st;

		assert_int_equal(stat("snap", &st), 0);
		assert_int_equal(st.st_size, 4);
	}
	/* a FIFO or a symbolic link at the final name stays as it was */
	assert_int_equal(mkfifo("fifo", 0644), 0);
	fd = gmon_snapshot_open("fifo", tmp, sizeof(tmp));
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(gmon_snapshot_commit(tmp, "fifo"), -EEXIST);
	assert_true(S_ISFIFO(mode_of("fifo")));
	assert_int_equal(access(tmp, F_OK), -1);
	assert_int_equal(symlink("snap", "link"), 0);
	fd = gmon_snapshot_open("link", tmp, sizeof(tmp));
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(gmon_snapshot_commit(tmp, "link"), -EEXIST);
	assert_true(S_ISLNK(mode_of("link")));
	fd = gmon_snapshot_open("new", tmp, sizeof(tmp));
	assert_true(fd >= 0);
	close(fd);
	gmon_snapshot_abort(tmp);
	assert_int_equal(access(tmp, F_OK), -1);
	assert_int_equal(access("new", F_OK), -1);
}

static void test_gmon_start__histogram_runs_glibcs_profil_and_stops(void **state)
{
	struct gmon_hist h;
	struct sigaction sa;
	struct itimerval it;

	(void)state;
	assert_int_equal(gmon_hist_start(&h, 0x1000, 0x2000), 0);
	assert_non_null(h.kcount);
	assert_int_equal(h.on, 1);
	assert_int_equal(sigaction(SIGPROF, NULL, &sa), 0);
	assert_true(sa.sa_handler != SIG_DFL);	/* glibc's profil_counter */
	assert_int_equal(getitimer(ITIMER_PROF, &it), 0);
	assert_int_equal(it.it_interval.tv_usec, 1000000 / __profile_frequency());
	assert_int_equal(gmon_hist_control(&h, 0), 0);
	assert_int_equal(getitimer(ITIMER_PROF, &it), 0);
	assert_int_equal(it.it_interval.tv_usec, 0);
	assert_int_equal(gmon_hist_control(&h, 1), 0);
	gmon_hist_release(&h);
	assert_null(h.kcount);
	assert_int_equal(sigaction(SIGPROF, NULL, &sa), 0);
	assert_true(sa.sa_handler == SIG_DFL);
	assert_int_equal(getitimer(ITIMER_PROF, &it), 0);
	assert_int_equal(it.it_value.tv_usec + it.it_value.tv_sec, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gmon_start__geometry_is_monstartups),
		cmocka_unit_test(test_gmon_start__geometry_bounds_the_arc_table),
		cmocka_unit_test(test_gmon_start__bucket_pc_is_glibcs_from_pc),
		cmocka_unit_test_setup_teardown(test_gmon_start__prefix_names_the_file_with_the_pid,
						in_tmpdir, out_of_tmpdir),
		cmocka_unit_test_setup_teardown(test_gmon_start__no_prefix_or_a_bad_one_falls_back_to_gmon_out,
						in_tmpdir, out_of_tmpdir),
		cmocka_unit_test_setup_teardown(test_gmon_start__a_symbolic_link_is_refused,
						in_tmpdir, out_of_tmpdir),
		cmocka_unit_test_setup_teardown(test_gmon_start__an_existing_file_is_truncated_its_mode_kept,
						in_tmpdir, out_of_tmpdir),
		cmocka_unit_test(test_gmon_start__open_errors_read_as_glibcs),
		cmocka_unit_test_setup_teardown(test_gmon_start__write_named_writes_where_glibc_would,
						in_tmpdir, out_of_tmpdir),
		cmocka_unit_test_setup_teardown(test_gmon_start__snapshot_replaces_a_regular_file_only,
						in_tmpdir, out_of_tmpdir),
		cmocka_unit_test(test_gmon_start__histogram_runs_glibcs_profil_and_stops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
