#!/usr/bin/env bash
# --callpath prints the paths that matter: a function called along 40
# paths (40 call sites), 3 of them with 10,000 calls each and 37 with 10,
# shows its top paths until they cover 95% of its calls (and of its time
# when a sample landed), at most 20, then one line counting the paths and
# calls left out; the calling-context tree leaves out the subtrees under
# 0.5% and says so; --all-paths prints every path and no such line.  The
# run takes a few milliseconds at CALLPATH_HZ=10 (a 100 ms tick), so it
# usually has no time sample: then the cut is by calls alone and exact
# (3 shown, 37 left out, 370 calls); with a sample, the invariants below
# still hold whatever it landed on.
. "$SRCDIR/testsuite/e2e/lib.sh"
cd "$WORKDIR" || exit 1
so="$BUILDDIR/callpath/libcallpath.so"

cat >fan.c <<'C'
volatile int sink;
__attribute__((noinline)) void leaf(int i) { sink += i; }
#define S(i) case i: leaf(i); break;
#define S10(t) S(t##0) S(t##1) S(t##2) S(t##3) S(t##4) S(t##5) S(t##6) S(t##7) S(t##8) S(t##9)
__attribute__((noinline)) void fan(int k)
{
	switch (k) { S10(1) S10(2) S10(3) S10(4) }
}
int main(void)
{
	for (int k = 10; k < 50; k++)
		for (int r = 0; r < (k < 13 ? 10000 : 10); r++)
			fan(k);
	return 0;
}
C
gcc -O1 -pg -o fan fan.c >build.log 2>&1 || { echo "Bail out! gcc failed"; exit 1; }
CALLPATH_HZ=10 LD_PRELOAD="$so" ./fan || { echo "Bail out! fan failed"; exit 1; }
"$EGPROF" -b -p -q --callpath fan gmon.out >cut.txt 2>cut.err
"$EGPROF" -b -p -q --callpath --all-paths fan gmon.out >all.txt 2>all.err

python3 - <<'PY' >check.out 2>&1
import re
def section(path):
    t = open(path).read()
    t = t[t.index("Call-path profile"):]
    m = re.search(r"^leaf: (\d+) calls, (\d+) paths.*?\n(.*?)\n\n", t, re.S | re.M)
    assert m, "no leaf section in " + path
    rows = [l for l in m.group(3).split("\n")[1:] if "->" in l]
    cut = [l for l in m.group(3).split("\n") if "left out" in l]
    return t, int(m.group(1)), int(m.group(2)), rows, cut
t, calls, paths, rows, cut = section("cut.txt")
assert calls == 30370 and paths == 40, (calls, paths)
assert 1 <= len(rows) <= 20, len(rows)
assert len(cut) == 1, cut
m = re.search(r"\.\.\. (\d+) more paths left out: .*?(\d+) calls \(", cut[0])
assert m and len(rows) + int(m.group(1)) == 40, cut[0]
shown = sum(int(r.split()[0].split("+")[0]) for r in rows)
assert shown + int(m.group(2)) == 30370, (shown, cut[0])
assert shown * 100 >= 30370 * 95, shown
assert "--all-paths shows them" in cut[0]
timed = "self s" in t.split("leaf:")[1][:200]
if not timed:
    assert len(rows) == 3 and int(m.group(1)) == 37 and int(m.group(2)) == 370, cut[0]
tree = t[t.index("Calling-context tree"):]
assert re.search(r"^\.\.\. \d+ subtrees under 0\.5% of the .*left out", tree, re.M), tree[-400:]
t, calls, paths, rows, cut = section("all.txt")
assert len(rows) == 40 and not cut, (len(rows), cut)
assert "left out" not in t
print("shown", len(rows), "timed", timed)
PY
if [ $? = 0 ]; then ok "the top paths, then a line counting what was left out; --all-paths: all 40"
else not_ok "the top paths, then a line counting what was left out; --all-paths: all 40"
	diag <check.out; diag <cut.err; fi
size_cut=$(wc -c <cut.txt) size_all=$(wc -c <all.txt)
if [ "$size_cut" -lt "$size_all" ]; then ok "the default report is shorter ($size_cut < $size_all bytes)"
else not_ok "the default report is shorter ($size_cut < $size_all bytes)"; fi
e2e_done
