#!/usr/bin/env bash
# bench/callpath/run.sh - overhead and memory of the call-path runtime.
#
#   bench/callpath/run.sh [--builddir DIR] [--reps N] [--baseline SO]
#
# --baseline SO runs another build of libcallpath.so (an earlier commit's)
# interleaved with this one, as a column of its own: compare builds on one
# machine at one time, never runs on different days.
#
# Prints figures only (never a pass/fail): the median user CPU time of N runs
# (default 5; the variants are interleaved so that a busy machine hurts them
# alike) of each program built with -pg, run plain, with the no-op trampoline
# (tail-jump only), with a bare mcount that returns at once (the floor),
# with libcallpath and under `uftrace record`, and each
# one's ratio to plain -pg (issue 23's bar for libcallpath, which no
# longer runs glibc's counter once it has taken gmon.out over: 0.8x; real
# programs: bench/callpath/real.sh); the
# instructions per call under callgrind when valgrind is installed; memory per
# tree node; peak RSS of a program with a million distinct paths; and what
# one time sample costs (sample.c: cycles per SIGPROF with and without the
# runtime's handler, and its instructions under callgrind).
#
# fib-pure (fib.c built -fno-optimize-sibling-calls: both recursive calls
# stay calls, where -O2 alone turns one into a loop) is the worst case per
# call and for the tree: every call is a recursion, folded by default
# (doc/callpath.md, Recursion).  ptrtable's plain -pg time is mostly
# mispredicted indirect calls (see ptrtable.c), so its ratio says little
# about the runtime's cost; ptrtable-fixed (the same calls in a fixed order)
# does.  exprtree (exprtree.c: an expression tree of 4,095 nodes evaluated
# through function pointers, each call site calling one of five functions)
# is the many-context worst case: hundreds of contexts, several callees per
# site, so the caller's node's two kids rarely hold the child and the edge
# cache carries the lookups (CALLPATH_RECURSION=full: 4,131 contexts, one
# per tree node).  Timings of the runtime move by up to 20% with the hot path's place
# in 64-byte lines (see mcount.S, "Layout"): compare builds, not runs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
builddir=$(pwd)
reps=5
baseline=
while [ $# -gt 0 ]; do
	case $1 in
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--baseline) baseline=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
	*) echo "usage: $0 [--builddir DIR] [--reps N] [--baseline SO]" >&2; exit 2 ;;
	esac
done
so="$builddir/callpath/libcallpath.so"
noop="$builddir/callpath/libcallpath-noop.so"
dump="$builddir/tools/cpdump/cpdump"
for f in "$so" "$noop" "$dump"; do
	[ -e "$f" ] || { echo "no $f: run make first" >&2; exit 1; }
done
work=$(mktemp -d /tmp/egprof-bench.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export LC_ALL=C

gcc -pg -O2 -o fib "$here/fib.c"
gcc -pg -O2 -fno-optimize-sibling-calls -o fib-pure "$here/fib.c"
gcc -pg -O2 -o ptrtable "$here/ptrtable.c"
gcc -pg -O2 -DFIXED_ORDER -o ptrtable-fixed "$here/ptrtable.c"
gcc -pg -O2 -o exprtree "$here/exprtree.c"
gcc -pg -O1 -o manypaths "$srcdir/testsuite/fixtures/callpath/manypaths.c"
gcc -pg -O2 -fno-optimize-sibling-calls -o sample "$here/sample.c"
# The floor of any mcount: one that returns at once (the calls -pg adds,
# through the PLT, and nothing else).  A runtime's ratio can approach it,
# never pass it: issue 23's 0.8x bar leaves a fast path (0.8 - floor) /
# (1 - floor) of glibc's counter's time.
printf '\t.text\n\t.globl mcount, _mcount\nmcount:\n_mcount:\n\tret\n\t.section .note.GNU-stack,"",@progbits\n' > bare.S
gcc -shared -o libbare.so bare.S

# user CPU seconds of one run of "$@"
cpu() {
	rm -rf gmon.out* uftrace.data
	{ TIMEFORMAT=%U; time "$@" > /dev/null 2>&1; } 2>&1
}

median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }'; }

