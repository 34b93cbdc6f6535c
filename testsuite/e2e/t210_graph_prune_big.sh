#!/usr/bin/env bash
# Default pruning by time on a generated 600-function program (issue 13
# item 1): a graph a person can read, with the hot path
# main -> timestep -> phase_hot -> kernel_hot in the single and the diff
# graph, a changed one-sided function kept, --node-thres 0 --edge-thres 0
# keeping everything.  (dot's layout time is measured by bench/graph.)
. "$SRCDIR/testsuite/e2e/graph_lib.sh"

build_bigprog >build.log 2>&1 || { echo "Bail out! cannot build the generated program"; exit 1; }

"$EGPROF" -b big gmon.out --gml s.gml --dot s.dot >s.txt 2>s.err; rc=$?
check "default pruning exits 0" [ $rc = 0 ]
check "pruning says what it left out, on stderr" \
	grep -q 'graph: pruned [0-9]* functions (--node-thres 0.5%) and [0-9]* calls (--edge-thres 0.1%)' s.err
"$EGPROF" -b big gmon.out >plain.txt
check "gprof's text is unchanged" cmp -s plain.txt s.txt
check "default-pruned single graph: under 60 functions of 600, hot path kept" py s.gml <<'PY'
import sys, networkx as nx
g = nx.read_gml(sys.argv[1], label="id")
name = {n: d["name"] for n, d in g.nodes(data=True)}
funcs = [n for n, d in g.nodes(data=True) if d["kind"] == "function"]
assert 10 <= len(funcs) < 60, len(funcs)
edges = {(name[a], name[b]) for a, b in g.edges()}
for call in [("main", "timestep"), ("timestep", "phase_hot"), ("phase_hot", "kernel_hot")]:
    assert call in edges, (call, sorted(edges))
# the 546 accessors take a few hundred microseconds in all; a stray tick
# on one (one sample is 1.6% of this 0.64 s run, above the 0.5% threshold)
# may keep it, with that one tick and nothing more (CI saw one such run)
kept = [d for n, d in g.nodes(data=True) if d["name"].startswith("acc_")]
assert len(kept) <= 3 and all(d["total_sec"] <= 0.0101 for d in kept), \
    [(d["name"], d["total_sec"]) for d in kept]
print("ok")
PY
check "dot lays out the pruned DOT" bash -c 'dot -Tsvg s.dot >s.svg 2>dot.err && [ ! -s dot.err ]'

"$EGPROF" -b big gmon.out --gml all.gml --node-thres 0 --edge-thres 0 >/dev/null 2>all.err
nall=$(gml_names all.gml | wc -l)
check "--node-thres 0 --edge-thres 0 keeps all 600 functions" [ "$nall" = 600 ]
check "nothing pruned, nothing said" [ ! -s all.err ]

"$EGPROF" -b --diff big gmon.out changed/big changed/gmon.out --gml d.gml >/dev/null 2>d.err; rc=$?
check "diff graph exits 0" [ $rc = 0 ]
check "default-pruned diff graph: small, hot path and new_fn kept" py d.gml <<'PY'
import sys, networkx as nx
g = nx.read_gml(sys.argv[1], label="id")
name = {n: d["name"] for n, d in g.nodes(data=True)}
funcs = [n for n, d in g.nodes(data=True) if d["kind"] == "function"]
assert 5 <= len(funcs) < 60, len(funcs)
edges = {(name[a], name[b]) for a, b in g.edges()}
for call in [("main", "timestep"), ("timestep", "phase_hot"), ("phase_hot", "kernel_hot")]:
    assert call in edges, (call, sorted(edges))
# only in the second run, 0.02 s of a 0.3 s change: never pruned
assert "new_fn" in name.values() and ("main", "new_fn") in edges
# the accessors did not change; a stray sample on one (a tick is above
# 0.5% of a 0.5 s change) may keep it, marked as within noise
kept = [d for n, d in g.nodes(data=True) if d["name"].startswith("acc_")]
assert all(d["noise"] == 1 for d in kept), [(d["name"], d["self_diff"]) for d in kept]
assert len(kept) <= 3, len(kept)
print("ok")
PY
done_testing
