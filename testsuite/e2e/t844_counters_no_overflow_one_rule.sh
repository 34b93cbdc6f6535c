#!/usr/bin/env bash
# An event metric with no overflow: --folded refused it with "the run was
# shorter than a tick of the profiling timer (1e+09 ms at 1e-06 Hz)" (the
# period, events per overflow, read as nanoseconds of a timer) while
# --pprof and --html wrote the same file without a word.  One rule for
# every output (callpath/folded.h): a sidecar whose metric holds no sample
# is said in the metric's own terms (an overflow every PERIOD events; a
# tick of the timer for time); --folded, all of whose lines would be gone,
# refuses; --pprof and --html, which show the calls too, are written and
# say it.  The same for time in a run shorter than a tick.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
. "$SRCDIR/testsuite/e2e/counters_lib.sh"
counters_need_papi
cd "$WORKDIR" || exit 1
cat > p.c <<'C'
#include <stdio.h>
#include "touch_pages.h"
__attribute__((noinline)) long touch_some(long n) { return touch(n); }
int main(int argc, char **argv) { printf("%ld\n", touch_some(argc > 1 ? atol(argv[1]) : 10)); return 0; }
C
gcc -pg -O1 -I"$SRCDIR/testsuite/fixtures" -o p p.c || exit 1
# a period no short run reaches; and one a run of 2,000 pages does
mkdir -p none some
(cd none && CALLPATH_HZ=10 CALLPATH_EVENTS=perf::PAGE-FAULTS@100000000 LD_PRELOAD="$CP_SO" ../p 10 > /dev/null 2> err.txt)
(cd some && CALLPATH_EVENTS=perf::PAGE-FAULTS@10 LD_PRELOAD="$CP_SO" ../p 2000 > /dev/null 2> err.txt)
cp_check "the runtime counted the event (no line on stderr)" test ! -s none/err.txt -a ! -s some/err.txt
want="'gmon.out.callpath' holds no overflow of perf::PAGE-FAULTS: the run counted fewer than one period of it (100000000 events) in each thread"

cd none || exit 1
"$EGPROF" -b --metric perf::PAGE-FAULTS --folded f.folded ../p gmon.out > /dev/null 2> err.txt
rc=$?
cp_check "--folded: refused (exit $rc), no file" test $rc -eq 1 -a ! -e f.folded
cp_check "... saying why in the event's terms" grep -qF "f.folded: cannot write: $want" err.txt
cp_check "... not as a tick of a timer" bash -c "! grep -qE ' ms at |Hz' err.txt"
for out in "--pprof p.pb.gz" "--html p.html"; do
	# shellcheck disable=SC2086 # the option and its file
	"$EGPROF" -b --metric perf::PAGE-FAULTS $out ../p gmon.out > /dev/null 2> err.txt
	rc=$?
	cp_check "${out%% *}: written (exit $rc), saying the same" \
		bash -c "[ $rc = 0 ] && [ -s ${out#* } ] && grep -qF \"warning: $want; the views show its calls\" err.txt"
done
cp gmon.out g2 && cp gmon.out.callpath g2.callpath
"$EGPROF" --diff --metric perf::PAGE-FAULTS --folded d.folded ../p gmon.out g2 > /dev/null 2> err.txt
rc=$?
cp_check "--diff --folded: refused (exit $rc), in the event's terms" \
	bash -c "[ $rc = 1 ] && grep -qF \"d.folded: cannot write: neither profile's call-path sidecars hold an overflow of perf::PAGE-FAULTS ($want;\" err.txt"
cd ..

cd some || exit 1
"$EGPROF" -b --metric perf::PAGE-FAULTS --folded f.folded --pprof p.pb.gz ../p gmon.out > /dev/null 2> err.txt
rc=$?
cp_check "with overflows: --folded and --pprof written (exit $rc), nothing said" \
	test $rc -eq 0 -a -s f.folded -a ! -s err.txt
cp_check "... touch_some's events in the folded file" grep -qE '^main;touch_some [0-9]+$' f.folded
cd ..

# time, in a run shorter than a tick: the same rule, in the timer's terms
(cd none && "$EGPROF" -b --pprof t.pb.gz ../p gmon.out > /dev/null 2> ../err.txt)
rc=$?
cp_check "--pprof of a run with no time sample: written (exit $rc), saying why" \
	bash -c "[ $rc = 0 ] && grep -qF \"warning: 'gmon.out.callpath' holds no time sample: the run was shorter than a tick of the profiling timer\" err.txt"
cp_done