echo "median of $reps runs, user CPU seconds; ratios to plain -pg (libcallpath: bar 0.80x)"
printf '%-24s %7s %7s %9s %8s  %6s %9s %8s\n' program "-pg" "+noop" "+callpath" "+uftrace" \
	"noop" "callpath" "uftrace"
for prog in "fib-pure 34" "fib 38" "ptrtable 20000000" "ptrtable-fixed 20000000" \
	"exprtree 20000"; do
	set -- $prog
	t_plain="" t_noop="" t_cp="" t_uft="" t_base="" t_bare=""
	for _ in $(seq "$reps"); do
		t_plain="$t_plain $(cpu ./$1 $2)"
		t_noop="$t_noop $(cpu env LD_PRELOAD="$noop" ./$1 $2)"
		t_bare="$t_bare $(cpu env LD_PRELOAD="$work/libbare.so" ./$1 $2)"
		t_cp="$t_cp $(cpu env LD_PRELOAD="$so" ./$1 $2)"
		[ -n "$baseline" ] && t_base="$t_base $(cpu env LD_PRELOAD="$baseline" ./$1 $2)"
		t_uft="$t_uft $(cpu uftrace record --no-libcall -d "$work/uftrace.data" ./$1 $2)"
	done
	plain=$(echo "$t_plain" | median)
	nop=$(echo "$t_noop" | median)
	cp=$(echo "$t_cp" | median)
	uft=$(echo "$t_uft" | median)
	printf '%-24s %7s %7s %9s %8s  %6s %9s %8s\n' "$prog" "$plain" "$nop" "$cp" "$uft" \
		"$(ratio "$nop" "$plain")" "$(ratio "$cp" "$plain")" "$(ratio "$uft" "$plain")"
	bare=$(echo "$t_bare" | median)
	printf '%-24s %7s %7s %9s %8s  %6s %9s   (bare mcount, the floor)\n' "" "" "$bare" "" "" \
		"$(ratio "$bare" "$plain")" ""
	if [ -n "$baseline" ]; then
		base=$(echo "$t_base" | median)
		printf '%-24s %7s %7s %9s %8s  %6s %9s   (baseline %s)\n' "" "" "" "$base" "" \
			"" "$(ratio "$base" "$plain")" "$baseline"
	fi
done

