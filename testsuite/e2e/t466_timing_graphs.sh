#!/usr/bin/env bash
# Graph exports with call-path sidecars (issue 10): call edges carry the time
# measured along them (not gprof's split by calls), say so in the legend,
# and the differential graph splits c's change between its callers by the
# measured paths.  Read back with networkx (GML, GraphML) and graphviz (DOT).
# False-failure bound: the graphs' numbers are compared with the same
# run's sidecar and report (the same samples), not with expected times; the
# split of c's change between its callers is the measured paths', whatever
# the sampling gave.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
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
# edge_numbers GML REGEX: "caller callee number" for each call edge whose
# label matches REGEX (its first group), read back with networkx.
edge_numbers() {
	"$PY" - "$1" "$2" <<'PY'
import re, sys, networkx as nx
g = nx.read_gml(sys.argv[1], label='id')
name = {n: d['label'].split('\n')[0] for n, d in g.nodes(data=True)}
for u, v, d in g.edges(data=True):
    m = re.search(sys.argv[2], d.get('label', ''))
    if m and u in name and v in name:
        print(name[u], name[v], m.group(1))
PY
}
edge_numbers one.gml '([0-9.]+) s measured' > one.edges
b=$(awk '$1 == "b" && $2 == "c" { print $3 }' one.edges)
a=$(awk '$1 == "a" && $2 == "c" { print $3 }' one.edges)
# 90% within the sampling noise of c's samples (seconds at 100 Hz;
# testlib.sh, cp_share_within)
one_a=${a:-0}
cp_check "networkx: b->c measured 90% of the time along c's arcs (${b:-?} s, a->c ${a:-?} s)" \
	cp_share_within "$(awk -v b="${b:-0}" 'BEGIN { print b * 100 }')" \
	"$(awk -v a="${a:-0}" -v b="${b:-0}" 'BEGIN { print (a + b) * 100 }')" 0.9
cp_check "GraphML legend says the edges are measured" grep -q "time measured along each call path" one.graphml
"$EGPROF" --diff -b --dot diff.dot --gml diff.gml ./timing one/gmon.out ./timing two/gmon.out \
	> /dev/null 2> err.txt
cp_check "graphviz reads the differential DOT file" dot -Tsvg -o diff.svg diff.dot
# (agwrite breaks long strings with backslash-newline: read them joined)
cp_check "differential legend says edge times are measured" \
	bash -c "sed -e ':a' -e '/\\\\\$/N; s/\\\\\n//; ta' diff.dot | grep -q 'edge times: measured along the call paths'"
# Only c's calls from b got slower: b->c's change is most of c's change,
# a->c's within the noise of a->c's samples on both sides (4 Poisson
# standard deviations of run one's count, twice, + 0.02 s); gprof's split
# by calls would give a->c half.
edge_numbers diff.gml 'diff ([-+][0-9.]+)' > diff.edges
b=$(awk '$1 == "b" && $2 == "c" { print $3 }' diff.edges)
a=$(awk '$1 == "a" && $2 == "c" { print $3 }' diff.edges)
cp_check "networkx: the differential graph gives c's change to b->c (${b:-?} s, a->c ${a:-?} s)" \
	awk -v a="${a:-0}" -v b="${b:-0}" -v n="$one_a" \
		'BEGIN { if (a < 0) a = -a; exit !(b < 0 && a <= 4 * sqrt(2 * n * 100) / 100 + 0.02) }'
cp_done
