#!/usr/bin/env bash
# Every output of a sampled profile (a build without -pg) shows its calls
# as not measured: "-", null, blank or no such column, never a count of 0.
# Two runs of one release build, one doing twice the other's work, read by
# --callpath (text, JSON, CSV), --folded-calls, --pprof, --html, --diff
# (text, JSON), --rank-stats (text, JSON), gprof's own flat profile and
# stock gprof's.  Then the same reads of an instrumented run show its
# counts, so that each check can fail.
# testsuite: alone (measures CPU time: see testsuite/run)
#
# One statistical check: leaf's time doubles between the runs (about 0.17
# s of CPU against 0.34 s, 1000 samples a second of each thread's own CPU
# time).  The diff's noise is sqrt(samples) plus a 9% jitter of the time,
# about 0.04 s: the change is over 4 of those, where the rule needs 2.3
# (a false failure needs the second run's leaf to measure under 0.26 s of
# its 0.34 s of CPU, a 23% loss a per-thread CPU clock does not show; its
# chance under the Poisson noise alone is below 1e-9).
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
. "$SRCDIR/testsuite/e2e/lib.sh"
cd "$WORKDIR" || exit 1
JS="$SRCDIR/scripts/json_schema.py"
cat > app.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
static volatile double s;
__attribute__((noinline)) void leaf(long n) { for (long i = 0; i < n; i++) s += i * 0.5; }
__attribute__((noinline)) void mid(long n) { leaf(n); leaf(n / 2); }
int main(int argc, char **argv)
{
	long k = argc > 1 ? atol(argv[1]) : 1;

	for (int r = 0; r < 4; r++)
		mid(k * 8000000);
	printf("%g\n", s > 0 ? 1.0 : 0.0);
	return 0;
}
EOF
gcc -O2 -g -o rel app.c && gcc -pg -O2 -g -o pg app.c || exit 1
mkdir -p a b i
(cd a && LD_PRELOAD="$CP_SO" ../rel 1 > /dev/null) &&
	(cd b && LD_PRELOAD="$CP_SO" ../rel 2 > /dev/null) &&
	(cd i && LD_PRELOAD="$CP_SO" ../pg 1 > /dev/null) || exit 1
cp_check "the runs left their pairs" test -s a/gmon.out.callpath -a -s b/gmon.out.callpath

# --callpath, text: no "N calls" heading, "-" in the calls columns
"$EGPROF" -b --callpath ./rel a/gmon.out > cp.txt 2> cp.err
cp_check "--callpath: it says calls were not counted" grep -q 'calls were not$' cp.txt
cp_check "--callpath: no function heading counts calls" bash -c "! grep -qE '^[^ ].*: [0-9]+ calls?, ' cp.txt"
cp_check "--callpath: every path row and tree row has '-' for calls" \
	bash -c "! grep -E '^ +[0-9]+ +[0-9.]+ +[0-9.]+ ' cp.txt | grep -q . &&
		 grep -qE '^ +- +- +[0-9.]+ +[0-9.]+ +[0-9.]+  main' cp.txt"
# JSON and CSV
"$EGPROF" -b --callpath --format json ./rel a/gmon.out > cp.json 2> /dev/null
cp_check "--callpath JSON: validates against the schema" python3 "$JS" validate cp.json
cp_check "--callpath JSON: calls_measured false, total and every frame's calls null" \
	python3 -c "
import json, sys
d = json.load(open('cp.json'))
ok = d['calls_measured'] is False and d['total_calls'] is None and d['frames'] and \
     all(f['calls'] is None and f['recursive_calls'] is None for f in d['frames'])
sys.exit(0 if ok else 1)"
"$EGPROF" -b --callpath --format csv ./rel a/gmon.out > cp.csv 2> /dev/null
cp_check "--callpath CSV: the calls cells are empty" \
	python3 -c "
import csv, sys
rows = list(csv.DictReader(open('cp.csv')))
sys.exit(0 if rows and all(r['calls'] == '' for r in rows if r['record'] == 'frames') else 1)"
# --folded-calls has nothing to write
"$EGPROF" -b --folded-calls fc.txt ./rel a/gmon.out > /dev/null 2> fc.err
rc=$?
cp_check "--folded-calls: refused, saying why, nothing written" \
	bash -c "[ $rc != 0 ] && grep -q 'calls were not counted' fc.err && [ ! -e fc.txt ]"
# pprof: no sample type of calls
"$EGPROF" -b --pprof p.pb ./rel a/gmon.out > /dev/null 2> p.err
if command -v go > /dev/null && go tool pprof -raw p.pb > p.raw 2> /dev/null; then
	cp_check "--pprof: no calls sample type" \
		bash -c "grep -q 'samples/count' p.raw && ! grep -q 'calls/count' p.raw"
else
	echo "ok $((CP_N + 1)) # SKIP go tool pprof not available"
	CP_N=$((CP_N + 1))
