#!/usr/bin/env bash
# --rank-stats --html (issue 25 item 2) and the heat map's SVG as text
# (item 3).  The report renders in headless Chromium with no request but
# the file and no error; its "rankstats" data is --rank-stats --format
# json's document; the heat map is in the page, its names real <text>
# that a search marks.  The --svg heat map: xmllint parses it, every
# function of the map is a <text> (searchable, selectable), and each cell's
# <title> (its tooltip) says the rank, the seconds and the ratio to the
# mean, equal to the JSON's numbers; above 400 ranks a cell names its ranks.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"

mkdir -p r && cd r || exit 1
gcc -pg -O1 -g -o views "$VIEWS_SRC" -lpthread && ./views 10 >/dev/null &&
python3 "$SRCDIR/testsuite/mpi/gen_ranks.py" gmon.out r4 4 &&
python3 "$SRCDIR/testsuite/mpi/gen_ranks.py" gmon.out r1000 1000 ||
	{ echo "Bail out! rank files"; exit 1; }

"$EGPROF" --rank-stats --svg hm.svg --html rs.html views r4 >text.txt 2>err.txt
check "--rank-stats --svg --html exits 0" [ $? = 0 ]
"$EGPROF" --rank-stats --format json views r4 >rs.json 2>/dev/null
check "the heat map parses as XML (xmllint)" xmllint --noout hm.svg
py <<'PY'
import json, re, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
svg = ET.parse("hm.svg").getroot()
rs = json.load(open("rs.json"))
fns = {f["name"]: f for f in rs["functions"]}
rows = svg.findall("s:g[@class='row']", ns)
assert rows, "no rows"
texts = ["".join(t.itertext()) for t in svg.iter("{http://www.w3.org/2000/svg}text")]
for g in rows:
    name = g.get("data-function")
    f = fns[name]
    assert name in texts, (name, texts[:10])
    cells = [c for c in g.findall("s:rect", ns) if c.find("s:title", ns) is not None]
    assert len(cells) == rs["rank_count"], (name, len(cells))
    for rank, c in enumerate(cells):
        t = c.find("s:title", ns).text
        m = re.fullmatch(r"(.*)\nrank (\d+): ([0-9.]+) s(?:, ([0-9.]+)x the mean \(([0-9.]+) s\))?", t)
        assert m and m.group(1) == name and int(m.group(2)) == rank, t
        secs = float(m.group(3))
        if m.group(4):
            assert abs(float(m.group(5)) - f["self_mean"]) <= 0.0005, (t, f)
            assert abs(float(m.group(4)) - secs / f["self_mean"]) <= 0.0051 + 0.0005 / f["self_mean"], t
        # the slowest rank's cell holds its maximum
        if str(rank) == f["self_max_rank"]:
            assert abs(secs - f["self_max"]) <= 0.0005, (t, f)
print("ok")
PY
check "every function of the map is a <text>; each cell's <title>: rank, seconds, ratio to the mean, as the JSON" [ $? = 0 ]

"$EGPROF" --rank-stats --svg hm1000.svg views r1000 >/dev/null 2>&1
check "1,000 ranks: a cell names its ranks and its slowest seconds" \
	bash -c "xmllint --noout hm1000.svg && grep -Eq '<title>[^<]*&#10;ranks 0-2: the slowest [0-9.]+ s, [0-9.]+x the mean' hm1000.svg"

if chromium_find; then
	browser rs.html --screenshot shot.png \
		--eval 'data=JSON.parse(document.getElementById("egprof-data").textContent)' \
		--eval 'heat=document.querySelectorAll("#heatmap svg g.row").length' \
		--eval 'found=(function(){egprof.search("kernel_a"); return [document.querySelectorAll("#heatmap svg g.row.match").length, document.querySelectorAll("#functions tbody tr").length]})()' \
		--eval 'ranks=document.querySelectorAll("#ranks tbody tr").length' >b.json
	py <<'PY'
import json, os
b = json.load(open("b.json"))
assert b["ready"] and b["errors"] == [], b
assert b["requests"] == ["file://" + os.path.abspath("rs.html")], b["requests"]
assert b["evals"]["data"]["rankstats"] == json.load(open("rs.json")), "not --format json's document"
# the heat map's rows: the functions with time (a short periodic run at
# 100 Hz may leave one of the three with none: sampling aliasing)
timed = sum(1 for f in json.load(open("rs.json"))["functions"] if f["self_total"] > 0)
assert b["evals"]["heat"] >= min(3, timed) >= 2 and b["evals"]["found"] == [1, 1], b["evals"]
assert b["evals"]["ranks"] == 4, b["evals"]["ranks"]
print("ok")
PY
	check "Chromium: renders, no request, its data is --format json's, a search marks the heat map's row" [ $? = 0 ]
else
	echo "# SKIP the browser checks: chromium not installed"
fi

"$EGPROF" --rank-stats --pprof x.pb.gz views r4 >/dev/null 2>e.txt; rc=$?
check "--rank-stats --pprof is refused" bash -c "[ $rc = 1 ] && grep -q 'cannot be used with --rank-stats' e.txt"
done_testing
