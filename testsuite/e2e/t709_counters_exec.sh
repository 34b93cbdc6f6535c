#!/usr/bin/env bash
# Counting events never reaches a program the profiled one execs (the
# runtime's rule: the program behaves as without it).  A counter
# overflowing while the kernel builds the new image queued PAPI's signal
# to the thread, and the new program, with that signal's default action,
# died of it: `nice /bin/true` with the runtime preloaded and
# CALLPATH_EVENTS=perf::PAGE-FAULTS ended with status 164 (real-time
# signal 2) every time.  exec.c stops the thread's counters (and its
# CPU-time timer) before each exec function and starts them again when
# the exec fails.  Checked: nice /bin/true five times; a -pg program that
# touches 3000 pages and then execs a child through each of execv, execvp,
# execl, execlp, execle and execve (the child's output and exit status
# reach the shell; SIGPROF ignored first, since glibc's ITIMER_PROF outlives
# exec and ends a plain -pg program's child too); one exec that fails (ENOENT, the program goes on, its
# later touch_after's 1000 pages still counted, within t700's 10%).
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
. "$SRCDIR/testsuite/e2e/counters_lib.sh"
counters_need_papi
cd "$WORKDIR" || exit 1
export CALLPATH_EVENTS=perf::PAGE-FAULTS

bad=0
for i in 1 2 3 4 5; do
	LD_PRELOAD="$CP_SO" nice /bin/true || bad=$((bad + 1))
done
cp_check "nice /bin/true, preloaded, counting page faults: status 0 in 5 runs of 5 ($bad failed)" \
	test $bad = 0

cat > execs.c <<'C'
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
extern char **environ;
#include "touch_pages.h"
__attribute__((noinline)) long touch_before(long n) { return touch(n); }
__attribute__((noinline)) long touch_after(long n) { return touch(n); }
int main(int argc, char **argv)
{
	char *av[] = { "sh", "-c", "echo child; exit 7", NULL };
	const char *how = argv[1];

	touch_before(3000);
	fflush(stdout);
	/* glibc's ITIMER_PROF outlives exec, and its next tick would end the
	 * child as it ends a plain -pg program's (status 155): ignored, and
	 * ignored in the child too, so that only our signals are tested */
	signal(SIGPROF, SIG_IGN);
	if (!strcmp(how, "execv"))
		execv("/bin/sh", av);
	else if (!strcmp(how, "execvp"))
		execvp("sh", av);
	else if (!strcmp(how, "execl"))
		execl("/bin/sh", "sh", "-c", "echo child; exit 7", (char *)NULL);
	else if (!strcmp(how, "execlp"))
		execlp("sh", "sh", "-c", "echo child; exit 7", (char *)NULL);
	else if (!strcmp(how, "execle"))
		execle("/bin/sh", "sh", "-c", "echo child; exit 7", (char *)NULL, environ);
	else if (!strcmp(how, "execve"))
		execve("/bin/sh", av, environ);
	else {
		int r = execv("/nonexistent/program", av);

		printf("failed %d %s\n", r, strerror(errno));
		printf("%ld\n", touch_after(1000));
		return 0;
	}
	return 99;
}
C
gcc -pg -O1 -I"$SRCDIR/testsuite/fixtures" -o execs execs.c || exit 1
for how in execv execvp execl execlp execle execve; do
	mkdir -p $how && (cd $how && LD_PRELOAD="$CP_SO" ../execs $how > out 2> err; echo $? > rc)
	cp_check "$how: the child ran, printed its line and its status 7 reached the shell" \
		test "$(cat $how/out)" = child -a "$(cat $how/rc)" = 7
done
mkdir -p fails && (cd fails && LD_PRELOAD="$CP_SO" ../execs none > out 2> err; echo $? > rc)
cp_check "a failed exec returns -1 with ENOENT and the program goes on" \
	test "$(head -1 fails/out)" = "failed -1 No such file or directory" -a "$(cat fails/rc)" = 0
"$EGPROF" -b --metric perf::PAGE-FAULTS --folded fails/ev.folded ./execs fails/gmon.out > /dev/null 2>&1
after=$(cp_incl_samples fails/ev.folded touch_after)
cp_check "after the failed exec the counters count again: touch_after has $after of 1000 page faults (10%)" \
	cp_within "${after:-0}" 1000 10
cp_done
