#!/usr/bin/env bash
# Deep links into the HTML report (headless Chromium): the fragment names
# the view and the function (#view=butterfly&fn=hub, view=inverted,
# view=callpaths, a name with spaces and brackets percent-encoded), and
# opening the page with it shows that view on that function, scrolled to
# it, its link marked; a choice on the page (a table row, a caller) is a
# new fragment, and the browser's back and forward go through them.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
chromium_find || skip_all "chromium not installed (apt-get install chromium)"
hub_build
"$EGPROF" -b hub gmon.out --html r.html >/dev/null 2>err.txt
check "--html exits 0" [ $? = 0 ]
URL="file://$PWD/r.html"
STATE='st=[egprof.state(), document.getElementById("bf-title").textContent, Array.from(document.querySelectorAll("#nav a.current")).map(a => a.dataset.view)]'
# what the page shows once the fragment names fn=WANT
INIT='window.__at = function (want) { var s = window.egprof && egprof.state(); return s && s.fn === want && location.hash.indexOf("fn=" + want) >= 0 ? [s.fn, document.getElementById("bf-title").textContent, location.hash] : null; };'

browser "$URL#view=butterfly&fn=hub" --eval "$STATE" \
	--eval 'top=Math.round(document.getElementById("butterfly").getBoundingClientRect().top)' \
	--eval 'rows=Array.from(document.querySelectorAll("#bf tr[data-role]")).map(r => r.dataset.role + ":" + r.dataset.name)' >a.json
py a.json <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
assert b["ready"] and not b["errors"], b
ev = b["evals"]
st, title, cur = ev["st"]
assert st["view"] == "butterfly" and st["fn"] == "hub" and title == "hub" and cur == ["butterfly"], ev["st"]
assert 0 <= ev["top"] <= 200, ev["top"]          # scrolled to it (below the sticky header)
# hub's callees: leaf, and the instrumentation when a sample fell in
# mcount under hub (the sanitizer build's is slower: it happens there)
assert sorted(r for r in ev["rows"] if r != "callee:[instrumentation]") == \
    sorted(["caller:caller_a", "caller:caller_b", "caller:caller_c",
            "function:hub", "callee:leaf"]), ev["rows"]
print("ok")
PY
check "#view=butterfly&fn=hub opens hub's callers and callees, scrolled there, its link marked" [ $? = 0 ]

browser "$URL#view=inverted&fn=leaf" --eval "$STATE" \
	--eval 'inv=[egprof.inverted().focus.name, egprof.inverted().focus.depth, getComputedStyle(document.getElementById("bottomup")).display]' >b.json
browser "$URL#view=callpaths&fn=rec" --eval "$STATE" \
	--eval 'down=[egprof.flame.focus.name, document.getElementById("crumbs").textContent]' >c.json
browser "$URL#view=butterfly&fn=__sin_fma%20%5Blibm.so.6%5D" --eval "$STATE" >d.json
py b.json c.json d.json <<'PY'
import json, sys
b, c, d = (json.load(open(f)) for f in sys.argv[1:4])
for x in (b, c, d):
    assert x["ready"] and not x["errors"], x
st, title, cur = b["evals"]["st"]
assert st["mode"] == "bottom-up" and cur == ["inverted"] and title == "leaf", b["evals"]
assert b["evals"]["inv"] == ["leaf", 1, "block"], b["evals"]["inv"]
st, title, cur = c["evals"]["st"]
assert st["mode"] == "top-down" and cur == ["callpaths"], c["evals"]
assert c["evals"]["down"][0] == "rec" and c["evals"]["down"][1].endswith("rec"), c["evals"]["down"]
st, title, cur = d["evals"]["st"]
assert st["fn"] == "__sin_fma [libm.so.6]" and title == "__sin_fma [libm.so.6]", d["evals"]
print("ok")
PY
check "view=inverted zooms the bottom-up view to the function's root, view=callpaths the icicle to its frame; encoded names work" [ $? = 0 ]

browser "$URL#view=butterfly&fn=hub" --init "$INIT" \
	--eval 'row=(function(){ Array.from(document.querySelectorAll("#functions td.name")).filter(c => c.textContent === "leaf")[0].click(); return {await: "__at(\"leaf\")"}; })()' \
	--eval 'caller=(function(){ document.querySelector("#bf tr[data-name=rec] td.name").click(); return {await: "__at(\"rec\")"}; })()' \
	--eval 'back1=(function(){ history.back(); return {await: "__at(\"leaf\")"}; })()' \
	--eval 'back2=(function(){ history.back(); return {await: "__at(\"hub\")"}; })()' \
	--eval 'fwd=(function(){ history.forward(); return {await: "__at(\"leaf\")"}; })()' >e.json
py e.json <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
assert b["ready"] and not b["errors"], b
ev = b["evals"]
for k, fn in (("row", "leaf"), ("caller", "rec"), ("back1", "leaf"), ("back2", "hub"), ("fwd", "leaf")):
    assert ev[k] and ev[k][0] == fn and ev[k][1] == fn and "view=butterfly" in ev[k][2], (k, ev[k])
print("ok")
PY
check "a table row and a caller clicked are new fragments; back and forward go through them" [ $? = 0 ]
done_testing
