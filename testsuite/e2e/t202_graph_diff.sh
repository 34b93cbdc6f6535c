#!/usr/bin/env bash
# The differential call graph of the paper's Figure 1 pair: both runs'
# numbers and the change in labels, the diverging palette, edges by the
# change in calls, a legend; read back by networkx, gml2gv, dot, xmllint.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"

sh "$FIG1/fig1.sh" . >build.log 2>&1 || { echo "Bail out! fig1.sh failed"; exit 1; }

"$EGPROF" --diff demo fig1-a.gmon fig1-b.gmon -b >plain.txt 2>plain.err
"$EGPROF" --diff demo fig1-a.gmon fig1-b.gmon -b --gml d.gml --dot d.dot \
	--graphml d.graphml >with.txt 2>with.err; rc=$?
check "diff exports exit 0" [ $rc = 0 ]
check "the diff's text output is unchanged by exports" cmp -s plain.txt with.txt
check "GML is 7-bit" seven_bit d.gml

check "networkx reads the diff GML: labels, colours, legend" py d.gml <<'PY'
import sys, networkx as nx
g = nx.read_gml(sys.argv[1], label="id")
nodes = {d["name"]: d for _, d in g.nodes(data=True)}
assert sorted(nodes) == ["f_b", "f_c", "f_d", "legend", "main"], sorted(nodes)
assert nodes["legend"]["kind"] == "legend"
assert "blue: less time in the second run" in nodes["legend"]["LabelGraphics"]["text"]
fd = nodes["f_d"]["LabelGraphics"]["text"]
# f_d: 5.51 s then 2.04 s, 3.47 s less in the second run
assert fd.startswith("f_d\nself 5.51 | 2.04 s, diff +3.47 (x0.37, 47.6% of change)"), fd
assert nodes["main"]["LabelGraphics"]["text"].startswith("main\nself 1.15 | 3.08 s, diff -1.93"), nodes["main"]
def rgb(c): return int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)
r, _, b = rgb(nodes["f_d"]["graphics"]["fill"]); assert b > r, "f_d should be blue"
r, _, b = rgb(nodes["main"]["graphics"]["fill"]); assert r > b, "main should be red"
r2, _, b2 = rgb(nodes["f_b"]["graphics"]["fill"])
# intensity by magnitude: f_d (3.47) deeper blue than f_c (1.28)
assert rgb(nodes["f_d"]["graphics"]["fill"])[0] < rgb(nodes["f_c"]["graphics"]["fill"])[0]
edges = {(g.nodes[u]["name"], g.nodes[v]["name"]): d for u, v, d in g.edges(data=True)}
assert len(edges) == 4, edges.keys()
assert edges[("f_c", "f_d")]["label"] == "30 | 20 (+10)", edges[("f_c", "f_d")]["label"]
assert edges[("f_b", "f_d")]["label"] == "1 | 2 (-1)"
assert edges[("main", "f_b")]["label"] == "1 | 1 (+0)"
# edges by the diff's verdict of each arc, blue as on nodes (issue 24
# item 7): f_c -> f_d passes 3.48 s less to f_c; one more call along
# f_b -> f_d is no evidence: grey, as main -> f_b
r, _, b = rgb(edges[("f_c", "f_d")]["graphics"]["fill"]); assert b > r   # less time
assert edges[("f_b", "f_d")]["graphics"]["fill"] == "#999999"
assert edges[("main", "f_b")]["graphics"]["fill"] == "#999999"
assert edges[("f_c", "f_d")]["graphics"]["width"] > edges[("f_b", "f_d")]["graphics"]["width"] \
	== edges[("main", "f_b")]["graphics"]["width"] == 1
print("ok")
PY

check "gml2gv converts the diff GML" bash -c 'gml2gv d.gml >d2.gv 2>e && [ ! -s e ] && dot -Tsvg d2.gv >/dev/null'
check "dot renders the diff DOT" bash -c 'dot -Tsvg d.dot >d.svg 2>e && [ ! -s e ]'
check "dot renders the diff DOT to PNG" bash -c 'dot -Tpng d.dot >d.png 2>e && [ ! -s e ] && [ "$(head -c 4 d.png | tail -c 3)" = PNG ]'
check "xmllint accepts the diff GraphML" xmllint --noout d.graphml
check "networkx reads the diff GraphML data keys" py d.graphml <<'PY'
import sys, networkx as nx
g = nx.read_graphml(sys.argv[1])
nodes = {d["name"]: d for _, d in g.nodes(data=True)}
fd = nodes["f_d"]
assert abs(fd["self_base"] - 5.51) < 1e-9 and abs(fd["self_second"] - 2.04) < 1e-9
assert abs(fd["self_diff"] - 3.47) < 1e-9
assert fd["calls_base"] == 31 and fd["calls_second"] == 22 and fd["calls_diff"] == 9
e = [d for u, v, d in g.edges(data=True)
     if g.nodes[u]["name"] == "f_c" and g.nodes[v]["name"] == "f_d"][0]
assert (e["calls_base"], e["calls_second"], e["calls_diff"]) == (30, 20, 10)
print("ok")
PY

# Thresholds apply to |change|: of sum |diff| = 7.29 s, 20% keeps f_d
# (+3.47) and main (-1.93 self, more inclusive), drops f_b (-0.61).
"$EGPROF" --diff demo fig1-a.gmon fig1-b.gmon -b --gml p.gml --node-thres 20 >/dev/null 2>p.err
check "diff pruning keeps large changes in both directions" py p.gml <<'PY'
import sys, networkx as nx
g = nx.read_gml(sys.argv[1], label="id")
names = sorted(d["name"] for _, d in g.nodes(data=True))
assert "f_d" in names and "main" in names and "f_b" not in names, names
print("ok")
PY
check "diff pruning is reported" grep -q 'pruned [0-9]* functions' p.err

done_testing
