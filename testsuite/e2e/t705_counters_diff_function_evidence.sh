#!/usr/bin/env bash
# --diff --metric EV leads: with sidecars on both sides, the diff's flat
# table, its order, its evidence and its header are in the event, from the
# sidecars (one source): each function's self events, tested by the
# diff's one rule (the overflows are Poisson: period x sqrt(overflows)),
# and for a function called from several places its callers' change.
#
# Noise bounds: t700's.  touch does every page fault; under touch_big they
# halve (12,000 -> 6,000 at a period of 10, 1,200 -> 600 overflows: some
# 20 standard deviations even with the rule's 8% jitter), under
# touch_small they stay at 2,000 (200 overflows each side): touch is the
# one significant row, and its callers clause names touch_big's change.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
. "$SRCDIR/testsuite/e2e/counters_lib.sh"
counters_need_papi
counters_pages_runs 6000 12000
"$EGPROF" --diff --metric perf::PAGE-FAULTS ./pages r12000/gmon.out r6000/gmon.out \
	> d.txt 2> d.err; rc=$?
cp_check "--diff --metric: exit 0, nothing on stderr" bash -c "[ $rc = 0 ] && [ ! -s d.err ]"
cp_check "the header says the one source, the event and its period, once" \
	grep -q "^Source: perf::PAGE-FAULTS: call-path samples of each thread, one per 10 events" d.txt
cp_check "the flat table is in events" \
	bash -c "grep -q '^Each sample counts as 10 events\.$' d.txt && grep -Eq '^ time +events +events +calls' d.txt"
first=$(sed -n '/^Flat profile:/,/^ %  /p' d.txt | grep -E '^ *-?[0-9]' | head -1)
cp_check "touch first: its self faults, ~6,000 fewer in the second run: $first" \
	bash -c "echo '$first' | awk '{ exit !(\$NF == \"touch\" && \$3 >= 5400 && \$3 <= 6600) }'"
cp_check "touch's evidence line: beyond noise, in events, under touch_big 12,000 -> 6,000" \
	grep -Eq "^  touch: perf::PAGE-FAULTS \+[0-9]+ events, beyond noise [0-9]+ events; under touch_big 1[0-9]{4} -> [5-6][0-9]{3} events, touch_small [0-9]+ -> [0-9]+ events$" d.txt
cp_check "the header counts the evidence's rows: 1" \
	bash -c "grep -q 'the 1 significant changes first' d.txt && [ \"\$(sed -n '/^Evidence for/,/^$/p;/^Evidence for/,/Within noise/p' d.txt | grep -c ': perf::PAGE-FAULTS')\" -ge 1 ]"
cp_check "touch_small: no evidence line (2,000 both sides)" \
	bash -c "! grep -q '^  touch_small:' d.txt"
read -r self children <<< "$(sed -n '/Call graph (differential)/,$p' d.txt | awk '$1 ~ /^\[/ && $(NF-1) == "touch_big" { print $3, $4; exit }')"
cp_check "the call graph in events too: touch_big's children -> ~6,000 ($children)" \
	bash -c "[ '$self' = 0 ] && awk -v c='$children' 'BEGIN { exit !(c >= 5400 && c <= 6600) }'"
"$EGPROF" --diff ./pages r12000/gmon.out r6000/gmon.out > t.txt 2>&1
cp_check "without --metric: seconds" bash -c "! grep -q 'events' t.txt && grep -q '^Each sample counts as 0.001 seconds' t.txt"
cp_done
