#!/usr/bin/env bash
# One rule, one verdict per row and per arc (issue 24 items 2 and 7), the
# same in every output: the --extended table (unmarked significant, "~"
# within noise, "=" equal), the classic table's evidence list, the JSON
# and CSV (`verdict`), the GML graph (node and edge `significant`, grey
# when not, blue and red the same on both).  On the evidence fixture and on
# an interpreter-shaped program with a cycle (whose "as a whole" row is
# significant only through a member).
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
MKGMON=$SRCDIR/testsuite/fixtures/fig1/mkgmon.py
cd "$WORKDIR" || exit 1
F=$WORKDIR/ev
sh "$SRCDIR/testsuite/fixtures/evidence/evidence.sh" "$F" > build.log 2>&1 &&
	gcc -O1 -pg -o interp "$SRCDIR/testsuite/fixtures/interp/interp.c" 2>> build.log ||
	{ echo "not ok 1 - build"; cat build.log; echo "1..1"; exit 1; }
{
	echo "exec=3000 call_fn=400 main=1 repl=5 run=1 main>run=1 run>repl=1 repl>exec=1000"
	echo "exec>call_fn=3000 call_fn>exec=3000 call_fn>builtin_40=3000 builtin_40=200"
	for k in $(seq 0 39); do echo "builtin_$k=$((20 + k)) exec>builtin_$k=4000"; done
} > a.spec
sed -e 's/exec=3000/exec=1500/' -e 's/builtin_40=200/builtin_40=90/' -e 's/builtin_7=27/builtin_7=29/' \
	-e 's/call_fn>exec=3000/call_fn>exec=2995/' a.spec > b.spec
python3 "$MKGMON" interp a.gmon --spec a.spec && python3 "$MKGMON" interp b.gmon --spec b.spec ||
	{ echo "not ok - gmon files"; exit 1; }

verdicts() { # NAME BINARIES/GMONS...: the outputs of one diff, compared
	local n=$1
	shift
	"$EGPROF" -b -p --extended --diff "$@" > $n.ext
	"$EGPROF" -b -p --diff "$@" > $n.classic
	"$EGPROF" --format json --diff "$@" > $n.json
	"$EGPROF" --format csv --diff "$@" > $n.csv
	"$EGPROF" --diff "$@" --node-thres 0 --edge-thres 0 --gml $n.gml > /dev/null 2> $n.err
	python3 - $n <<'PY'
import csv, json, re, sys
import networkx as nx
n = sys.argv[1]
d = json.load(open(n + ".json"))
fn = {f["name"]: f for f in d["functions"]}
mark = {}
for line in open(n + ".ext"):
    f = line.split()
    if len(f) >= 9 and re.match(r"^-?[0-9]+\.[0-9]+$", f[0]) and f[7] in ("XX", "X.", ".X"):
        m = f[-1] if f[-1] in ("~", "=") else ""
        mark[" ".join(f[8:-1] if m else f[8:])] = m
assert mark, "no rows"
want = {"": "significant", "~": "within noise", "=": "equal"}
for name, m in mark.items():
    assert fn[name]["verdict"] == want[m], (name, m, fn[name]["verdict"])
    assert fn[name]["significant"] == (m == "") and fn[name]["within_noise"] == (m == "~")
listed = set()
for line in open(n + ".classic"):
    m = re.match(r"^  (\S.*?): ", line)
    if m and m.group(1) in fn:
        listed.add(m.group(1))
assert listed == {k for k, f in fn.items() if f["significant"] and f["kind"] == "function"}, listed
rows = [r for r in csv.DictReader(open(n + ".csv", newline=""))]
for r in rows:
    if r["record"] == "functions":
        assert r["verdict"] == fn[r["name"]]["verdict"] and (r["significant"] == "1") == fn[r["name"]]["significant"]
for f in fn.values():
    if f["kind"] == "cycle":
        members = [m for m in fn.values() if m["kind"] == "function" and m["cycle"] == f["cycle"]]
        assert f["significant"] == any(m["significant"] for m in members), f["name"]
g = nx.read_gml(n + ".gml", label="id")
name = {k: v["name"] for k, v in g.nodes(data=True)}
grey = (0xd9, 0xd9, 0xd9)
def rgb(c): return int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)
for k, v in g.nodes(data=True):
    if v["kind"] == "legend":
        continue
    f = fn[v["name"]]
    assert bool(v["significant"]) == f["significant"], v["name"]
    c = rgb(v["graphics"]["fill"])
    assert (c == grey) == (not f["significant"]), (v["name"], c)
    if f["significant"] and f["evidence_signed_sec"] != 0:
        assert (c[2] > c[0]) == (f["evidence_signed_sec"] > 0), v["name"]   # blue: less
arcs = {(a["caller"], a["callee"]): a for a in d["arcs"]}
for u, w, e in g.edges(data=True):
    if e["kind"] != "call":
        continue
    a = arcs[(name[u], name[w])]
    assert bool(e["significant"]) == a["significant"], (name[u], name[w])
    c = rgb(e["graphics"]["fill"])
    assert (c == (0x99, 0x99, 0x99)) == (not a["significant"]), (name[u], name[w], c)
    if a["significant"] and a["evidence_signed_sec"] != 0:
        assert (c[2] > c[0]) == (a["evidence_signed_sec"] > 0), (name[u], name[w])
print("# %d rows, %d significant" % (len(mark), sum(1 for m in mark.values() if m == "")))
PY
}
check "evidence fixture: one verdict in the tables, JSON, CSV and the graph" \
	verdicts ev "$F/prog" "$F/a.gmon" "$F/prog-inlined" "$F/b.gmon"
check "interpreter with a cycle: the same" verdicts interp interp a.gmon interp b.gmon
check "a cycle with a significant member is significant, in the JSON too" python3 - interp.json <<'PY'
import json, sys
fn = {f["name"]: f for f in json.load(open(sys.argv[1]))["functions"]}
assert fn["<cycle 1 as a whole>"]["significant"] and fn["exec"]["significant"]
PY
check "every JSON validates against its schema" python3 "$SRCDIR/scripts/json_schema.py" validate *.json
dl_done
