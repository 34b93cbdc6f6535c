#!/usr/bin/env bash
# --rank-stats --svg/--png: the imbalance heat map (issue 14 item 4), on
# rank files generated from a real -pg run (testsuite/mpi/gen_ranks.py:
# rank i does 1 + i % 4 times the work).  Checks the files' types and
# sizes, that the SVG parses (xmllint), and reads the PNG's pixels back
# (python's zlib): at 4 ranks the cell of the slowest rank is red, the
# fastest blue, and the slowest rank's cell is boxed in black; at 1,000
# ranks the map is binned (400 columns) and as wide as at 4.  Also: the
# MPI driver draws the same PNG, byte for byte; --svg without --rank-stats
# draws the call graph, not a heat map; a failing heat map leaves no report
# and no file.
set -u
. "$SRCDIR/testsuite/e2e/lib.sh"
cd "$WORKDIR" || exit 1

if e2e_relax_halo &&
   python3 "$SRCDIR/testsuite/mpi/gen_ranks.py" gmon.out r4 4 &&
   python3 "$SRCDIR/testsuite/mpi/gen_ranks.py" gmon.out r1000 1000; then
	ok "a -pg program runs; 4 and 1,000 rank files generated"
else
	not_ok "a -pg program runs; rank files generated"
	diag <build.log
	e2e_done
fi

# pixel.py PNG X Y -> "R G B" (8-bit RGB or RGBA, non-interlaced, as cairo writes)
cat >pixel.py <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
w, h, depth, ctype = struct.unpack(">IIBB", data[16:26])
idat, pos = b"", 8
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IDAT":
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
raw, bpp = zlib.decompress(idat), {2: 3, 6: 4}[ctype]
stride, rows, prev = w * bpp, [], bytearray(w * bpp)
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
x, y = int(sys.argv[2]), int(sys.argv[3])
print(*rows[y][x * bpp:x * bpp + 3])
PY

"$EGPROF" --rank-stats --svg hm4.svg --png hm4.png prog r4 >r4.out 2>r4.err
rc=$?
if [ $rc = 0 ] && file hm4.svg | grep -q 'SVG' && xmllint --noout hm4.svg 2>/dev/null &&
   file hm4.png | grep -q 'PNG image data, 1140 x' && [ "$(stat -c %s hm4.png)" -gt 2000 ]; then
	ok "4 ranks: an SVG that xmllint parses and a 1140-pixel-wide PNG"
else
	not_ok "4 ranks: SVG and PNG written (status $rc)"
	diag <r4.err
	file hm4.svg hm4.png | diag
fi
# Geometry (ranks/heatmap.c): plot from x = 230, 800 px wide; first row at
# y = 56, 18 px high.  4 ranks: 200 px per column; sample mid-cell, away
# from the box.
px() { python3 pixel.py hm4.png "$1" "$2"; }
read -r r0 g0 b0 <<<"$(px 330 60)"
read -r r3 g3 b3 <<<"$(px 930 60)"
read -r kr kg kb <<<"$(px 831 65)"
if [ "$b0" -gt "$r0" ] && [ "$r3" -gt "$b3" ] && [ "$kr" -lt 60 ] && [ "$kg" -lt 60 ]; then
	ok "rank 0's cell is blue (below the mean), rank 3's red and boxed in black"
else
	not_ok "cell colours: rank 0 ($r0 $g0 $b0), rank 3 ($r3 $g3 $b3), box edge ($kr $kg $kb)"
fi

"$EGPROF" --rank-stats --png hm1000.png prog r1000 >r1000.out 2>r1000.err
if file hm1000.png | grep -q 'PNG image data, 1140 x' && grep -q '^1000 ranks' r1000.out; then
	ok "1,000 ranks: binned into 400 columns, the same width"
else
	not_ok "1,000 ranks: binned heat map"
	diag <r1000.err
fi

"$EGPROF" --svg x.svg -b prog gmon.out >plain.out 2>plain.err
rc=$?
if [ $rc = 0 ] && grep -q "<svg" x.svg && ! grep -q "ranks" x.svg; then
	ok "--svg without --rank-stats draws the call graph"
else
	not_ok "--svg without --rank-stats draws the call graph (status $rc)"
	diag <plain.err
fi

"$EGPROF" --rank-stats --png nodir/x.png prog r4 >bad.out 2>bad.err
rc=$?
if [ $rc = 1 ] && grep -q "nodir/x.png" bad.err && ! [ -s bad.out ]; then
	ok "a heat map that cannot be written: error naming it, no report"
else
	not_ok "a heat map that cannot be written (status $rc)"
	diag <bad.err
fi

if e2e_mpi_setup && [ -x "$BUILDDIR/mpi/egprof-rankstats" ]; then
	"${MPIRUN[@]}" -np 3 "$BUILDDIR/mpi/egprof-rankstats" --png mpi1000.png prog r1000 \
		>mpi.out 2>mpi.err
	"$EGPROF" --rank-stats --png one1000.png prog r1000 >/dev/null 2>&1
	if cmp -s one1000.png mpi1000.png && cmp -s r1000.out mpi.out; then
		ok "mpirun -np 3 egprof-rankstats --png: the same PNG and report"
	else
		not_ok "mpirun -np 3 egprof-rankstats --png: the same PNG and report"
		diag <mpi.err
	fi
fi
e2e_done
