# graph_lib.sh - helpers of the t2NN_graph_* scripts (source it).
# Reads exports back with third-party parsers: Debian's python3 (networkx),
# graphviz (gml2gv, dot), libxml2-utils (xmllint).
set -u
n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }
done_testing() { echo "1..$n"; [ "$fails" = 0 ]; exit; }
PY=/usr/bin/python3
FIG1="$SRCDIR/testsuite/fixtures/fig1"

# py SCRIPT ARGS...: run a networkx check; it prints "ok" when it holds.
py() {
	local out
	out=$("$PY" - "$@" 2>&1) || { echo "$out" | head -n 15 | sed 's/^/# /'; return 1; }
	[ "$(echo "$out" | tail -n 1)" = ok ] || { echo "$out" | head -n 15 | sed 's/^/# /'; return 1; }
}

# seven_bit FILE: no byte above 0x7f.
seven_bit() { ! LC_ALL=C grep -q '[^ -~[:space:]]' "$1"; }

# build_bigprog: the generated 600-function program (testsuite/fixtures/
# bigprog/gen.py), run as a baseline (big, gmon.out) and with -DCHANGED
# (changed/big, changed/gmon.out); arcs.txt is its call structure.
build_bigprog() {
	"$PY" "$SRCDIR/testsuite/fixtures/bigprog/gen.py" 600 > big.c &&
	"$PY" "$SRCDIR/testsuite/fixtures/bigprog/gen.py" 600 --arcs > arcs.txt &&
	gcc -pg -O1 -fno-inline -o big big.c && ./big &&
	mkdir -p changed && gcc -pg -O1 -fno-inline -DCHANGED -o changed/big big.c &&
	(cd changed && ./big)
}

# gml_names FILE: the function names in a GML export, one a line, sorted.
gml_names() {
	"$PY" - "$1" <<'PY'
import sys, networkx as nx
g = nx.read_gml(sys.argv[1], label="id")
print("\n".join(sorted(d["name"] for _, d in g.nodes(data=True) if d["kind"] == "function")))
PY
}
