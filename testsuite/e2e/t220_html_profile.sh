#!/usr/bin/env bash
# --html of one profile (issue 25 item 2), opened in headless Chromium: it
# renders with no request but the file itself (the browser's own record of
# requests) and no error; the page's data are the sidecar's functions (one
# source, said once) and --callpath --format json's records; the table
# shows them, sorts by a
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
fns = {f["name"]: f for f in data["profile"]["functions"] if f["kind"] != "cycle"}
# one source for the page: the sidecar's samples, at its own rate, said
# once; every function's seconds are its frames' samples at that rate
c = data["callpath"]
assert data["profile"]["source"].startswith("time: call-path samples of each thread"), data["profile"]
assert data["profile"]["hz"] == c["hz"] > 0, (data["profile"]["hz"], c["hz"])
self_samples = {}
for i, fn in enumerate(c["function"]):
    self_samples[c["names"][fn]] = self_samples.get(c["names"][fn], 0) + c["self_samples"][i]
for n, s in self_samples.items():
    if s:
        assert abs(fns[n]["self_sec"] - s / c["hz"]) < 5e-4, (n, fns[n], s)
assert abs(sum(f["self_sec"] for f in fns.values()) - data["profile"]["total_sec"]) < 1e-6
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
# the table shows the data's numbers, with each row's kind; calls a
# library's row never counted are blank, not 0
head, rows = b["evals"]["head"], b["evals"]["rows"]
col = {h: i for i, h in enumerate(head)}
shown = {r[0]: r for r in rows}
for n, f in fns.items():
    if n not in shown:
        continue
    r = shown[n]
    assert r[col["kind"]] == f["kind"], (r, f)
    assert r[col["self s"]] == "%.2f" % f["self_sec"], (r, f)
    assert r[col["calls"]] == ("" if f["calls"] is None else str(f["calls"])), (r, f)
# sorted by calls, largest first, once its header was clicked
order = [n for n in b["evals"]["sorted"]]
key = lambda n: -1 if fns[n]["calls"] is None else fns[n]["calls"]
assert [key(n) for n in order] == sorted((key(n) for n in order), reverse=True), order
print("ok")
PY
check "its data are the sidecar's functions and --callpath --format json's records; the table shows and sorts them" [ $? = 0 ]

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
