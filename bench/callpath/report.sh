#!/usr/bin/env bash
# bench/callpath/report.sh - time and peak memory of the call-path reports
# on a 1,048,576-node sidecar.
#
#   bench/callpath/report.sh [--builddir DIR] [--against GPROF] [--reps N]
#
# Prints figures only (never a pass/fail).  The sidecar comes from
# testsuite/fixtures/callpath/manypaths.c run with CALLPATH_RECURSION=full: a full
# binary tree of depth 20 cut at the runtime's node limit (1,048,576
# nodes, every path ~20 frames deep: the call-path profile alone is about
# 430 MB of text); a second run at depth 19 (2^20 - 1 nodes) is the other
# side of the path diff.  For each of `--callpath`, `--folded`,
# `--folded-calls` and `--diff ... --callpath` (both sidecars), the median
# of N runs (default 3) of wall seconds, user+system CPU seconds and peak
# RSS (/usr/bin/time), output sent to /dev/null.  The issue's bar: under 2 s
# and 500 MB.  With --against, another build's gprof (e.g. main's) runs
# interleaved with this one and the ratios of CPU time are printed: on a
# shared machine ratios of paired runs say more than seconds.
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
builddir=$(pwd)
against=""
reps=3
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--against) against=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	*) echo "usage: $0 [--builddir DIR] [--against GPROF] [--reps N]" >&2; exit 2 ;;
	esac
done
gprof="$builddir/gprof-ext/gprof"
so="$builddir/callpath/libcallpath.so"
dump="$builddir/tools/cpdump/cpdump"
for f in "$gprof" "$so" "$dump"; do
	[ -e "$f" ] || { echo "no $f: run make first" >&2; exit 1; }
done
work=$(mktemp -d /tmp/egprof-bench-report.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export LC_ALL=C

gcc -pg -O1 -o manypaths "$srcdir/testsuite/fixtures/callpath/manypaths.c" || exit 1
mkdir a b
(cd a && CALLPATH_RECURSION=full LD_PRELOAD="$so" ../manypaths 20) || exit 1
(cd b && CALLPATH_RECURSION=full LD_PRELOAD="$so" ../manypaths 19) || exit 1
for side in a b; do
	"$dump" -H $side/gmon.out.callpath | awk -v s=$side '
		$1 == "nodes" { n = $2 } $1 == "samples" { t = $2 }
		END { printf "sidecar %s: %d nodes, %d samples\n", s, n, t }'
done

# "wall cpu rss" of one run of "$@"
measure() {
	/usr/bin/time -f '%e %U %S %M' -o "$work/time.out" "$@" > /dev/null 2>&1
	awk '{ printf "%s %.2f %d\n", $1, $2 + $3, $4 }' "$work/time.out"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-14s %8s %8s %10s' report "wall s" "cpu s" "RSS KiB"
[ -n "$against" ] && printf ' %8s %10s %9s' "old cpu" "old RSS" "cpu ratio"
echo
for mode in callpath folded folded-calls diff; do
	case $mode in
	callpath) args="-b --callpath manypaths a/gmon.out" ;;
	folded) args="-b --folded=$work/out.folded manypaths a/gmon.out" ;;
	folded-calls) args="-b --folded-calls=$work/out.folded manypaths a/gmon.out" ;;
	diff) args="--diff --extended --callpath --folded=$work/out.folded manypaths a/gmon.out manypaths b/gmon.out" ;;
	esac
	: > new.txt
	: > old.txt
	for _ in $(seq "$reps"); do
		# shellcheck disable=SC2086
		measure "$gprof" $args >> new.txt
		# shellcheck disable=SC2086
		[ -n "$against" ] && measure "$against" $args >> old.txt
	done
	wall=$(cut -d' ' -f1 new.txt | median)
	cpu=$(cut -d' ' -f2 new.txt | median)
	rss=$(cut -d' ' -f3 new.txt | median)
	printf '%-14s %8s %8s %10s' "$mode" "$wall" "$cpu" "$rss"
	if [ -n "$against" ]; then
		ocpu=$(cut -d' ' -f2 old.txt | median)
		orss=$(cut -d' ' -f3 old.txt | median)
		printf ' %8s %10s %8.2fx' "$ocpu" "$orss" \
			"$(awk -v a="$cpu" -v b="$ocpu" 'BEGIN { print (b > 0 ? a / b : 0) }')"
	fi
	echo
done
