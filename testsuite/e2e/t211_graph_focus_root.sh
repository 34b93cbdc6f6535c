#!/usr/bin/env bash
# --focus, --root, --depth on the generated 600-function program (issue 13
# item 2): each keeps exactly the functions it promises, computed here from
# the generator's own list of calls (arcs.txt), not from egprof.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"

build_bigprog >build.log 2>&1 || { echo "Bail out! cannot build the generated program"; exit 1; }

# expect MODE FUNC [DEPTH]: the names --MODE FUNC keeps, from arcs.txt
expect() {
	"$PY" - "$@" <<'PY'
import sys
mode, func = sys.argv[1], sys.argv[2]
depth = int(sys.argv[3]) if len(sys.argv) > 3 else None
down, up = {}, {}
for line in open("arcs.txt"):
    a, b = line.split()
    down.setdefault(a, set()).add(b)
    up.setdefault(b, set()).add(a)
def reach(adj, start):
    seen, frontier, d = {start}, [start], 0
    while frontier and (depth is None or d < depth):
        frontier = [v for u in frontier for v in adj.get(u, ()) if v not in seen]
        seen.update(frontier)
        d += 1
    return seen
keep = reach(down, func)
if mode == "focus":
    keep |= reach(up, func)
print("\n".join(sorted(keep)))
PY
}

opts="--node-thres 0 --edge-thres 0"
# shellcheck disable=SC2086
"$EGPROF" -b big gmon.out $opts --focus kernel_3 --gml f.gml >/dev/null 2>f.err; rc=$?
check "--focus exits 0" [ $rc = 0 ]
check "--focus kernel_3: its callers to main and its callees, nothing else" \
	cmp -s <(expect focus kernel_3) <(gml_names f.gml)
check "--focus says what it left out" grep -q 'or outside --focus/--root/--depth' f.err

# shellcheck disable=SC2086
"$EGPROF" -b big gmon.out $opts --root phase_5 --gml r.gml >/dev/null 2>&1
check "--root phase_5: its subtree only" cmp -s <(expect root phase_5) <(gml_names r.gml)

# shellcheck disable=SC2086
"$EGPROF" -b big gmon.out $opts --focus kernel_7 --depth 1 --gml fd.gml >/dev/null 2>&1
check "--focus kernel_7 --depth 1: one call either way" \
	cmp -s <(expect focus kernel_7 1) <(gml_names fd.gml)
# shellcheck disable=SC2086
"$EGPROF" -b big gmon.out $opts --depth 2 --gml d.gml >/dev/null 2>&1
check "--depth 2 alone: two calls from main" cmp -s <(expect root main 2) <(gml_names d.gml)

# At the default thresholds the focus function stays however small.
"$EGPROF" -b big gmon.out --root helper_2_2 --gml h.gml >/dev/null 2>&1
check "--root of a tiny function keeps it at the default thresholds" \
	[ "$(gml_names h.gml)" = helper_2_2 ]

# The diff graph takes the same options.
# shellcheck disable=SC2086
"$EGPROF" -b --diff big gmon.out changed/big changed/gmon.out $opts --root phase_3 \
	--gml dr.gml >/dev/null 2>&1
check "--root in a diff graph" cmp -s <(expect root phase_3) <(gml_names dr.gml)

# Unknown function: clear error, exit 1, no file written, old file kept.
echo old >keep.gml
"$EGPROF" -b big gmon.out --focus no_such_fn --gml keep.gml >/dev/null 2>u.err; rc=$?
check "--focus on an unknown function fails" [ $rc = 1 ]
check "the error names the option and the function" \
	grep -q "focus 'no_such_fn': no such function in the call graph" u.err
check "the output file is as it was" [ "$(cat keep.gml)" = old ]
"$EGPROF" -b big gmon.out --focus main --root main --gml x.gml >/dev/null 2>c.err; rc=$?
check "--focus with --root is refused" [ $rc = 1 ]
check "--focus with --root: says why" grep -q 'cannot be combined' c.err
"$EGPROF" -b big gmon.out --depth 1.5 --gml x.gml >/dev/null 2>c.err; rc=$?
check "--depth needs a whole number" [ $rc = 1 ]
done_testing
