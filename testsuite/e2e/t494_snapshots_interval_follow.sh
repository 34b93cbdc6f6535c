#!/usr/bin/env bash
# The analysis of snapshots (issue 26): --interval prints a run interval by
# interval (differences of consecutive cumulative files: phase 2 absent
# from the first interval, phase 1 from the last, the columns summing to
# the run's gmon.out exactly); --follow prints a running program's newest
# snapshot until its gmon.out is written, then ends; a directory operand
# leaves snapshots out (they would count the run twice), a quoted pattern
# takes a set of them (one side of --diff), a pattern matching nothing is
# an error naming it.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

cp_cc ends ends.c -O1 || exit 1
cd "$WORKDIR" || exit 1

mkdir -p run && cd run || exit 1
# snapshots at 1, 2, 3 s; phase 2 from 2.0 s (a second after the first
# snapshot: room for a writer held back on a loaded machine)
CALLPATH_SNAPSHOT=1 LD_PRELOAD="$CP_SO" ../ends phases 2.0 3.5 || exit 1
cd "$WORKDIR"
n=$(ls run | grep -cE '^gmon\.out\.snap[0-9]+$')
"$EGPROF" --interval ./ends 'run/gmon.out.snap*' run/gmon.out > interval.txt 2> interval.err
cp_check "--interval exits 0" test $? = 0
cp_check "--interval: $((n + 1)) intervals ($n snapshots and the end)" \
	grep -q "^Interval profile: $((n + 1)) cumulative profiles" interval.txt
# the calls table: "c1 c2 ... name"
calls_row() { sed -n '/^Calls per interval/,$p' interval.txt | awk -v f="$1" '$NF == f'; }
row2=$(calls_row second_leaf)
row1=$(calls_row first_leaf)
cp_check "phase 2 is absent from the first interval ($row2)" \
	test "$(echo "$row2" | awk '{ print $1 }')" = 0
cp_check "phase 1 is absent from the last interval ($row1)" \
	test "$(echo "$row1" | awk '{ print $(NF - 1) }')" = 0
sum=$(echo "$row2" | awk '{ s = 0; for (i = 1; i < NF; i++) s += $i; print s }')
cp_check "the intervals sum to the run's calls exactly ($sum)" \
	test "$sum" = "$(cp_calls_of /usr/bin/gprof ./ends run/gmon.out second_leaf)"

# --follow while the program runs: a refresh per snapshot, then the end
mkdir -p live && cd live || exit 1
CALLPATH_SNAPSHOT=0.5 LD_PRELOAD="$CP_SO" ../ends phases 0.8 2.2 &
pid=$!
timeout 60 "$EGPROF" --follow=0.2 ../ends gmon.out > follow.txt 2> follow.err
rc=$?
wait $pid
cd "$WORKDIR"
cp_check "--follow ends by itself when the run's gmon.out is written (exit $rc)" test $rc = 0
cp_check "--follow printed the snapshots as they came ($(grep -c '^== snapshot' live/follow.txt))" \
	test "$(grep -c '^== snapshot' live/follow.txt)" -ge 2
cp_check "--follow ended with the run's end" \
	test "$(grep '^==' live/follow.txt | tail -n1 | cut -c1-20)" = "== the run's end: gm"

# directories and patterns
"$EGPROF" -b --diff ./ends run 'run/gmon.out.snap1' > dir.txt 2> dir.err
cp_check "a directory side leaves the snapshots out, naming each" \
	test "$(grep -c "skipping 'run/gmon.out.snap[0-9]*': a snapshot" dir.err)" = "$n"
"$EGPROF" -b --diff ./ends 'run/gmon.out.snap[3]' 'run/gmon.out.snap1' > set.txt 2> set.err
cp_check "a quoted pattern is a set of snapshots (one side of --diff)" \
	grep -qE '^  second_leaf: .*calls gone' set.txt
"$EGPROF" --interval ./ends 'run/nothing.*' > none.txt 2> none.err
rc=$?
cp_check "a pattern matching nothing: an error naming it (exit $rc)" \
	sh -c "test $rc != 0 && grep -q \"run/nothing\.\*: no such file, and no file matches it\" none.err"
cp_done
