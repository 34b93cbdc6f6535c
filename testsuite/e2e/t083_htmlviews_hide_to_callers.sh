#!/usr/bin/env bash
# Hiding library frames in the HTML report (headless Chromium), as pprof's
# hide: libm's frames (sin, under libwork) leave every view and their time
# becomes their caller's (each library frame's samples its nearest caller
# outside the libraries', computed here from the page's call paths):
# libwork's self time grows by exactly libm's, in
# the table, the callers-and-callees view and both call-path views; every
# total is kept (the table's sum of self times, the icicle's root, the
# bottom-up roots' sum); the fragment says hide=library; unchecking the box
# gives back the page's numbers.  Exact: sums of the same samples.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
chromium_find || skip_all "chromium not installed (apt-get install chromium)"
hub_build
"$EGPROF" -b hub gmon.out --html r.html >/dev/null 2>err.txt
check "--html exits 0" [ $? = 0 ]
# VIEWS: every view's numbers of libwork and libm, and the totals
VIEWS='(function(){
  var inv = egprof.inverted(), g = egprof.callGraph(), lw = g.fns.get("libwork");
  return {
    table: egprof.table.rows.map(r => [r.name, r.kind, r.self_sec]),
    shown: Array.from(document.querySelectorAll("#functions tbody tr td.name")).map(c => c.textContent),
    bf: Array.from(document.querySelectorAll("#bf tr[data-role]")).map(r => [r.dataset.role, r.dataset.name, r.children[1].dataset.v, r.children[2].dataset.v]),
    down: [egprof.flame.root.inclSelf[0], egprof.flame.root.kids.length],
    downNames: (function(){ var s = {}; (function w(n){ s[n.name] = 1; n.kids.forEach(w); })(egprof.flame.root); return Object.keys(s); })(),
    up: inv.root.kids.map(k => [k.name, k.inclSelf[0]]),
    hz: inv.hz[0],
    libwork: [lw.self[0], lw.children[0]],
    hash: location.hash,
    note: document.getElementById("hide-note").textContent
  }; })()'
browser "file://$PWD/r.html#view=butterfly&fn=libwork" \
	--eval 'inv=(function(){ egprof.navigate({view: "inverted"}); egprof.navigate({view: "butterfly"}); return 1; })()' \
	--eval "before=$VIEWS" \
	--eval 'click=(function(){ document.getElementById("hide-library").click(); return 1; })()' \
	--eval "after=$VIEWS" \
	--eval 'unclick=(function(){ document.getElementById("hide-library").click(); return 1; })()' \
	--eval "again=$VIEWS" \
	--eval 'data=JSON.parse(document.getElementById("egprof-data").textContent)' >b.json
py b.json <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
assert b["ready"] and not b["errors"], b
ev = b["evals"]
B, A, G = ev["before"], ev["after"], ev["again"]
hz = B["hz"]
# what hiding must do, from the page's call paths (the columns the views
# read): each library frame's samples go to its nearest caller outside
# the libraries
c = ev["data"]["callpath"]
kind = {f["name"]: f["kind"] for f in ev["data"]["profile"]["functions"]}
name = lambda i: c["names"][c["function"][i]]
moved = {}
for i in range(len(c["parent"])):
    if kind.get(name(i)) != "library" or c["parent"][i] < 0 or not c["self_samples"][i]:
        continue
    j = c["parent"][i]
    while kind.get(name(j)) == "library" and c["parent"][j] >= 0:
        j = c["parent"][j]
    moved[name(j)] = moved.get(name(j), 0) + c["self_samples"][i]
libs = {r[0] for r in B["table"] if r[1] == "library"}
assert moved.get("libwork", 0) > 0 and any("[libm" in n for n in libs), (moved, libs)
self_b = {r[0]: r[2] for r in B["table"]}
self_a = {r[0]: r[2] for r in A["table"]}
# the table: no library row, their time their callers', the sum kept
assert not libs & set(self_a) and not libs & set(A["shown"]), A["table"]
for n in self_a:
    assert abs(self_a[n] - self_b[n] - moved.get(n, 0) / hz) < 1e-9, (n, self_a[n], self_b[n], moved)
assert abs(sum(self_a.values()) - sum(self_b.values())) < 1e-9, (sum(self_a.values()), sum(self_b.values()))
# callers and callees of libwork: the libraries' lines gone, their time
# libwork's own, its total kept
assert [r for r in B["bf"] if r[0] == "callee" and r[1] in libs], B["bf"]
assert not [r for r in A["bf"] if r[0] == "callee" and r[1] in libs], A["bf"]
fb = [r for r in B["bf"] if r[0] == "function"][0]
fa = [r for r in A["bf"] if r[0] == "function"][0]
assert abs(float(fa[2]) - float(fb[2]) - moved["libwork"] / hz) < 1e-9, (fb, fa, moved)
assert abs(float(fa[2]) + float(fa[3]) - float(fb[2]) - float(fb[3])) < 1e-9, (fb, fa)
# the call paths: root total kept, no library frame, bottom-up roots moved
assert A["down"][0] == B["down"][0] > 0, (A["down"], B["down"])
assert libs & set(B["downNames"]) and not libs & set(A["downNames"]), A["downNames"]
up_b, up_a = dict(B["up"]), dict(A["up"])
assert not libs & set(up_a), up_a
for n in up_a:
    assert up_a[n] == up_b.get(n, 0) + moved.get(n, 0), (n, up_a, up_b, moved)
assert sum(up_a.values()) == sum(up_b.values()), (up_a, up_b)
assert abs(up_a["libwork"] / hz - self_a["libwork"]) < 1e-9, (up_a, hz, self_a)
# said on the page and in the fragment; unchecked: the page's numbers again
assert "hide=library" in A["hash"] and "hide=" not in B["hash"], (A["hash"], B["hash"])
assert "callers" in A["note"] and not B["note"], (A["note"], B["note"])
assert G["table"] == B["table"] and G["up"] == B["up"] and G["bf"] == B["bf"], G
print("ok")
PY
check "hiding libm's frames moves their time to libwork in every view, keeps every total, says so; unhiding restores" [ $? = 0 ]
done_testing