# instructions per call under callgrind (when installed): exact, unlike
# wall time on a shared machine; the calls are those the sidecar counts
if command -v valgrind > /dev/null; then
	# Valgrind delivers signals at its own scheduling points, so a SIGPROF
	# raised just before glibc's _mcleanup stops the profiling timer
	# (profil(NULL): setitimer off, then the old disposition back) can
	# arrive after SIGPROF went back to SIG_DFL, and kills the program
	# ("Profiling timer expired") before gmon.out and the sidecar are
	# written: plain -pg programs too, with or without the runtime (natively
	# the kernel delivers it on the return from setitimer, while the
	# handler is still in place).  profil restores what it found, so a
	# program started with SIGPROF ignored gets SIG_IGN back: trap '' PROF.
	vg() { ( trap '' PROF; exec valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" ); }
	ir() { vg "$@" 2>&1 | awk '/Collected/ { print $4 }'; }
	echo
	echo "instructions per call (callgrind): -pg alone, and what libcallpath adds"
	for prog in "fib-pure 25" "fib 25" "ptrtable 200000" "ptrtable-fixed 200000" \
		"exprtree 200"; do
		set -- $prog
		rm -f gmon.out*
		i_plain=$(ir ./$1 $2)
		i_cp=$(LD_PRELOAD="$so" ir ./$1 $2)
		calls=$("$dump" -H gmon.out.callpath | awk '$1 == "calls" { print $2 }')
		if [ -z "$calls" ] || [ -z "$i_plain" ] || [ -z "$i_cp" ]; then
			echo "$prog: callgrind run failed (no instruction count or no sidecar)"
			continue
		fi
		awk -v p="$i_plain" -v c="$i_cp" -v n="$calls" -v name="$prog" \
			'BEGIN { if (n > 0) printf "%-18s %d calls: %.1f with -pg, +%.1f with libcallpath\n", name, n, p / n, (c - p) / n }'
	done
fi

rss() { # peak RSS in KiB of "$@"
	/usr/bin/time -f %M "$@" 2>&1 > /dev/null | tail -n 1
}
echo
# a program whose tree fits: fib-pure 34 (11.4 million calls, 4 nodes)
rm -f gmon.out*
base=$(rss ./fib-pure 34)
with=$(rss env LD_PRELOAD="$so" ./fib-pure 34)
"$dump" -H gmon.out.callpath | awk -v a="$with" -v b="$base" '
	$1 == "nodes" { n = $2 } $1 == "calls" { c = $2 }
	END { printf "memory: fib-pure 34: %d calls in %d nodes, peak RSS %d KiB plain, %d KiB with libcallpath (+%d KiB; goal +2048)\n", c, n, b, a, a - b }'
echo "sidecar: $(stat -c %s gmon.out.callpath) bytes"
# manypaths: one distinct path per call, through recursion: kept unfolded
export CALLPATH_RECURSION=full
rm -f gmon.out*
base=$(rss ./manypaths 19)
with=$(rss env LD_PRELOAD="$so" ./manypaths 19)
nodes=$("$dump" -H gmon.out.callpath | awk '$1 == "nodes" { print $2 }')
echo "memory: manypaths 19: $nodes nodes, peak RSS ${base} KiB plain, ${with} KiB with libcallpath"
awk -v a="$with" -v b="$base" -v n="$nodes" \
	'BEGIN { printf "memory per node: %.1f bytes (56-byte node, its 8-byte time sample, hash slots; plus a 32 KiB edge cache per thread)\n", (a - b) * 1024 / n }'
rm -f gmon.out*
with=$(rss env LD_PRELOAD="$so" ./manypaths 20)
"$dump" -H gmon.out.callpath | awk -v r="$with" '
	$1 == "nodes" { n = $2 } $1 == "calls" { c = $2 } $1 == "dropped-node-limit" { d = $2 }
	END { printf "bounded: manypaths 20 (2^21 - 1 distinct paths): %d nodes kept (CALLPATH_MAX_NODES default), %d calls recorded, %d dropped, peak RSS %d KiB\n", n, c, d, r }'

# What a time sample costs: the runtime's SIGPROF handler (placing the
# sample) on top of glibc's.  Cycles per signal are dominated by the
# kernel's signal delivery (~15,000 cycles in a VM), so the difference is
# within their noise; callgrind's instruction count is exact.
echo
echo "time samples: cycles per SIGPROF (median of $reps), plain -pg and with libcallpath's handler"
for mode in "live 1" "stale 1000"; do
	set -- $mode
	c_plain="" c_cp=""
	for _ in $(seq "$reps"); do
		rm -f gmon.out*
		c_plain="$c_plain $(./sample $1 $2 200000)"
		rm -f gmon.out*
		c_cp="$c_cp $(LD_PRELOAD="$so" ./sample $1 $2 200000)"
	done
	printf '%-12s plain %6s  libcallpath %6s cycles per signal\n' "$mode" \
		"$(echo "$c_plain" | median)" "$(echo "$c_cp" | median)"
done
if command -v valgrind > /dev/null; then
	irs() { ( trap '' PROF; exec valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" ) 2>&1 |
		awk '/Collected/ { print $4 }'; }
	for mode in "live 1" "stale 1000"; do
		set -- $mode
		rm -f gmon.out*
		a=$(irs ./sample $1 $2 20000) a0=$(irs ./sample $1 $2 0)
		b=$(LD_PRELOAD="$so" irs ./sample $1 $2 20000) b0=$(LD_PRELOAD="$so" irs ./sample $1 $2 0)
		awk -v a="$a" -v a0="$a0" -v b="$b" -v b0="$b0" -v m="$mode" 'BEGIN {
			printf "%-12s the handler adds %.0f instructions per sample (callgrind)\n", m,
				((b - b0) - (a - a0)) / 20000 }'
	done
fi
