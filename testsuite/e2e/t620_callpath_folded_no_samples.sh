#!/usr/bin/env bash
# --folded on a run with no samples said nothing (issue 24 item 12): a run
# shorter than a tick of the profiling timer leaves a sidecar whose
# sampling flag is set but which holds no sample, and --folded wrote an
# empty file and exited 0.  It is an error now that says why, naming the
# output and the sidecar, and no file is written (all or nothing); the
# diff says so when neither side has a sample, and warns when one side
# has none (its column is zeros).  --folded-calls is not affected.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cat > spin.c <<'C'
#include <stdlib.h>
volatile long sink;
__attribute__((noinline)) void work(long n) { for (long i = 0; i < n; i++) sink += i; }
int main(int argc, char **argv) { work(argc > 1 ? atol(argv[1]) : 0); return 0; }
C
gcc -pg -O1 -o spin spin.c || exit 1
CALLPATH_HZ=10 LD_PRELOAD="$CP_SO" ./spin 0 && mv gmon.out g0 && mv gmon.out.callpath g0.callpath
LD_PRELOAD="$CP_SO" ./spin 400000000 && mv gmon.out g1 && mv gmon.out.callpath g1.callpath
cp_check "the short run's sidecar has the sampling flag and no sample" \
	test "$(cp_header g0.callpath sampling) $(cp_header g0.callpath samples)" = "0x1 0"
cp_check "the long run's has samples" test "$(cp_header g1.callpath samples)" -gt 0

"$EGPROF" -b --folded t.folded ./spin g0 > out.txt 2> err.txt; rc=$?
cp_check "--folded of the short run: exit 1 (got $rc)" test $rc -eq 1
cp_check "... says why, naming both files" \
	grep -qF "t.folded: cannot write: 'g0.callpath' holds no time sample: the run was shorter than a tick of the profiling timer" err.txt
cp_check "... and writes no file" test ! -e t.folded
"$EGPROF" -b --folded t.folded --folded-calls c.folded ./spin g0 > /dev/null 2>&1
cp_check "... nor the --folded-calls asked with it (all or nothing)" test ! -e c.folded
"$EGPROF" -b --folded-calls c.folded ./spin g0 > /dev/null 2>&1; rc=$?
cp_check "--folded-calls of the short run: written (exit $rc)" \
	bash -c "[ $rc = 0 ] && grep -qx 'main;work 1' c.folded"
"$EGPROF" -b --folded t.folded ./spin g1 > /dev/null 2>&1; rc=$?
cp_check "--folded of the long run: written (exit $rc)" \
	bash -c "[ $rc = 0 ] && grep -qE '^main;work [0-9]+\$' t.folded"
rm -f t.folded

"$EGPROF" --diff --folded d.folded ./spin g0 g0 > /dev/null 2> err.txt; rc=$?
cp_check "--diff --folded, neither side with a sample: exit 1 (got $rc)" test $rc -eq 1
cp_check "... says why" grep -qF "d.folded: cannot write: neither profile's call-path sidecars hold a time sample" err.txt
cp_check "... and writes no file" test ! -e d.folded
"$EGPROF" --diff --folded d.folded ./spin g1 g0 > /dev/null 2> err.txt; rc=$?
cp_check "--diff --folded, the second side without a sample: written (exit $rc)" \
	bash -c "[ $rc = 0 ] && grep -qE '^main;work [0-9]+ 0\$' d.folded"
cp_check "... with a warning naming the side" grep -qF "d.folded: ./spin g0's call-path sidecars hold no time sample" err.txt
cp_done
