#!/usr/bin/env bash
# --gml/--dot/--graphml of one profile (the paper's Figure 1, first run),
# read back by networkx, gml2gv, dot and xmllint; gprof's text is unchanged.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"

sh "$FIG1/fig1.sh" . >build.log 2>&1 || { echo "Bail out! fig1.sh failed"; exit 1; }

"$EGPROF" -b demo fig1-a.gmon >plain.txt 2>plain.err
"$EGPROF" -b demo fig1-a.gmon --gml a.gml --dot a.dot --graphml a.graphml \
	>with.txt 2>with.err; rc=$?
check "exports exit 0" [ $rc = 0 ]
check "gprof's text output is unchanged by exports" cmp -s plain.txt with.txt
check "nothing on stderr without thresholds" [ ! -s with.err ]
check "no temporary files left" [ -z "$(ls | grep '\.tmp\.')" ]
check "GML is 7-bit" seven_bit a.gml

check "networkx reads the GML: 4 functions, 4 calls, labels, sizes, arrows" py a.gml <<'PY'
import sys, networkx as nx
g = nx.read_gml(sys.argv[1], label="id")
assert g.is_directed()
names = {d["name"]: d for _, d in g.nodes(data=True)}
assert sorted(names) == ["f_b", "f_c", "f_d", "main"], sorted(names)
assert g.number_of_edges() == 4, g.number_of_edges()
fd, m = names["f_d"], names["main"]
assert fd["LabelGraphics"]["text"] == "f_d\nself 5.51 s (50.4%)\ntotal 5.51 s (50.4%)", fd["LabelGraphics"]
assert m["LabelGraphics"]["text"].startswith("main\nself 1.15 s") and m["label"] == "main", m
# height by inclusive, width by exclusive time
assert m["graphics"]["h"] > fd["graphics"]["h"]
assert fd["graphics"]["w"] > m["graphics"]["w"]
# an initial layout: main above its callees, callees above f_d
assert m["graphics"]["y"] < names["f_b"]["graphics"]["y"] < fd["graphics"]["y"]
labels = sorted(d["label"] for _, _, d in g.edges(data=True))
assert labels == ["1", "1", "1", "30"], labels
assert all(d["graphics"]["targetArrow"] == "standard" for _, _, d in g.edges(data=True))
print("ok")
PY

check "gml2gv converts the GML and dot renders it" \
	bash -c 'gml2gv a.gml >a2.gv 2>gml2gv.err && [ ! -s gml2gv.err ] && dot -Tsvg a2.gv >a2.svg'
check "dot renders the DOT to SVG" bash -c 'dot -Tsvg a.dot >a.svg 2>dot.err && [ ! -s dot.err ] && grep -q "<svg" a.svg'
check "the SVG shows the labels" grep -q 'self 5.51 s (50.4%)' a.svg
check "xmllint accepts the GraphML" xmllint --noout a.graphml
check "networkx reads the GraphML with its data keys" py a.graphml <<'PY'
import sys, networkx as nx
g = nx.read_graphml(sys.argv[1])
names = {d["name"]: d for _, d in g.nodes(data=True)}
assert sorted(names) == ["f_b", "f_c", "f_d", "main"]
assert g.number_of_edges() == 4
assert abs(names["f_d"]["self_sec"] - 5.51) < 1e-9
assert abs(names["main"]["total_sec"] - 10.94) < 1e-6, names["main"]["total_sec"]
assert names["f_d"]["calls"] == 31
calls = sorted(d["calls"] for _, _, d in g.edges(data=True))
assert calls == [1, 1, 1, 30], calls
print("ok")
PY
check "GraphML has yFiles shapes, geometry, fill, labels and edges" bash -c '
	[ "$(xmllint --xpath "count(//*[local-name()=\"ShapeNode\"]/*[local-name()=\"Geometry\"])" a.graphml)" = 4 ] &&
	[ "$(xmllint --xpath "count(//*[local-name()=\"ShapeNode\"]/*[local-name()=\"Fill\"])" a.graphml)" = 4 ] &&
	[ "$(xmllint --xpath "count(//*[local-name()=\"NodeLabel\"])" a.graphml)" = 4 ] &&
	[ "$(xmllint --xpath "count(//*[local-name()=\"PolyLineEdge\"])" a.graphml)" = 4 ]'

# --no-node-size: every node as big as its label needs
"$EGPROF" -b demo fig1-a.gmon --gml same.gml >/dev/null --no-node-size
check "--no-node-size gives every node one height" py same.gml <<'PY'
import sys, networkx as nx
g = nx.read_gml(sys.argv[1], label="id")
assert len({d["graphics"]["h"] for _, d in g.nodes(data=True)}) == 1
print("ok")
PY

# Pruning by time: f_b's 1.27 s is under 20% of 10.94 s and goes with its
# calls; main->f_c (1 call, 8.52 s) and f_c->f_d (5.33 s) pass on more
# than 10% of the time and stay.
"$EGPROF" -b demo fig1-a.gmon --dot p.dot --node-thres 20 --edge-thres 10 >/dev/null 2>p.err; rc=$?
check "pruning exits 0" [ $rc = 0 ]
check "pruning says what it left out" grep -q 'pruned 1 functions (--node-thres 20%) and 2 calls' p.err
check "pruned DOT has 3 nodes and 2 edges" bash -c '
	[ "$(grep -c "^	n[0-9]*	\[" p.dot)" = 3 ] && [ "$(grep -c -- "->" p.dot)" = 2 ]'

# A path that cannot be written: clear error naming the file, exit 1, no
# file at all (a command writes all its outputs or none, doc/outputs.md).
"$EGPROF" -b demo fig1-a.gmon --gml nodir/x.gml --dot ok.dot >out.txt 2>err.txt; rc=$?
check "bad output path fails" [ $rc = 1 ]
check "bad output path is named" grep -q "nodir/x.gml: cannot write" err.txt
check "the other export is not written either" [ ! -e ok.dot ]
check "nothing partial is left" [ ! -e nodir ] && [ -z "$(ls | grep '\.tmp\.')" ]
check "nothing printed: the path is checked before the analysis" [ ! -s out.txt ]

done_testing
