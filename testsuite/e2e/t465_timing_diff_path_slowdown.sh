#!/usr/bin/env bash
# A path-specific slowdown between two runs (issue 10): c() is made slower
# only when reached through b (timing mis 1, then mis 3).  gprof --diff with
# sidecars compares time per path: main;b;c is ranked first, outside the
# noise; main;a;c's change, if any, is within the noise.  The two-column
# --folded file holds the samples of both runs per path.
#
# Noise bound: the program prints the CPU time a() took (its thread's
# clock), the reference for a;c's samples.  Where the machine ran a() at
# the same speed in both runs (within 15%), the diff must call a;c's change
# noise: at a 15% change of about 0.12 s sampled at 1 kHz its z is under
# 1, against a cut of about 2.3.  Where the machine's speed itself moved
# more (one CI run measured a() at 0.10 s, then 0.15 s: a real change of
# the time, which two runs of two paths cannot tell from a slower c), the
# verdict is not asserted; a;c's seconds must then follow the reference
# instead.  Either way, time of b's path put on a's path fails the test.
# testsuite: alone (measures CPU time: see testsuite/run)
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

cp_cc timing timing.c -O1 -g || exit 1
cd "$WORKDIR" || exit 1
mkdir -p one two
(cd one && rm -f gmon.out* && LD_PRELOAD="$CP_SO" ../timing mis 1 cpu > cpu.txt) || exit 1
(cd two && rm -f gmon.out* && LD_PRELOAD="$CP_SO" ../timing mis 3 cpu > cpu.txt) || exit 1
"$EGPROF" --diff --extended --folded diff.folded --folded-calls diffcalls.folded -b \
	./timing one/gmon.out ./timing two/gmon.out > diff.txt 2> err.txt
cp_check "diff and folded files written" test -s diff.txt -a -s diff.folded -a -s diffcalls.folded
table() { sed -n '/Call-path time differences/,/^\f/p' diff.txt | grep -E '^ +[0-9]'; }
first=$(table | head -1)
cp_check "main;b;c ranked first ($first)" bash -c "echo '$first' | grep -qE '  main;b;c\$'"
cp_check "main;b;c's change is outside the noise" bash -c "echo '$first' | grep -qvE '~  main;b;c\$'"
ac=$(table | grep -E '  main;a;c$' || true)
ra=$(awk '$1 == "a" { print $2 }' one/cpu.txt)
rb=$(awk '$1 == "a" { print $2 }' two/cpu.txt)
if awk -v a="$ra" -v b="$rb" 'BEGIN { exit !(b <= 1.15 * a && a <= 1.15 * b) }'; then
	cp_check "main;a;c unchanged or within the noise (a() took $ra and $rb s; ${ac:-unchanged})" \
		bash -c "[ -z '$ac' ] || echo '$ac' | grep -qE '~  main;a;c\$'"
else
	# The machine's speed moved: a;c's seconds (both runs, or unchanged)
	# must match a()'s CPU time within sampling (a few ms at 1 kHz) and
	# 10% for a's own loop and the clock's reading.
	read -r sa sb < <(echo "${ac:-x x}" | awk '{ print $1, $2 }')
	cp_check "main;a;c follows a()'s CPU time, which moved more than 15% ($ra -> $rb s; diff ${ac:-unchanged})" \
		awk -v a="$sa" -v b="$sb" -v ra="$ra" -v rb="$rb" 'function near(s, r) {
			d = s - r; if (d < 0) d = -d; return d <= 0.02 + 0.1 * r }
		BEGIN { exit !(a != "x" && near(a, ra) && near(b, rb)) }'
fi
# The work tripled on b's path.  (Not asserted to be exactly three times:
# the CPU time of the same loop moves by tens of percent on a loaded 2-core
# machine between runs.  With K=2, one CI run measured b;c's unchanged work
# 40% slower in run one, 1.24 s against 0.86-0.96 s here, and 1.24 -> 1.71 s
# fell within the noise; a tripling survives a 2x swing of the machine's
# speed between the runs.)
read -r sa sb < <(echo "$first" | awk '{ print $1, $2 }')
cp_check "main;b;c: B clearly above A ($sa -> $sb s)" \
	awk -v a="$sa" -v b="$sb" 'BEGIN { exit !(b > 1.4 * a) }'
cp_check "two-column time folded file: main;b;c A B" \
	bash -c "awk '\$1 == \"main;b;c\" && NF == 3 && \$3 > \$2 { ok = 1 } END { exit !ok }' diff.folded"
cp_check "two-column calls folded file: calls unchanged on both paths" \
	bash -c "grep -qx 'main;b;c 100 100' diffcalls.folded && grep -qx 'main;a;c 100 100' diffcalls.folded"
cp_check "the calls table reports no changed call path" grep -q "0 of [0-9]* paths changed" diff.txt
cp_done
