#!/usr/bin/env bash
# Hiding library frames in the HTML report (headless Chromium), as pprof's
# hide: libm's frames (sin, under libwork) leave every view and their time
# becomes their caller's: libwork's self time grows by exactly libm's, in
# the table, the callers-and-callees view and both call-path views; every
# total is kept (the table's sum of self times, the icicle's root, the
# bottom-up roots' sum); the fragment says hide=library; unchecking the box
# gives back the page's numbers.  Exact: sums of the same samples.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
chromium_find || skip_all "chromium not installed (apt-get install chromium)"
HUB="$SRCDIR/testsuite/fixtures/htmlviews/hub.c"
gcc -pg -O1 -g -o hub "$HUB" -lm >build.log 2>&1 &&
	LD_PRELOAD="$CALLPATH_SO" ./hub >/dev/null || { cat build.log; echo "Bail out! cannot build and run hub.c"; exit 1; }
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
	--eval "again=$VIEWS" >b.json
py b.json <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))
assert b["ready"] and not b["errors"], b
ev = b["evals"]
B, A, G = ev["before"], ev["after"], ev["again"]
hz = B["hz"]
lib = [r for r in B["table"] if r[1] == "library"]
assert len(lib) == 1 and "[libm" in lib[0][0] and lib[0][2] > 0, B["table"]
libname, libsec = lib[0][0], lib[0][2]
self_b = {r[0]: r[2] for r in B["table"]}
self_a = {r[0]: r[2] for r in A["table"]}
# the table: the row gone, its time libwork's, the sum kept
assert libname not in self_a and libname not in A["shown"], A["table"]
assert abs(self_a["libwork"] - (self_b["libwork"] + libsec)) < 1e-9, (self_a["libwork"], self_b["libwork"], libsec)
assert abs(sum(self_a.values()) - sum(self_b.values())) < 1e-9, (sum(self_a.values()), sum(self_b.values()))
for n in self_a:
    if n != "libwork":
        assert abs(self_a[n] - self_b[n]) < 1e-9, (n, self_a[n], self_b[n])
# callers and callees of libwork: libm's line gone, its time libwork's own
callees_b = [r for r in B["bf"] if r[0] == "callee"]
assert [r[1] for r in callees_b] == [libname], B["bf"]
assert not [r for r in A["bf"] if r[0] == "callee"], A["bf"]
fb = [r for r in B["bf"] if r[0] == "function"][0]
fa = [r for r in A["bf"] if r[0] == "function"][0]
assert abs(float(fa[2]) - (float(fb[2]) + libsec)) < 1e-9 and abs(float(fa[3])) < 1e-9, (fb, fa)
assert abs(float(fa[2]) + float(fa[3]) - float(fb[2]) - float(fb[3])) < 1e-9, (fb, fa)
# the call paths: root total kept, libm nowhere, bottom-up roots moved
assert A["down"][0] == B["down"][0] > 0, (A["down"], B["down"])
assert libname in B["downNames"] and libname not in A["downNames"], A["downNames"]
up_b, up_a = dict(B["up"]), dict(A["up"])
assert libname in up_b and libname not in up_a, (up_b, up_a)
assert up_a["libwork"] == up_b["libwork"] + up_b[libname], (up_a, up_b)
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
