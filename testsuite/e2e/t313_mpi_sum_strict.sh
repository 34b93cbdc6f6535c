#!/usr/bin/env bash
# egprof-sum (its own gmon reader, mpi/gmonsum.c) as strict and as exact as
# gprof (issue 12 items 9 and 10):
#  - sums never wrap: two files whose bins add to more than 65,535 and whose
#    arcs add to more than 2^32 are summed into a file that /usr/bin/gprof
#    reads back exactly (its flat profile and call graph equal gprof's own
#    in-memory sum of the two files);
#  - overlapping histogram records and a changed dimension are errors
#    naming the file, like gprof -s, and nothing is written;
#  - `egprof-sum -o DIR/total DIR` run twice does not read its first
#    output back as a rank: the output is one of the inputs then, and an
#    output that names an input is refused before anything is written.
set -u
. "$SRCDIR/testsuite/e2e/lib.sh"

if ! e2e_mpi_setup || ! [ -x "$BUILDDIR/mpi/egprof-sum" ]; then
	echo "ok 1 - # SKIP mpirun or egprof-sum not built (OpenMPI missing)"
	echo "1..1"
	exit 0
fi
cd "$WORKDIR" || exit 1
SUM="$BUILDDIR/mpi/egprof-sum"

e2e_relax_halo || { not_ok "build and run"; diag <build.log; e2e_done; }

# mutate.py TEMPLATE OUT MODE: big (every sampled bin 60000, every arc
# 0xF0000000), overlap (a second histogram shifted by half its range),
# dimen (the dimension renamed)
cat >mutate.py <<'PY'
import struct, sys
src, out, mode = sys.argv[1:4]
d = bytearray(open(src, "rb").read())
pos, recs = 20, []
while pos < len(d):
    tag = d[pos]
    if tag == 0:
        low, high, n = struct.unpack_from("<QQI", d, pos + 1)
        recs.append((pos, tag, n))
        pos += 41 + 2 * n
    else:
        recs.append((pos, tag, 0))
        pos += 21
extra = b""
for pos, tag, n in recs:
    if tag == 0 and mode == "big":
        for i in range(n):
            o = pos + 41 + 2 * i
            if struct.unpack_from("<H", d, o)[0]:
                struct.pack_into("<H", d, o, 60000)
    elif tag == 0 and mode == "overlap":
        low, high = struct.unpack_from("<QQ", d, pos + 1)
        rec = bytearray(d[pos:pos + 41 + 2 * n])
        struct.pack_into("<QQ", rec, 1, low + (high - low) // 2, high + (high - low) // 2)
        extra += bytes(rec)
    elif tag == 0 and mode == "dimen":
        d[pos + 25:pos + 40] = b"milliseconds\0\0\0"
    elif tag == 1 and mode == "big":
        struct.pack_into("<I", d, pos + 17, 0xF0000000)
open(out, "wb").write(bytes(d) + extra)
PY
python3 mutate.py gmon.out big1 big && python3 mutate.py gmon.out big2 big &&
python3 mutate.py gmon.out overlap overlap && python3 mutate.py gmon.out dimen dimen

"${MPIRUN[@]}" -np 2 "$SUM" -o big.sum big1 big2 >sum.out 2>sum.err
rc=$?
/usr/bin/gprof -b prog big1 big2 >want.txt 2>&1
/usr/bin/gprof -b prog big.sum >got.txt 2>&1
if [ $rc = 0 ] && grep -q ' 8053063680 ' want.txt && cmp -s <(sort want.txt) <(sort got.txt); then
	ok "bins over 65,535 and arcs over 2^32: /usr/bin/gprof reads the sum exactly"
else
	not_ok "bins over 65,535 and arcs over 2^32 read back exactly (status $rc)"
	diff want.txt got.txt | diag
	diag <sum.err
fi

for bad in overlap dimen; do
	rm -f bad.sum
	"${MPIRUN[@]}" -np 1 "$SUM" -o bad.sum gmon.out $bad >bad.out 2>bad.err
	rc=$?
	/usr/bin/gprof -s prog gmon.out $bad >sys.out 2>sys.err
	src=$?
	case $bad in
	overlap) want="$bad: cannot sum: overlapping histogram records" ;;
	dimen) want="$bad: cannot sum: dimension unit changed" ;;
	esac
	if [ $rc != 0 ] && [ $src != 0 ] && grep -qF "$want" bad.err && ! [ -e bad.sum ]; then
		ok "$bad: refused as gprof -s refuses it, naming the file, no output"
	else
		not_ok "$bad: refused naming the file (status $rc, gprof -s $src)"
		diag <bad.err
	fi
done

mkdir d && cp gmon.out d/gmon.1 && cp gmon.out d/gmon.2
"${MPIRUN[@]}" -np 2 "$SUM" -o d/total d >o1.out 2>&1 && cp d/total first.sum
"${MPIRUN[@]}" -np 2 "$SUM" -o d/total d >o2.out 2>o2.err
rc=$?
if [ $rc != 0 ] && cmp -s first.sum d/total && grep -q "refusing to write 'd/total' (-o)" o2.err; then
	ok "egprof-sum -o DIR/total DIR twice: its output is not read back as a rank"
else
	not_ok "egprof-sum -o DIR/total DIR twice: the output read back (status $rc)"
	diag <o2.err
fi
"${MPIRUN[@]}" -np 1 "$SUM" -o first.sum gmon.out first.sum >o3.out 2>o3.err
rc=$?
if [ $rc != 0 ] && grep -qF "refusing to write 'first.sum' (-o)" o3.err; then
	ok "egprof-sum -o F ... F: refused"
else
	not_ok "egprof-sum -o F ... F: refused (status $rc)"
	diag <o3.err
fi
e2e_done
