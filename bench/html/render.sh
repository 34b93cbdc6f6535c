#!/usr/bin/env bash
# bench/html/render.sh [-n N] PAGE.html...: how long the HTML report takes
# to open in headless Chromium (testsuite/e2e/browser.py), N times each
# (default 5), runs of the pages interleaved.  Prints per page its size,
# the median, min and max wall time from navigation to the report's ready
# mark, the script's own time (data-egprof-render-ms) and where that goes
# (egprof.timing), and the requests other than the page (must be none).
# Figures, not assertions (the suite times nothing).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
browser="$here/../../testsuite/e2e/browser.py"
n=5
if [ "${1:-}" = -n ]; then n=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: $0 [-n N] PAGE.html..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((i = 0; i < n; i++)); do
	for page in "$@"; do
		k=$(echo "$page" | md5sum | cut -c1-8)
		python3 "$browser" "$page" --eval 'ms=document.documentElement.dataset.egprofRenderMs' \
			--eval 't=egprof.timing' >"$tmp/$k.$i.json"
	done
done
for page in "$@"; do
	k=$(echo "$page" | md5sum | cut -c1-8)
	python3 - "$page" "$tmp"/$k.*.json <<'PY'
import json, os, statistics, sys
page, runs = sys.argv[1], [json.load(open(f)) for f in sys.argv[2:]]
ok = [r for r in runs if r["ready"]]
load = [r["load_ms"] for r in ok]
script = [float(r["evals"]["ms"]) for r in ok]
other = sorted(set(u for r in runs for u in r["requests"] if u != "file://" + os.path.abspath(page)))
print("%s: %.1f MB; %d/%d ready; load ms median %.0f (min %.0f, max %.0f); script ms median %.0f; %s; other requests: %s"
      % (page, os.path.getsize(page) / 1e6, len(ok), len(runs), statistics.median(load),
         min(load), max(load), statistics.median(script), ok[len(ok) // 2]["evals"]["t"],
         other or "none"))
PY
done
