#!/usr/bin/env bash
# Every sample placed (issue 22): functions calling libm (exp, sin, log),
# memcpy, and plain arithmetic, each for about 0.4 s of its thread's CPU
# time (CLOCK_THREAD_CPUTIME_ID, printed by the program).  At
# CALLPATH_HZ=1000: at least 99% of the process's samples placed; each
# function's inclusive time within 5% of the CPU time the program measured
# for it, plus 3 Poisson standard deviations of its sample count
# (testlib.sh, cp_secs_within; per-thread CPU timers weighted by their
# overruns: 400 samples +-60, where the runtime before issue 22 credited
# use_libm and use_memcpy none of their library time, and arith 93% of
# the samples it could place); the library functions named under their
# callers, and the report's split program/libraries/instrumentation.
# False-failure bound: per-thread CPU-time timers fire periodically in the
# thread's CPU time, so a count strays by a tick or two plus overruns; the
# 5% band (20 samples of 400) holds ten such ticks.  As Poisson draws, which
# overstate them, each check's 3 standard deviations fail with 0.27%.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

gcc -pg -O1 -g -o "$WORKDIR/placed" "$CP_EX/placed.c" -lm -lpthread || exit 1
cd "$WORKDIR" || exit 1
rm -f gmon.out*
CALLPATH_HZ=1000 LD_PRELOAD="$CP_SO" ./placed > cpu.txt || exit 1
"$EGPROF" -b --callpath --folded time.folded ./placed gmon.out > report.txt 2> err.txt
cp_check "report and folded file written" test -s report.txt -a -s time.folded
cp_check "the sidecar records the time's kind and rate: cpu-time, 1,000,000 ns" \
	test "$(cp_header gmon.out.callpath time-metric) $(cp_header gmon.out.callpath time-period)" = "cpu-time 1000000"

placed=$(cp_header gmon.out.callpath samples)
unplaced=$(cp_header gmon.out.callpath unplaced-samples)
cp_check "at least 99% of the samples placed ($placed placed, $unplaced not)" \
	awk -v p="$placed" -v u="$unplaced" 'BEGIN { exit !(p > 0 && u <= 0.01 * (p + u)) }'
for f in use_libm use_memcpy arith; do
	want=$(awk -v f=$f '$1 == f { print $2 }' cpu.txt)
	got=$(cp_incl_samples time.folded $f)
	cp_check "$f: $got samples at 1000 Hz for ${want}s of its CPU time (5% + 3 sd)" \
		cp_secs_within "$got" 1000 "$want" 5
done
cp_check "libm's functions named under use_libm" \
	grep -q '^main;use_libm;[^;]* \[libm\.so\.6\] [0-9]*$' time.folded
cp_check "libc's memcpy named under use_memcpy" \
	grep -q '^main;use_memcpy;[^;]*\[libc\.so\.6\] [0-9]*$' time.folded
lib=$(grep -F '[lib' time.folded | awk '{ s += $NF } END { print s + 0 }')
cp_check "the libraries' samples ($lib) are about two thirds of the time" \
	awk -v l="$lib" -v p="$placed" 'BEGIN { exit !(l > 0.5 * p && l < 0.75 * p) }'
cp_check "the report splits the samples between program, libraries, instrumentation" \
	grep -q 'ran$' <(grep -o 'Of the process.s samples, [0-9.]*% ran' report.txt | sed 's/.*ran/ran/')
cp_check "the report names the rate and the time's kind" \
	grep -q "samples of each thread's CPU time (.* seconds at 1000 Hz)" report.txt
cp_check "the tree shows the library frame under its caller" \
	grep -Eq '^ +0 +[0-9.]+ +[0-9.]+ +[^ ].* \[libm\.so\.6\]$' report.txt
cp_done