fi
# HTML: the page's call-path document
"$EGPROF" -b --html page.html ./rel a/gmon.out > /dev/null 2> h.err
cp_check "--html: the paths' document says calls_measured false and holds no calls" \
	bash -c "grep -q '\"calls_measured\": false' page.html && grep -q '\"calls\": null' page.html"
# --diff of two release builds
"$EGPROF" --diff ./rel a/gmon.out ./rel b/gmon.out > d.txt 2> d.err
cp_check "--diff: no call evidence, said" grep -q '^No call evidence: neither run counted calls' d.txt
cp_check "--diff: its source says the calls were not counted (not the sidecars')" \
	bash -c "tr '\n' ' ' < d.txt | grep -q 'calls: not counted (sampled without -pg)'"
cp_check "--diff: leaf's time doubled beyond noise, by time" \
	grep -qE '^  leaf: time -[0-9.]+ s from call-path samples' d.txt
cp_check "--diff: the flat table's calls column is blank" \
	bash -c "! grep -E '^ *-?[0-9.]+ +-?[0-9.]+ +-?[0-9.]+ +-?[0-9]+ +' d.txt | grep -qE ' (leaf|mid)$'"
"$EGPROF" --diff --format json ./rel a/gmon.out ./rel b/gmon.out > d.json 2> /dev/null
cp_check "--diff JSON: validates against the schema" python3 "$JS" validate d.json
cp_check "--diff JSON: no call graph on either side, every function's calls null" \
	python3 -c "
import json, sys
d = json.load(open('d.json'))
fns = [f for f in d['functions'] if f['kind'] == 'function']
ok = not d['base']['has_call_graph'] and not d['second']['has_call_graph'] and fns and \
     all(f[k] is None for f in fns for k in ('calls_base', 'calls_second', 'calls_diff',
                                                'calls_evidence', 'calls_z'))
sys.exit(0 if ok else 1)"
# --rank-stats of the two runs as two ranks
mkdir -p ranks && cp a/gmon.out ranks/gmon.1 && cp a/gmon.out.callpath ranks/gmon.1.callpath &&
	cp b/gmon.out ranks/gmon.2 && cp b/gmon.out.callpath ranks/gmon.2.callpath
"$EGPROF" --rank-stats --force ./rel ranks > rs.txt 2> rs.err
cp_check "--rank-stats: the calls columns say '-'" \
	bash -c "grep -qE ' +- +- +2/2  leaf$' rs.txt && ! grep -qE ' 0 +0 +[0-9]+/[0-9]+  leaf$' rs.txt"
"$EGPROF" --rank-stats --force --format json ./rel ranks > rs.json 2> /dev/null
cp_check "--rank-stats JSON: validates, calls null" \
	bash -c "python3 '$JS' validate rs.json && python3 -c \"
import json, sys
d = json.load(open('rs.json'))
sys.exit(0 if all(f['calls_max'] is None for f in d['functions']) else 1)\""
# the graph: the paths' functions and arcs, edges by time, no call count
"$EGPROF" -b --dot g.dot --node-thres 0 --edge-thres 0 ./rel a/gmon.out > /dev/null 2> g.err
cat > dot.py <<'PY'
import re, sys
t = open(sys.argv[1]).read()
names, edges = {}, []
for m in re.finditer(r'(n\d+)(?:\s*->\s*(n\d+))?\s*\[(.*?)\];', t, re.S):
    label = re.search(r'label="((?:[^"\\]|\\.)*)"', m.group(3))
    label = label.group(1) if label else ""
    if m.group(2):
        edges.append((m.group(1), m.group(2), label))
    else:
        names[m.group(1)] = label.split("\\n")[0]
ok = any(names.get(a) == 'mid' and names.get(b) == 'leaf' and 's measured' in l
         for a, b, l in edges) and edges and not any('calls' in l for _, _, l in edges)
sys.exit(0 if ok else 1)
PY
cp_check "--dot: edges by measured time, from the paths (mid -> leaf), no calls" \
	python3 dot.py g.dot

# gprof's flat profile, ours and stock: a blank calls column
for g in "$EGPROF" "$SYSGPROF"; do
	"$g" -b -p ./rel a/gmon.out > flat.txt 2> flat.err
	cp_check "$g -p: time, and no count in the calls column" \
		bash -c "grep -qE '^ *[0-9.]+ +[0-9.]+ +[0-9.]+ +leaf$' flat.txt"
done

# The same reads of the instrumented run show counts: the checks can fail.
"$EGPROF" -b --callpath ./pg i/gmon.out > icp.txt 2> /dev/null
cp_check "instrumented --callpath: counted calls" grep -qE '^leaf: 8 calls, ' icp.txt
"$EGPROF" -b --callpath --format json ./pg i/gmon.out > icp.json 2> /dev/null
cp_check "instrumented JSON: calls_measured true, counts" \
	python3 -c "
import json, sys
d = json.load(open('icp.json'))
sys.exit(0 if d['calls_measured'] is True and d['total_calls'] > 0 else 1)"
cp_done
