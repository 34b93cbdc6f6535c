#!/usr/bin/env bash
# --svg/--png (issue 13 item 3): the call graph drawn by graphviz's own
# layout, read back by librsvg (rsvg-convert) and file(1); sizes and node
# labels checked in the SVG; a graph too big to lay out quickly is refused
# with a message, the other outputs still written.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"

build_bigprog >build.log 2>&1 || { echo "Bail out! cannot build the generated program"; exit 1; }

"$EGPROF" -b big gmon.out --svg s.svg --png s.png --dot s.dot >s.txt 2>s.err; rc=$?
check "--svg --png exit 0" [ $rc = 0 ]
check "file says SVG" bash -c 'file s.svg | grep -q "SVG Scalable Vector Graphics image"'
check "file says PNG" bash -c 'file s.png | grep -q "PNG image data"'
check "rsvg-convert renders the SVG" bash -c 'rsvg-convert -f png -o s2.png s.svg && file s2.png | grep -q PNG'
check "no temporary files left" [ -z "$(ls | grep '\.tmp\.')" ]
check "the SVG: a picture of a readable size, one node per DOT node, hot path labelled" \
	py s.svg s.dot <<'PY'
import re, sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = {"s": "http://www.w3.org/2000/svg"}
w = float(re.match(r"[\d.]+", root.get("width")).group())
h = float(re.match(r"[\d.]+", root.get("height")).group())
assert 300 < w < 20000 and 200 < h < 20000, (w, h)
nodes = root.findall(".//s:g[@class='node']", ns)
edges = root.findall(".//s:g[@class='edge']", ns)
dot = open(sys.argv[2]).read()
assert len(nodes) == len(re.findall(r"^\tn\d+\t\[", dot, re.M)), len(nodes)
assert len(edges) == dot.count("->"), len(edges)
texts = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")]
for f in ["main", "timestep", "phase_hot", "kernel_hot"]:
    assert f in texts, f
assert any(t.startswith("self ") and t.endswith("%)") for t in texts)
print("ok")
PY
check "the PNG is as big as the SVG says" py s.png s.svg <<'PY'
import re, struct, sys
data = open(sys.argv[1], "rb").read(32)
assert data[:8] == b"\x89PNG\r\n\x1a\n"
w, h = struct.unpack(">II", data[16:24])
svg = open(sys.argv[2]).read()
sw = float(re.search(r'width="([\d.]+)pt"', svg).group(1))
assert 300 < w < 20000 and 200 < h < 20000, (w, h)
assert abs(w - sw * 96 / 72) < 0.05 * w + 2, (w, sw)
print("ok")
PY

"$EGPROF" -b --diff big gmon.out changed/big changed/gmon.out --svg d.svg --png d.png >/dev/null 2>&1; rc=$?
check "diff --svg --png exit 0" [ $rc = 0 ]
check "rsvg-convert renders the diff SVG, file says PNG" bash -c '
	rsvg-convert -o d2.png d.svg && file d.png | grep -q PNG'
check "diff SVG shows both runs, the change, the one-sided function" py d.svg <<'PY'
import sys
import xml.etree.ElementTree as ET
texts = [t.text or "" for t in ET.parse(sys.argv[1]).getroot().iter("{http://www.w3.org/2000/svg}text")]
assert "kernel_hot" in texts and "new_fn" in texts
assert "only in the second run" in texts
assert any(t.startswith("self ") and " | " in t and ", diff -" in t for t in texts), texts
print("ok")
PY

# Too big to lay out quickly: a 1200-function graph unpruned.
"$PY" "$SRCDIR/testsuite/fixtures/bigprog/gen.py" 1200 > huge.c && gcc -pg -O1 -fno-inline -o huge huge.c &&
	mkdir -p h && (cd h && ../huge) || { echo "Bail out! cannot build huge"; exit 1; }
echo old >h.png
"$EGPROF" -b huge h/gmon.out --node-thres 0 --edge-thres 0 --png h.png --gml h.gml >/dev/null 2>h.err; rc=$?
check "a graph too big to draw: exit 1" [ $rc = 1 ]
check "a graph too big to draw: the message says why and what to do" \
	grep -q "h.png: not drawn: 1200 functions and [0-9]* calls are too many to lay out quickly.*--focus" h.err
# a command that fails writes none of its outputs (doc/outputs.md)
check "a graph too big to draw: the PNG is as it was, no GML written" \
	bash -c '[ "$(cat h.png)" = old ] && [ ! -e h.gml ]'
"$EGPROF" -b huge h/gmon.out --png h2.png >/dev/null 2>&1; rc=$?
check "the same program at the default thresholds is drawn" bash -c "[ $rc = 0 ] && file h2.png | grep -q PNG"

# An output that cannot be written: named, exit 1, nothing left behind.
"$EGPROF" -b big gmon.out --svg nodir/x.svg >/dev/null 2>bad.err; rc=$?
check "unwritable --svg path fails naming the file" bash -c "[ $rc = 1 ] && grep -q 'nodir/x.svg' bad.err"
done_testing
