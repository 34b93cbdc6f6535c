#!/usr/bin/env bash
# --diff --metric EV, function level (issue 27, item 2): with sidecars on
# both sides, each function's events summed over its paths (self and
# inclusive) and an evidence line for each change beyond the noise, by
# the path table's rule (Poisson overflows: period x sqrt(overflows)).
#
# Noise bounds: t700's.  touch_big's page faults double (12,000 -> 6,000
# at a period of 10, 1,200 -> 600 overflows: some 20 standard deviations);
# touch_small's stay at 2,000 (200 overflows each side, a handful apart):
# no line for it.
. "$SRCDIR/callpath/examples/testlib.sh"
cd "$WORKDIR" || exit 1
. "$SRCDIR/testsuite/e2e/counters_lib.sh"
counters_need_papi
counters_pages_runs 6000 12000
"$EGPROF" --diff --metric perf::PAGE-FAULTS ./pages r12000/gmon.out r6000/gmon.out \
	> d.txt 2> d.err; rc=$?
cp_check "--diff --metric: exit 0, nothing on stderr" bash -c "[ $rc = 0 ] && [ ! -s d.err ]"
cp_check "the functions' table of the event" \
	grep -q "^Function differences of perf::PAGE-FAULTS (from the call-path sidecars)" d.txt
cp_check "touch_big: an evidence line, its inclusive faults halved" \
	grep -Eq "^  touch_big: perf::PAGE-FAULTS incl /(1\.[89]|2\.[0-2]) \(1\.[1-3]e4 -> [5-6]\.[0-9]e3\), beyond noise$" d.txt
cp_check "touch: its self faults, 14,000 -> 8,000" \
	grep -Eq "^  touch: perf::PAGE-FAULTS self /1\.[6-9] \(1\.[3-5]e4 -> [7-8]\.[0-9]e3\), beyond noise$" d.txt
cp_check "touch_small: no evidence line (2,000 both sides)" \
	bash -c "! sed -n '/^Evidence of perf::PAGE-FAULTS/,\$p' d.txt | grep -q touch_small"
read -r as bs ai bi <<< "$(sed -n '/^Function differences of/,/^Evidence of/p' d.txt | awk '$NF == "touch_big" { print $1, $2, $3, $4 }')"
cp_check "touch_big's row: self 0 both sides, incl $ai -> $bi (12000 -> 6000, 10%)" \
	bash -c "[ '$as' = 0 ] && [ '$bs' = 0 ] && [ '$ai' -ge 10800 ] && [ '$ai' -le 13200 ] &&
		 [ '$bi' -ge 5400 ] && [ '$bi' -le 6600 ]"
"$EGPROF" --diff ./pages r12000/gmon.out r6000/gmon.out > t.txt 2>&1
cp_check "without --metric: no such table" bash -c "! grep -q '^Function differences of' t.txt"
cp_done
