#!/usr/bin/env bash
# A glibc gmon file whose magic is damaged (issue 28 item 1) reads as an
# old BSD-style file whose byte count (the spare bytes: 0) is smaller than
# its header: stock gprof takes (0 - 20) / 2 as 2^32 - 10 bins and
# allocates and clears 16 GiB before it says the file is not a gmon file.
# egprof refuses it at once, naming the file, in plain mode, -s, --diff and
# --rank-stats; valid old BSD-style files (with and without the 4.4BSD
# version header) still get stock gprof's output byte for byte.  Memory is
# capped so that a regression fails ("out of memory") instead of clearing
# gigabytes.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
cd "$WORKDIR" || exit 1

cc -pg -O1 -no-pie -o prog "$SRCDIR/testsuite/fixtures/loaders/work.c" && ./prog ||
	{ echo "not ok 1 - build work.c"; echo "1..1"; exit 1; }
# the first byte of the magic damaged, as a disk or a transfer may
cp gmon.out damaged.gmon
printf 'X' | dd of=damaged.gmon bs=1 count=1 conv=notrunc 2> /dev/null
python3 - gmon.out "$(nm prog | awk '$3 == "work" { print $1 }')" <<'PY'
import struct, sys
# Old BSD-style files of the same profile: glibc's histogram and arcs in
# the 64-bit old layout (lowpc, highpc, ncnt; ncnt counts the header), and
# the 4.4BSD layout (version 0x51879, rate, 12 spare bytes); a 4.4BSD
# header whose count (30) is smaller than its 40 bytes.
data = open(sys.argv[1], "rb").read()
pos, lo, hi, bins, arcs = 20, 0, 0, b"", []
while pos < len(data):
    tag = data[pos]
    if tag == 0:
        lo, hi, n, rate = struct.unpack_from("<QQII", data, pos + 1)
        bins = data[pos + 41:pos + 41 + 2 * n]
        pos += 41 + 2 * n
    elif tag == 1:
        arcs.append(data[pos + 1:pos + 21])
        pos += 21
    else:
        sys.exit("unexpected tag %d" % tag)
# work's bin holds 5 samples whatever the run sampled (a loaded machine
# may give its 0.03 s none): the files must hold a profile to print
work = int(sys.argv[2], 16)
scale = (hi - lo) / (len(bins) // 2)
b = int((work + 8 - lo) / scale)
bins = bytearray(bins)
struct.pack_into("<H", bins, 2 * b, struct.unpack_from("<H", bins, 2 * b)[0] + 5)
bins = bytes(bins)
arc = b"".join(arcs)
open("old.gmon", "wb").write(struct.pack("<QQI", lo, hi, 20 + len(bins)) + bins + arc)
h44 = struct.pack("<QQIII", lo, hi, 40 + len(bins), 0x51879, 100) + b"\0" * 12
open("bsd44.gmon", "wb").write(h44 + bins + arc)
open("bsd44short.gmon", "wb").write(struct.pack("<QQIII", lo, hi, 30, 0x51879, 100) +
                                    b"\0" * 12 + bins + arc)
PY

cap="ulimit -v 2000000"
if nm "$EGPROF" 2>/dev/null | grep -q __asan_init; then
	cap=:
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size=2000000000:allocator_may_return_null=1"
fi

# refused NAME GMON WHY ARGS...: exit 1 within seconds, stderr names GMON
# and WHY, nothing on stdout
refused() {
	local name=$1 gmon=$2 why=$3 rc
	shift 3
	($cap; timeout 60 "$EGPROF" "$@" > out.txt 2> err.txt)
	rc=$?
	check "$name: exit 1 (got $rc)" test $rc -eq 1
	check "$name: names '$gmon': $why" bash -c "grep -F '$gmon: not a gmon file' err.txt | grep -qF '$why'"
	check "$name: nothing on stdout" test ! -s out.txt
}
why='(no "gmon" header, and as an old BSD-style file its byte count, 0, is smaller than its 20-byte header)'
refused "damaged magic" damaged.gmon "$why" -b prog damaged.gmon
refused "damaged magic, -s" damaged.gmon "$why" -s prog gmon.out damaged.gmon
check "... and no gmon.sum" test ! -e gmon.sum
refused "damaged magic, --diff" damaged.gmon "$why" --diff prog gmon.out damaged.gmon
refused "damaged magic, --rank-stats" damaged.gmon "$why" --rank-stats prog gmon.out damaged.gmon
refused "4.4BSD count 30 < 40" bsd44short.gmon "its byte count, 30, is smaller than its 40-byte header" \
	-b prog bsd44short.gmon

# same NAME ARGS...: stdout, stderr and exit status as stock gprof
same() {
	local name=$1 rc1 rc2
	shift
	"$SYSGPROF" "$@" > sys.out 2> sys.err
	rc1=$?
	"$EGPROF" "$@" > ours.out 2> ours.err
	rc2=$?
	sed -i "s|^$EGPROF:|gprof:|; s|^$SYSGPROF:|gprof:|" sys.err ours.err
	check "$name: as stock gprof (exit $rc1 / $rc2)" \
		bash -c "[ $rc1 = $rc2 ] && cmp -s sys.out ours.out && cmp -s sys.err ours.err"
}
same "an old BSD-style file" -b prog old.gmon
same "a 4.4BSD file" -b prog bsd44.gmon
check "... which holds the profile (work is in it)" grep -q ' work' ours.out
dl_done
