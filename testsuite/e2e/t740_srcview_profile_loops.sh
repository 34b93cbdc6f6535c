#!/usr/bin/env bash
# The HTML report's source view of a profile (headless Chromium):
# twoloops.c's work() (the -DSLOW=4 build, run with libcallpath) shown by
# a deep link #view=source&fn=work: its source text from the function's
# head to past its end, both loops' lines with their samples, each line's
# seconds equal to `gprof -l --callpath`'s (the same model's lines, to the
# text's two decimals) and its samples to the page's own lines document,
# the slow loop's line marked hottest; the page fetched nothing but
# itself; a function chosen elsewhere (a search, Enter) is the view's.
#
# Noise bound: as t063's, the slow loop does four times the other's work in
# one process (about 480 and 120 samples at 1 kHz); it is the hottest line
# unless one loop of one run ran at a quarter of the other's speed.  Every
# other check compares two views of the same samples.
# testsuite: alone (measures CPU time: see testsuite/run)
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
chromium_find || skip_all "chromium not installed (apt-get install chromium)"
SRC="$SRCDIR/testsuite/fixtures/lines/twoloops.c"
fast=$(grep -n 'FAST_LOOP \*/' "$SRC" | cut -d: -f1)
slow=$(grep -n 'SLOW_LOOP \*/' "$SRC" | cut -d: -f1)
head=$(grep -n 'static double work(long n)' "$SRC" | cut -d: -f1)
gcc -pg -O1 -g -DSLOW=4 -o slower "$SRC" && LD_PRELOAD="$CALLPATH_SO" ./slower >/dev/null ||
	{ echo "Bail out! cannot build and run twoloops.c"; exit 1; }

"$EGPROF" -b --callpath ./slower gmon.out --html r.html >cp.txt 2>err.txt
check "--callpath --html exits 0, no message" bash -c "[ -s r.html ] && [ ! -s err.txt ]"
check "without -l the text has no section of lines" bash -c "! grep -q 'Self time by source line' cp.txt"
"$EGPROF" -l -b --callpath ./slower gmon.out >l.txt 2>/dev/null
sed -n '/^work: /,/^$/p' l.txt >work.txt
sed 's/^/# /' work.txt

ROWS='rows=Array.from(document.querySelectorAll("#src-listing tr[data-line]")).map(r => [+r.dataset.line, r.dataset.samples === undefined ? null : +r.dataset.samples, r.dataset.hot === "true", r.querySelector("td.code").textContent, r.children[3].textContent])'
browser "file://$PWD/r.html#view=source&fn=work" --eval "$ROWS" \
	--eval 'st=[egprof.state().fn, egprofSource.fn, document.getElementById("src-title").textContent]' \
	--eval 'doc=egprof.data.lines.lines.filter(r => r.function === "work").map(r => [r.line, r.samples, r.seconds])' \
	--eval 'hz=egprof.data.lines.hz' \
	--eval 'top=Math.round(document.getElementById("source").getBoundingClientRect().top)' \
	--eval 'find=(function(){ egprof.navigate({view: "butterfly", fn: "main"}); var a = egprofSource.fn; var s = document.getElementById("search"); s.value = "work"; s.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter"})); return [a, egprofSource.fn]; })()' >b.json
py b.json work.txt "$fast" "$slow" "$head" <<'PY'
import json, re, sys
b = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
fast, slow, head = map(int, sys.argv[3:6])
assert b["ready"] and not b["errors"], b
assert all(u.startswith("file://") and u.endswith("r.html") for u in b["requests"]), b["requests"]
ev = b["evals"]
assert ev["st"][0] == "work" and ev["st"][1] == "work" and ev["st"][2].startswith("work"), ev["st"]
assert 0 <= ev["top"] <= 200, ev["top"]
rows = {r[0]: r for r in ev["rows"]}
# the text from the function's head to past its end
assert head in rows and "static double work(long n)" in rows[head][3], rows.get(head)
assert "FAST_LOOP" in rows[fast][3] and "SLOW_LOOP" in rows[slow][3], (rows[fast], rows[slow])
assert rows[fast][1] and rows[slow][1], (rows[fast], rows[slow])
# the hottest line: the slow loop's, and only it
hot = [r[0] for r in ev["rows"] if r[2]]
assert hot == [slow], hot
# samples: the page's lines document; seconds: -l's, to two decimals
doc = {}
for line, samples, sec in ev["doc"]:
    doc[line] = doc.get(line, 0) + samples
for line, r in rows.items():
    assert (r[1] or 0) == doc.get(line, 0), (line, r, doc.get(line))
hz = ev["hz"]
lsec = {int(m.group(2)): m.group(1) for m in re.finditer(r"^ +([0-9.]+) +[0-9.]+%  twoloops\.c:(\d+)$", text, re.M)}
assert set(lsec) == {line for line, r in rows.items() if r[1]}, (lsec, rows)
for line, sec in lsec.items():
    assert "%.2f" % (rows[line][1] / hz) == sec, (line, rows[line], sec)
    assert "%.2f" % float(rows[line][4]) == sec, (line, rows[line], sec)
# a function chosen elsewhere is the view's
assert ev["find"] == ["main", "work"], ev["find"]
print("ok")
PY
check "the source view shows both loops' lines with -l's times, the slow loop's hottest, the function chosen elsewhere" [ $? = 0 ]
done_testing
