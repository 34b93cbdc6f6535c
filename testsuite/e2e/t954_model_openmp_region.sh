#!/usr/bin/env bash
# An OpenMP region body (main._omp_fn.0, a symbol gprof drops) made three
# times slower is found first, under its function, with and without the
# call-path sidecars: the run's model names a sampled region's time by the
# function it came from, as the diff folds GCC's clones (main (+
# ._omp_fn.0)), never "[unknown]" outside the program; --callpath still
# names the region itself.
#
# Noise bound: the region takes about 0.25 s of CPU in the baseline and
# 0.75 s in the second run (two threads).  With the sidecars' 1 kHz
# samples and the rule's 8% jitter the difference's sd is about 0.07 s;
# from gmon.out's 100 Hz histogram about 0.12 s: 0.5 s is 4 sd or more
# above a cut of about 2.4 sd, and stays significant if one run's CPU time
# swings by half on a loaded machine.  The other rows (other(): the same
# work in both, libgomp's) are an order of magnitude smaller.
# testsuite: alone (measures CPU time: see testsuite/run)
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
CP_SO="$BUILDDIR/callpath/libcallpath.so"
cd "$WORKDIR" || exit 1
src="$SRCDIR/testsuite/fixtures/omp/region.c"
gcc -O2 -fopenmp -pg -o a "$src" && gcc -O2 -fopenmp -pg -DWORK=3 -o b "$src" ||
	{ echo "not ok 1 - build"; echo "1..1"; exit 1; }
for r in a b; do
	mkdir -p "r$r" && (cd "r$r" && OMP_NUM_THREADS=2 LD_PRELOAD="$CP_SO" "../$r" 6000000 > out) ||
		{ echo "not ok 1 - run $r"; echo "1..1"; exit 1; }
done
check "both runs wrote gmon.out and its sidecar" \
	test -s ra/gmon.out.callpath -a -s rb/gmon.out.callpath

# the flat table's first row (-b: the rows follow "Each sample counts...")
first() { sed -n '/^Each sample counts/,/^Evidence/p' "$1" | grep -E '^ *-?[0-9]' | head -1; }
"$EGPROF" -b -p --diff a ra/gmon.out b rb/gmon.out > sc.txt 2> sc.err
row=$(first sc.txt)
check "with sidecars: the region's row first, under its function: $row" \
	bash -c "echo '$row' | grep -Eq ' main \(\+ \._omp_fn\.0\)\$'"
check "with sidecars: it is significant, and nothing is [unknown]" \
	bash -c "grep -Eq '^  main \(\+ \._omp_fn\.0\): time -[0-9.]+ s from call-path samples at [0-9]+ Hz, beyond noise' sc.txt && ! grep -q '\[unknown\]' sc.txt"
mkdir -p hidden && mv ra/gmon.out.callpath hidden/a && mv rb/gmon.out.callpath hidden/b
"$EGPROF" -b -p --diff a ra/gmon.out b rb/gmon.out > gm.txt 2> gm.err
mv hidden/a ra/gmon.out.callpath && mv hidden/b rb/gmon.out.callpath
row=$(first gm.txt)
check "without sidecars: the same row first: $row" \
	bash -c "echo '$row' | grep -Eq ' main \(\+ \._omp_fn\.0\)\$'"
check "without sidecars: significant" grep -Eq '^  main \(\+ \._omp_fn\.0\): time -[0-9.]+ s, beyond noise' gm.txt
"$EGPROF" --diff --format json a ra/gmon.out b rb/gmon.out > sc.json 2>> sc.err
check "the JSON's first significant row is the region's function" python3 - sc.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sig = sorted((f for f in d["functions"] if f["significant"]), key=lambda f: -f["evidence_sec"])
assert sig and sig[0]["name"] == "main (+ ._omp_fn.0)" and sig[0]["kind"] == "function", sig[:2]
assert not [f for f in d["functions"] if f["name"] == "[unknown]" and f["significant"]]
PY
"$EGPROF" --callpath b rb/gmon.out > cp.txt 2>> sc.err
check "--callpath names the region itself" grep -q '^main\._omp_fn\.0: ' cp.txt
check "nothing on stderr" bash -c "[ ! -s sc.err ] && [ ! -s gm.err ]"
dl_done
