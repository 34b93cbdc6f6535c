#!/usr/bin/env bash
# --flamegraph opened from disk in headless Chromium: ready, no request but
# the file itself, no error; a search (regular expression, or text when the
# pattern is no valid expression) marks exactly the frames whose names
# match and states the share of the samples they hold, computed here from
# --folded's counts (a frame counted once below a matching caller); a click
# zooms: the frame spans the width, its callees scaled with it, the frames
# beside it hidden; Reset Zoom draws the whole graph again.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
chromium_find || skip_all "chromium not installed (apt-get install chromium)"
views_build v >build.log 2>&1 || { cat build.log; echo "Bail out! cannot build and run views.c"; exit 1; }
cd v/base || exit 1
"$EGPROF" -b views gmon.out --flamegraph f.svg --folded f.txt >/dev/null 2>err.txt ||
	{ cat err.txt; echo "Bail out! --flamegraph failed"; exit 1; }

frames='Array.from(document.querySelectorAll("#frames g.f"))'
state="$frames"'.map(g => [g.querySelector("title").textContent.split("\n")[0], g.classList.contains("match"), g.classList.contains("hide"), parseFloat(g.querySelector("rect").getAttribute("x")), parseFloat(g.querySelector("rect").getAttribute("width")), g.querySelector("rect").getAttribute("fill")])'
browser f.svg --wait "document.documentElement.getAttribute('data-fg-ready') === 'true'" \
	--screenshot shot.png \
	--eval "before=$state" \
	--eval 're=flamegraph.search("^kernel_[ab]$")' \
	--eval "re_state=$state" \
	--eval 're_text=document.getElementById("matched").textContent' \
	--eval 'sub=flamegraph.search("ol")' \
	--eval "sub_state=$state" \
	--eval 'bad=flamegraph.search("solve(")' \
	--eval 'cleared=(function(){flamegraph.clear(); return document.querySelectorAll("#frames g.f.match").length})()' \
	--eval 'zoom=(function(){var g='"$frames"'.find(g => g.querySelector("title").textContent.split("\n")[0] == "kernel_a"); g.querySelector("rect").dispatchEvent(new MouseEvent("click", {bubbles: true})); return Array.from(document.querySelectorAll("#frames g.f")).indexOf(g)})()' \
	--eval "zoom_state=$state" \
	--eval 'unzoom=(function(){document.getElementById("unzoom").dispatchEvent(new MouseEvent("click", {bubbles: true})); return null})()' \
	--eval "reset_state=$state" >b.json
py <<'PY'
import json, os, re, sys
sys.path.insert(0, os.environ["SRCDIR"] + "/testsuite/e2e")
import flamegraph_check as fc, png
b = json.load(open("b.json"))
assert b["ready"], b
assert b["requests"] == ["file://" + os.path.abspath("f.svg")], b["requests"]
assert b["errors"] == [], b["errors"]
img = png.read("shot.png")
assert (img.width, img.height) == (1280, 900)
e = b["evals"]
fr, root = fc.frames("f.svg")
incl = fc.inclusive(fc.folded("f.txt"))
total = incl[""]

def share(match):
    # the samples of the matching frames, each once: a frame below a
    # matching caller is inside that caller's width
    s = 0
    for k, v in incl.items():
        parts = k.split(";") if k else []
        if parts and match(parts[-1]) and not any(match(p) for p in parts[:-1]):
            s += v
    return 100.0 * s / total

for key, state, match in (("re", "re_state", lambda n: re.search(r"^kernel_[ab]$", n)),
                          ("sub", "sub_state", lambda n: "ol" in n),
                          ("bad", None, lambda n: "solve(" in n)):
    r = e[key]
    want = share(match)
    assert abs(r["percent"] - want) < 1e-9, (key, r, want)
    if state:
        marked = [s[0] for s in e[state] if s[1]]
        expect = [f["name"] for f in fr[1:] if match(f["name"])]
        assert marked == expect and marked, (key, marked, expect)
        assert all(s[5] == "rgb(230,0,230)" for s in e[state] if s[1])
assert e["re"]["frames"] == 2 and e["bad"]["frames"] == 0, e
assert e["re_text"] == "Matched: %.1f%% (2 frames)" % share(lambda n: re.search(r"^kernel_[ab]$", n)), e["re_text"]
assert e["cleared"] == 0

# zoom on kernel_a: it spans the plot, its callees scaled by total/width,
# its callers faded at full width, everything else hidden
z = e["zoom"]
zs = e["zoom_state"]
ka = fr[z]
assert ka["name"] == "kernel_a"
assert abs(zs[z][4] - fc.PLOT_PX) < 0.01 and not zs[z][2], zs[z]
below = [i for i, f in enumerate(fr) if f["stack"].startswith(ka["stack"] + ";")]
above = [i for i, f in enumerate(fr) if ka["stack"].startswith(f["stack"] + ";") or f["stack"] == ""]
for i, f in enumerate(fr):
    if i == z:
        continue
    if i in below:
        assert not zs[i][2] and abs(zs[i][4] - f["v"] * fc.PLOT_PX / ka["v"]) < 0.01, (f, zs[i])
    elif i in above:
        assert not zs[i][2] and abs(zs[i][4] - fc.PLOT_PX) < 0.01, (f, zs[i])
    else:
        assert zs[i][2], ("not hidden", f)
assert any(not zs[i][2] for i in below) or not below
# reset: as drawn first
assert [s[2:5] for s in e["reset_state"]] == [s[2:5] for s in e["before"]], "reset"
print("# search ^kernel_[ab]$: %.1f%%; zoomed on kernel_a (%d samples)" % (e["re"]["percent"], ka["v"]))
print("ok")
PY
check "Chromium: search marks the matching frames with their share; click zooms; reset" [ $? = 0 ]
done_testing
