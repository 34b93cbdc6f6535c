#!/usr/bin/env bash
# The HTML report's callers and callees of a function (a butterfly view,
# headless Chromium): hub has three callers and a callee, and each of its
# lines (the callers', its own, the callee's) carries the numbers of the
# text's call graph of the page's source:
#  - gmon.out alone: gprof's own call graph (`gprof -b -q`), self, children
#    and "called" of every line, to the text's two decimals;
#  - with the call-path sidecars (the page's source is then their samples):
#    the model's call graph, as --gml writes it (each call's calls and time,
#    each function's self and total), and the page's own call-graph
#    document; and the view computed in the page from the call paths (the
#    aggregation over all of a function's calling contexts, a recursion
#    once, that hiding frames redoes) equals that document exactly, for
#    every function and call.
# A deep link (#view=butterfly&fn=hub) opens it.  Exact: every check
# compares two views of the same numbers; no result depends on the run's
# sampling or the machine's speed.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
chromium_find || skip_all "chromium not installed (apt-get install chromium)"
HUB="$SRCDIR/testsuite/fixtures/htmlviews/hub.c"
gcc -pg -O1 -g -o hub "$HUB" -lm >build.log 2>&1 || { cat build.log; echo "Bail out! cannot build hub.c"; exit 1; }

# the rows of the view: role, name, and each cell's value (data-v)
ROWS='rows=Array.from(document.querySelectorAll("#bf tr[data-role]")).map(r => [r.dataset.role, r.dataset.name].concat(Array.from(r.children).slice(1).map(c => [c.dataset.v, c.dataset.of || c.dataset.recursive || ""])))'

# gmon.out alone: gprof's call graph
mkdir -p g && (cd g && ../hub >/dev/null) || { echo "Bail out! cannot run hub"; exit 1; }
(cd g && "$EGPROF" -b -q ../hub gmon.out > cg.txt && "$EGPROF" -b ../hub gmon.out --html g.html >/dev/null 2>err.txt)
check "--html of gmon.out alone exits 0" [ $? = 0 ]
browser "file://$PWD/g/g.html#view=butterfly&fn=hub" --eval "$ROWS" \
	--eval 'title=document.getElementById("bf-title").textContent' \
	--eval 'source=document.getElementById("source").textContent' >g.json

py g/cg.txt g.json <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
b = json.load(open(sys.argv[2]))
assert b["ready"] and not b["errors"], b
ev = b["evals"]
assert ev["title"] == "hub", ev["title"]
assert "gmon.out" in ev["source"], ev["source"]
# gprof's entry of hub: callers above its [N] line, callees below
entry = None
# the call graph from its column header on (the first entry follows it)
graph = text[text.index("\n", text.index("\nindex ") + 1):]
# ... to the index by function name (hub may be the first or the last entry)
graph = graph.split("\nIndex by function name")[0]
for e in graph.split("-----------------------------------------------"):
    if re.search(r"^\[\d+\].*\shub \[\d+\]$", e, re.M):
        entry = e
assert entry, text
line = re.compile(r"^\s+(\d+\.\d\d)\s+(\d+\.\d\d)\s+(\d+)/(\d+)\s+(\S+) \[\d+\]$")
prim = re.compile(r"^\[\d+\]\s+\S+\s+(\d+\.\d\d)\s+(\d+\.\d\d)\s+(\d+)(?:\+(\d+))?\s+hub \[\d+\]$")
want, role = [], "caller"
for l in [x for x in entry.split("\n") if x.strip()]:
    m = prim.match(l)
    if m:
        want.append(("function", "hub", float(m.group(1)), float(m.group(2)), int(m.group(3)), None))
        role = "callee"
        continue
    m = line.match(l)
    assert m, repr(l)
    want.append((role, m.group(5), float(m.group(1)), float(m.group(2)), int(m.group(3)), int(m.group(4))))
got = ev["rows"]
assert len([w for w in want if w[0] == "caller"]) == 3, want
assert sorted(w[:2] for w in want) == sorted(tuple(r[:2]) for r in got), (want, got)
rows = {(r[0], r[1]): r for r in got}
for role, name, s, c, calls, of in want:
    r = rows[(role, name)]
    # the text's two decimals: the page's value within half a unit of them
    assert abs(float(r[2][0]) - s) <= 0.005 + 1e-9, (name, r, s)
    assert abs(float(r[3][0]) - c) <= 0.005 + 1e-9, (name, r, c)
    assert int(r[4][0]) == calls, (name, r, calls)
    if of is not None:
        assert int(r[4][1]) == of, (name, r, of)
