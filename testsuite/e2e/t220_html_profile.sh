#!/usr/bin/env bash
# --html of one profile (issue 25 item 2), opened in headless Chromium: it
# renders with no request but the file itself (the browser's own record of
# requests) and no error; the page's data are gprof's flat profile and
# --callpath --format json's records; the table shows them, sorts by a
# column when its header is clicked, the icicle graph zooms on a click, '/'
# focuses the search and a search marks the function in the table, the
# icicle graph and graphviz's call graph.  Without sidecars the page says
# how to get call paths.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
chromium_find || skip_all "chromium not installed (apt-get install chromium)"
views_build v >build.log 2>&1 || { cat build.log; echo "Bail out! cannot build and run views.c"; exit 1; }
cd v/base || exit 1

# Every function in the drawn call graph (--node-thres 0), so that the search
# below finds kernel_b there whatever gmon.out's histogram gave it: glibc's
# 100 Hz ticks alias with views' 20 ms rounds, and a run under load gave
# kernel_b 0.00 s (the sidecar: 19% of the samples), pruned at 0.5%.
"$EGPROF" -b -p views gmon.out --node-thres 0 --html r.html >flat.txt 2>err.txt
check "--html exits 0, gprof's text unchanged" \
	bash -c "[ \$? = 0 ] && '$EGPROF' -b -p views gmon.out | cmp -s - flat.txt"
"$EGPROF" --callpath --format json views gmon.out >paths.json 2>/dev/null
check "the file is one page: no src or href to anything but itself" \
	bash -c "! grep -Eo '(src|href)=\"[^\"#][^\"]*\"' r.html | grep -q ."

browser r.html --screenshot shot.png \
	--eval 'rows=Array.from(document.querySelectorAll("#functions tbody tr")).map(r => Array.from(r.children).map(c => c.textContent))' \
	--eval 'head=Array.from(document.querySelectorAll("#functions th")).map(h => h.textContent)' \
	--eval 'sorted=(function(){document.querySelector("#functions th[data-key=calls]").click(); return Array.from(document.querySelectorAll("#functions tbody tr td.name")).map(c => c.textContent)})()' \
	--eval 'flame=Array.from(document.querySelectorAll("#flame .fn")).map(d => [d.dataset.name, parseFloat(d.style.width)])' \
	--eval 'zoom=(function(){document.querySelector("#flame .fn[data-name=solve]").click(); return Array.from(document.querySelectorAll("#crumbs a")).map(a => a.textContent).join(">") + "|" + document.querySelector("#flame .fn[data-name=solve]").style.width})()' \
	--eval 'slash=(function(){document.dispatchEvent(new KeyboardEvent("keydown", {key: "/"})); return document.activeElement.id})()' \
	--eval 'search=egprof.search("kernel_b")' \
	--eval 'marked=[document.querySelectorAll("#functions tbody tr").length, document.querySelectorAll("#flame .fn.match").length, document.querySelectorAll("#callgraph svg g.node.match").length]' \
	--eval 'ms=document.documentElement.dataset.egprofRenderMs' \
	--eval 'data=JSON.parse(document.getElementById("egprof-data").textContent)' >b.json
py <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["SRCDIR"] + "/testsuite/e2e")
import png, pprof_check as pc
b = json.load(open("b.json"))
assert b["ready"], b
assert b["requests"] == ["file://" + os.path.abspath("r.html")], b["requests"]
assert b["errors"] == [], b["errors"]
img = png.read("shot.png")
assert (img.width, img.height) == (1280, 900), (img.width, img.height)
print("# rendered in %s ms of script, %s ms in all" % (b["evals"]["ms"], b["load_ms"]))
print("ok")
PY
check "Chromium renders it: ready, no request but the page, no error, a screenshot" [ $? = 0 ]

