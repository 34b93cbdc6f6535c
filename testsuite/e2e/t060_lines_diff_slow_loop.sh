#!/usr/bin/env bash
# Source lines of two runs: a function with two loops on two lines, the
# second made eight times slower in the second build (twoloops.c,
# -DSLOW=8).  `gprof --diff -l` lists that loop's line first, beyond the
# noise; `--diff -A` prints the function's source with both runs' seconds
# on that line; two runs of one build (A/A) give no line beyond the noise;
# and the first loop's line is never the one that changed.
#
# Noise bound.  The times are samples of CPU time (1 kHz, per thread), not
# wall-clock.  Each loop is a chain of dependent additions: latency-bound,
# so an SMT neighbour or a loaded machine moves its CPU time by tens of
# percent, not times.  At the default N the baseline's loops take about
# 0.12 s each here (120 samples), the slow loop 0.96 s; a machine half as
# fast doubles every count, which only sharpens the tests.  The rule is
# run at --noise 4 (alpha 6.3e-5 over the family, Bonferroni over its 2-3
# lines: a cut near |z| = 4.5), with the sampling noise (Poisson) and the
# run-to-run jitter, which the rule measures from the lines' scatter
# (8% when they agree, the prior):
#  - the slow line: z = (0.96 - 0.12) / sqrt(1080e-6 + 0.0064 * (0.12^2 +
#    0.96^2)) = 10.0.  With two lines the scatter cannot tell the changed
#    one from a jittery one when their ratios B/A are within about 2.8 times
#    of each other: the jitter then measured (13-17%) puts the change
#    within the noise.  A loaded machine moved that ratio of ratios from
#    4 to 2.2 in one run of a CI batch of five beside busy loops (the slow
#    line 205 -> 625 samples, the other 162 -> 220) when the loop was 4
#    times slower; at 8 times a swing of 2.9 times is needed, beyond what
#    these loops showed, so a false failure is far below 1 in 1,000;
#  - A/A: a false alarm needs a line's CPU time to change by more than
#    about 1.9 times between two runs of one build (z 4.5), or a sampling
#    deviation of 4.5 sigmas (7e-6 per line).
# Shown to fail on a broken build: with every sample put on the function's
# first line, or with the rule's verdicts ignored (see the report of the
# commit that added it).
# testsuite: alone (measures CPU time: see testsuite/run)
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
set -u
CP_SO="$BUILDDIR/callpath/libcallpath.so"
SRC="$SRCDIR/testsuite/fixtures/lines/twoloops.c"
fast=$(grep -n 'FAST_LOOP \*/' "$SRC" | cut -d: -f1)
slow=$(grep -n 'SLOW_LOOP \*/' "$SRC" | cut -d: -f1)
cd "$WORKDIR" || exit 1
gcc -pg -O1 -g -o base "$SRC" && gcc -pg -O1 -g -DSLOW=8 -o slower "$SRC" ||
	{ echo "Bail out! cannot build twoloops.c"; exit 1; }
mkdir -p a1 a2 b
for d in a1:base a2:base b:slower; do
	(cd "${d%%:*}" && LD_PRELOAD="$CP_SO" "../${d#*:}" >/dev/null) ||
		{ echo "Bail out! cannot run ${d#*:}"; exit 1; }
done

"$EGPROF" --diff -l -b --noise 4 ./base a1/gmon.out ./slower b/gmon.out >lines.txt 2>err.txt
check "--diff -l exits 0, no message" bash -c "[ -s lines.txt ] && [ ! -s err.txt ]"
check "the source is the sidecars' program counters" grep -q "^Source: lines of the call-path samples' program counters" lines.txt
check "the two builds are said to differ" grep -q "^Warning: the runs are of two builds" lines.txt
rows() { sed -n '/^ *A s  *B s  *change  *line/,/^$/p' "$1" | grep -E '^ +[0-9]'; }
first=$(rows lines.txt | head -1)
echo "# first row: $first"
check "the slow loop's line (twoloops.c:$slow) is first" \
	bash -c "echo '$first' | grep -qE 'twoloops\\.c:$slow +work\$'"
check "its change is beyond the noise (no ~) and negative (B slower)" \
	bash -c "echo '$first' | awk '{ exit !(\$3 < 0 && \$4 != \"~\") }'"
fastrow=$(rows lines.txt | grep -E "twoloops\.c:$fast " || true)
echo "# first loop: ${fastrow:-unchanged}"
check "the first loop's line (twoloops.c:$fast) is unchanged or within the noise" \
	bash -c "[ -z '$fastrow' ] || echo '$fastrow' | grep -q '~'"
read -r sa sb < <(echo "$first" | awk '{ print $1, $2 }')
check "B's seconds on the slow line are well above A's ($sa -> $sb)" \
	awk -v a="$sa" -v b="$sb" 'BEGIN { exit !(b > 2 * a && a > 0) }'

"$EGPROF" --diff -A --noise 4 ./base a1/gmon.out ./slower b/gmon.out >ann.txt 2>err.txt
check "--diff -A exits 0, no message" bash -c "[ -s ann.txt ] && [ ! -s err.txt ]"
check "-A annotates work (twoloops.c)" grep -q '^work (twoloops.c):$' ann.txt
line=$(grep -E "^ +[0-9.]+ +[0-9.]+ +[-+][0-9.]+ +$slow  " ann.txt || true)
echo "# annotated: $line"
check "-A prints the slow line's source with both times and its change" \
	bash -c "echo '$line' | grep -q 'SLOW_LOOP' && echo '$line' | awk '{ exit !(\$1 > 0 && \$2 > \$1 && \$3 < 0) }'"
check "-A prints the lines before it (the function's source)" \
	bash -c "grep -qE '^ +$fast  .*FAST_LOOP' ann.txt || grep -qE '^ +[0-9.]+ +[0-9.]+ +[-+][0-9.]+ +[~ ] +$fast  .*FAST_LOOP' ann.txt"

"$EGPROF" --diff -l -b --noise 4 ./base a1/gmon.out ./base a2/gmon.out >aa.txt 2>err.txt
check "A/A: --diff -l exits 0" bash -c "[ -s aa.txt ] && [ ! -s err.txt ]"
check "A/A: one build, no warning" bash -c "! grep -q '^Warning' aa.txt"
echo "# A/A: $(grep 'beyond the noise;' aa.txt)"
check "A/A: no line beyond the noise (header)" grep -q ' 0 beyond the noise;' aa.txt
sig=$(rows aa.txt | awk '$4 != "~"' | wc -l)
check "A/A: every changed row is marked ~ ($sig are not)" test "$sig" = 0
done_testing