assert sum(float(rows[("caller", n)][2][0]) for n in ("caller_a", "caller_b", "caller_c")) > 0
print("ok")
PY
check "gmon.out alone: each line of hub's callers and callees is gprof's call graph's (self, children, called)" [ $? = 0 ]

# the sidecars: the model's call graph
mkdir -p s && (cd s && LD_PRELOAD="$CALLPATH_SO" ../hub >/dev/null) || { echo "Bail out! cannot run hub with libcallpath"; exit 1; }
(cd s && "$EGPROF" -b ../hub gmon.out --html s.html --gml s.gml --node-thres 0 --edge-thres 0 >/dev/null 2>err.txt)
check "--html with the sidecars exits 0" [ $? = 0 ]
browser "file://$PWD/s/s.html#view=butterfly&fn=hub" --eval "$ROWS" \
	--eval 'source=document.getElementById("source").textContent' \
	--eval 'pg=(function(){var g=egprof.pathGraph(), out={fns:{}, arcs:[]}; g.fns.forEach(function(f, n){out.fns[n]=[f.self[0], f.children[0], f.calls[0], f.selfCalls[0]]}); g.into.forEach(function(l){l.forEach(function(a){out.arcs.push([a.caller, a.callee, a.calls ? a.calls[0] : null, a.self[0], a.children[0]])})}); return out})()' \
	--eval 'data=JSON.parse(document.getElementById("egprof-data").textContent)' >s.json

py s/s.gml s.json <<'PY'
import json, sys, networkx as nx
g = nx.read_gml(sys.argv[1], label="id")
b = json.load(open(sys.argv[2]))
assert b["ready"] and not b["errors"], b
ev = b["evals"]
assert ev["source"].startswith("time: call-path samples"), ev["source"]
node = {d["name"]: d for _, d in g.nodes(data=True)}
name = {i: d["name"] for i, d in g.nodes(data=True)}
edge = {(name[u], name[v]): d for u, v, d in g.edges(data=True) if d.get("kind") == "call"}
rows = {(r[0], r[1]): r for r in ev["rows"]}
assert sorted(n for (k, n) in rows if k == "caller") == ["caller_a", "caller_b", "caller_c"], rows
# hub's callees: leaf, and the instrumentation when a sample fell in
# mcount under hub (a loaded machine or the sanitizer build makes that
# likely: two of five runs beside a busy loop per core)
assert [n for (k, n) in rows if k == "callee" and n != "[instrumentation]"] == ["leaf"], rows
for (role, n), r in rows.items():
    if role == "function":
        assert abs(float(r[2][0]) - node[n]["self_sec"]) < 1e-6, (r, node[n])
        assert abs(float(r[2][0]) + float(r[3][0]) - node[n]["total_sec"]) < 1e-6, (r, node[n])
        assert int(r[4][0]) == node[n]["calls"], (r, node[n])
        continue
    e = edge[(n, "hub") if role == "caller" else ("hub", n)]
    assert abs(float(r[2][0]) + float(r[3][0]) - e["time_sec"]) < 1e-6, (r, e)
    if n == "[instrumentation]":
        # time in the instrumentation, not a call: no count on either side
        assert r[4][0] == "" and "calls" not in e, (r, e)
        continue
    assert int(r[4][0]) == e["calls"], (r, e)
# the aggregation in the page over the call paths equals the model's
p = ev["data"]["profile"]
fns = {f["name"]: f for f in p["functions"] if f["kind"] != "cycle"}
pg = ev["pg"]
for n, f in fns.items():
    s, c, calls, rec = pg["fns"][n]
    assert abs(s - f["self_sec"]) < 1e-9 and abs(c - f["children_sec"]) < 1e-9, (n, pg["fns"][n], f)
    assert calls == f["calls"] and (rec or 0) == (f["self_calls"] or 0), (n, pg["fns"][n], f)
arcs = {(a["caller"], a["callee"]): a for a in p["arcs"]}
got = {(a[0], a[1]): a for a in pg["arcs"]}
assert set(arcs) == set(got), (sorted(arcs), sorted(got))
for k, a in arcs.items():
    x = got[k]
    assert x[2] == a["calls"], (k, x, a)
    assert abs(x[3] - a["self_sec"]) < 1e-9 and abs(x[4] - a["children_sec"]) < 1e-9, (k, x, a)
assert len(arcs) >= 8, arcs
print("ok")
PY
check "sidecars: hub's lines are the model's call graph (--gml), and the page's own aggregation of the call paths equals it for every function and call" [ $? = 0 ]
done_testing
