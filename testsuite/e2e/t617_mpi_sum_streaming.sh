#!/usr/bin/env bash
# egprof-sum streams its bins (issue 28 item 9): it read each gmon file
# whole, kept every bin in 64 bits and encoded a partial sum whole for
# MPI, so one 1 GB histogram took 5.2 GB of RSS (and two processes ran out
# of memory).  Files are read through a window now, bins kept in blocks as
# narrow as their counts (16 bits, as on disk, widened only where a sum
# needs it; zero blocks take nothing), and partial sums sent a block at a
# time (mpi/gmonsum.h).  Here a 128 MB histogram: the sum of one file (by
# one process) must stay under 2x the file's size in RSS (the old one
# took 5.2x, 666 MB), and be the file itself byte for byte; two files
# summed by two processes give the exact sums, as before.
set -u
. "$SRCDIR/testsuite/e2e/lib.sh"
if ! e2e_mpi_setup || ! [ -x "$BUILDDIR/mpi/egprof-sum" ]; then
	echo "ok 1 - # SKIP mpirun or egprof-sum not built (OpenMPI missing)"
	echo "1..1"
	exit 0
fi
cd "$WORKDIR" || exit 1
SUM="$BUILDDIR/mpi/egprof-sum"
GEN="$SRCDIR/testsuite/mpi/gen_big_hist.py"
nbins=$((64 * 1024 * 1024))
python3 "$GEN" big1.gmon $nbins 1 && python3 "$GEN" big2.gmon $((nbins / 16)) 2 &&
	python3 "$GEN" small3.gmon $((nbins / 16)) 3 || { not_ok "generate the files"; e2e_done; }
size=$(stat -c %s big1.gmon)

/usr/bin/time -f %M -o rss.txt "${MPIRUN[@]}" -np 1 "$SUM" -o one.sum big1.gmon > one.out 2> one.err
rc=$?
rss=$(tail -n 1 rss.txt)
if [ $rc = 0 ]; then ok "egprof-sum of a $((size / 1048576)) MB histogram (exit 0)"
else not_ok "egprof-sum of a $((size / 1048576)) MB histogram (exit $rc)"; diag < one.err; fi
if [ "${rss:-999999999}" -lt $((2 * size / 1024)) ]; then
	ok "peak RSS ${rss} KB, under 2x the file's $((size / 1024)) KB"
else
	not_ok "peak RSS ${rss:-?} KB, under 2x the file's $((size / 1024)) KB"
fi
if cmp -s one.sum big1.gmon; then ok "the sum of one file is the file, byte for byte"
else not_ok "the sum of one file is the file, byte for byte"; fi

# two smaller files, two processes: every bin the sum of the two
"${MPIRUN[@]}" -np 2 "$SUM" -o two.sum big2.gmon small3.gmon > two.out 2> two.err
rc=$?
python3 - big2.gmon small3.gmon two.sum > check.txt 2>&1 <<'PY'
import struct, sys
def read(path):
    d = open(path, "rb").read()
    pos, bins, arcs = 20, None, {}
    while pos < len(d):
        tag = d[pos]; pos += 1
        if tag == 0:
            lo, hi, n, rate = struct.unpack_from("<QQII", d, pos); pos += 40
            b = struct.unpack_from(f"<{n}H", d, pos); pos += 2 * n
            bins = list(b) if bins is None else [x + y for x, y in zip(bins, b)]
        else:
            f, s, c = struct.unpack_from("<QQI", d, pos); pos += 20
            arcs[f, s] = arcs.get((f, s), 0) + c
    return bins, arcs
a, b, s = read(sys.argv[1]), read(sys.argv[2]), read(sys.argv[3])
assert s[0] == [x + y for x, y in zip(a[0], b[0])], "bins differ"
assert s[1] == {k: a[1].get(k, 0) + b[1].get(k, 0) for k in set(a[1]) | set(b[1])}, "arcs differ"
print("exact")
PY
if [ $rc = 0 ] && grep -qx exact check.txt; then ok "-np 2: every bin and arc is the exact sum (bins over 65,535 included)"
else not_ok "-np 2: every bin and arc is the exact sum"; diag < check.txt; diag < two.err; fi
e2e_done
