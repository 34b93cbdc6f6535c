#!/usr/bin/env bash
# The HTML report's source view when the source file cannot be read (moved
# away after the build): the page says so with the note `--diff -A` prints
# for the same file, word for word, and still shows each sampled line's
# number and samples (equal to the page's lines document, as when the file
# is there); no text is embedded.  A profile and a diff.
# Exact: the checks compare views of the same samples; any sample count
# will do (work() takes about 0.3 s).
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
chromium_find || skip_all "chromium not installed (apt-get install chromium)"
mkdir -p src && cp "$SRCDIR/testsuite/fixtures/lines/twoloops.c" src/ &&
	gcc -pg -O1 -g -o prog "$PWD/src/twoloops.c" && LD_PRELOAD="$CALLPATH_SO" ./prog >/dev/null ||
	{ echo "Bail out! cannot build and run twoloops.c"; exit 1; }
mv src moved
"$EGPROF" -b --callpath ./prog gmon.out --html p.html >/dev/null 2>err.txt
check "--html exits 0 with the source moved away" bash -c "[ -s p.html ] && [ ! -s err.txt ]"
"$EGPROF" --diff -b --html d.html ./prog gmon.out gmon.out >/dev/null 2>err2.txt
check "--diff --html exits 0 with the source moved away" bash -c "[ -s d.html ] && [ ! -s err2.txt ]"
"$EGPROF" --diff -Awork ./prog gmon.out gmon.out >ann.txt 2>/dev/null
note=$(grep '^(the source file ' ann.txt)
echo "# -A: $note"
check "-A says the file cannot be read" test -n "$note"

EV='st=[egprofSource.fn, (document.getElementById("src-unread") || {}).textContent, Array.from(document.querySelectorAll("#src-listing tr[data-line]")).map(r => [+r.dataset.line, +(r.dataset.samples || r.dataset.a || 0), r.querySelector("td.code").textContent])]'
browser "file://$PWD/p.html#view=source&fn=work" --eval "$EV" \
	--eval 'doc=egprof.data.lines.lines.filter(r => r.function === "work").map(r => [r.line, r.samples])' \
	--eval 'src=egprof.data.sources.files' >p.json
browser "file://$PWD/d.html#view=source&fn=work" --eval "$EV" \
	--eval 'doc=egprof.data.lines.lines.filter(r => r.function === "work").map(r => [r.line, r.baseline_samples])' >d.json
py p.json d.json "$note" <<'PY'
import json, sys
note = sys.argv[3]
for f in sys.argv[1:3]:
    b = json.load(open(f))
    assert b["ready"] and not b["errors"], (f, b)
    fn, shown, rows = b["evals"]["st"]
    assert fn == "work", (f, fn)
    assert shown == note, (f, shown, note)
    doc = {}
    for line, n in b["evals"]["doc"]:
        doc[line] = doc.get(line, 0) + n
    assert rows and all(text == "" for _, _, text in rows), (f, rows)
    assert {l: n for l, n, _ in rows} == {l: n for l, n in doc.items() if n}, (f, rows, doc)
    assert sum(n for _, n, _ in rows) > 0, (f, rows)
src = json.load(open(sys.argv[1]))["evals"]["src"]
assert len(src) == 1 and src[0]["readable"] is False and src[0]["ranges"] == [], src
print("ok")
PY
check "the page says the file cannot be read as -A does, and shows the lines' samples" [ $? = 0 ]
done_testing
