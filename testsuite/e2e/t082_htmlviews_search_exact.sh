#!/usr/bin/env bash
# The HTML report's search marks exactly the functions whose names contain
# the query, in every view (headless Chromium): the table keeps exactly
# those rows; in the top-down and bottom-up call paths every drawn frame of
# such a function is outlined and no other; in the callers-and-callees view
# exactly those lines; in graphviz's call graph exactly those nodes.  Enter
# selects the function (its callers and callees) and zooms the call paths
# to it; Esc clears every mark.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
chromium_find || skip_all "chromium not installed (apt-get install chromium)"
hub_build
"$EGPROF" -b hub gmon.out --html r.html --node-thres 0 --edge-thres 0 >/dev/null 2>err.txt
check "--html exits 0" [ $? = 0 ]
# MARKS: what each view marks and what it draws, after a search
MARKS='(function(){
  function fr(sel){ return Array.from(document.querySelectorAll(sel)).map(d => [d.dataset.name, d.classList.contains("match")]); }
  return {
    table: Array.from(document.querySelectorAll("#functions tbody tr td.name")).map(c => c.textContent),
    down: fr("#flame .fn"),
    up: fr("#flame-inverted .fn"),
    bf: Array.from(document.querySelectorAll("#bf tr[data-role]")).map(r => [r.dataset.name, r.classList.contains("match")]),
    graph: Array.from(document.querySelectorAll("#callgraph svg g.node")).map(g => [g.querySelector("text").textContent, g.classList.contains("match")])
  }; })()'
browser "file://$PWD/r.html#view=butterfly&fn=hub" \
	--eval 'up=(function(){ egprof.navigate({view: "inverted"}); egprof.inverted().zoom(egprof.inverted().root); egprof.navigate({view: "callpaths"}); egprof.flame.zoom(egprof.flame.root); return 1; })()' \
	--eval 'info=egprof.search("caller_")' \
	--eval "caller=$MARKS" \
	--eval 'info2=egprof.search("leaf")' \
	--eval "leaf=$MARKS" \
	--eval 'enter=(function(){ var s = document.getElementById("search"); s.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter"})); return [egprof.butterfly.name, egprof.flame.focus.name]; })()' \
	--eval 'esc=(function(){ var s = document.getElementById("search"); s.dispatchEvent(new KeyboardEvent("keydown", {key: "Escape"})); return document.querySelectorAll(".match").length; })()' \
	--eval 'names=JSON.parse(document.getElementById("egprof-data").textContent).profile.functions.map(f => f.name)' >b.json
py b.json <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
assert b["ready"] and not b["errors"], b
ev = b["evals"]
names = set(ev["names"])
for q, m in (("caller_", ev["caller"]), ("leaf", ev["leaf"])):
    want = {n for n in names if q in n.lower()}
    assert want, q
    assert set(m["table"]) == want and len(m["table"]) == len(want), (q, m["table"])
    for view in ("down", "up", "bf", "graph"):
        drawn = m[view]
        assert drawn, (q, view)
        for name, marked in drawn:
            assert marked == (q in name.lower()), (q, view, name, marked)
        assert any(marked for _, marked in drawn) or view == "bf", (q, view, drawn)
    # the selected function's view shows hub's callers (caller_*) and callee (leaf)
    assert sum(marked for _, marked in m["bf"]) == (3 if q == "caller_" else 1), (q, m["bf"])
assert "3 functions" in ev["info"] and "1 function" in ev["info2"], (ev["info"], ev["info2"])
assert ev["enter"] == ["leaf", "leaf"], ev["enter"]
assert ev["esc"] == 0, ev["esc"]
print("ok")
PY
check "a search marks exactly the matching functions in the table, both call-path views, callers and callees, and the call graph; Enter selects, Esc clears" [ $? = 0 ]
done_testing
