#!/usr/bin/env bash
# --diff --flamegraph: frames as wide as the second run's samples, exactly
# the sums of the second column of the diff's --folded file written in the
# same command; each frame's self samples of both runs are that file's;
# its colour follows the sign of the change of its self time, baseline
# minus second (red: more time in the second run, blue: less, grey: none
# or within the noise, the verdict --callpath's time table prints), and
# the image says so.  The changed build's
# kernel_b does four times the work (81 against 268 samples in a run here,
# glibc's timer and the machine's load aside): a change of some 10 standard
# deviations of the samples' Poisson noise, so red whatever the load.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
views_build v >build.log 2>&1 || { cat build.log; echo "Bail out! cannot build and run views.c"; exit 1; }
cd v || exit 1

"$EGPROF" -b --diff base/views base/gmon.out changed/views changed/gmon.out \
	--flamegraph d.svg --folded d.txt --callpath >diff.txt 2>err.txt
check "--diff --flamegraph exits 0" [ $? = 0 ]
check "xmllint reads a well-formed SVG" xmllint --noout d.svg
check "the key says the convention and the colours" \
	grep -q "minus .*red = more time in .*blue = less" d.svg

py <<'PY'
import os, re, sys
sys.path.insert(0, os.environ["SRCDIR"] + "/testsuite/e2e")
import flamegraph_check as fc
fr, root = fc.frames("d.svg")
a, b = fc.folded("d.txt", 0), fc.folded("d.txt", 1)
assert root.get("data-fg-diff") == "1"
fc.check_widths(fr, b, fc.min_px(root))
ia = fc.inclusive(a)
signs = {"+": 0, "-": 0, "0": 0}
for f in fr[1:]:
    if f["merged"]:
        continue
    assert f["sa"] == a.get(f["stack"], 0) and f["sb"] == b.get(f["stack"], 0), f
    assert f["a"] == ia.get(f["stack"], 0), f
    # both runs sample at the same rate here: the change in samples
    change = f["sa"] - f["sb"]
    r, g, bl = map(int, re.fullmatch(r"rgb\((\d+),(\d+),(\d+)\)", f["fill"]).groups())
    signs[f["c"]] += 1
    if f["c"] == "+":
        assert change < 0 and r == 255 and g == bl < 255, f
    elif f["c"] == "-":
        assert change > 0 and bl == 255 and r == g < 255, f
    else:
        assert f["c"] == "0" and r == g == bl, f
assert signs["+"] >= 1, signs
# grey where the path diff's time table (the same command's --callpath)
# marks the change '~', coloured where it does not: one verdict
# (only the time table: the calls tables after it have rows of the same
# shape, whose '~' is the calls' verdict)
table, in_time = {}, False
for line in open("diff.txt"):
    if re.match(r"\s+A s\s+B s\s+change\s+path$", line):
        in_time = True
        continue
    if in_time and not line.strip():
        break
    m = re.match(r"\s+-?[\d.]+\s+-?[\d.]+\s+[+-][\d.]+\s+(~\s+)?(\S.*;.*)$", line)
    if in_time and m:
        table[m.group(2).strip()] = m.group(1) is not None
assert table, "no time table in --callpath's output"
for f in fr[1:]:
    if f["merged"] or f["sa"] == f["sb"] or f["stack"] not in table:
        continue
    assert (f["c"] == "0") == table[f["stack"]], (f["stack"], f["c"], table[f["stack"]])
kb = [f for f in fr if f["name"] == "kernel_b"]
assert kb and all(f["c"] == "+" for f in kb), kb
print("# colours %s" % signs)
print("ok")
PY
check "widths: the second run's folded counts; colours follow the sign of the change" [ $? = 0 ]

# a side without call paths: refused before anything is read, nothing written
mkdir -p np && cp base/views base/gmon.out np/
"$EGPROF" -b --diff np/views np/gmon.out changed/views changed/gmon.out --flamegraph n.svg \
	>/dev/null 2>err2.txt
rc=$?
check "a diff without a side's sidecar: exit 1, the sidecar named, no file" \
	bash -c "[ $rc = 1 ] && [ ! -e n.svg ] && grep -q 'np/gmon.out.callpath: ' err2.txt"
done_testing
