#!/usr/bin/env bash
# CALLPATH_CLOCK=wall: a thread's wait for a CPU counts where it runs even
# when no timer signal has reached it.  On a busy machine a thread that
# runs in slices shorter than the kernel's tick can go seconds without a
# signal; its waits were dropped until one came (a CI run beside a busy
# loop per core placed 0.53 s of arith's 1.03 s of wall-clock time).
# Here no signal ever comes, so that nothing is left to chance: placed.c's
# `masked` case computes 0.3 s of CPU time with SIGPROF blocked, pinned
# to one CPU beside a busy loop pinned there too, so that it waits about
# as long as it runs (more on a loaded machine: the bounds below hold
# whatever the wait).  The main thread's samples (its CPU periods, which
# the sampler credits at exit, and its waits) must be the wall-clock time
# the program measured around arith, and arith's subtree its wait, each
# within 5% plus 3 Poisson standard deviations of the count (a false
# failure needs a 3-sd deviation on top of the 5%: under 1 in 1,000).
# The build before the fix placed about 300 samples for 0.6 s.
# testsuite: alone (pins itself and a busy loop to one CPU)
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

gcc -pg -O1 -g -o "$WORKDIR/placed" "$CP_EX/placed.c" -lm -lpthread || exit 1
cd "$WORKDIR" || exit 1
rm -f gmon.out*
cpu=$(taskset -pc $$ | sed 's/.*: //' | grep -o '^[0-9]*')
taskset -c "$cpu" sh -c 'while :; do :; done' &
busy=$!
trap 'kill $busy 2>/dev/null' EXIT
taskset -c "$cpu" env CALLPATH_CLOCK=wall LD_PRELOAD="$CP_SO" ./placed masked > out.txt 2> err.txt
rc=$?
kill $busy 2>/dev/null
"$EGPROF" -b --callpath --folded time.folded ./placed gmon.out > report.txt 2> egprof.err

cpu_s=$(awk '$1 == "arith" { print $2 }' out.txt)
wall_s=$(awk '$1 == "arith_wall" { print $2 }' out.txt)
cp_check "the program ran as without the runtime (exit 0, no message of the runtime)" \
	test "$rc" = 0 -a -z "$(grep callpath: err.txt)"
cp_check "arith waited for the CPU (${wall_s} s of wall-clock time for ${cpu_s} s of CPU)" \
	awk -v c="$cpu_s" -v w="$wall_s" 'BEGIN { exit !(c > 0.25 && w > 1.5 * c) }'
main=$(cp_incl_samples time.folded main)
cp_check "main: $main samples at 1000 Hz for ${wall_s} s (5% + 3 sd)" \
	cp_secs_within "$main" 1000 "$wall_s" 5
waited=$(awk -v c="$cpu_s" -v w="$wall_s" 'BEGIN { print w - c }')
arith=$(cp_incl_samples time.folded arith)
cp_check "arith's subtree: $arith samples for its ${waited} s of waiting (5% + 3 sd)" \
	cp_secs_within "$arith" 1000 "$waited" 5
cp_done
