#!/usr/bin/env bash
# gmon.out is untouched by the sampling runtime (issue 10): the same program
# run with and without libcallpath gives identical call counts and arcs, and
# the same histogram (the runtime chains glibc's SIGPROF handler, every tick
# still reaches the histogram).  The CPU time of one run varies by more than
# 5% on a shared machine, so the histogram is compared per CPU second of
# each run (bash's `time`), over three interleaved pairs, within 4 standard
# deviations of the Poisson noise of the sample counts plus 2%
# (testlib.sh, cp_rates_within): a runtime that kept ticks from glibc's
# handler, or counted them twice, fails it.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
# glibc's ticks as the time samples (CALLPATH_HZ=0), one for one with
# gmon.out's histogram, which is what this compares against; the runtime's
# own per-thread timers are t430's and t431's.
export CALLPATH_HZ=0

cp_cc timing timing.c -O1 -g || exit 1
cd "$WORKDIR" || exit 1
mkdir -p plain with
(cd plain && rm -f gmon.out* && ../timing mis) || exit 1
(cd with && rm -f gmon.out* && LD_PRELOAD="$CP_SO" ../timing mis) || exit 1
cp_check "the run with the runtime wrote a sidecar with samples" \
	test "$(cp_header with/gmon.out.callpath sampling)" = 0x1
cp_check "the plain run wrote no sidecar" test ! -e plain/gmon.out.callpath
cp_graph_counts "$SYSGPROF" ./timing plain/gmon.out > plain.graph
cp_graph_counts "$SYSGPROF" ./timing with/gmon.out > with.graph
cp_same "call counts and arcs identical with and without the runtime" plain.graph with.graph
read -r plain_total plain_hz < <(cp_hist plain/gmon.out)
read -r with_total with_hz < <(cp_hist with/gmon.out)
cp_check "histogram rate unchanged ($plain_hz, $with_hz Hz)" test "$plain_hz" = "$with_hz"
TIMEFORMAT='%3U %3S'
run_cs() { # DIR [PRELOAD]: run, print "histogram-samples cpu-centiseconds"
	local t
	rm -f "$1"/gmon.out*
	t=$( { time (cd "$1" && LD_PRELOAD="${2:-}" ../timing mis) ; } 2>&1 >/dev/null) || return 1
	echo "$(cp_hist "$1"/gmon.out | cut -d' ' -f1) $(echo "$t" | awk '{ printf "%d", ($1 + $2) * 100 + 0.5 }')"
}
ps=0 pc=0 ws=0 wc=0
for i in 1 2 3; do
	read -r s c < <(run_cs plain) || exit 1
	ps=$((ps + s)) pc=$((pc + c))
	read -r s c < <(run_cs with "$CP_SO") || exit 1
	ws=$((ws + s)) wc=$((wc + c))
done
cp_check "histogram per CPU second equal within the sampling noise: $ws samples in $wc cs with the runtime, $ps in $pc cs without" \
	cp_rates_within "$ws" "$wc" "$ps" "$pc"
read -r last_total _ < <(cp_hist with/gmon.out)
cp_check "every histogram sample of the program was placed in a context" \
	cp_within "$(cp_header with/gmon.out.callpath samples)" "$last_total" 2 1
cp_done
