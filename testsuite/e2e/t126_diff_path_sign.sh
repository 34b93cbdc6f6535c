#!/usr/bin/env bash
# One sign in every table (issue 24 item 14): the call-path time table of
# --diff with sidecars is A - B, the baseline minus the second run, as the
# flat profile, the call graph and the call-count table: c() made slower
# on b's path (timing mis 1, then mis 2) is a negative change there, as it
# is in the flat profile; a path's change within its noise is marked "~".
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

cp_cc timing timing.c -O1 -g || exit 1
cd "$WORKDIR" || exit 1
mkdir -p one two
(cd one && rm -f gmon.out* && LD_PRELOAD="$CP_SO" ../timing mis 1) || exit 1
(cd two && rm -f gmon.out* && LD_PRELOAD="$CP_SO" ../timing mis 2) || exit 1
"$EGPROF" --diff --extended -b ./timing one/gmon.out ./timing two/gmon.out > diff.txt 2> err.txt
cp_check "the time table states its sign" grep -q '^change = A - B, baseline minus second as in every table of the diff.$' diff.txt
row=$(sed -n '/Call-path time differences/,/^\f/p' diff.txt | grep -E '  main;b;c$')
read -r sa sb ch _ < <(echo "$row")
# each of the three is rounded to 0.01 apart: A - B - change within 0.01
cp_check "main;b;c: change = A - B ($sa - $sb = $ch)" \
	awk -v a="$sa" -v b="$sb" -v c="$ch" 'BEGIN { exit !(c < 0 && (a - b - c) < 0.011 && (a - b - c) > -0.011) }'
cp_check "c's flat row has the same sign" \
	bash -c "awk '\$NF == \"c\" && \$4 ~ /^-/ { ok = 1 } END { exit !ok }' diff.txt"
cp_done
