#!/usr/bin/env bash
# `gprof -l --callpath`: after the call-path report, each function's self
# time by source line (the model's lines of the sidecar's program
# counters): twoloops.c's work() (the -DSLOW=4 build) on its two loops'
# lines, shares of its time adding up to 100%, the slow loop's line first;
# -L names the file in full; without -l the report has no such section.
#
# Noise bound: the slow loop does four times the other's work in one run
# (about 0.48 s against 0.12 s, 480 and 120 samples at 1 kHz); it must be
# first, i.e. take over half of work's time: a false failure needs one loop
# of one process to run at a quarter of the other's speed.
# testsuite: alone (measures CPU time: see testsuite/run)
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
set -u
CP_SO="$BUILDDIR/callpath/libcallpath.so"
SRC="$SRCDIR/testsuite/fixtures/lines/twoloops.c"
fast=$(grep -n 'FAST_LOOP \*/' "$SRC" | cut -d: -f1)
slow=$(grep -n 'SLOW_LOOP \*/' "$SRC" | cut -d: -f1)
cd "$WORKDIR" || exit 1
gcc -pg -O1 -g -DSLOW=4 -o slower "$SRC" || { echo "Bail out! cannot build twoloops.c"; exit 1; }
LD_PRELOAD="$CP_SO" ./slower >/dev/null || { echo "Bail out! cannot run twoloops"; exit 1; }

"$EGPROF" -l -b --callpath ./slower gmon.out >cp.txt 2>err.txt
check "gprof -l --callpath exits 0, no message" bash -c "[ -s cp.txt ] && [ ! -s err.txt ]"
sed -n '/Self time by source line/,$p' cp.txt >lines.txt
check "a section of self time by source line follows the report" \
	grep -q "program counters, 1000 Hz" lines.txt
sed -n '/^work: /,/^$/p' lines.txt >work.txt
cat work.txt | sed 's/^/# /'
first=$(grep -E '^ +[0-9.]+ +[0-9.]+%' work.txt | head -1)
check "work's first line is the slow loop's (twoloops.c:$slow)" \
	bash -c "echo '$first' | grep -qE ' twoloops\\.c:$slow\$'"
check "the other loop's line follows (twoloops.c:$fast)" grep -qE " twoloops\\.c:$fast\$" work.txt
check "work's lines' shares add up to 100%" \
	awk '/%/ { gsub(/%/, "", $2); s += $2 } END { exit !(s > 99.7 && s < 100.3) }' work.txt
"$EGPROF" -l -L -b --callpath ./slower gmon.out >cpL.txt 2>/dev/null
check "-L: the file named in full" grep -qE " $SRCDIR/testsuite/fixtures/lines/twoloops\\.c:$slow\$" cpL.txt
"$EGPROF" -b --callpath ./slower gmon.out >cpnol.txt 2>/dev/null
check "without -l: no section of lines" bash -c "! grep -q 'Self time by source line' cpnol.txt"

# the sampling mode (a build without -pg): the same lines from its leaves
mkdir -p sampled && gcc -O2 -g -DSLOW=4 -o sampled/slower "$SRC" &&
	(cd sampled && LD_PRELOAD="$CP_SO" ./slower >/dev/null) || { echo "Bail out! cannot run the sampled build"; exit 1; }
"$EGPROF" -l -b --callpath sampled/slower sampled/gmon.out >sampled.txt 2>err.txt
sfirst=$(sed -n '/^work: /,/^$/p' sampled.txt | grep -E '^ +[0-9.]+ +[0-9.]+%' | head -1)
echo "# sampled: $sfirst"
check "sampled build: work's first line is the slow loop's" \
	bash -c "echo '$sfirst' | grep -qE ' twoloops\\.c:$slow\$'"
done_testing
