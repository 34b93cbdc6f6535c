#!/usr/bin/env bash
# Issue 21 item 6: the runtime changes no process-wide state: it used to
# set the umask to 0 and back at exit (to give the sidecar gmon.out's mode)
# while other threads may still run.  strace sees no umask() call, and the
# sidecar still gets 0666 less the umask, as gmon.out does.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
command -v strace > /dev/null || { echo "1..0 # SKIP no strace"; exit 0; }
cd "$WORKDIR" || exit 1
cp_cc acc acceptance.c -O1 || exit 1
for mask in 022 027 002; do
	rm -f gmon.out gmon.out.callpath
	(umask $mask && LD_PRELOAD="$CP_SO" strace -f -qq -e trace=umask -o trace.$mask ./acc > /dev/null)
	cp_check "umask $mask: the runtime calls no umask()" test ! -s trace.$mask
	cp_check "umask $mask: the sidecar's mode is gmon.out's ($(stat -c %a gmon.out))" \
		test "$(stat -c %a gmon.out.callpath)" = "$(stat -c %a gmon.out)"
done
cp_done
