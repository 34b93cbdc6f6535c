#!/usr/bin/env bash
# The HTML report's bottom-up (inverted) call paths, in headless Chromium:
# a root per function where samples fell, its total that function's self
# time in the flat profile (the page's table and its data, the same
# numbers as --format json's functions), its children its callers: every
# root's callers' totals add up to the root's; the roots' drawn widths
# share the width as their self times share the run.  The deep link
# #view=inverted opens it, and a gmon.out-only page has none (no paths).
# Exact: two views of the same samples; nothing depends on the run's
# sampling or the machine's speed.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
chromium_find || skip_all "chromium not installed (apt-get install chromium)"
hub_build
"$EGPROF" -b hub gmon.out --html r.html >/dev/null 2>err.txt
check "--html exits 0" [ $? = 0 ]
browser "file://$PWD/r.html#view=inverted" \
	--eval 'st=egprof.state()' \
	--eval 'shown=getComputedStyle(document.getElementById("bottomup")).display + "/" + getComputedStyle(document.getElementById("topdown")).display' \
	--eval 'roots=egprof.inverted().root.kids.map(function(k){ return [k.name, k.inclSelf[0], k.kids.reduce(function(s, c){ return s + c.inclSelf[0]; }, 0) + k.self[0], k.kids.map(function(c){ return c.name; })]; })' \
	--eval 'hz=egprof.inverted().hz[0]' \
	--eval 'bars=Array.from(document.querySelectorAll("#flame-inverted .fn")).filter(d => parseFloat(d.style.top) === 18).map(d => [d.dataset.name, parseFloat(d.style.width)])' \
	--eval 'W=document.getElementById("flame-inverted").clientWidth' \
	--eval 'rows=Array.from(document.querySelectorAll("#functions tbody tr")).map(r => [r.querySelector("td[data-key=name]").textContent, r.querySelector("td[data-key=self_sec]").textContent])' \
	--eval 'data=JSON.parse(document.getElementById("egprof-data").textContent)' >b.json
py b.json <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
assert b["ready"] and not b["errors"], b
ev = b["evals"]
assert ev["st"]["mode"] == "bottom-up" and ev["st"]["view"] == "inverted", ev["st"]
assert ev["shown"] == "block/none", ev["shown"]
fns = {f["name"]: f for f in ev["data"]["profile"]["functions"] if f["kind"] != "cycle"}
hz = ev["hz"]
roots = {r[0]: r for r in ev["roots"]}
# a root per function with self time, none other
assert set(roots) == {n for n, f in fns.items() if f["self_sec"] > 0}, (sorted(roots), fns)
table = dict(ev["rows"])
for n, (name, total, parts, callers) in roots.items():
    assert abs(total / hz - fns[n]["self_sec"]) < 1e-9, (n, total, hz, fns[n])
    # the table's two decimals (JavaScript rounds a tie up, C to even)
    assert abs(float(table[n]) - fns[n]["self_sec"]) <= 0.005 + 1e-9, (n, table[n], fns[n])
    assert total == parts, (n, total, parts)     # its callers hold its time
assert roots["leaf"][3] and set(roots["leaf"][3]) == {"hub", "rec"}, roots["leaf"]
assert set(roots["hub"][3]) == {"caller_a", "caller_b", "caller_c"}, roots["hub"]
# drawn: each root's width its share of the samples (to a pixel)
all_ = sum(r[1] for r in roots.values())
for n, w in ev["bars"]:
    assert abs(w - ev["W"] * roots[n][1] / all_) <= 1.0, (n, w, ev["W"], roots[n], all_)
assert {n for n, _ in ev["bars"]} <= set(roots) and len(ev["bars"]) >= 4, ev["bars"]
print("ok")
PY
check "each root's total is its function's self time (the table's, the data's); its callers hold it; widths are shares" [ $? = 0 ]

mkdir -p g && cp hub gmon.out g/ && (cd g && "$EGPROF" -b hub gmon.out --html g.html >/dev/null 2>&1)
browser "file://$PWD/g/g.html#view=inverted" --eval 'inv=egprof.inverted() === null' \
	--eval 'note=document.querySelector("#callpaths .note").textContent' >g.json
check "gmon.out alone: no bottom-up view; the page says how to record paths, no error" \
	python3 -c "import json; b = json.load(open('g.json')); assert b['ready'] and not b['errors'] and b['evals']['inv'] and 'libcallpath' in b['evals']['note'], b"
done_testing
