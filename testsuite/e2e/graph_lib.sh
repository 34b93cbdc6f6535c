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
