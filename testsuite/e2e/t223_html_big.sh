#!/usr/bin/env bash
# The HTML report of a program of 600 functions (testsuite/fixtures/
# bigprog/gen.py), a profile and a diff with call paths, in headless
# Chromium: ready with no request and no error, every function in the
# table once "show all" is pressed, the icicle graph drawn.  The time to
# render is printed, not asserted (bench/html/render.sh measures it on real
# programs; doc/html.md has the figures).
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
chromium_find || skip_all "chromium not installed (apt-get install chromium)"

# one build, run twice: the diff compares two runs of it (CI time)
{
	python3 "$SRCDIR/testsuite/fixtures/bigprog/gen.py" 600 >big.c &&
	mkdir -p base changed &&
	gcc -pg -O1 -fno-inline -o base/big big.c && cp base/big changed/big &&
	(cd base && LD_PRELOAD="$CALLPATH_SO" ./big) && (cd changed && LD_PRELOAD="$CALLPATH_SO" ./big)
} >build.log 2>&1 || { cat build.log; echo "Bail out! cannot build and run the generated program"; exit 1; }
nfn=$(grep -c '^NOINLINE double\|^int main' big.c)
echo "# $nfn functions"

"$EGPROF" -b base/big base/gmon.out --html one.html >/dev/null 2>&1 &&
"$EGPROF" -b --diff base/big base/gmon.out changed/big changed/gmon.out --html two.html >/dev/null 2>&1
check "--html of both exits 0" [ $? = 0 ]
for page in one two; do
	browser $page.html \
		--eval 'ms=document.documentElement.dataset.egprofRenderMs' \
		--eval 'rows=(function(){var b = document.querySelector("#functions .more-rows button"); if (b) b.click(); return document.querySelectorAll("#functions tbody tr").length})()' \
		--eval 'frames=egprof.flame ? egprof.flame.drawn : 0' \
		--eval 'paths=(egprof.data.callpath || egprof.data.callpath_second).parent.length' \
		--eval 't=egprof.timing' >$page.json
	py $page.html "$nfn" <<'PY'
import json, os, sys
page, nfn = sys.argv[1], int(sys.argv[2])
b = json.load(open(page.replace(".html", ".json")))
assert b["ready"] and b["errors"] == [], b
assert b["requests"] == ["file://" + os.path.abspath(page)], b["requests"]
e = b["evals"]
assert e["rows"] >= 500 and e["paths"] >= 500 and e["frames"] > 10, e
print("# %s: %d bytes, %d table rows, %d paths (%d drawn); script %s ms %s, load %s ms" %
      (page, os.path.getsize(page), e["rows"], e["paths"], e["frames"], e["ms"], e["t"],
       b["load_ms"]))
print("ok")
PY
	check "$page.html: ready, no request, no error, 500+ rows and paths, the icicle graph drawn" [ $? = 0 ]
	python3 -c "import json; b = json.load(open('$page.json')); print('# $page.html: script %s ms, load %s ms' % (b['evals']['ms'], b['load_ms']))"
done
done_testing
