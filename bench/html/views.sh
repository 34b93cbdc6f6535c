#!/usr/bin/env bash
# bench/html/views.sh [-n N] [--builddir DIR] [--big]: how long the HTML
# report's views take in headless Chromium (testsuite/e2e/browser.py), on
# generated profiles:
#   - 500 functions (testsuite/fixtures/bigprog/gen.py 500, run with
#     libcallpath): the issue's bar is under 2 s to render;
#   - with --big, a calling-context tree of about a million frames
#     (callpath/examples/manypaths.c at depth 20 with
#     CALLPATH_RECURSION=full, the scaling worst case).
# For each page, N runs (default 5): its size, the median (min, max) wall
# time from navigation to the ready mark, the script's own time, and the
# time to open each view on the hottest function: callers and callees,
# the bottom-up call paths (built when first opened), and hiding library
# frames (every view recomputed).  Figures, not assertions.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
srcdir=$(cd "$here/../.." && pwd)
builddir=$(pwd)
n=5 big=0
while [ $# -gt 0 ]; do
	case $1 in
	-n) n=$2; shift 2 ;;
	--builddir) builddir=$(cd "$2" && pwd); shift 2 ;;
	--big) big=1; shift ;;
	*) echo "usage: $0 [-n N] [--builddir DIR] [--big]" >&2; exit 2 ;;
	esac
done
gprof="$builddir/gprof-ext/gprof" so="$builddir/callpath/libcallpath.so"
browser="$srcdir/testsuite/e2e/browser.py"
for f in "$gprof" "$so"; do [ -e "$f" ] || { echo "no $f: run make first" >&2; exit 1; }; done
work=$(mktemp -d /tmp/egprof-bench-views.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"
python3 "$srcdir/testsuite/fixtures/bigprog/gen.py" 500 > big.c
gcc -pg -O1 -fno-inline -o big big.c
mkdir f500 && (cd f500 && LD_PRELOAD="$so" ../big > /dev/null)
"$gprof" -b big f500/gmon.out --html f500.html > /dev/null 2>&1
pages="f500.html"
if [ "$big" = 1 ]; then
	gcc -pg -O1 -o manypaths "$srcdir/callpath/examples/manypaths.c"
	mkdir deep && (cd deep && CALLPATH_RECURSION=full LD_PRELOAD="$so" ../manypaths 20 > /dev/null)
	"$gprof" -b manypaths deep/gmon.out --html deep.html > /dev/null 2>&1
	pages="$pages deep.html"
fi
# the views, each timed in the page: the hottest function by total time
VIEWS='(function(){
  var rows = egprof.data.profile.functions.filter(f => f.kind === "function").sort((a, b) => b.total_sec - a.total_sec);
  var fn = rows.length > 1 ? rows[1].name : rows[0].name, t = {}, t0;
  t0 = performance.now(); egprof.navigate({view: "butterfly", fn: fn}); t.butterfly = performance.now() - t0;
  t0 = performance.now(); egprof.navigate({view: "inverted"}); t.inverted = performance.now() - t0;
  t0 = performance.now(); egprof.navigate({view: "callpaths"}); t.topdown = performance.now() - t0;
  t0 = performance.now(); egprof.navigate({hide: "library,instrumentation"}); t.hide = performance.now() - t0;
  for (var k in t) t[k] = Math.round(t[k]);
  t.fn = fn; t.frames = egprof.data.callpath ? egprof.data.callpath.parent.length : 0;
  return t; })()'
for ((i = 0; i < n; i++)); do
	for page in $pages; do
		python3 "$browser" "$page" --timeout 120 --eval 'ms=document.documentElement.dataset.egprofRenderMs' \
			--eval "v=$VIEWS" > "$page.$i.json"
	done
done
for page in $pages; do
	python3 - "$page" "$page".*.json <<'PY'
import json, os, statistics, sys
page, runs = sys.argv[1], [json.load(open(f)) for f in sys.argv[2:]]
ok = [r for r in runs if r["ready"] and not r["errors"]]
def med(xs):
    return "%.0f (%.0f to %.0f)" % (statistics.median(xs), min(xs), max(xs))
v = [r["evals"]["v"] for r in ok]
print("%s: %.1f MB, %d frames, %d/%d ready without error; open ms %s; script ms %s"
      % (page, os.path.getsize(page) / 1e6, v[0]["frames"], len(ok), len(runs),
         med([r["load_ms"] for r in ok]), med([float(r["evals"]["ms"]) for r in ok])))
print("  views on %s, ms: callers and callees %s; bottom-up %s; top-down %s; hide libraries %s"
      % (v[0]["fn"], med([x["butterfly"] for x in v]), med([x["inverted"] for x in v]),
         med([x["topdown"] for x in v]), med([x["hide"] for x in v])))
PY
done
