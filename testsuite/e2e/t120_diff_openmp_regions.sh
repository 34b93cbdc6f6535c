#!/usr/bin/env bash
# OpenMP outlined regions (issue 24 item 5): GCC moves a parallel loop of
# solve() into solve._omp_fn.0, which GNU gprof drops from its symbols, so
# the loop's samples land on whatever precedes it in memory (main here, a
# never-called helper in LULESH).  --diff gives the region to the function
# it came from, as it folds GCC's clones: solve (+ ._omp_fn.0), in the flat
# tables, the call graph, the JSON and the graphs; the symbol before it gets
# none of it.  Exact samples (mkgmon.py): the region 5.00 s -> 2.00 s.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
MKGMON=$SRCDIR/testsuite/fixtures/fig1/mkgmon.py
cd "$WORKDIR" || exit 1
gcc -O2 -fopenmp -pg -o omp "$SRCDIR/testsuite/fixtures/omp/omp.c" -lm 2> build.log ||
	{ echo "not ok 1 - build"; cat build.log; echo "1..1"; exit 1; }
region=$(nm omp | awk '$3 ~ /^solve[.]_omp_fn[.][0-9]+$/ { print $3; exit }')
before=$(nm -n omp | awk -v r="$region" '$2 ~ /^[tT]$/ { if ($3 == r) { print prev; exit } prev = $3 }')
check "the build outlines solve's loop ($region, after $before)" test -n "$region" -a -n "$before"
python3 "$MKGMON" omp a.gmon main=10 norm=20 "$region=500" main\>solve=1 main\>norm=1 &&
python3 "$MKGMON" omp b.gmon main=10 norm=20 "$region=200" main\>solve=1 main\>norm=1 ||
	{ echo "not ok - gmon files"; exit 1; }
"$SYSGPROF" -b -p omp a.gmon > gprof.txt
check "GNU gprof gives the region's 5.00 s to $before, as it drops $region" \
	grep -Eq "^ *[0-9.]+ +[0-9.]+ +5\.00 .* $before$" gprof.txt

"$EGPROF" -b -p --extended --diff omp a.gmon b.gmon > ext.txt 2> err.txt
check "the diff's first row is solve with its region: 5.00 -> 2.00 s, significant" \
	test "$(squeeze ext.txt | grep -E '^-?[0-9]' | head -1)" = \
	"100.00 5.00 2.00 3.00 1 1 0 XX solve (+ ._omp_fn.0)"
check "$before has none of it (no row: no samples, no calls)" bash -c "! grep -q ' $before\$' ext.txt"
check "main keeps its own 0.10 s, equal" contains ext.txt "0.00 0.10 0.10 0.00 - - 0 XX main"
"$EGPROF" -b -q --diff omp a.gmon b.gmon > cg.txt 2>> err.txt
check "the call graph names the region's function" \
	grep -Eq '^\[[0-9]+\] +[0-9.]+ +3\.00 .* solve \(\+ \._omp_fn\.0\) \[[0-9]+\]$' cg.txt
"$EGPROF" --format json --diff omp a.gmon b.gmon > d.json 2>> err.txt
check "the JSON row: solve, self 5 -> 2, significant" python3 - d.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = [x for x in d["functions"] if x["name"] == "solve (+ ._omp_fn.0)"]
assert len(f) == 1 and f[0]["self_base"] == 5 and f[0]["self_second"] == 2, f
assert f[0]["significant"] is True
PY
check "the JSON validates against its schema" python3 "$SRCDIR/scripts/json_schema.py" validate d.json
"$EGPROF" --diff omp a.gmon b.gmon --node-thres 0 --edge-thres 0 --gml g.gml > /dev/null 2>> err.txt
check "the graph's node is solve with its region" grep -q 'label "solve (+ ._omp_fn.0)"' g.gml
check "nothing on stderr" test ! -s err.txt
dl_done
