#!/usr/bin/env bash
# bench/callpath/merge.sh - cost of summing call-path trees.
#
#   bench/callpath/merge.sh [--builddir DIR] [--nodes N] [--reps R]
#
# Prints figures only: the median wall time (R runs, default 3) of
# `cpdump -H F F` (two reads with their duplicate check, and one sum through
# sidecar_merge, the code that also sums threads at exit, egprof-sum,
# `gprof -s` and rank files) on a tree of main with N children (default
# 200000) whose keys all collided in the hash index used before session 3
# (collide.h), and on one whose keys are random.  The index is a hash table
# of balanced trees now: both take O(N log N) at worst.  --builddir points at the build whose
# cpdump is timed (an older build shows the quadratic case; use a smaller
# --nodes there: 50000 already takes seconds).
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
builddir=$(pwd)
nodes=200000
reps=3
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--nodes) nodes=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	*) echo "usage: $0 [--builddir DIR] [--nodes N] [--reps R]" >&2; exit 2 ;;
	esac
done
dump="$builddir/tools/cpdump/cpdump"
[ -x "$dump" ] || { echo "no $dump: run make first" >&2; exit 1; }
work=$(mktemp -d /tmp/egprof-merge.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export LC_ALL=C

# the writer is this source tree's (the file format is the same for both)
gcc -O2 -I"$srcdir" -o merge-keys "$here/merge-keys.c" "$srcdir/format/sidecar.c" \
	"$srcdir/utils/infile.c" || exit 1
./merge-keys "$nodes" colliding.callpath random.callpath || exit 1

median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

wall() {
	local t0 t1
	t0=$(date +%s.%N)
	"$dump" -H "$1" "$1" > /dev/null || echo "cpdump failed on $1" >&2
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}

echo "cpdump: $dump"
echo "median of $reps runs of 'cpdump -H F F', wall seconds, $nodes children of one node"
t_col="" t_rnd=""
for _ in $(seq "$reps"); do
	t_col="$t_col $(wall colliding.callpath)"
	t_rnd="$t_rnd $(wall random.callpath)"
done
col=$(echo "$t_col" | median)
rnd=$(echo "$t_rnd" | median)
printf '%-28s %8s\n' "colliding keys" "$col" "random keys" "$rnd"
awk -v a="$col" -v b="$rnd" 'BEGIN { printf "%-28s %7.2fx\n", "colliding / random", (b > 0 ? a / b : 0) }'
