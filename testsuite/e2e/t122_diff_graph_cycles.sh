#!/usr/bin/env bash
# The differential graph of an interpreter (issue 24 item 8): its time is
# nearly all in "<cycle 1 as a whole>" (exec <-> call_fn), and gprof
# propagates no time along the calls inside a cycle, so with the default
# pruning the changed functions were drawn apart from main and from each
# other.  Now every function kept is drawn with a chain of callers to main,
# through the cycle; the cycle's members are connected by their calls.
# Exact samples (mkgmon.py): builtin_17 (called by exec) 1.00 -> 4.00 s;
# under call_fn, builtin_40 2.00 -> 1.00 s and builtin_41 0.30 -> 1.30 s,
# so that call_fn's own change is nil; the rest equal.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
MKGMON=$SRCDIR/testsuite/fixtures/fig1/mkgmon.py
cd "$WORKDIR" || exit 1
gcc -O1 -pg -o interp "$SRCDIR/testsuite/fixtures/interp/interp.c" 2> build.log ||
	{ echo "not ok 1 - build"; cat build.log; echo "1..1"; exit 1; }
spec() {
	local b17=$1 b40=$2 b41=$3 k
	echo "exec=3000 call_fn=400 repl=5 run=1 main=1 builtin_17=$b17 builtin_40=$b40 builtin_41=$b41"
	echo "main>run=1 run>repl=1 repl>exec=1000 exec>call_fn=3000 call_fn>exec=3000"
	echo "call_fn>builtin_40=3000 call_fn>builtin_41=3000"
	for k in $(seq 0 39); do
		[ "$k" = 17 ] || echo "builtin_$k=20"
		echo "exec>builtin_$k=4000"
	done
}
spec 100 200 30 > a.spec && spec 400 100 130 > b.spec &&
	python3 "$MKGMON" interp a.gmon --spec a.spec && python3 "$MKGMON" interp b.gmon --spec b.spec ||
	{ echo "not ok 1 - gmon files"; echo "1..1"; exit 1; }
"$SYSGPROF" -b -q interp a.gmon > gprof.txt
check "gprof folds exec and call_fn into a cycle" grep -q "^\[[0-9]*\].*<cycle 1 as a whole>" gprof.txt
"$EGPROF" --diff interp a.gmon b.gmon --gml d.gml --dot d.dot > /dev/null 2> err.txt
check "the default pruning left functions out" grep -q "graph: pruned [1-9]" err.txt
check "the graph: one piece from main, both changes reached, the cycle's members called" python3 - d.gml <<'PY'
import sys, networkx as nx
g = nx.read_gml(sys.argv[1], label="id")
name = {n: d["name"] for n, d in g.nodes(data=True)}
calls = nx.DiGraph()
calls.add_nodes_from(n for n in g.nodes if g.nodes[n]["kind"] == "function")
calls.add_edges_from((u, v) for u, v, d in g.edges(data=True) if d["kind"] == "call")
by = {v: k for k, v in name.items()}
for f in ("builtin_17", "builtin_40", "builtin_41", "exec", "call_fn"):
    assert f in by, (f, sorted(name.values()))
    assert nx.has_path(calls, by["main"], by[f]), ("no path from main to", f)
assert calls.has_edge(by["exec"], by["call_fn"]) and calls.has_edge(by["call_fn"], by["exec"])
pieces = list(nx.weakly_connected_components(calls))
assert len(pieces) == 1, [sorted(name[n] for n in p) for p in pieces]
PY
check "dot lays the graph out" bash -c 'dot -Tsvg d.dot > d.svg 2> dot.err && [ ! -s dot.err ]'
dl_done
