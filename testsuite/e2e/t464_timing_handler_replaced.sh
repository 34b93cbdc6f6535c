#!/usr/bin/env bash
# A program that replaces the SIGPROF handler or the profiling timer
# (issue 10): crediting stops, the sidecar records it (sampling bit 1), the
# report warns; the samples before the replacement are kept.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

cp_cc timing timing.c -O1 -g || exit 1
cd "$WORKDIR" || exit 1
for mode in replace timer; do
	mkdir -p $mode
	(cd $mode && rm -f gmon.out* && LD_PRELOAD="$CP_SO" ../timing $mode) || exit 1
	cp_check "$mode: the sidecar records that crediting stopped (sampling 0x3)" \
		test "$(cp_header $mode/gmon.out.callpath sampling)" = 0x3
	"$EGPROF" -b --callpath ./timing $mode/gmon.out > $mode/report.txt 2>&1
	cp_check "$mode: the report warns" \
		grep -q "^warning: the program replaced the SIGPROF handler or the profiling" $mode/report.txt
	cp_check "$mode: calls are still all recorded (work 2 calls)" \
		grep -qE '^work: 2 calls' $mode/report.txt
done
# Before the replacement the first work() call was credited: about half of
# the run (the second half of the histogram, if any, is the program's).
placed=$(cp_header replace/gmon.out.callpath samples)
cp_check "replace: samples before the replacement kept ($placed)" test "$placed" -gt 10
cp_done
