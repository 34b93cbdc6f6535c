#!/usr/bin/env bash
# The call graph of a C++ program whose main fans out to many template
# instantiations with long names, each calling two shared helpers: drawn
# top-down it was 9,000 pixels wide (one rank of 32 labels of 40 columns,
# and the helpers' edges crossing it); --png and --svg are now under 3,000
# pixels wide (the graph laid out left to right when top-down is wider
# than 30 inches), every function still drawn with its full name in its
# tooltip, and gprof's own text unchanged.  The graph comes from gmon.out's
# exact call counts with --node-thres 0 --edge-thres 0: its shape does not
# depend on sampling.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
python3 - >wide.cpp <<'PY'
N = 16
print("""#include <vector>
#include <cstdio>
namespace numerics_library { namespace detail_implementation {
template <typename T> __attribute__((noinline)) T accumulate_all(const std::vector<T>& v)
{ T s = 0; for (auto x : v) s += x; return s; }
template <typename T> __attribute__((noinline)) void scale_in_place(std::vector<T>& v, T f)
{ for (auto& x : v) x *= f; }
template <typename T, int N> struct transform_kernel {
  __attribute__((noinline)) static T apply_to_every_element(std::vector<T>& values, const std::vector<T>& weights)
  { scale_in_place<T>(values, (T)(N + 1)); return accumulate_all<T>(values) + accumulate_all<T>(weights); }
};
} }
using namespace numerics_library::detail_implementation;
int main() {
  std::vector<double> d(1000, 1.0), wd(1000, 0.5);
  std::vector<float> f(1000, 1.0f), wf(1000, 0.5f);
  double t = 0;
  for (int r = 0; r < 20; r++) {""")
for i in range(N):
    print("    t += transform_kernel<double, %d>::apply_to_every_element(d, wd);" % i)
    print("    t += transform_kernel<float, %d>::apply_to_every_element(f, wf);" % i)
print("""  }
  std::printf("%g\\n", t);
  return 0;
}""")
PY
{ g++ -pg -O1 -o wide wide.cpp && ./wide; } >build.log 2>&1 ||
	{ cat build.log; echo "Bail out! cannot build and run the generated program"; exit 1; }

"$EGPROF" -b wide gmon.out --node-thres 0 --edge-thres 0 --png g.png --svg g.svg >out.txt 2>err.txt
check "--png and --svg exit 0, gprof's text unchanged" \
	bash -c "[ \$? = 0 ] && /usr/bin/gprof -b wide gmon.out | cmp -s - out.txt"
py <<'PY'
import os, re, struct, subprocess, sys
import xml.etree.ElementTree as ET
w, h = struct.unpack(">II", open("g.png", "rb").read(24)[16:24])
print("# PNG %d x %d px" % (w, h))
assert w < 3000, w
# the SVG: points (72 an inch), the PNG's pixels at 96 dpi
root = ET.parse("g.svg").getroot()
sw = float(root.get("width").rstrip("pt"))
assert sw * 96 / 72 < 3000, sw
# every function of the program a node, its full name in the tooltip
ns = "{http://www.w3.org/2000/svg}"
titles = set()
for a in root.iter(ns + "a"):
    t = a.get("{http://www.w3.org/1999/xlink}title")
    if t:
        titles.add(t)
names = subprocess.run(["nm", "-C", "wide"], capture_output=True, text=True).stdout
want = [l.split(" ", 2)[2] for l in names.splitlines()
        if " W " in l and "apply_to_every_element" in l]
assert len(want) == 32, len(want)
missing = [n for n in want if n not in titles]
assert not missing, missing[:3]
print("ok")
PY
check "under 3,000 pixels wide, every kernel's full name in a tooltip" [ $? = 0 ]
done_testing
