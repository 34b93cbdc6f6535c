#!/usr/bin/env bash
# A C++ program with template names full of <>&: the GML stays 7-bit with
# entities that networkx decodes, DOT and GraphML carry the names intact.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"

cat >t.cc <<'CC'
#include <map>
#include <string>
#include <utility>
#include <vector>
template <typename T, int N> struct Ring {
	T buf[N]; int n = 0;
	__attribute__((noinline)) void push(const T &v) { buf[n++ % N] = v; }
};
struct Bits { unsigned v; };
__attribute__((noinline)) Bits operator&(Bits a, Bits b) { return Bits{a.v & b.v}; }
template <typename K, typename V>
__attribute__((noinline)) long fill(std::map<K, std::vector<V>> &m, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++) { m[K()].push_back(V()); s += (long)m.size(); }
	return s;
}
int main()
{
	Ring<std::pair<int, char>, 3> r;
	std::map<std::string, std::vector<int>> m;
	unsigned acc = 0;
	for (int i = 0; i < 200000; i++) {
		r.push(std::make_pair(i, 'x'));
		acc += (Bits{(unsigned)i} & Bits{7u}).v;
	}
	return (int)(fill(m, 100000) + acc) == 42;
}
CC
g++ -pg -O0 -g -o cxx t.cc >build.log 2>&1 && ./cxx || { echo "Bail out! cannot build the C++ program"; exit 1; }

"$EGPROF" -b cxx gmon.out --node-thres 0 --edge-thres 0 --gml c.gml --dot c.dot \
	--graphml c.graphml >/dev/null 2>err.txt; rc=$?
check "exports of a C++ profile exit 0" [ $rc = 0 ]
check "GML is 7-bit" seven_bit c.gml
check "GML escapes <, > and &" bash -c 'grep -q "Ring&lt;std::pair&lt;int, char&gt;, 3&gt;::push" c.gml &&
	grep -q "operator&amp;(Bits, Bits)" c.gml && ! grep -q "Ring<" c.gml'
check "networkx decodes the template names from GML" py c.gml <<'PY'
import sys, networkx as nx
g = nx.read_gml(sys.argv[1], label="id")
names = [d["name"] for _, d in g.nodes(data=True)]
assert "Ring<std::pair<int, char>, 3>::push(std::pair<int, char> const&)" in names, names
assert "operator&(Bits, Bits)" in names, names
assert any(n.startswith("long fill<std::__cxx11::basic_string<char") for n in names), names
for _, d in g.nodes(data=True):
    # the drawn label names the function shortly (template arguments
    # left out, wrapped); the name attributes keep it whole
    first = d["LabelGraphics"]["text"].split("\n")[0]
    assert d["name"] == d["label"] and d["name"].startswith(first.split("<")[0]), (first, d["name"])
print("ok")
PY
check "gml2gv converts the C++ GML" bash -c 'gml2gv c.gml >c2.gv 2>e && [ ! -s e ]'
check "dot renders the C++ DOT" bash -c 'dot -Tsvg c.dot >c.svg 2>e && [ ! -s e ]'
check "the SVG shows the template name" grep -q 'Ring&lt;std::pair&lt;int, char&gt;, 3&gt;::push' c.svg
check "xmllint accepts the C++ GraphML" xmllint --noout c.graphml
check "networkx reads the template names from GraphML" py c.graphml <<'PY'
import sys, networkx as nx
g = nx.read_graphml(sys.argv[1])
names = [d["name"] for _, d in g.nodes(data=True)]
assert "operator&(Bits, Bits)" in names, names
print("ok")
PY
check "DOT, GML and GraphML have the same nodes and edges" py c.gml c.graphml c.dot <<'PY'
import sys, subprocess, networkx as nx
a = nx.read_gml(sys.argv[1], label="id"); b = nx.read_graphml(sys.argv[2])
out = subprocess.run(["gc", "-n", "-e", sys.argv[3]], capture_output=True, text=True).stdout.split()[:2]
assert (a.number_of_nodes(), a.number_of_edges()) == (b.number_of_nodes(), b.number_of_edges())
assert [int(x) for x in out] == [a.number_of_nodes(), a.number_of_edges()], out
print("ok")
PY

done_testing
