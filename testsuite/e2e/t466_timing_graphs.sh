#!/usr/bin/env bash
# Graph exports with call-path sidecars (issue 10): call edges carry the time
# measured along them (not gprof's split by calls), say so in the legend,
# and the differential graph splits c's change between its callers by the
# measured paths.  Read back with networkx (GML, GraphML) and graphviz (DOT).
. "$SRCDIR/callpath/examples/testlib.sh"
PY=/usr/bin/python3

cp_cc timing timing.c -O1 -g || exit 1
cd "$WORKDIR" || exit 1
mkdir -p one two
(cd one && rm -f gmon.out* && LD_PRELOAD="$CP_SO" ../timing mis 1) || exit 1
(cd two && rm -f gmon.out* && LD_PRELOAD="$CP_SO" ../timing mis 2) || exit 1
"$EGPROF" -b --gml one.gml --dot one.dot --graphml one.graphml ./timing one/gmon.out \
	> /dev/null 2> err.txt
cp_check "single graphs written" test -s one.gml -a -s one.dot -a -s one.graphml
cp_check "graphviz reads the DOT file" dot -Tsvg -o one.svg one.dot
cp_check "xmllint reads the GraphML file" xmllint --noout one.graphml
# b->c carries about 90% of c's measured time, a->c about 10%, although
# both make 100 calls (gprof would give each half).
cp_check "networkx: b->c measured 85-95% of the time along c's arcs" \
	"$PY" - one.gml <<'PY'
import re, sys, networkx as nx
g = nx.read_gml(sys.argv[1], label='id')
name = {n: d['label'].split('\n')[0] for n, d in g.nodes(data=True)}
sec = {}
for u, v, d in g.edges(data=True):
    m = re.search(r'([0-9.]+) s measured', d.get('label', ''))
    if m:
        sec[(name[u], name[v])] = float(m.group(1))
b, a = sec[('b', 'c')], sec[('a', 'c')]
sys.exit(0 if 0.85 <= b / (a + b) <= 0.95 else 1)
PY
cp_check "GraphML legend says the edges are measured" grep -q "time measured along each call path" one.graphml
"$EGPROF" --diff -b --dot diff.dot --gml diff.gml ./timing one/gmon.out ./timing two/gmon.out \
	> /dev/null 2> err.txt
cp_check "graphviz reads the differential DOT file" dot -Tsvg -o diff.svg diff.dot
cp_check "differential legend says edge times are measured" grep -q "edge times: measured along the call paths" diff.dot
# Only c's calls from b got slower: b->c's change is most of c's change, a->c's
# a few percent at most.
cp_check "networkx: the differential graph gives c's change to b->c" \
	"$PY" - diff.gml <<'PY'
import re, sys, networkx as nx
g = nx.read_gml(sys.argv[1], label='id')
name = {n: d['label'].split('\n')[0] for n, d in g.nodes(data=True)}
diff = {}
for u, v, d in g.edges(data=True):
    m = re.search(r'diff ([-+][0-9.]+)', d.get('label', ''))
    if m and u in name and v in name:
        diff[(name[u], name[v])] = float(m.group(1))
b, a = diff[('b', 'c')], diff[('a', 'c')]
sys.exit(0 if b < 0 and abs(a) <= 0.15 * abs(b) else 1)
PY
cp_done
