#!/usr/bin/env bash
# bench/callpath/counters.sh - what counting events per calling context
# costs (CALLPATH_EVENTS, doc/counters.md).
#
#   bench/callpath/counters.sh [--builddir DIR] [--reps N]
#
# Prints figures only.  faults.c makes R x P page faults; it runs with
# libcallpath and no events, then with CALLPATH_EVENTS=perf::PAGE-FAULTS at
# periods 2, 10 (the default) and 100, interleaved, N times each (default
# 7).  The cost of one overflow is the median elapsed time's difference to
# the run without events over the number of overflows: the kernel's signal
# delivery, PAPI's dispatch (two ioctl calls to re-arm the counter) and our
# handler (finding the live frame and adding the period).  The mcount fast
# path is not touched by counting: the same run without events is the
# baseline of bench/callpath/run.sh.
set -u
here=$(cd "$(dirname "$0")" && pwd)
builddir=$(pwd)
reps=7
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	*) echo "usage: $0 [--builddir DIR] [--reps N]" >&2; exit 2 ;;
	esac
done
so=$builddir/callpath/libcallpath.so
[ -f "$so" ] || { echo "no $so: build first (or --builddir)" >&2; exit 2; }
if ! nm -D "$so" | grep -q ' U PAPI_library_init'; then
	echo "this libcallpath has no PAPI: nothing to measure"
	exit 0
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
gcc -pg -O1 -o "$tmp/faults" "$here/faults.c" || exit 1
R=50 P=4000
faults=$((R * P))
periods="0 2 10 100"

# elapsed seconds of one run
one() {
	local ev=$1 t0 t1
	t0=$(date +%s.%N)
	(cd "$tmp" && if [ "$ev" = 0 ]; then LD_PRELOAD=$so ./faults $R $P; else
		CALLPATH_EVENTS=perf::PAGE-FAULTS@$ev LD_PRELOAD=$so ./faults $R $P; fi) \
		> /dev/null 2>&1
	t1=$(date +%s.%N)
	echo "$t0 $t1" | awk '{ printf "%.6f\n", $2 - $1 }'
}
for i in $(seq "$reps"); do
	for p in $periods; do
		one "$p" >> "$tmp/t.$p"
	done
done
med() { sort -g "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
base=$(med "$tmp/t.0")
echo "page faults per run: $faults (faults.c $R x $P), $reps runs each, interleaved"
printf '%-28s %10s %12s %14s\n' "events" "median s" "overflows" "us/overflow"
printf '%-28s %10.4f %12s %14s\n' "none (libcallpath)" "$base" "-" "-"
for p in $periods; do
	[ "$p" = 0 ] && continue
	m=$(med "$tmp/t.$p")
	awk -v m="$m" -v b="$base" -v f="$faults" -v p="$p" 'BEGIN {
		printf "%-28s %10.4f %12d %14.2f\n", "perf::PAGE-FAULTS@" p, m, f / p,
			(m - b) * 1e6 / (f / p) }'
done
