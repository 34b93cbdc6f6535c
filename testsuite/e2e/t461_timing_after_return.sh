#!/usr/bin/env bash
# Time after return (issue 10): main calls a() briefly, then spins on its
# own.  Once a() has returned its shadow-stack entry is stale until the next
# call pops it; the SIGPROF handler must judge liveness from the interrupted
# stack pointer, so main's own second goes to main, not to a (+- 5%, against
# the histogram's flat profile, which attributes by program counter).
# False-failure bound: the sidecar's samples are glibc's own ticks
# (CALLPATH_HZ=0), counted twice: main's and burn's counts are compared with
# the histogram's counts of the same ticks, and differ only by ticks the
# runtime misplaces (what the test is about), not by sampling.
# testsuite: alone (measures CPU time: see testsuite/run)
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
# glibc's ticks as the time samples (CALLPATH_HZ=0), one for one with
# gmon.out's histogram, which is what this compares against; the runtime's
# own per-thread timers are t430's and t431's.
export CALLPATH_HZ=0

cp_cc timing timing.c -O1 -g || exit 1
cd "$WORKDIR" || exit 1
rm -f gmon.out gmon.out.callpath
LD_PRELOAD="$CP_SO" ./timing ret || exit 1
"$EGPROF" -b --callpath --folded time.folded ./timing gmon.out > report.txt 2> err.txt
cp_check "report and folded file written" test -s report.txt -a -s time.folded

flat_samples() { # NAME: gprof's flat self seconds as samples
	awk -v s="$(cp_flat_self "$SYSGPROF" ./timing gmon.out "$1")" \
		'BEGIN { printf "%d", (s + 0) * 100 + 0.5 }'
}
main_ours=$(cp_path_samples time.folded main)
main_hist=$(flat_samples main)
a_ours=$(cp_func_samples time.folded burn)
a_hist=$(flat_samples burn)
cp_check "main's own time is main's: $main_ours samples, histogram $main_hist (+-5%)" \
	cp_within "$main_ours" "$main_hist" 5 1
cp_check "main's own time is most of the run ($main_ours of $(cp_header gmon.out.callpath samples))" \
	test "$((main_ours * 100))" -ge "$(( $(cp_header gmon.out.callpath samples) * 85 ))"
cp_check "a's callee burn keeps only its own time: $a_ours samples, histogram $a_hist (+-5%)" \
	cp_within "$a_ours" "$a_hist" 5 1
cp_check "nothing credited to ret_a itself (it only calls burn)" \
	test "$(cp_path_samples time.folded 'main;ret_a')" -le 1
# The tree line of main: inclusive and self seconds, self >= 0.85 of all.
cp_check "tree: main's self seconds printed beside its inclusive seconds" \
	grep -qE '^ +1 +[0-9]+\.[0-9]+ +[0-9]+\.[0-9]+  main$' report.txt
cp_done