py <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["SRCDIR"] + "/testsuite/e2e")
import pprof_check as pc
b = json.load(open("b.json"))
data = b["evals"]["data"]
flat = pc.gprof_flat(open("flat.txt").read())
fns = {f["name"]: f for f in data["profile"]["functions"] if f["kind"] == "function"}
# gprof's flat profile, and the functions only its call graph prints
# (main: no time or calls of its own, its children's time)
assert set(fns) >= set(flat), (sorted(fns), sorted(flat))
for n in set(fns) - set(flat):
    assert fns[n]["self_sec"] == 0 and fns[n]["calls"] == 0 and fns[n]["total_sec"] > 0, fns[n]
for n, (pct, self_s, calls) in flat.items():
    f = fns[n]
    assert abs(f["self_sec"] - self_s) < 0.0051, (n, f, self_s)
    assert abs(f["self_pct"] - pct) <= 0.0051, (n, f, pct)
    assert f["calls"] == calls, (n, f, calls)
# the call paths: --callpath --format json's records, as columns
want = json.load(open("paths.json"))
c = data["callpath"]
assert c["source"] == want["source"] and c["total_calls"] == want["total_calls"]
frames = want["frames"]
assert len(c["parent"]) == len(frames)
for i, f in enumerate(frames):
    assert f["id"] == i
    assert (c["parent"][i] if c["parent"][i] >= 0 else None) == f["parent"], (i, f)
    assert c["names"][c["function"][i]] == f["function"], (i, f)
    for k in ("calls", "self_samples", "folded", "recursive_calls"):
        assert c[k][i] == f[k], (i, k, f)
# the table shows the numbers as gprof prints them
head, rows = b["evals"]["head"], b["evals"]["rows"]
col = {h: i for i, h in enumerate(head)}
shown = {r[0]: r for r in rows}
for n, (pct, self_s, calls) in flat.items():
    r = shown[n]
    assert r[0] == n
    assert r[col["% time"]] == "%.2f" % pct and r[col["self s"]] == "%.2f" % self_s, (r, pct, self_s)
    assert int(r[col["calls"]]) == calls, (r, calls)
# sorted by calls, largest first, once its header was clicked
order = [n for n in b["evals"]["sorted"]]
assert [fns[n]["calls"] for n in order] == sorted((fns[n]["calls"] for n in order), reverse=True), order
print("ok")
PY
check "its data are gprof's flat profile and --callpath --format json's records; the table shows and sorts them" [ $? = 0 ]

py <<'PY'
import json, collections
b = json.load(open("b.json"))
ev = b["evals"]
widths = collections.defaultdict(float)
for name, w in ev["flame"]:
    widths[name] += w
# widths follow inclusive time: kernel_a's paths hold more than kernel_b's
frames = json.load(open("paths.json"))["frames"]
incl = collections.Counter()
byid = {f["id"]: f for f in frames}
for f in frames:
    g = f
    seen = set()
    while g is not None:
        if g["function"] not in seen:
            incl[g["function"]] += f["self_samples"]; seen.add(g["function"])
        g = byid[g["parent"]] if g["parent"] is not None else None
total = incl["main"]
for n in ("kernel_a", "kernel_b", "solve"):
    assert abs(widths[n] / widths["main"] - incl[n] / total) < 0.02, (n, widths[n], widths["main"], incl[n], total)
assert ev["zoom"].startswith("all>main>solve|") and ev["zoom"].endswith("px"), ev["zoom"]
assert ev["slash"] == "search", ev["slash"]
rows, flame, graph = ev["marked"]
assert rows == 1 and flame >= 1 and graph == 1, ev["marked"]
assert "1 function" in ev["search"], ev["search"]
print("ok")
PY
check "icicle widths are inclusive time, a click zooms, '/' focuses the search, a search marks table, icicle and graph" [ $? = 0 ]

# gmon.out alone: the page says where call paths come from
mkdir -p alone && cp views gmon.out alone/ && (cd alone && "$EGPROF" -b views gmon.out --html a.html >/dev/null 2>&1)
browser alone/a.html --eval 'note=document.querySelector("#callpaths .note").textContent' >a.json
check "without sidecars: renders and says to run with libcallpath" \
	python3 -c "import json; b = json.load(open('a.json')); assert b['ready'] and not b['errors'] and 'libcallpath' in b['evals']['note'], b"
done_testing
