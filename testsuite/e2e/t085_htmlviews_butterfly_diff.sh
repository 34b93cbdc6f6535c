#!/usr/bin/env bash
# The callers and callees of a function in a diff's HTML report (headless
# Chromium): hub's lines (its three callers, itself, its callee) carry both
# runs' time along each call and calls, the same numbers as --diff --format
# json's arcs and functions, and their difference (baseline - second) is
# the text's call graph's: calls exactly, time to the text's two decimals
# (its self and children columns each rounded).  Two runs of one binary,
# 10 and 14 rounds: the calls differ by known amounts (hub: 60 and 84).
# Exact: views of the same numbers; nothing depends on sampling or speed.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
chromium_find || skip_all "chromium not installed (apt-get install chromium)"
HUB="$SRCDIR/testsuite/fixtures/htmlviews/hub.c"
mkdir -p a b && gcc -pg -O1 -g -o a/hub "$HUB" -lm >build.log 2>&1 && cp a/hub b/hub &&
	(cd a && ./hub 10 >/dev/null) && (cd b && ./hub 14 >/dev/null) ||
	{ cat build.log; echo "Bail out! cannot build and run hub.c"; exit 1; }
"$EGPROF" --diff -b a/hub a/gmon.out b/hub b/gmon.out --html d.html > d.txt 2>err.txt &&
	"$EGPROF" --diff -b --format json a/hub a/gmon.out b/hub b/gmon.out > d.json 2>>err.txt
check "--diff --html and --format json exit 0" [ $? = 0 ]
browser "file://$PWD/d.html#view=butterfly&fn=hub" \
	--eval 'rows=Array.from(document.querySelectorAll("#bf tr[data-role]")).map(r => [r.dataset.role, r.dataset.name].concat(Array.from(r.children).slice(1).map(c => c.dataset.v)))' >b.json
py d.txt d.json b.json <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
doc = json.load(open(sys.argv[2]))
b = json.load(open(sys.argv[3]))
assert b["ready"] and not b["errors"], b
rows = {(r[0], r[1]): r[2:] for r in b["evals"]["rows"]}
assert sorted(n for k, n in rows if k == "caller") == ["caller_a", "caller_b", "caller_c"], rows
# the diff's JSON: both runs' numbers
arcs = {(a["caller"], a["callee"]): a for a in doc["arcs"]}
fn = {f["name"]: f for f in doc["functions"]}
for (role, n), v in rows.items():
    ta, tb, td, ca, cb, cd = (float(x) if x != "" else None for x in v)
    if role == "function":
        f = fn[n]
        assert abs(ta - f["self_base"] - f["children_base"]) < 1e-9, (v, f)
        assert abs(tb - f["self_second"] - f["children_second"]) < 1e-9, (v, f)
        assert (ca, cb) == (f["calls_base"], f["calls_second"]) == (60, 84), (v, f)
    else:
        a = arcs[(n, "hub") if role == "caller" else ("hub", n)]
        assert abs(ta - a["time_base"]) < 1e-9 and abs(tb - a["time_second"]) < 1e-9, (v, a)
        assert (ca, cb) == (a["calls_base"], a["calls_second"]), (v, a)
    assert abs(td - (ta - tb)) < 1e-9 and cd == ca - cb, v
# the text's call graph: baseline - second
# the call graph from its column header on (the first entry follows it)
graph = text[text.index("\n", text.index("\nindex ") + 1):]
# ... to the index by function name (hub may be the first or the last entry)
graph = graph.split("\nIndex by function name")[0]
entry = [e for e in graph.split("-----------------------------------------------")
         if re.search(r"^\[\d+\].*\shub \[\d+\]$", e, re.M)][0]
N = r"(-?\d+\.\d\d)"
line = re.compile(r"^\s+" + N + r"\s+" + N + r"\s+(-?\d+)/(-?\d+)\s+(\S+) [\[(]\d+[\])]$")
prim = re.compile(r"^\[\d+\]\s+\S+\s+" + N + r"\s+" + N + r"\s+(-?\d+)\s+hub \[\d+\]$")
role, seen = "caller", 0
for l in [x for x in entry.split("\n") if x.strip()]:
    m = prim.match(l)
    if m:
        v, role = rows[("function", "hub")], "callee"
        calls = int(m.group(3))
    else:
        m = line.match(l)
        assert m, repr(l)
        v = rows[(role, m.group(5))]
        calls = int(m.group(3))
    assert abs(float(v[2]) - (float(m.group(1)) + float(m.group(2)))) <= 0.01 + 1e-9, (l, v)
    assert int(float(v[5])) == calls, (l, v)
    seen += 1
assert seen == 5, entry
print("ok")
PY
check "hub's lines: both runs' time and calls are --format json's, their difference the text call graph's" [ $? = 0 ]
done_testing
