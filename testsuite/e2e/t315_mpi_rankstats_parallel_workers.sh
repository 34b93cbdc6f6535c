#!/usr/bin/env bash
# --rank-stats reads rank files with two workers at once (--jobs 2).  Each
# worker used to re-read the binary's symbol table for the static
# functions' units, through the descriptor BFD opened before the workers
# forked: the workers moved one shared file offset under each other and
# BFD printed "invalid string offset" errors (hundreds over 1,024 files of
# a 2,000-function program; a small symbol table rarely showed it).  Now
# the table is read once, before the fork: nothing on stderr, and the
# report with two workers is byte-identical to the one with one.
set -u
. "$SRCDIR/testsuite/e2e/lib.sh"
cd "$WORKDIR" || exit 1

if python3 "$SRCDIR/bench/mpi/genprog.py" 2000 >prog.c &&
   gcc -pg -O1 -o prog prog.c >build.log 2>&1 && ./prog 1 >>build.log 2>&1 &&
   python3 "$SRCDIR/testsuite/mpi/gen_ranks.py" gmon.out ranks 512 >>build.log 2>&1 &&
   [ "$(ls ranks | wc -l)" = 512 ]; then
	ok "a 2,000-function -pg program runs; 512 rank files generated"
else
	not_ok "a 2,000-function -pg program runs; 512 rank files generated"
	diag <build.log
	e2e_done
fi

"$EGPROF" --rank-stats --jobs 2 prog ranks >j2.out 2>j2.err
rc=$?
if [ $rc = 0 ] && grep -q '^512 ranks, ' j2.out && ! [ -s j2.err ]; then
	ok "--jobs 2 over 512 files: a report, nothing on stderr"
else
	not_ok "--jobs 2 over 512 files: a report, nothing on stderr (status $rc)"
	head -5 j2.err | diag
	echo "# $(grep -c 'invalid string offset' j2.err) 'invalid string offset' lines"
fi

"$EGPROF" --rank-stats --jobs 1 prog ranks >j1.out 2>j1.err
if [ $? = 0 ] && cmp -s j1.out j2.out; then
	ok "the report with two workers is byte-identical to the one with one"
else
	not_ok "the report with two workers is byte-identical to the one with one"
	diff j1.out j2.out | head -20 | diag
fi

# The counts the workers send are upstream's: over files 0 and 3 (rank 3's
# samples and calls are 4x rank 0's), every function's min and max calls
# equal /usr/bin/gprof's flat profile of the two files, and its min and max
# self seconds those of the same files' one-binary diff (--format json):
# every extension view, rank statistics among them, credits a histogram
# bin that straddles a function's end and the padding after it to the
# code in its range, where GNU gprof splits it by address (a sample there
# would make the seconds differ from gprof's by one tick).
"$EGPROF" --rank-stats --jobs 2 prog ranks/gmon.0 ranks/gmon.3 >two.out 2>two.err
/usr/bin/gprof -b -p prog ranks/gmon.0 >flat.0 2>&1
/usr/bin/gprof -b -p prog ranks/gmon.3 >flat.3 2>&1
"$EGPROF" --diff prog ranks/gmon.0 ranks/gmon.3 --format json >diff.json 2>diff.err
if python3 - flat.0 flat.3 diff.json two.out >calls.diff <<'PY'
import json, sys
def flat(path):
    out = {}
    for line in open(path):
        w = line.split()
        if len(w) == 7 and w[0][0].isdigit():
            out[w[6]] = int(w[3])
        elif len(w) == 4 and w[0][0].isdigit():
            out[w[3]] = 0
    return out
a, b = flat(sys.argv[1]), flat(sys.argv[2])
sec = {f["name"]: ("%.2f" % f["self_base"], "%.2f" % f["self_second"])
       for f in json.load(open(sys.argv[3]))["functions"]}
seen = bad = 0
for line in open(sys.argv[4]):
    w = line.split()
    if len(w) != 12 or not w[0][0].isdigit():
        continue
    name = w[11]
    want = (sorted(sec.get(name, ("0.00", "0.00")), key=float),
            sorted([a.get(name, 0), b.get(name, 0)]))
    got = ([w[3], w[5]], [int(w[8]), int(w[9])])
    seen += 1
    if want != got:
        bad += 1
        print(name, "gprof and the diff", want, "rank-stats", got)
print("functions compared:", seen)
sys.exit(1 if bad or seen < 2000 else 0)
PY
then
	ok "per function, min/max calls equal GNU gprof's and self seconds the diff's, on each file"
else
	not_ok "per function, min/max calls equal GNU gprof's and self seconds the diff's, on each file"
	head -20 calls.diff | diag
fi
e2e_done
