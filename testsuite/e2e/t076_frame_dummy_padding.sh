#!/usr/bin/env bash
# gprof gives the histogram bin holding a function's first instruction to
# the padding before it when glibc's bins are a little under 4 bytes (the
# text's size not a multiple of their number): the program's first
# function in memory comes after crt's frame_dummy, so frame_dummy, which
# runs once at start-up, read the samples of that first instruction, 43%
# of the time of a program whose first function is called 300 million
# times.  gprof's own text keeps upstream's numbers (byte for byte
# /usr/bin/gprof's); the views (the graphs, the diff and its JSON) give
# those samples to the function whose first instruction they are: no time
# on frame_dummy, the total unchanged.
# The sampling: upstream's frame_dummy held 13 of 30 ticks in a run here;
# if it holds none (a probability of about e^-13, 2e-6) the test says so
# and skips: it has nothing to show then.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
cat >first.c <<'C'
#include <stdio.h>
__attribute__((noinline)) int first(int x) { return x * 3 + 1; }
int main(void)
{
	unsigned s = 0;
	for (int i = 0; i < 300000000; i++)
		s += first(i);
	printf("%u\n", s);
	return 0;
}
C
{ gcc -pg -O2 -o first first.c && ./first; } >build.log 2>&1 ||
	{ cat build.log; echo "Bail out! cannot build and run the program"; exit 1; }
nm -n first | grep -A1 ' frame_dummy$' | tail -1 | grep -q ' first$' ||
	{ echo "1..0 # SKIP the linker did not put first() after frame_dummy"; exit 0; }
fd=$(/usr/bin/gprof -b -p first gmon.out | awk '$NF == "frame_dummy" { print $3 }')
if [ -z "$fd" ] || [ "$fd" = "0.00" ]; then
	echo "1..0 # SKIP upstream gprof gave frame_dummy no sample in this run"
	exit 0
fi
echo "# /usr/bin/gprof: frame_dummy $fd s"

for args in "-b" "" "-b -p" "-b -q"; do
	# shellcheck disable=SC2086
	"$EGPROF" $args first gmon.out >ours.txt 2>&1
	# shellcheck disable=SC2086
	/usr/bin/gprof $args first gmon.out >theirs.txt 2>&1
	check "gprof $args: byte for byte /usr/bin/gprof's" cmp -s ours.txt theirs.txt
done

"$EGPROF" -b first gmon.out --node-thres 0 --edge-thres 0 --dot g.dot >/dev/null 2>&1
"$EGPROF" --diff --format json first gmon.out first gmon.out >d.json 2>/dev/null
/usr/bin/gprof -b -p first gmon.out >flat.txt
py <<'PY'
import json, re
total = sum(float(l.split()[2]) for l in open("flat.txt") if re.match(r"\s*\d+\.\d+\s+\d", l))
dot = open("g.dot").read()
assert "frame_dummy" not in dot, "a frame_dummy node in the graph"
d = json.load(open("d.json"))
fns = {f["name"]: f for f in d["functions"]}
assert "frame_dummy" not in fns or fns["frame_dummy"]["self_base"] == 0, fns.get("frame_dummy")
s = sum(f["self_base"] for f in d["functions"])
assert abs(s - total) < 0.0051 * len(fns), (s, total)   # gprof's text rounds each row
assert fns["first"]["self_base"] > 0
print("ok")
PY
check "the views: no time on frame_dummy, the total unchanged" [ $? = 0 ]
done_testing
