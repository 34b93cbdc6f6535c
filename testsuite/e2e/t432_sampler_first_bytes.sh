#!/usr/bin/env bash
# A sample in a function's first bytes (before its `call mcount`) is that
# function's (issue 22), not its caller's: long_entry (placed.c) spends
# nearly all its time in a 3000-iteration loop before its mcount call, and
# entry_caller calls it in a loop, then tiny (so that the shadow stack's
# top is tiny's returned frame, not a returned long_entry frame from the
# same place, which would look live).  Its frame is not live there, so the
# runtime before issue 22 credited that time to entry_caller's self time
# (seen: 50 of 50 samples at 100 Hz; gprof's histogram, by program
# counter, gives it to long_entry).  Now
# long_entry's path holds at least 80% of entry_caller's inclusive time and
# entry_caller's self time is under 15% of it; the histogram agrees.
# False-failure bound: the checks are shares of 80% where the runtime
# before this credited 0%: some 500 samples at 1000 Hz, of which
# long_entry's path takes about 96%, so a binomial share under 80% has a
# chance below 1e-12 (gprof's histogram: 26 of 26 ticks, below 1e-6).
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

gcc -pg -O1 -g -o "$WORKDIR/placed" "$CP_EX/placed.c" -lm -lpthread || exit 1
cd "$WORKDIR" || exit 1
rm -f gmon.out*
LD_PRELOAD="$CP_SO" ./placed entry > cpu.txt || exit 1
"$EGPROF" -b --folded time.folded ./placed gmon.out > /dev/null 2> err.txt
incl=$(cp_incl_samples time.folded entry_caller)
callee=$(cp_incl_samples time.folded long_entry)
self=$(cp_path_samples time.folded 'main;entry_caller')
cp_check "entry_caller has samples ($incl)" test "$incl" -gt 40
cp_check "long_entry's path holds its first bytes' time: $callee of $incl" \
	awk -v c="$callee" -v i="$incl" 'BEGIN { exit !(c >= 0.8 * i) }'
cp_check "entry_caller's own time is its own only: $self of $incl" \
	awk -v s="$self" -v i="$incl" 'BEGIN { exit !(s < 0.15 * i) }'
hist=$(cp_flat_self "$SYSGPROF" ./placed gmon.out long_entry)
total=$("$SYSGPROF" -b -p ./placed gmon.out | awk '/^ *[0-9.]+ +[0-9.]+ +[0-9.]+/ { s += $3 } END { print s + 0 }')
cp_check "gprof's histogram gives long_entry most of the time too ($hist of $total s)" \
	awk -v h="$hist" -v t="$total" 'BEGIN { exit !(t > 0 && h >= 0.8 * t) }'
cp_done
