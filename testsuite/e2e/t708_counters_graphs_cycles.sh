#!/usr/bin/env bash
# --metric EV in the graphs of a program with gprof's cycles: ping and pong
# call each other and touch pages.  The graph is the run's functions as
# its sidecar measured them (model/measured.h): a recursion counted once
# (the outermost frames' paths), so there is no cycle to fold; each
# function and call its own, as --folded's paths sum them; the drawings
# (SVG, PNG, the HTML report's) are in events.
#
# Exact: the graph and --folded sum the same overflows times the period,
# so they are compared for equality, not within a noise bound; the pages
# (ping 100, pong 300 per call, outside 1000) only make the numbers large.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
. "$SRCDIR/testsuite/e2e/counters_lib.sh"
counters_need_papi
cat > cyc.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "touch_pages.h"
long ping(int n);
__attribute__((noinline)) long pong(int n) { return touch(300) + (n ? ping(n - 1) : 0); }
__attribute__((noinline)) long ping(int n) { return touch(100) + (n ? pong(n - 1) : 0); }
__attribute__((noinline)) long outside(void) { return touch(1000); }
int main(void)
{
	printf("%ld\n", ping(9) + outside());
	return 0;
}
C
gcc -pg -O1 -I"$SRCDIR/testsuite/fixtures" -o cyc cyc.c || exit 1
CALLPATH_EVENTS=perf::PAGE-FAULTS LD_PRELOAD="$CP_SO" ./cyc > out 2> err
"$EGPROF" -b --metric perf::PAGE-FAULTS --gml c.gml --svg c.svg --png c.png --html c.html \
	--folded c.folded ./cyc > c.txt 2> c.err
cp_check "gprof's call graph has the cycle" grep -q "<cycle 1 as a whole>" c.txt
cat > check.py <<'PY'
import sys, networkx as nx
g = nx.read_gml(sys.argv[1], label="id")
paths = {}
for line in open(sys.argv[2]):
    k, v = line.rsplit(" ", 1)
    paths[k] = paths.get(k, 0) + int(v)
def outermost(fns):  # the paths through any of fns, each counted once
    return sum(v for k, v in paths.items() if set(k.split(";")) & set(fns))
def self_(fn):
    return sum(v for k, v in paths.items() if k.split(";")[-1] == fn)
nodes = {d["name"]: d for _, d in g.nodes(data=True)}
assert not [d for d in nodes.values() if d["kind"] == "cycle"], nodes
for fn in ("ping", "pong", "outside", "main", "touch"):
    d = nodes[fn]
    assert round(d["total_events"]) == outermost([fn]), (fn, d)
    assert round(d["self_events"]) == self_(fn), (fn, d)
# ping is the recursion's way in: its inclusive is the whole recursion's
assert round(nodes["ping"]["total_events"]) == outermost(["ping", "pong"]) > 0
# an edge never carries more than its callee's total
names = {n: d["name"] for n, d in g.nodes(data=True)}
for a, b, d in g.edges(data=True):
    if d["kind"] == "call":
        assert d["events"] <= g.nodes[b]["total_events"] + 1e-9, (names[a], names[b], d)
print("ok")
PY
cp_check "no cycle node: each function's events and each call's as --folded's, the recursion once" \
	bash -c "python3 check.py c.gml c.folded > py.out 2>&1 && [ \"\$(tail -n 1 py.out)\" = ok ] || { tail -n 4 py.out | sed 's/^/# /' >&2; false; }"
cp_check "SVG in events (xmllint reads it)" \
	bash -c "xmllint --noout c.svg && grep -q 'perf::PAGE&#45;FAULTS in events' c.svg && grep -Eq 'total [0-9]+ events' c.svg"
cp_check "PNG drawn" bash -c "[ \"\$(head -c 8 c.png | od -An -tx1 | tr -d ' \n')\" = 89504e470d0a1a0a ]"
cp_check "the HTML report's graph in events" grep -Eq 'total [0-9]+ events' c.html
cp_done
