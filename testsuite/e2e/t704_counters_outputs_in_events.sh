#!/usr/bin/env bash
# --metric EV in the outputs other than the report (issue 27, item 4):
# --pprof names the event as period type (PAPI's event, `events`, the
# period), not cpu nanoseconds; the diff's two-column --folded holds
# events (overflows times the period), not overflows, with and without a
# filter; and without --metric it still holds time samples.
#
# Noise bounds: t700's.  touch() writes one byte to each page of a new
# mapping, one fault each: 6,000 (or 12,000) under touch_big, 2,000 under
# touch_small, counted every 10 faults: within 10%.  Overflows instead of
# events would be a tenth of that, far outside.
. "$SRCDIR/callpath/examples/testlib.sh"
cd "$WORKDIR" || exit 1
. "$SRCDIR/testsuite/e2e/counters_lib.sh"
counters_need_papi
counters_pages_runs 6000 12000
within() { # VALUE EXPECTED PERCENT
	[ -n "$1" ] && awk -v v="$1" -v e="$2" -v p="$3" \
		'BEGIN { d = v - e; if (d < 0) d = -d; exit !(d <= e * p / 100) }'
}
"$EGPROF" --diff --metric perf::PAGE-FAULTS --folded d.folded ./pages r12000/gmon.out \
	r6000/gmon.out > /dev/null 2> d.err
read -r a b <<< "$(awk '$1 == "main;touch_big;touch" { print $2, $3 }' d.folded)"
cp_check "--diff --metric --folded: touch_big's faults in events, A $a (12000)" within "$a" 12000 10
cp_check "... B $b (6000)" within "$b" 6000 10
read -r a b <<< "$(awk '$1 == "main;touch_small;touch" { print $2, $3 }' d.folded)"
cp_check "... touch_small's, $a and $b (2000 each)" \
	bash -c "within() { awk -v v=\"\$1\" -v e=\"\$2\" 'BEGIN { d = v - e; if (d < 0) d = -d; exit !(d <= e / 10) }'; }; within '$a' 2000 && within '$b' 2000"
"$EGPROF" --diff --metric perf::PAGE-FAULTS --focus touch_big --folded f.folded ./pages \
	r12000/gmon.out r6000/gmon.out > /dev/null 2> f.err
read -r a b <<< "$(awk '$1 == "main;touch_big;touch" { print $2, $3 }' f.folded)"
cp_check "... with --focus too: $a, $b" bash -c "[ '$a' -ge 10800 ] && [ '$b' -le 6600 ] && [ '$b' -ge 5400 ]"
cp_check "... and only the focused paths" bash -c "! grep -q touch_small f.folded"
"$EGPROF" --diff --folded t.folded ./pages r12000/gmon.out r6000/gmon.out > /dev/null 2>&1
# (the time samples are 1 kHz CPU time: a loaded machine's second of page
# faults is 1000 of them; touch_big's 12000 events would be past 9000;
# counts are the last two fields: a library leaf's name has a space)
cp_check "without --metric the file holds time samples (no path near 12000)" \
	bash -c "! awk '\$(NF - 1) > 9000 || \$NF > 9000' t.folded | grep -q ."

# the graphs are gprof's call graph, in seconds: with --metric their
# measured edges stay time (they drew 12010 events as "12010.00 s")
"$EGPROF" -b --diff --metric perf::PAGE-FAULTS --dot g.dot ./pages r12000/gmon.out \
	./pages r6000/gmon.out > /dev/null 2>&1
cp_check "--diff --metric --dot: the edges' measured time is seconds, not events" \
	bash -c "grep -q ' s, diff' g.dot && ! grep -Eq '[0-9]{4,}\.[0-9]+ \| [0-9.]+ s' g.dot"

if command -v go > /dev/null && go tool pprof -h > /dev/null 2>&1; then
	"$EGPROF" -b -p --metric perf::PAGE-FAULTS --pprof p.pb.gz ./pages r6000/gmon.out > /dev/null
	go tool pprof -raw p.pb.gz > raw.txt 2>&1
	cp_check "--pprof --metric: pprof reads the period type as the event" \
		grep -qx "PeriodType: perf::PAGE-FAULTS events" raw.txt
	cp_check "... and the period as the event's (10)" grep -qx "Period: 10" raw.txt
	cp_check "... and the sample type" grep -q "perf::PAGE-FAULTS/events" raw.txt
	"$EGPROF" -b -p --pprof q.pb.gz ./pages r6000/gmon.out > /dev/null
	go tool pprof -raw q.pb.gz > rawq.txt 2>&1
	cp_check "without --metric: cpu nanoseconds" grep -qx "PeriodType: cpu nanoseconds" rawq.txt
else
	cp_check "pprof's reading of --pprof # SKIP go tool pprof is not installed" true
fi
cp_done
