#!/usr/bin/env bash
# speedscope reads our --pprof files (issue 25 item 6): its own importer,
# in its own page (the npm package's dist/release/index.html, loaded as its
# command line loads a file), in headless Chromium.  What it imported is
# read back through its Export button (speedscope's file format): every
# stack's weight equals the time pprof -raw reads in our file, and the
# frames carry our file and a line of ours (a function's first line, or a
# line its samples fell on).  A profile from gmon.out alone, one from
# call paths, one with threads, and each side of a diff (speedscope has no
# negative weights, so a diff is opened as its two sides; doc/pprof.md).
# speedscope is an npm package: scripts/get-speedscope installs it into
# tools/; without it (no network on the CI machine) the test is skipped.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
SS=
for d in "${SPEEDSCOPE:-}" "$BUILDDIR/tools/node_modules/speedscope" \
	"$BUILDDIR/../tools/node_modules/speedscope" \
	"$(npm root -g 2>/dev/null)/speedscope"; do
	if [ -n "$d" ] && [ -f "$d/dist/release/index.html" ]; then SS=$d; break; fi
done
[ -n "$SS" ] || skip_all "speedscope not installed (scripts/get-speedscope BUILDDIR installs it with npm)"
chromium_find || skip_all "chromium not installed (apt-get install chromium)"
pprof_find || skip_all "pprof not available (apt-get install golang-go golang-github-google-pprof-dev)"
echo "# speedscope: $SS ($(sed -n 's/.*"version": "\(.*\)".*/\1/p' "$SS/package.json"))"

views_build v >build.log 2>&1 || { cat build.log; echo "Bail out! cannot build and run views.c"; exit 1; }
mkdir -p g t && cp v/base/views v/base/gmon.out g/ && cp v/base/views t/ &&
	(cd t && LD_PRELOAD="$CALLPATH_SO" ./views 10 threads >/dev/null)
(cd g && "$EGPROF" -b views gmon.out --pprof ../gmon.pb.gz) >/dev/null 2>&1
(cd v/base && "$EGPROF" -b views gmon.out --pprof ../../paths.pb.gz) >/dev/null 2>&1
(cd t && "$EGPROF" -b views gmon.out --pprof ../threads.pb.gz) >/dev/null 2>&1
(cd v/changed && "$EGPROF" -b views gmon.out --pprof ../../second.pb.gz) >/dev/null 2>&1

hook='window.__exported = null; (function () { var orig = URL.createObjectURL;
URL.createObjectURL = function (b) { b.text().then(function (t) { window.__exported = t; });
return orig.call(URL, b); }; })();'
for f in gmon paths threads second; do
	python3 - "$f.pb.gz" "$f.js" <<'PY'
import base64, json, sys
data = base64.b64encode(open(sys.argv[1], "rb").read()).decode()
# what speedscope's command line writes for `speedscope FILE`
open(sys.argv[2], "w").write("speedscope.loadFileFromBase64(%s, %s)" % (json.dumps(sys.argv[1]), json.dumps(data)))
PY
	browser "file://$SS/dist/release/index.html#localProfilePath=$PWD/$f.js" --timeout 30 \
		--wait "/ - speedscope\$/.test(document.title) || document.body.innerText.indexOf('went wrong') >= 0" \
		--init "$hook" \
		--eval 'title=document.title' \
		--eval 'click=(function(){var e = Array.from(document.querySelectorAll("div,span,button,a")).filter(x => /Export$/.test(x.textContent.trim())).sort((a, b) => a.textContent.length - b.textContent.length)[0]; if (e) e.click(); return !!e})()' \
		--eval 'exported=({"await": "window.__exported"})' >$f.json
	py "$f" "$PPROF" <<'PY'
import json, os, sys, collections
sys.path.insert(0, os.environ["SRCDIR"] + "/testsuite/e2e")
import pprof_check as pc
f, pprof = sys.argv[1], sys.argv[2]
b = json.load(open(f + ".json"))
assert b["evals"]["title"] == f + ".pb.gz - speedscope", b["evals"]["title"]
ss = json.loads(b["evals"]["exported"])
prof = ss["profiles"][ss["activeProfileIndex"]]
frames = ss["shared"]["frames"]
assert prof["unit"] == "nanoseconds", prof["unit"]
# the time speedscope puts on each stack: between its open and close events
got, stack, at = collections.Counter(), [], 0
if prof["type"] == "evented":
    for e in prof["events"]:
        if stack and e["at"] > at:
            got[";".join(frames[i]["name"] for i in stack)] += e["at"] - at
        at = e["at"]
        if e["type"] == "O": stack.append(e["frame"])
        else: stack.pop()
else:
    for s, w in zip(prof["samples"], prof["weights"]):
        got[";".join(frames[i]["name"] for i in s)] += w
raw = pc.raw(pprof, f + ".pb.gz")
want = collections.Counter()
for vals, locs, labels in raw.samples:
    want[";".join(raw.locations[l][0] for l in reversed(locs))] += vals[raw.index("cpu")]
want = {k: v for k, v in want.items() if v}
got = {k: v for k, v in got.items() if v}
assert got == want, (sorted(got.items()), sorted(want.items()))
# a function's locations: its first line, and with call paths one per
# source line its samples fell on (pprof's line-level locations)
ours = collections.defaultdict(set)
for l in raw.locations.values():
    ours[l[0]].add((l[1], l[2]))
for fr in frames:
    # speedscope leaves out a frame's empty file (our pseudo frames, such as
    # [instrumentation] for samples in mcount, have none): read it as ""
    assert (fr.get("file", ""), fr.get("line", 0)) in ours[fr["name"]], (fr, ours[fr["name"]])
print("ok")
PY
	check "speedscope imports $f.pb.gz: each stack's time is pprof's, frames have our file and line" [ $? = 0 ]
done
done_testing
