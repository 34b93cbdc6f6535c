#!/usr/bin/env bash
# Many threads (testsuite/fixtures/callpath/two_threads.c many 300: 300
# short threads, 8 at a time, each calling work_short with its own amount
# of work) with CALLPATH_THREADS=64: the sidecar keeps 64 threads apart
# (the main thread and 63 that ended) and one "other threads" entry for
# the 237 others; the sums are exact (every call and sample of the process
# is in one entry: the totals cpdump prints); the section stays small
# (within 64 KiB of the same run's sidecar without it, CALLPATH_THREADS=0,
# which has none).  Exact counts, no timing.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
CPDUMP="$BUILDDIR/tools/cpdump/cpdump"
gcc -pg -O1 -g -o two "$SRCDIR/testsuite/fixtures/callpath/two_threads.c" -lpthread >build.log 2>&1 || { cat build.log; echo "Bail out! cannot build two_threads.c"; exit 1; }
mkdir -p off && (cd off && CALLPATH_THREADS=0 LD_PRELOAD="$CALLPATH_SO" ../two many 300) &&
	CALLPATH_THREADS=64 LD_PRELOAD="$CALLPATH_SO" ./two many 300 || { echo "Bail out! two many 300 failed"; exit 1; }
"$CPDUMP" -H gmon.out.callpath >head.txt
"$CPDUMP" -H off/gmon.out.callpath >off.txt
check "64 threads kept apart and one entry of the 237 others" \
	sh -c 'grep -q "^threads 301$" head.txt && grep -q "^thread-views 65 limit 64$" head.txt &&
	       [ "$(grep -c "^thread [0-9]* tid [1-9][0-9]* kept threads 1 " head.txt)" = 63 ] &&
	       grep -q "^thread 0 tid [1-9][0-9]* main threads 1 " head.txt &&
	       grep -q "^thread 64 tid 0 other threads 237 .* name other threads$" head.txt'
check "every call and sample of the process is in one entry" py head.txt <<'PY'
import re, sys
h = open(sys.argv[1]).read()
calls = int(re.search(r"^calls (\d+)$", h, re.M).group(1))
samples = int(re.search(r"^samples (\d+)$", h, re.M).group(1))
t = re.findall(r"^thread \d+ tid \d+ \w+ threads \d+ nodes \d+ calls (\d+) samples (\d+) ", h, re.M)
assert len(t) == 65, t
# calls: each thread's start routine and work_short and spin, main's main
assert calls == 300 * 3 + 1 == sum(int(c) for c, s in t), (calls, t)
assert samples == sum(int(s) for c, s in t), (samples, t)
print("ok")
PY
check "CALLPATH_THREADS=0 writes no threads section" sh -c '! grep -q "^thread-views" off.txt && grep -q "^threads 301$" off.txt'
size=$(stat -c %s gmon.out.callpath) base=$(stat -c %s off/gmon.out.callpath)
check "the section is bounded: $size bytes, $base without it" [ "$size" -le $((base + 65536)) ]
done_testing
