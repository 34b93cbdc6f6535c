#!/bin/sh
# Time the graph exports of a 20,000-node, 100,000-edge call graph.
#   bench/graph/run.sh [BUILDDIR]   (after `make bench/graph/bench_graph`)
b=${1:-.}
out=$(mktemp -d)
"$b/bench/graph/bench_graph" 20000 100000 "$out"
ls -l "$out"
rm -rf "$out"
