#!/usr/bin/env bash
# Issue 12 item 12: a histogram whose sampling rate is 0 (a crafted gmon
# header) gave 0 seconds in --diff and --rank-stats, exit 0.  Now a clear
# error naming the file; plain gprof is left as /usr/bin/gprof is.
. "$SRCDIR/testsuite/e2e/outputs_lib.sh"
out_build
# glibc's layout: 20-byte header, tag byte, lowpc, highpc, ncnt, then the
# 4-byte rate at byte 41
cp gmon.out r0.out
printf '\0\0\0\0' | dd of=r0.out bs=1 seek=41 conv=notrunc 2>/dev/null
check "the crafted file has rate 0" [ "$(od -An -tu4 -j41 -N4 r0.out | tr -d ' ')" = 0 ]
mkdir d && cp gmon.out d/gmon.1 && cp r0.out d/gmon.2

refused() {
	local name=$1 text=$2
	shift 2
	"$EGPROF" "$@" >out.txt 2>err.txt; rc=$?
	check "$name: exit 1" [ $rc = 1 ]
	check "$name: names the file and the rate" has_err err.txt "$text"
}
refused "--diff, second run" "r0.out: its histogram's sampling rate is 0" \
	--diff app gmon.out r0.out
refused "--diff, baseline" "r0.out: its histogram's sampling rate is 0" \
	--diff app r0.out gmon.out
refused "--diff, a directory member" "d/gmon.2: its histogram's sampling rate is 0" \
	--diff app d gmon.out
refused "--rank-stats" "r0.out: its histogram's sampling rate is 0" \
	--rank-stats app gmon.out r0.out
refused "--rank-stats DIR" "d/gmon.2: its histogram's sampling rate is 0" \
	--rank-stats app d

"$SYSGPROF" -b app r0.out >sys.out 2>sys.err; sys=$?
"$EGPROF" -b app r0.out >ours.out 2>ours.err; ours=$?
# (upstream's column header with an infinite rate is not stable between
# builds, so only the status and the flat profile's first lines are compared)
check "plain gprof on it: exit status of /usr/bin/gprof, no error of ours" \
	bash -c "[ $sys = $ours ] && cmp -s <(head -3 sys.out) <(head -3 ours.out) && ! grep -q 'sampling rate' ours.err"
done_testing
