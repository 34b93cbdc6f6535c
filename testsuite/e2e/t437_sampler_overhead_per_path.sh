#!/usr/bin/env bash
# Samples inside the instrumentation are placed under the path the runtime
# was working for (issue 22, item 2: "per path where that helps a user judge
# how much the measurement disturbed the run"), not at the top level.
# calls_tiny (placed.c) calls an empty function in a loop for 0.5 s: most
# samples land in the trampolines (mcount.S) or record.c, while the
# thread's shadow-stack top is NULL (busy).  The runtime before this placed
# every such sample at the top level ([instrumentation] alone; Lua's
# sort.lua: 45 of 52); now the trampolines' %rax or record.c's busy_top
# says which path the call was made from.  Checks: the [instrumentation]
# samples are at least 20% of the run's (a count, not a timing: the loop is
# nearly all calls), at least 90% of them are under calls_tiny, and at
# most 5% at the top level.
# False-failure bound: the checks are shares (20%, 90%, 5%) of some 500
# samples where the runtime before this gave 0% or 100%: each lies more than
# 6 binomial standard deviations from what the placement gives, a chance
# below 1e-8.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

gcc -pg -O1 -g -o "$WORKDIR/placed" "$CP_EX/placed.c" -lm -lpthread || exit 1
cd "$WORKDIR" || exit 1
rm -f gmon.out*
LD_PRELOAD="$CP_SO" ./placed calls > out.txt || exit 1
"$EGPROF" -b --folded time.folded ./placed gmon.out > /dev/null 2> err.txt
read -r total ins under top < <(awk '{ n = $NF; t += n }
	/\[instrumentation\]/ { i += n; if ($0 ~ /(^|;)calls_tiny;/) u += n; if ($0 ~ /^\[instrumentation\] /) top += n }
	END { print t + 0, i + 0, u + 0, top + 0 }' time.folded)
cp_check "the instrumentation has $ins of $total samples (20% or more)" \
	awk -v i="$ins" -v t="$total" 'BEGIN { exit !(t > 0 && i >= 0.2 * t) }'
cp_check "$under of them are under calls_tiny (90% or more)" \
	awk -v u="$under" -v i="$ins" 'BEGIN { exit !(i > 0 && u >= 0.9 * i) }'
cp_check "$top of them are at the top level (5% or less)" \
	awk -v x="$top" -v i="$ins" 'BEGIN { exit !(i > 0 && x <= 0.05 * i) }'
cp_done
