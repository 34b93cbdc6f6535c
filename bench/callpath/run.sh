#!/usr/bin/env bash
# bench/callpath/run.sh - overhead and memory of the call-path runtime.
#
#   bench/callpath/run.sh [--builddir DIR] [--reps N]
#
# Prints figures only (never a pass/fail): best-of-N wall time of each
# program built with -pg, run plain, with libcallpath, with the no-op
# trampoline (tail-jump only) and under `uftrace record`; memory per tree
# node; and peak RSS of a program with a million distinct paths.
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
builddir=$(pwd)
reps=5
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	*) echo "usage: $0 [--builddir DIR] [--reps N]" >&2; exit 2 ;;
	esac
done
so="$builddir/callpath/libcallpath.so"
noop="$builddir/callpath/libcallpath-noop.so"
dump="$builddir/callpath/cpdump"
for f in "$so" "$noop" "$dump"; do
	[ -e "$f" ] || { echo "no $f: run make first" >&2; exit 1; }
done
work=$(mktemp -d /tmp/egprof-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export LC_ALL=C

gcc -pg -O2 -o fib "$here/fib.c"
gcc -pg -O2 -o ptrtable "$here/ptrtable.c"
gcc -pg -O1 -o manypaths "$srcdir/callpath/examples/manypaths.c"

# best wall seconds of $reps runs of "$@"
best() {
	local b="" t
	for _ in $(seq "$reps"); do
		rm -rf gmon.out* uftrace.data
		t=$( { TIMEFORMAT=%R; time "$@" > /dev/null 2>&1; } 2>&1 )
		if [ -z "$b" ] || awk -v a="$t" -v b="$b" 'BEGIN { exit !(a < b) }'; then
			b=$t
		fi
	done
	echo "$b"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }'; }

printf '%-22s %8s %8s %8s %8s %8s %8s\n' program "-pg" "+noop" "+callpath" "+uftrace" \
	"cp/pg" "uft/pg"
for prog in "fib 35" "ptrtable 20000000"; do
	set -- $prog
	plain=$(best ./$1 $2)
	nop=$(best env LD_PRELOAD="$noop" ./$1 $2)
	cp=$(best env LD_PRELOAD="$so" ./$1 $2)
	uft=$(best uftrace record --no-libcall -d "$work/uftrace.data" ./$1 $2)
	printf '%-22s %8s %8s %8s %8s %8s %8s\n' "$prog" "$plain" "$nop" "$cp" "$uft" \
		"$(ratio "$cp" "$plain")" "$(ratio "$uft" "$plain")"
done

rss() { # peak RSS in KiB of "$@"
	/usr/bin/time -f %M "$@" 2>&1 > /dev/null | tail -n 1
}
echo
rm -f gmon.out*
base=$(rss ./manypaths 19)
with=$(rss env LD_PRELOAD="$so" ./manypaths 19)
nodes=$("$dump" -H gmon.out.callpath | awk '$1 == "nodes" { print $2 }')
echo "memory: manypaths 19: $nodes nodes, peak RSS ${base} KiB plain, ${with} KiB with libcallpath"
awk -v a="$with" -v b="$base" -v n="$nodes" \
	'BEGIN { printf "memory per node: %.1f bytes (32-byte node + hash slots)\n", (a - b) * 1024 / n }'
rm -f gmon.out*
with=$(rss env LD_PRELOAD="$so" ./manypaths 20)
"$dump" -H gmon.out.callpath | awk -v r="$with" '
	$1 == "nodes" { n = $2 } $1 == "calls" { c = $2 } $1 == "dropped-node-limit" { d = $2 }
	END { printf "bounded: manypaths 20 (2^21 - 1 distinct paths): %d nodes kept (CALLPATH_MAX_NODES default), %d calls recorded, %d dropped, peak RSS %d KiB\n", n, c, d, r }'
