#!/usr/bin/env bash
# Two threads doing different work (issue 10): each thread's samples go to
# its own tree, merged at exit; each path's time within +- 10% of the
# thread's own CPU time in that function (CLOCK_THREAD_CPUTIME_ID, printed
# by the program) and of the histogram's.  (Not of the loop counts: two
# threads sharing a core's siblings run each iteration slower.)
# False-failure bound: each path's samples against the histogram's are the
# same ticks counted twice (CALLPATH_HZ=0); each thread's share against its
# own CPU time is within 4 binomial standard deviations plus 2%
# (cp_share_within): 6.3e-5 a check, 1.3e-4 for the two.
# testsuite: alone (measures CPU time: see testsuite/run)
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
# glibc's ticks as the time samples (CALLPATH_HZ=0), one for one with
# gmon.out's histogram, which is what this compares against; the runtime's
# own per-thread timers are t430's and t431's.
export CALLPATH_HZ=0

cp_cc timing timing.c -O1 -g || exit 1
cd "$WORKDIR" || exit 1
rm -f gmon.out gmon.out.callpath
LD_PRELOAD="$CP_SO" ./timing threads > cpu.txt || exit 1
"$EGPROF" -b --callpath --folded time.folded ./timing gmon.out > report.txt 2> err.txt
cp_check "report and folded file written" test -s report.txt -a -s time.folded
cp_check "three thread trees merged" test "$(cp_header gmon.out.callpath threads)" -eq 3

for f in f1 f2; do
	t=t${f#f}
	ours=$(cp_path_samples time.folded "$t;$f")
	hist=$(awk -v s="$(cp_flat_self "$SYSGPROF" ./timing gmon.out $f)" \
		'BEGIN { printf "%d", (s + 0) * 100 + 0.5 }')
	cp_check "$t;$f: $ours samples, histogram $hist (+-10%)" cp_within "$ours" "$hist" 10 1
	cp_check "$f is credited on its own thread's path only" \
		test "$(cp_func_samples time.folded $f)" -eq "$ours"
done
# Each path's share of the samples against its thread's share of the CPU
# time.  (In absolute seconds ITIMER_PROF itself, and so gprof's histogram,
# runs some percent fast or slow for a multi-threaded process on some
# kernels: printed, not asserted.)
total=$(( $(cp_path_samples time.folded 't1;f1') + $(cp_path_samples time.folded 't2;f2') ))
cpu_total=$(awk '{ s += $2 } END { printf "%d", s * 100 + 0.5 }' cpu.txt)
echo "# samples $total for $cpu_total cs of thread CPU time"
for t in t1 t2; do
	f=f${t#t}
	ours=$(cp_path_samples time.folded "$t;$f")
	cpu=$(awk -v t=$t '$1 == t { printf "%d", $2 * 100 + 0.5 }' cpu.txt)
	# within 4 binomial standard deviations of the sample counts + 2%
	# (testlib.sh, cp_share_within): f2 runs a quarter of a second, about
	# 25 samples of 115
	share=$(awk -v c="${cpu:-0}" -v n="$cpu_total" 'BEGIN { print (n > 0 ? c / n : 0) }')
	cp_check "$t;$f: $ours of $total samples, the thread's CPU time $cpu of $cpu_total cs (share within the sampling noise)" \
		cp_share_within "$ours" "$total" "$share"
done
cp_done
