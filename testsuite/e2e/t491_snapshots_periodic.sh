#!/usr/bin/env bash
# CALLPATH_SNAPSHOT=1 on a 3.5 s run that changes phase at 1.5 s: at least
# three snapshots gmon.out.snapK + sidecar, each read by /usr/bin/gprof and
# paired by gprof --callpath, cumulative (every count and histogram bin of
# a snapshot is at most the next one's and the exit's gmon.out's), with
# glibc's histogram geometry; the diff of the third and the first shows
# the second phase; GMON_OUT_PREFIX names them per process.  (issue 26)
# False-failure bound: the checks are counts and bins that can only grow
# from one snapshot to the next (exact), and the diff of the third and the
# first snapshots, whose second phase is a whole second of one function
# (some 100 ticks against none): beyond noise with a chance of failing
# below 1e-9.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"

cp_cc ends ends.c -O1 || exit 1
cd "$WORKDIR" || exit 1

mkdir -p run && cd run || exit 1
CALLPATH_SNAPSHOT=1 LD_PRELOAD="$CP_SO" ../ends phases 1.5 3.5 2> stderr
rc=$?
cd "$WORKDIR"
cp_check "the program's status is its own (0)" test $rc = 0
cp_check "nothing on stderr" test ! -s run/stderr
n=$(ls run | grep -cE '^gmon\.out\.snap[0-9]+$')
cp_check "at least three snapshots ($n)" test "$n" -ge 3
cp_check "no temporary file left" test -z "$(ls run | grep tmp)"

# gmon.py A B: every histogram bin and arc count of A is <= B's, and the
# histogram records are the same geometry (low, high, size, rate).
cat > gmon.py <<'EOF'
import struct, sys
def read(path):
    b = open(path, "rb").read()
    assert b[:4] == b"gmon", path
    i, hist, arcs = 20, None, {}
    while i < len(b):
        tag = b[i]; i += 1
        if tag == 0:
            low, high, n, rate = struct.unpack_from("<QQii", b, i)
            head = b[i:i + 40]; i += 40
            hist = (head, struct.unpack_from("<%dH" % n, b, i)); i += 2 * n
        elif tag == 1:
            f, s, c = struct.unpack_from("<QQI", b, i); i += 20
            arcs[(f, s)] = arcs.get((f, s), 0) + c
        else:
            raise SystemExit("%s: tag %d" % (path, tag))
    return hist, arcs
(ha, aa), (hb, ab) = read(sys.argv[1]), read(sys.argv[2])
if ha[0] != hb[0]: raise SystemExit("histogram geometry differs")
if any(x > y for x, y in zip(ha[1], hb[1])): raise SystemExit("a bin shrank")
if any(c > ab.get(k, 0) for k, c in aa.items()): raise SystemExit("an arc shrank")
print(sum(ha[1]), sum(aa.values()))
EOF

prev=
for k in $(seq 1 "$n"); do
	g=run/gmon.out.snap$k
	calls=$(cp_calls_of /usr/bin/gprof ./ends $g first_leaf)
	cp_check "snap$k: /usr/bin/gprof reads it (first_leaf: $calls calls)" \
		test "${calls:-0}" -gt 0
	"$EGPROF" -b --callpath ./ends $g > run/report$k 2>&1
	cp_check "snap$k: gprof --callpath reads the pair" \
		grep -qE 'first_leaf \(phase1\+0x' run/report$k
	cp_check "snap$k: the sidecar says snapshot $k" \
		test "$(cp_header $g.callpath snapshot)" = "$k"
	if [ -n "$prev" ]; then
		cp_check "snap$k: cumulative (counts and bins >= snap$((k - 1))'s)" \
			python3 gmon.py $prev $g
	fi
	prev=$g
done
cp_check "the exit's gmon.out >= the last snapshot (same geometry: glibc's)" \
	python3 gmon.py $prev run/gmon.out
calls1=$(cp_calls_of /usr/bin/gprof ./ends run/gmon.out.snap1 second_leaf)
calls3=$(cp_calls_of /usr/bin/gprof ./ends run/gmon.out.snap3 second_leaf)
# snap1 is written at 1.0 s, phase 2 starts at 1.5 s: 0 calls unless the
# writer thread was held back half a second (a loaded machine)
cp_check "phase 2 grew from snap1 (${calls1:-0} calls) to snap3 ($calls3)" \
	test "${calls3:-0}" -gt "${calls1:-0}"
"$EGPROF" -b --diff ./ends run/gmon.out.snap3 run/gmon.out.snap1 > run/diff 2>&1
cp_check "the diff of snap3 and snap1 shows phase 2 among its significant rows" \
	sh -c "sed -n '/^Evidence for the significant rows/,/Within noise/p' run/diff |
	       grep -qE '^  second_leaf: '"

# GMON_OUT_PREFIX: per-process names, as glibc's
mkdir -p pfx && cd pfx || exit 1
GMON_OUT_PREFIX=rank CALLPATH_SNAPSHOT=0.5 LD_PRELOAD="$CP_SO" ../ends phases 0.2 1.2 &
pid=$!
wait $pid
cd "$WORKDIR"
cp_check "GMON_OUT_PREFIX: rank.$pid.snap1 and its sidecar" \
	test -s pfx/rank.$pid.snap1 -a -s pfx/rank.$pid.snap1.callpath
"$EGPROF" -b --callpath ./ends pfx/rank.$pid.snap1 > pfx/report 2>&1
cp_check "GMON_OUT_PREFIX: the pair reads" grep -qE 'first_leaf \(phase1\+0x' pfx/report
cp_done
