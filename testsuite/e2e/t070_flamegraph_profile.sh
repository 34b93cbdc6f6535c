#!/usr/bin/env bash
# --flamegraph of one profile (a program run with libcallpath): a valid SVG
# (xmllint) whose every frame is as wide, in samples, as the folded counts
# --folded writes in the same command add up to for its stack and the
# stacks below it (what flamegraph.pl draws from that file), compared
# exactly; the rectangles' widths in proportion; names as --folded names
# them; gprof's own text unchanged; a profile without call paths refused
# with the sidecar named and how to record one.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
views_build v >build.log 2>&1 || { cat build.log; echo "Bail out! cannot build and run views.c"; exit 1; }
cd v/base || exit 1

"$EGPROF" -b -p views gmon.out --flamegraph f.svg --folded f.txt >flat.txt 2>err.txt
check "--flamegraph exits 0, gprof's text unchanged" \
	bash -c "[ \$? = 0 ] && '$EGPROF' -b -p views gmon.out | cmp -s - flat.txt"
check "xmllint reads a well-formed SVG" xmllint --noout f.svg
check "the file names no outside resource (no href, no src)" \
	bash -c "! grep -Eq '(href|src)=' f.svg"

py <<'PY'
import os, sys
sys.path.insert(0, os.environ["SRCDIR"] + "/testsuite/e2e")
import flamegraph_check as fc
fr, root = fc.frames("f.svg")
stacks = fc.folded("f.txt")
n, merged = fc.check_widths(fr, stacks, fc.min_px(root))
names = {f["name"] for f in fr[1:]}
want = {p for s in stacks for p in s.split(";")}
assert names == want, (names, want)
assert {"main", "solve", "kernel_a", "kernel_b"} <= names, names
print("# %d frames, %d merged, %d samples" % (n, merged, fr[0]["v"]))
print("ok")
PY
check "every frame's width equals --folded's count for its stacks" [ $? = 0 ]

# the same through the filters: --focus keeps the paths through kernel_b
"$EGPROF" -b views gmon.out --focus kernel_b --flamegraph k.svg --folded k.txt >/dev/null 2>&1
py <<'PY'
import os, sys
sys.path.insert(0, os.environ["SRCDIR"] + "/testsuite/e2e")
import flamegraph_check as fc
fr, root = fc.frames("k.svg")
fc.check_widths(fr, fc.folded("k.txt"), fc.min_px(root))
assert all("kernel_b" in s for s in fc.folded("k.txt")), "focus"
print("ok")
PY
check "--focus: the flame graph draws what --folded writes" [ $? = 0 ]

# no call paths: gmon.out's call graph has no stacks; refused, nothing written
mkdir -p ../nopaths && cp views gmon.out ../nopaths/ && cd ../nopaths || exit 1
"$EGPROF" -b views gmon.out --flamegraph n.svg >out.txt 2>err.txt
rc=$?
check "without a sidecar: exit 1, no file" bash -c "[ $rc = 1 ] && [ ! -e n.svg ]"
check "the message names the sidecar and how to record one" \
	grep -q "gmon.out.callpath: .*LD_PRELOAD=libcallpath" err.txt
done_testing
