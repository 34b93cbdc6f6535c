#!/usr/bin/env bash
# bench/callpath/real.sh - what libcallpath costs on real programs, beside
# the no-op trampoline, perf and uftrace, on the same runs.
#
#   bench/callpath/real.sh [--builddir DIR] [--reps N] [--baseline SO] \
#       NAME DIR CMD... [-- NAME DIR CMD... ...]
#
# Each CMD (a -pg program and its arguments) runs in DIR, plain (-pg
# alone), with the no-op trampoline (tail-jump to glibc's mcount: the
# interposition's own cost), with libcallpath, with --baseline SO (another
# build, e.g. main's) if given, under `perf record -e cpu-clock` and under
# `uftrace record --no-libcall`, the variants interleaved N times (default
# 3) so that a busy machine hurts them alike.  Prints the median user+system
# CPU seconds, each one's ratio to plain -pg and the peak RSS (KiB) of the
# plain and libcallpath runs.  Figures only, never a verdict.
set -u
here=$(cd "$(dirname "$0")" && pwd)
builddir=$(pwd)
reps=3
baseline=
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--baseline) baseline=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
	*) break ;;
	esac
done
so="$builddir/callpath/libcallpath.so"
noop="$builddir/callpath/libcallpath-noop.so"
[ -e "$so" ] && [ -e "$noop" ] || { echo "no $so: run make first" >&2; exit 1; }
[ $# -ge 3 ] || { echo "usage: $0 [--reps N] [--baseline SO] NAME DIR CMD... [-- NAME DIR CMD...]" >&2; exit 2; }
export LC_ALL=C
tmp=$(mktemp -d /tmp/egprof-real.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# CPU seconds (user + system) and peak RSS of one run: "SECONDS KIB"
run() {
	rm -rf gmon.out* "$tmp/perf.data" "$tmp/uftrace.data"
	/usr/bin/time -f '%U %S %M' -o "$tmp/t" "$@" > /dev/null 2>&1
	awk '{ printf "%.3f %d\n", $1 + $2, $3 }' "$tmp/t"
}
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

variants="plain noop callpath"
[ -n "$baseline" ] && variants="$variants baseline"
command -v perf > /dev/null && variants="$variants perf"
command -v uftrace > /dev/null && variants="$variants uftrace"

printf '%-10s' program
for v in $variants; do printf ' %14s' "$v"; done
printf '   %s\n' "peak RSS KiB: plain, callpath"
while [ $# -gt 0 ]; do
	name=$1 dir=$2
	shift 2
	cmd=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do cmd+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	declare -A t=() m=()
	for _ in $(seq "$reps"); do
		for v in $variants; do
			case $v in
			plain) r=$(cd "$dir" && run "${cmd[@]}") ;;
			noop) r=$(cd "$dir" && run env LD_PRELOAD="$noop" "${cmd[@]}") ;;
			callpath) r=$(cd "$dir" && run env LD_PRELOAD="$so" "${cmd[@]}") ;;
			baseline) r=$(cd "$dir" && run env LD_PRELOAD="$baseline" "${cmd[@]}") ;;
			perf) r=$(cd "$dir" && run perf record -q -e cpu-clock -o "$tmp/perf.data" "${cmd[@]}") ;;
			uftrace) r=$(cd "$dir" && run uftrace record --no-libcall -d "$tmp/uftrace.data" "${cmd[@]}") ;;
			esac
			t[$v]="${t[$v]:-} ${r% *}"
			m[$v]="${m[$v]:-} ${r#* }"
		done
	done
	p=$(echo ${t[plain]} | median)
	printf '%-10s' "$name"
	for v in $variants; do
		x=$(echo ${t[$v]} | median)
		printf ' %6.2fs %5.2fx' "$x" "$(awk -v a="$x" -v b="$p" 'BEGIN { print (b > 0 ? a / b : 0) }')"
	done
	printf '   %d, %d\n' "$(echo ${m[plain]} | median)" "$(echo ${m[callpath]} | median)"
	unset t m
done
