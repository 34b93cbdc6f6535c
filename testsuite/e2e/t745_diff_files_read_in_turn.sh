#!/usr/bin/env bash
# The one-binary diff's two gmon files are read in turn by one loader
# process (a worker per file copied every page of the symbol table its
# reading wrote: 12,800 page faults against 5,000 for one run of gprof at
# 20,000 functions, bench/scale).  The second file must be read from
# upstream's state as it was before the first: call counts, arcs, cycles,
# histograms and the times propagated through them.  A program with a
# cycle (a <-> b), self-recursion (fact) and a histogram gives two runs of
# different lengths, A and B:
#   - diff A B and diff B A mirror each other: each file's numbers are the
#     same read first or second (a count left from the first file, or an
#     arc, would show in the second);
#   - each file's calls are GNU gprof's for that file alone, first or
#     second;
#   - diff A A: no difference anywhere;
#   - the diff runs in two processes: the front end and its loader.
# Nothing here is random: both files are read whole, deterministically.
. "$SRCDIR/testsuite/e2e/lib.sh"
command -v python3 > /dev/null || { echo "1..0 # SKIP no python3"; exit 0; }
cd "$WORKDIR" || exit 1
cat > cyc.c <<'C'
#include <stdlib.h>
volatile double sink;
__attribute__((noinline)) void leaf(long n) { for (long i = 0; i < n; i++) sink += (double)i; }
__attribute__((noinline)) void b(int d, long n);
__attribute__((noinline)) void a(int d, long n) { leaf(n); if (d > 0) b(d - 1, n); }
__attribute__((noinline)) void b(int d, long n) { leaf(n / 2); if (d > 0) a(d - 1, n); }
__attribute__((noinline)) long fact(int k) { return k <= 1 ? 1 : k * fact(k - 1); }
__attribute__((noinline)) void other(long n) { leaf(n); }
int main(int argc, char **argv)
{
	int r = argc > 1 ? atoi(argv[1]) : 10;
	for (int i = 0; i < r; i++) { a(6, 200000); sink += fact(10 + i % 5); }
	for (int i = 0; i < 2 * r; i++) other(100000);
	return 0;
}
C
gcc -pg -O1 -o cyc cyc.c || { echo "Bail out! build"; exit 1; }
./cyc 10 && mv gmon.out A && ./cyc 25 && mv gmon.out B || { echo "Bail out! run"; exit 1; }
"$EGPROF" --diff --format json cyc A B > ab.json 2> ab.err &&
"$EGPROF" --diff --format json cyc B A > ba.json 2> ba.err &&
"$EGPROF" --diff --format json cyc A A > aa.json 2> aa.err ||
	{ echo "Bail out! diff: $(cat ab.err ba.err aa.err)"; exit 1; }
for f in A B; do
	"$SYSGPROF" -b -p cyc $f > $f.flat || { echo "Bail out! gprof $f"; exit 1; }
done

python3 - ab.json ba.json aa.json A.flat B.flat > checks.txt <<'PY'
import json, sys
ab, ba, aa = (json.load(open(f)) for f in sys.argv[1:4])
def flat_calls(path):
    calls = {}
    for line in open(path):
        f = line.split()
        if len(f) == 7 and f[3].isdigit():
            calls[f[6]] = int(f[3])
    return calls
gnu = {"A": flat_calls(sys.argv[4]), "B": flat_calls(sys.argv[5])}
def side(doc, which):
    return {fn["name"]: (fn["self_" + which], fn["children_" + which], fn["calls_" + which],
                         fn["self_calls_" + which])
            for fn in doc["functions"] if fn["in_" + which]}
def arcs(doc, which):
    return {(a["caller"], a["callee"]): (a["calls_" + which], a["time_" + which])
            for a in doc["arcs"] if a["in_" + which]}
def check(ok, what):
    print(("ok" if ok else "not ok") + " " + what)
check(side(ab, "base") == side(ba, "second") and len(side(ab, "base")) >= 5,
      "A's functions read first (diff A B) and second (diff B A) are the same")
check(side(ab, "second") == side(ba, "base"),
      "B's functions read second (diff A B) and first (diff B A) are the same")
check(arcs(ab, "base") == arcs(ba, "second") and arcs(ab, "second") == arcs(ba, "base")
      and len(arcs(ab, "base")) >= 6,
      "each file's arcs are the same read first or second")
for doc, order in ((ab, "A B"), (ba, "B A")):
    for which, f in (("base", order[0]), ("second", order[2])):
        mine = {n: v[2] for n, v in side(doc, which).items() if v[2]}
        check(all(mine.get(n) == c for n, c in gnu[f].items()) and len(gnu[f]) >= 5,
              "diff %s: %s's calls are GNU gprof's for %s alone" % (order, which, f))
check(all(fn["self_diff"] == 0 and fn["children_diff"] == 0 and fn["calls_diff"] == 0
          for fn in aa["functions"]) and all(a["calls_diff"] == 0 and a["time_diff"] == 0
                                            for a in aa["arcs"]),
      "diff A A: no difference in any function or arc")
PY
while read -r verdict what; do
	if [ "$verdict" = ok ]; then ok "$what"; else not_ok "${what#ok }"; fi
done < checks.txt
[ "$(wc -l < checks.txt)" = 8 ] || not_ok "the checks ran ($(wc -l < checks.txt) of 8)"

if command -v strace > /dev/null; then
	rm -f trace.*
	strace -ff -qq -e trace=exit_group -o trace "$EGPROF" --diff cyc A B > /dev/null 2>&1
	n=$(ls trace.* | wc -l)
	[ "$n" = 2 ] && ok "the diff runs in 2 processes (the front end and its loader)" ||
		not_ok "the diff runs in 2 processes (the front end and its loader): $n"
fi
e2e_done
