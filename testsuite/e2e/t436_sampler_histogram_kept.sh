#!/usr/bin/env bash
# gmon.out's histogram stays glibc's while the runtime's CALLPATH_HZ timers
# run (issue 22: "glibc's 100 Hz histogram, which gmon.out keeps exactly as
# today").  A worker thread computes (arith, 0.6 s of its own CPU time,
# which it prints) while main waits in pthread_join.  Our timer's SIGPROF
# and glibc's process-wide tick fall due at the same scheduler tick; the
# runtime's handler used to run with SIGPROF blocked (glibc's action blocks
# every signal), so the kernel handed the tick to main, asleep in a futex,
# and glibc counted it at a libc address outside the histogram: 0.01 to
# 0.34 s of arith for 0.6 s of CPU (median 0.05 s, 7 runs at 1 kHz); with
# two workers, 0.20 to 0.62 s for 0.8 s.
#
# Bound: glibc's own histogram is no yardstick of CPU time on a loaded
# machine: ITIMER_PROF sends at most one signal per scheduler tick that
# finds the thread running, so with more busy threads than cores plain -pg
# counted 0.20 to 0.69 s of the worker's 0.6 s (the runtime's handler saw
# every tick glibc was sent, none on main).  So the runtime's histogram is
# compared with plain -pg's, in three interleaved rounds (the load changes
# between runs, less between rounds of a few seconds): the sums of arith's
# histogram seconds at 1 kHz and at 5 kHz are each at least 60% of plain's
# (see below for the upper bound and a machine too loaded to judge).  Where the ticks went to main they were 5% to
# 57% of it (t436 on the build before the fix failed 3 runs of 3).
# testsuite: alone (measures CPU time: see testsuite/run)
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

gcc -pg -O1 -g -o "$WORKDIR/placed" "$CP_EX/placed.c" -lm -lpthread || exit 1
cd "$WORKDIR" || exit 1
declare -A sum=([plain]=0 [1000]=0 [5000]=0) cpu=([plain]=0 [1000]=0 [5000]=0)
for round in 1 2 3; do
	for run in plain 1000 5000; do
		mkdir -p "$run.$round" && cd "$run.$round" || exit 1
		if [ $run = plain ]; then
			../placed worker > cpu.txt || exit 1
		else
			CALLPATH_HZ=$run LD_PRELOAD="$CP_SO" ../placed worker > cpu.txt || exit 1
		fi
		got=$(cp_flat_self "$EGPROF" ../placed gmon.out arith)
		sum[$run]=$(awk -v a="${sum[$run]}" -v b="${got:-0}" 'BEGIN { print a + b }')
		cpu[$run]=$(awk -v a="${cpu[$run]}" -v b="$(awk '$1 == "t1" { print $2 }' cpu.txt)" 'BEGIN { print a + b }')
		cd .. || exit 1
	done
done
# The yardstick holds only where plain -pg's histogram counts a fair part
# of the worker's time.  Three CI runs at once beside a busy loop per core
# (2 cores) left it 0.03 to 0.07 s of each 0.6 s worker, and the runtime's
# runs 0.00 to 0.29 s, in both directions of any bound: then the checks are
# skipped, saying so (below a quarter of the worker's CPU time counted).
# Above it, the runtime's histogram is at least 60% of plain's, and at
# most the worker's CPU time (a tick of 10 ms a round aside): a histogram
# counts CPU time, never more.
loaded=$(awk -v s="${sum[plain]}" -v c="${cpu[plain]}" 'BEGIN { print (c > 0 && s < 0.25 * c) }')
for run in 1000 5000; do
	if [ "$loaded" = 1 ]; then
		CP_N=$((CP_N + 1))
		echo "ok $CP_N # SKIP CALLPATH_HZ=$run: plain -pg's histogram counted ${sum[plain]} s of the worker's ${cpu[plain]} s of CPU: too loaded a machine for the yardstick"
		continue
	fi
	cp_check "CALLPATH_HZ=$run: arith's histogram ${sum[$run]} s against plain -pg's ${sum[plain]} s (CPU ${cpu[$run]} and ${cpu[plain]} s), 60% or more, no more than the CPU time" \
		awk -v r="${sum[$run]}" -v p="${sum[plain]}" -v c="${cpu[$run]}" 'BEGIN { exit !(p > 0 && r >= 0.6 * p && r <= c + 0.03) }'
done
cp_done
