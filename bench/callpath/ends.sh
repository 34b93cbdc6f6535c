#!/usr/bin/env bash
# bench/callpath/ends.sh - what snapshots and killed runs cost (issue 26).
#
#   bench/callpath/ends.sh [--builddir DIR] [--depths "9 16 19"] [--snaps K]
#
# Prints figures only.  For each depth D, a program with 2^(D+1) - 1
# calling contexts (testsuite/fixtures/callpath/ends.c `nodes D`, recursion kept
# full: 1,023, 131,071 and 1,048,575 nodes by default) times a loop of
# instrumented calls and reports its longest gaps:
#   - USR2 snapshots (CALLPATH_SNAPSHOT_SIGNAL: the handler asks the
#     runtime's writer thread): K snapshots, one at a time; the program's
#     pause per snapshot is one of its K longest gaps of thread CPU time:
#     p50, p99, max; and the wall time from the signal to the sidecar's
#     rename (the snapshot's write, polled every 0.5 ms);
#   - periodic snapshots (CALLPATH_SNAPSHOT=0.2, written by the runtime's
#     thread while the program runs): the same gaps, for comparison;
#   - no snapshots: the loop's own longest gaps (the scheduler's noise on a
#     shared machine);
# then the time from SIGTERM to the process's end, the profile written,
# and the files' sizes.
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
builddir=$(pwd)
depths="9 16 19"
snaps=20
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--depths) depths=$2; shift 2 ;;
	--snaps) snaps=$2; shift 2 ;;
	*) echo "usage: $0 [--builddir DIR] [--depths \"D...\"] [--snaps K]" >&2; exit 2 ;;
	esac
done
so="$builddir/callpath/libcallpath.so"
[ -e "$so" ] || { echo "no $so: run make first" >&2; exit 1; }
work=$(mktemp -d /tmp/egprof-ends.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
gcc -pg -O1 -o ends "$srcdir/testsuite/fixtures/callpath/ends.c" || exit 1
export CALLPATH_RECURSION=full CALLPATH_MAX_NODES=4194304

wait_for() {
	for _ in $(seq 6000); do [ -e "$1" ] && return 0; sleep 0.01; done
	return 1
}

# gaps K FILE: p50, p99 and max of the K longest gaps (microseconds)
gaps() {
	head -n "$1" "$2" | sort -n | awk '{ v[NR] = $1 } END {
		p50 = v[int((NR + 1) / 2)]; p99 = v[int(NR * 0.99 + 0.999)]
		printf "p50 %9.0f us  p99 %9.0f us  max %9.0f us", p50, p99, v[NR] }'
}

for d in $depths; do
	rm -f gmon.out* started stop
	CALLPATH_SNAPSHOT_SIGNAL=USR2 LD_PRELOAD="$so" ./ends nodes "$d" > gaps.usr2 &
	pid=$!
	wait_for started
	python3 - "$pid" "$snaps" > write.times <<'EOF2'
import os, signal, sys, time
pid, n = int(sys.argv[1]), int(sys.argv[2])
for k in range(1, n + 1):
    t0 = time.monotonic()
    os.kill(pid, signal.SIGUSR2)
    while not os.path.exists("gmon.out.snap%d.callpath" % k):
        time.sleep(0.0005)
    print("%.0f" % ((time.monotonic() - t0) * 1e6))
    time.sleep(0.05)
EOF2
	touch stop
	wait $pid
	nodes=$("$builddir/tools/cpdump/cpdump" -H gmon.out.snap$snaps.callpath | awk '$1 == "nodes" { print $2 }')
	size=$(stat -c %s gmon.out.snap$snaps.callpath)
	echo "depth $d: $nodes nodes, sidecar $size bytes"
	echo "  USR2 snapshot pause ($snaps):    $(gaps "$snaps" gaps.usr2)"
	echo "  USR2 to the files renamed:       $(sort -rn write.times | gaps "$snaps" /dev/stdin)"

	rm -f gmon.out* started stop
	CALLPATH_SNAPSHOT=0.2 LD_PRELOAD="$so" ./ends nodes "$d" > gaps.timer &
	pid=$!
	wait_for started
	wait_for gmon.out.snap$snaps.callpath
	touch stop
	wait $pid
	echo "  periodic snapshots, longest gaps: $(gaps "$snaps" gaps.timer)"

	rm -f gmon.out* started stop
	LD_PRELOAD="$so" ./ends nodes "$d" > gaps.none &
	pid=$!
	wait_for started
	sleep 2
	touch stop
	wait $pid
	echo "  no snapshots, longest gaps:       $(gaps "$snaps" gaps.none)"

	rm -f gmon.out* started stop
	LD_PRELOAD="$so" ./ends nodes "$d" > /dev/null &
	pid=$!
	wait_for started
	t0=$(date +%s.%N)
	kill -TERM $pid
	wait $pid
	t1=$(date +%s.%N)
	printf '  SIGTERM to the end: %.3f s; gmon.out %s bytes, sidecar %s bytes\n' \
		"$(echo "$t1 - $t0" | bc)" "$(stat -c %s gmon.out 2>/dev/null || echo none)" \
		"$(stat -c %s gmon.out.callpath 2>/dev/null || echo none)"
done
