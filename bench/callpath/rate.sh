#!/usr/bin/env bash
# bench/callpath/rate.sh - what the sampling rate costs (issue 22: "at
# 1 kHz, CPU time at most 2% above the default rate on a call-heavy
# program").
#
#   bench/callpath/rate.sh [--builddir DIR] [--reps N]
#
# Each call-heavy program of bench/callpath runs with libcallpath at
# CALLPATH_HZ=0 (glibc's 100 Hz ticks are the time samples: no timer of
# ours), 1000 (the default) and 10000, interleaved run by run so that a
# busy machine hurts them alike.  Prints, per program, the median user +
# system CPU seconds of each rate, and the median of the per-round ratios
# to CALLPATH_HZ=0 (paired: each round's runs are seconds apart).  Figures
# only, never a pass/fail.
set -u
here=$(cd "$(dirname "$0")" && pwd)
builddir=$(pwd)
reps=11
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	*) echo "usage: $0 [--builddir DIR] [--reps N]" >&2; exit 2 ;;
	esac
done
so="$builddir/callpath/libcallpath.so"
[ -e "$so" ] || { echo "no $so: run make first" >&2; exit 1; }
work=$(mktemp -d /tmp/egprof-rate.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export LC_ALL=C

gcc -pg -O2 -fno-optimize-sibling-calls -o fib-pure "$here/fib.c"
gcc -pg -O2 -DFIXED_ORDER -o ptrtable-fixed "$here/ptrtable.c"

# user + system CPU seconds of one run of "$@"
cpu() {
	rm -f gmon.out*
	/usr/bin/time -f '%U %S' "$@" 2>&1 > /dev/null | tail -n 1 | awk '{ print $1 + $2 }'
}
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "median of $reps interleaved rounds, user + system CPU seconds with libcallpath;"
echo "ratio: the median of each round's ratio to CALLPATH_HZ=0 (goal at 1000 Hz: 1.02 or less)"
printf '%-24s %8s %8s %8s   %9s %9s\n' program "0" "1000" "10000" "1000/0" "10000/0"
for prog in "fib-pure 36" "ptrtable-fixed 30000000"; do
	set -- $prog
	t0="" t1="" t2="" r1="" r2=""
	for _ in $(seq "$reps"); do
		a=$(CALLPATH_HZ=0 LD_PRELOAD="$so" cpu ./$1 $2)
		b=$(CALLPATH_HZ=1000 LD_PRELOAD="$so" cpu ./$1 $2)
		c=$(CALLPATH_HZ=10000 LD_PRELOAD="$so" cpu ./$1 $2)
		t0="$t0 $a" t1="$t1 $b" t2="$t2 $c"
		r1="$r1 $(awk -v x="$b" -v y="$a" 'BEGIN { if (y > 0) print x / y }')"
		r2="$r2 $(awk -v x="$c" -v y="$a" 'BEGIN { if (y > 0) print x / y }')"
	done
	printf '%-24s %8s %8s %8s   %8.3fx %8.3fx\n' "$prog" "$(echo "$t0" | median)" \
		"$(echo "$t1" | median)" "$(echo "$t2" | median)" \
		"$(echo "$r1" | median)" "$(echo "$r2" | median)"
done
