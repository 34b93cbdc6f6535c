#ifndef EGPROF_GMON_CHECK_H
#define EGPROF_GMON_CHECK_H
/*
 * Pre-checks of gmon files, before upstream gprof reads them.  Upstream
 * believes the sizes a gmon file announces: on some malformed files it
 * allocates and clears gigabytes, or works for hours, before it finds out.
 * These checks catch exactly those files (doc/dev/reliability.md lists each case
 * with what stock gprof does) and leave every other problem to upstream, so
 * its messages and output stay byte-identical.
 *
 *   gmon_check(path, GMON_CHECK_LIMITS)   plain gprof mode: refuse only what
 *                                         would hang upstream or exhaust memory
 *   gmon_check(path, GMON_CHECK_STRICT)   --diff, --rank-stats: also refuse an
 *                                         unreadable, short or truncated file,
 *                                         naming it (upstream's message would
 *                                         come from a loader)
 * Both return 0, or -1 after one error() naming the file and the problem.
 */

enum gmon_check_level {
	GMON_CHECK_LIMITS,
	GMON_CHECK_STRICT,
};

int gmon_check(const char *path, enum gmon_check_level level);

#endif
