#!/usr/bin/env bash
# Sums never wrap at 2^64 (issue 28 item 3): two sidecars of 2^63 calls
# summed to 0 (gprof -s, egprof-sum, cpdump); counts of 2^64-1 and 2 on
# two paths printed "c: 1 call"; samples of 2^64-1 printed "measured
# 153722867280912908288.0%".  Every sum now saturates at
# 18446744073709551615 (utils/satmath.h) with a warning naming the file;
# shares stay within 100%.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
. "$SRCDIR/testsuite/e2e/lib.sh" > /dev/null 2>&1 || true
cp_cc acc acceptance.c -O1 || exit 1
cd "$WORKDIR" || exit 1
nm -nS acc > acc.nm
# no per-thread values: they would not add up to the forged counts (t722)
CALLPATH_THREADS=0 LD_PRELOAD="$CP_SO" ./acc > /dev/null
cp gmon.out g1 && cp gmon.out g2
MAX=18446744073709551615
# set.py IN OUT MODE [NMFILE FUNCTION]: half (main's count 2^63), two
# (FUNCTION's first path 2^64-1 calls, its others 2; all of c's samples
# 2^64-1).  Version 4 (doc/dev/sidecar-format.md): the process section's load
# address, the node tables' records (count at 24, the time metric at 40).
# The sidecar records its gmon file's hash, so the reader's stale check,
# which compares with gmon.out's arcs, is left out.
cat > set.py <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
mode = sys.argv[3]
hsize, flags, nsect = struct.unpack_from("<III", d, 12)
c_lo = c_hi = 0
if len(sys.argv) > 5:  # NMFILE FUNCTION: its range, from nm -nS
    for line in open(sys.argv[4]):
        f = line.split()
        if len(f) == 4 and f[3] == sys.argv[5]:
            c_lo, c_hi = int(f[0], 16), int(f[0], 16) + int(f[1], 16)
at, load, first = hsize, 0, True
for _ in range(nsect):
    tag, sflags, ln = struct.unpack_from("<IIQ", d, at)
    p = at + 16
    if tag == 1:
        load, = struct.unpack_from("<Q", d, p + 32)
    if tag == 5:
        nsize, nm, n = struct.unpack_from("<IIQ", d, p)
        for i in range(n):
            r = p + 32 + i * nsize
            parent, nflags, site, callee, count = struct.unpack_from("<IIQQQ", d, r)
            if mode == "half" and parent == 0xffffffff:
                struct.pack_into("<Q", d, r + 24, 1 << 63)
            if mode == "two" and c_lo <= callee - load < c_hi:
                struct.pack_into("<Q", d, r + 24, (1 << 64) - 1 if first else 2)
                struct.pack_into("<Q", d, r + 40, (1 << 64) - 1)
                first = False
    at += 16 + ln
open(sys.argv[2], "wb").write(d)
PY
python3 set.py gmon.out.callpath g1.callpath half
python3 set.py gmon.out.callpath g2.callpath half

# gprof -s: the sum's main has 2^64-1 calls, not 0
"$EGPROF" -s ./acc g1 g2 2> s.err
cp_check "gprof -s: warns naming g2.callpath" grep -qF "g2.callpath: a sum of calls or samples" s.err
cp_check "gprof -s: main's calls in gmon.sum.callpath are $MAX, not 0" \
	grep -qE "^$MAX main <- \[external\]" <("$CP_DUMP" -s acc.nm gmon.sum.callpath)
# cpdump of both
"$CP_DUMP" -s acc.nm g1.callpath g2.callpath > dump.txt 2> dump.err
cp_check "cpdump: warns naming g2.callpath" grep -qF "g2.callpath: a sum of calls" dump.err
cp_check "cpdump: main $MAX, the total calls $MAX" \
	bash -c "grep -qE '^$MAX main' dump.txt && grep -qx 'calls $MAX' dump.txt"
# egprof-sum (when OpenMPI is there)
if [ -x "$BUILDDIR/mpi/egprof-sum" ] && e2e_mpi_setup 2> /dev/null; then
	"${MPIRUN[@]}" -np 1 "$BUILDDIR/mpi/egprof-sum" -o e.sum g1 g2 > e.out 2> e.err
	cp_check "egprof-sum: warns naming g2.callpath" grep -qF "g2.callpath: a sum of calls" e.err
	cp_check "egprof-sum: main's calls $MAX" \
		grep -qE "^$MAX main" <("$CP_DUMP" -s acc.nm e.sum.callpath)
fi

# one sidecar: c reached along three paths, 2^64-1 + 2 + 2 calls
python3 set.py gmon.out.callpath big.callpath two acc.nm c
"$EGPROF" -b --callpath=big.callpath ./acc gmon.out > report.txt 2> report.err
cp_check "the report warns naming the sidecar" grep -qF "big.callpath: sums of calls or samples pass" report.err
cp_check "c: $MAX calls, not 5 (wrapped)" grep -qE "^c: $MAX calls, [0-9]+ paths" report.txt
cp_check "no share above 100% (measured, %calls, %time)" \
	bash -c "! grep -qE '([0-9]{4,}|[2-9][0-9][0-9]|1[1-9][0-9]|10[1-9])\.[0-9]+%' report.txt &&
		 ! awk '/%calls/ { on = 1; next } on && \$1 ~ /^[0-9]+(\\+[0-9]+)?\$/ && NF >= 6 && (\$2 + 0 > 100 || \$5 + 0 > 100) { bad = 1 } END { exit !bad }' report.txt"
"$EGPROF" -b --folded-calls big.folded --callpath=big.callpath ./acc gmon.out > /dev/null 2>&1
cp_check "folded calls: c's path carries $MAX" grep -qE " $MAX\$" big.folded
cp_done
