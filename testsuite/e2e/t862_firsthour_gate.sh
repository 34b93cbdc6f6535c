#!/usr/bin/env bash
# The regression gate: `--diff --fail-on EXPR` exits 3 when a significant
# difference crosses EXPR, after writing every output; 0 when none does.
# `--format markdown` summarises the diff for a CI log.
# testsuite: alone (measures CPU time: see testsuite/run)
#
# The program (testsuite/fixtures/firsthour/app.c): parse 0.35 s, solve
# 0.5 s, report 0.15 s of CPU time a run; the new build's solve does five
# times the work (2.5 s).  Three runs of each.
#
# False-failure bounds, from the diff's one significance rule (its
# family-wise error at --noise K is the two-sided tail of K sigmas):
#  - the same gmon file twice: every row is equal, deterministically;
#  - an A/A pair (two runs of the baseline) at --noise 4 fails a gate with
#    a chance of at most 6.3e-5, the rule's family-wise error, which the
#    gate adds nothing to;
#  - the slowdown (solve 0.5 s -> 2.5 s, one pair) is missed when its z,
#    some 7.5 (2.0 s over the sampling noise of 300 samples and the 8%
#    jitter assumed of one pair), falls under the cut of --noise 3 for a
#    few tests, about 3.4: below 2e-5; with three runs a side at --noise 4
#    (the repeats measure a jitter of a few percent) far less.
. "$SRCDIR/testsuite/e2e/firsthour_lib.sh"

build_app old
build_app new -DNEW -DSOLVE_FACTOR=5
mkdir -p old/runs new/runs
# interleaved, so that a change of the machine's speed falls on both alike
for i in 1 2 3; do
	(cd old && GMON_OUT_PREFIX=runs/gmon ./app >/dev/null) &&
	(cd new && GMON_OUT_PREFIX=runs/gmon ./app >/dev/null) || bail "cannot run the programs"
done
set -- old/runs/gmon.*; o1=$1 o2=$2
set -- new/runs/gmon.*; n1=$1
G=$EGPROF

# gate RC-WANTED NAME ARGS...: the status of gprof --diff ARGS
gate() {
	local want=$1 name=$2
	shift 2
	"$G" --diff "$@" >out.txt 2>err.txt
	local rc=$?
	check "$name: exit $want" [ $rc = "$want" ] || { echo "# exit $rc"; diag err.txt; }
}

# --- deterministic: one gmon file twice -------------------------------------
for e in slowdown any "function>0%" "function>0s" "total>0%" "function:solve>0%"; do
	gate 0 "the same gmon file twice, --fail-on '$e'" --fail-on "$e" old/app "$o1" "$o1"
done
gate 0 "the same gmon file twice at --noise 0 (every difference counts)" \
	--noise 0 --fail-on any old/app "$o1" "$o1"
"$G" --diff --fail-on any --format markdown old/app "$o1" "$o1" >md.txt 2>err.txt
check "... its summary: the gate passed, no significant change" \
	bash -c "grep -q '^\*\*Regression gate \`any\`: passed\*\*$' md.txt && grep -q '^No significant change.$' md.txt && [ ! -s err.txt ]"

# --- a real A/A pair: two runs of the baseline, at --noise 4 -----------------------
gate 0 "an A/A pair at --noise 4, --fail-on slowdown" --noise 4 --fail-on slowdown old/app "$o1" old/app "$o2"
gate 0 "an A/A pair, three runs a side (the same files), --fail-on any" \
	--noise 4 --fail-on any old/app old/runs old/app old/runs

# --- a real slowdown ---------------------------------------------------------
gate 3 "solve x5, --fail-on slowdown" -b --noise 3 --fail-on slowdown old/app "$o1" new/app "$n1"
check "... the finding names solve, how much slower, and the term" \
	grep -Eq "^.*gprof: regression: 'solve' is [0-9.]+ s slower \\(\\+[0-9.]+%\\), beyond noise \\(time; --fail-on 'slowdown'\\)$" err.txt ||
	diag err.txt
check "... the report is printed as without the gate" grep -q "solve: time -[0-9.]* s, beyond noise" out.txt
gate 3 "solve x5, --fail-on 'function:solve>100%'" --noise 3 --fail-on 'function:solve>100%' \
	old/app "$o1" new/app "$n1"
gate 0 "solve x5, --fail-on 'function:solve>1000%' (it is some 400%)" --noise 3 \
	--fail-on 'function:solve>1000%' old/app "$o1" new/app "$n1"
gate 0 "solve x5, --fail-on 'function:parse>0s' (parse did not change)" --noise 4 \
	--fail-on 'function:parse>0s' old/app old/runs new/app new/runs
gate 3 "solve x5, --fail-on 'total>50%,function>100s' (the total crosses)" --noise 3 \
	--fail-on 'total>50%,function>100s' old/app "$o1" new/app "$n1"
gate 0 "solve x5, --fail-on 'total>1000%'" --noise 3 --fail-on 'total>1000%' old/app "$o1" new/app "$n1"
gate 3 "the baseline and the new build swapped: solve faster, --fail-on any" \
	--noise 3 --fail-on any new/app "$n1" old/app "$o1"
gate 0 "... but not --fail-on slowdown" --noise 3 --fail-on slowdown new/app "$n1" old/app "$o1"

# every output is written when the gate fails
"$G" -b --diff --noise 3 --fail-on slowdown old/app "$o1" new/app "$n1" --html d.html \
	--dot d.dot >/dev/null 2>&1; rc=$?
check "a failed gate writes the HTML report and the graph (exit 3)" \
	bash -c "[ $rc = 3 ] && grep -q egprof-data d.html && grep -q digraph d.dot"

# --- the CI recipe: three runs a side, markdown ----------------------------------
"$G" --diff --noise 4 --fail-on slowdown --format markdown old/app old/runs new/app new/runs \
	>md.txt 2>err.txt; rc=$?
check "three runs a side: exit 3" [ $rc = 3 ]
check "... the summary names both sides and the failed gate" \
	bash -c "grep -qx '### egprof: \`old/app old/runs (3 gmon files)\` vs \`new/app new/runs (3 gmon files)\`' md.txt &&
		 grep -qx '\*\*Regression gate \`slowdown\`: failed\*\* (1 finding)' md.txt"
check "... a markdown table whose first row is solve, slower" \
	bash -c "grep -A2 -x '| Function | Baseline | Second run | Change | Evidence |' md.txt | tail -n 1 |
		 grep -Eq '^\\| solve \\| [0-9.]+ s \\| [0-9.]+ s \\| [0-9.]+ s slower \\(\\+[0-9.]+%\\) \\| time \\|$'"
check "... seconds per run, and the false-alarm chance of --noise 4" \
	bash -c "grep -q '^Total per run: ' md.txt && grep -q 'is 0.0063% (--noise 4)' md.txt"
check "... stderr has the finding, stdout nothing but the summary" \
	bash -c "one_line() { [ \$(wc -l < \$1) = 1 ]; }; one_line err.txt && grep -q \"regression: 'solve'\" err.txt &&
		 ! grep -q 'Flat profile' md.txt"
done_testing
