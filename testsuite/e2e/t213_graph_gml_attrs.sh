#!/usr/bin/env bash
# GML numbers as attributes (issue 13 item 5), read by networkx and igraph
# and checked against /usr/bin/gprof's own numbers; one-line labels for
# igraph; DOT overlap=false for neato (item 4); titles name every input of
# a directory operand (item 6).
. "$SRCDIR/testsuite/e2e/graph_lib.sh"

sh "$FIG1/fig1.sh" . >build.log 2>&1 || { echo "Bail out! fig1.sh failed"; exit 1; }

"$EGPROF" -b demo fig1-a.gmon --gml a.gml --dot a.dot >/dev/null 2>&1
"$SYSGPROF" -b -q demo fig1-a.gmon >gprof-q.txt
check "networkx: node and edge numbers equal gprof's call graph" py a.gml gprof-q.txt <<'PY'
import re, sys, networkx as nx
g = nx.read_gml(sys.argv[1], label="id")
name = {n: d["name"] for n, d in g.nodes(data=True)}
node = {d["name"]: d for _, d in g.nodes(data=True)}
# gprof's primary lines: [i] %time self children called name [i]
prim = {}
for line in open(sys.argv[2]):
    m = re.match(r"\[\d+\]\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d*)\s*(\w+) \[", line)
    if m:
        prim[m.group(5)] = m
assert sorted(prim) == sorted(node), (sorted(prim), sorted(node))
for f, m in prim.items():
    d = node[f]
    assert abs(d["self_sec"] - float(m.group(2))) < 0.006, (f, d["self_sec"], m.group(2))
    assert abs(d["total_sec"] - float(m.group(2)) - float(m.group(3))) < 0.011, f
    assert abs(d["total_pct"] - float(m.group(1))) < 0.06, f
    assert d["calls"] == int(m.group(4) or 0), f
    assert d["label"] == f
# edge main -> f_c: gprof's child line "3.19 5.33 1/1 f_c": time passed on 8.52 s
e = {(name[a], name[b]): d for a, b, d in g.edges(data=True)}
assert e[("main", "f_c")]["calls"] == 1
assert abs(e[("main", "f_c")]["time_sec"] - 8.52) < 0.011, e[("main", "f_c")]
assert e[("f_c", "f_d")]["calls"] == 30
print("ok")
PY
check "igraph reads the GML: one-line labels, numbers as attributes" py a.gml <<'PY'
import sys, warnings
warnings.simplefilter("ignore")
import igraph
g = igraph.Graph.Read_GML(sys.argv[1])
v = {x["name"]: x for x in g.vs}
assert v["f_d"]["label"] == "f_d", v["f_d"]["label"]
assert abs(v["f_d"]["self_sec"] - 5.51) < 1e-6
assert v["f_d"]["calls"] == 31
assert not any("&#" in x["label"] for x in g.vs)
print("ok")
PY
"$EGPROF" -b demo fig1-a.gmon --graphml a.graphml >/dev/null 2>&1
check "GraphML calls carry their time too (time_sec)" py a.graphml <<'PY'
import sys, networkx as nx
g = nx.read_graphml(sys.argv[1])
name = {n: d["name"] for n, d in g.nodes(data=True)}
e = {(name[a], name[b]): d for a, b, d in g.edges(data=True)}
assert abs(e[("main", "f_c")]["time_sec"] - 8.52) < 0.011, e[("main", "f_c")]
print("ok")
PY
check "DOT asks neato and friends not to overlap nodes" grep -q 'overlap=false' a.dot
check "neato lays the DOT out without overlaps" bash -c 'neato -Tsvg a.dot >n.svg 2>n.err && [ ! -s n.err ]'

"$EGPROF" -b --diff demo fig1-a.gmon fig1-b.gmon --gml d.gml >/dev/null 2>&1
check "networkx: diff numbers as attributes" py d.gml <<'PY'
import sys, networkx as nx
g = nx.read_gml(sys.argv[1], label="id")
n = {d["name"]: d for _, d in g.nodes(data=True)}
fd = n["f_d"]
assert abs(fd["self_base"] - 5.51) < 1e-6 and abs(fd["self_second"] - 2.04) < 1e-6
assert abs(fd["self_diff"] - 3.47) < 1e-6 and abs(fd["impact"] - 47.6) < 0.05
assert fd["calls_base"] == 31 and fd["calls_second"] == 22 and fd["calls_diff"] == 9
assert fd["presence"] == "both" and fd["noise"] in (0, 1)
name = {k: d["name"] for k, d in g.nodes(data=True)}
e = {(name[a], name[b]): d for a, b, d in g.edges(data=True) if d["kind"] == "call"}
assert e[("f_c", "f_d")]["calls_diff"] == 10
assert abs(e[("f_c", "f_d")]["time_diff"] - (e[("f_c", "f_d")]["time_base"] - e[("f_c", "f_d")]["time_second"])) < 1e-6
print("ok")
PY

# Titles: a directory operand counts its files, as the text header does.
mkdir -p runs && cp fig1-a.gmon runs/gmon.1 && cp fig1-a.gmon runs/gmon.2 && cp fig1-a.gmon runs/gmon.3
"$EGPROF" --diff demo runs fig1-b.gmon --dot t.dot --gml t.gml >t.txt 2>&1
check "the text header says (3 gmon files)" grep -q 'runs (3 gmon files)' t.txt
check "the DOT title says (3 gmon files)" grep -q 'label="differential call graph: demo runs (3 gmon files) minus demo fig1-b.gmon"' t.dot
check "the GML title says (3 gmon files)" grep -q 'label "differential call graph: demo runs (3 gmon files) minus' t.gml
"$EGPROF" -b demo runs/gmon.1 runs/gmon.2 runs/gmon.3 --dot s.dot >/dev/null 2>&1
check "a single profile of 3 gmon files names them all" \
	grep -q 'label="call graph of demo (3 gmon files: runs/gmon.1, runs/gmon.2, runs/gmon.3)"' s.dot
done_testing
