#!/usr/bin/env bash
# The HTML report of one profile with call-path sidecars is one view of one
# source: its function table, its icicle graph's tooltips and its header
# say the same seconds, the sidecar's samples at the sidecar's own rate
# (1000 Hz; the page once converted them with gmon.out's 100 Hz: tooltips
# ten times the table), said once in the header; library time (libm's
# sin, most of this program's time) is a row of the table with its kind,
# which a box hides.  Opened in headless Chromium.
#
# Exact: every number compared comes from the same samples; no noise.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
chromium_find || skip_all "chromium not installed (apt-get install chromium)"
gcc -pg -O2 -o a "$SRCDIR/testsuite/fixtures/libm/libwork.c" -lm > build.log 2>&1 &&
	CALLPATH_HZ=1000 LD_PRELOAD="$CALLPATH_SO" ./a > out.txt ||
	{ cat build.log; echo "Bail out! cannot build and run libwork.c"; exit 1; }
"$EGPROF" -b -p a gmon.out --html r.html --node-thres 0 --edge-thres 0 > flat.txt 2> err.txt
check "--html exits 0, nothing on stderr" bash -c "[ \$? = 0 ] && [ ! -s err.txt ]"
browser r.html \
	--eval 'source=document.getElementById("source") ? document.getElementById("source").textContent : null' \
	--eval 'head=Array.from(document.querySelectorAll("#functions th")).map(h => h.textContent)' \
	--eval 'rows=Array.from(document.querySelectorAll("#functions tbody tr")).map(r => Array.from(r.children).map(c => c.textContent))' \
	--eval 'tips=(function(){var out={}; (function w(n){ if (n.parent) { var t=egprof.flame.describe(n).split("\n"); (out[n.name]=out[n.name]||[]).push(t[2]); } n.kids.forEach(w); })(egprof.flame.root); return out})()' \
	--eval 'hidden=(function(){var b=document.getElementById("hide-kinds"); if (!b) return null; b.click(); return Array.from(document.querySelectorAll("#functions tbody tr td[data-key=kind]")).map(c => c.textContent)})()' \
	--eval 'data=JSON.parse(document.getElementById("egprof-data").textContent)' > b.json
check "the page rendered" python3 -c "import json, sys; b = json.load(open('b.json')); assert b['ready'] and not b['errors'], b"
py <<'PY'
import json, re
b = json.load(open("b.json"))["evals"]
d = b["data"]
assert d["callpath"]["hz"] == 1000 and d["profile"]["hz"] == 1000, (d["callpath"]["hz"], d["profile"]["hz"])
assert b["source"] and b["source"].startswith("time: call-path samples of each thread, 1000 Hz"), b["source"]
col = {h: i for i, h in enumerate(b["head"])}
table = {r[col["function"]]: r for r in b["rows"]}
n = 0
for name, lines in b["tips"].items():
    if len(lines) != 1 or name not in table:
        continue           # a function of several paths: the table sums them
    m = re.search(r"self (-?[0-9.]+) s, total (-?[0-9.]+) s", lines[0])
    assert m, lines
    assert m.group(1) == table[name][col["self s"]], (name, lines[0], table[name])
    assert m.group(2) == table[name][col["total s"]], (name, lines[0], table[name])
    n += 1
assert n >= 3, b["tips"]
print("ok")
PY
check "each function's tooltip says its table row's self and total seconds" [ $? = 0 ]
py <<'PY'
import json
b = json.load(open("b.json"))["evals"]
col = {h: i for i, h in enumerate(b["head"])}
lib = [r for r in b["rows"] if "[libm.so.6]" in r[col["function"]]]
assert lib and lib[0][col["kind"]] == "library" and lib[0][col["calls"]] == "", lib
own = [r for r in b["rows"] if r[col["function"]].startswith("use_libm")]
assert float(lib[0][col["self s"]]) > float(own[0][col["self s"]]), (lib, own)
assert b["hidden"] and set(b["hidden"]) == {"function"}, b["hidden"]
print("ok")
PY
check "libm's time is a row of the table, kind library, no calls; the box hides such rows" [ $? = 0 ]
done_testing
