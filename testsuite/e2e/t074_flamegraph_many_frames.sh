#!/usr/bin/env bash
# --flamegraph of a profile of thousands of functions: frames narrower
# than the minimum width are merged, one frame per parent, as wide as the
# narrow siblings together, and the image says how many it merged; every
# other frame as wide as --folded's counts, exactly.  At the default 0.1 px
# a frame of one sample is merged only beyond 11,800 samples, and the
# runtime's timer signals each stand for several samples (a weight): a
# one-second run never holds a frame that narrow.  So the test asks for
# 20 px (--flamegraph-min-width), about 170 of the run's 10,000 samples:
# the 3,000 leaves share a third of the work, taken by some 75 timer
# signals of about 40 samples each, each on a leaf at random: no leaf
# narrower than 170 samples would need every signal on the leaves to fall
# four or more to a leaf.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
python3 - >many.c <<'PY'
N = 3000
print("#include <time.h>")
print("static volatile double sink;")
print("static void spin(long n) { double x = 0; for (long i = 0; i < n; i++) x += i * 0.5; sink = x; }")
for i in range(N):
    print("__attribute__((noinline)) void leaf%04d(void) { spin(300); }" % i)
# heavy's length varies from round to round by more than a sample period
# (0.1 ms), so that the samples do not fall on the same leaves each round
print("__attribute__((noinline)) void heavy(unsigned r) { spin(2000000 + (r * 2654435761u) % 400000); }")
print("__attribute__((noinline)) void leaves(void) {")
for i in range(N):
    print("  leaf%04d();" % i)
print("}")
print("int main(void) { for (unsigned r = 0; clock() < 1.0 * CLOCKS_PER_SEC; r++) { heavy(r); leaves(); } return 0; }")
PY
{ gcc -pg -O1 -o many many.c && CALLPATH_HZ=10000 LD_PRELOAD="$CALLPATH_SO" ./many; } >build.log 2>&1 ||
	{ cat build.log; echo "Bail out! cannot build and run the generated program"; exit 1; }

"$EGPROF" -b many gmon.out --flamegraph f.svg --flamegraph-min-width 20 --folded f.txt \
	>/dev/null 2>err.txt
check "--flamegraph exits 0 and writes a well-formed SVG" \
	bash -c "[ \$? = 0 ] && xmllint --noout f.svg"
py <<'PY'
import os, re, sys
sys.path.insert(0, os.environ["SRCDIR"] + "/testsuite/e2e")
import flamegraph_check as fc
fr, root = fc.frames("f.svg")
stacks = fc.folded("f.txt")
n, merged = fc.check_widths(fr, stacks, fc.min_px(root))
incl = fc.inclusive(stacks)
narrow = [s for s in incl if s.count(";") == 2 and s.startswith("main;leaves;leaf") and
          incl[s] * fc.PLOT_PX / incl[""] < 20]
assert narrow, "no narrow leaf"
assert fc.min_px(root) == 20
assert merged >= 1, merged
note = [e.text for e in root.iter(fc.NS + "text") if e.get("id") == "note"][0]
m = re.match(r"(\d+) frames narrower than 20.00 px merged into (\d+) frames", note)
assert m and int(m.group(1)) >= len(narrow) and int(m.group(2)) == merged, (note, len(narrow))
print("# %d stacks in --folded, %d frames drawn (%d merged frames); %d bytes; %s" %
      (len(stacks), n, merged, os.path.getsize("f.svg"), note))
print("ok")
PY
check "narrow frames merged, the note says so, the rest as wide as --folded's counts" [ $? = 0 ]
done_testing
