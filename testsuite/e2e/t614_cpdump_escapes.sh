#!/usr/bin/env bash
# cpdump printed a sidecar's host and exe strings raw (issue 28 item 6): an
# escape sequence reached the terminal, a newline forged a header line
# ("rank 0" from a host name), and a NUL cut the name.  They are written as
# \xNN now (utils/printable.h), as every writer of ours writes such bytes
# (doc/outputs.md), and so are names from -s NMFILE.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cp_cc acc acceptance.c -O1 || exit 1
cd "$WORKDIR" || exit 1
LD_PRELOAD="$CP_SO" ./acc > /dev/null
# forged strings in the version-4 process section (doc/dev/sidecar-format.md):
# its fixed part (72 bytes: host, exe and build-id lengths at 60), the
# dropped-call counters, then host, exe and the build-id, padded to 8
python3 - gmon.out.callpath forged.callpath <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
hsize, flags, nsect = struct.unpack_from("<III", d, 12)
at, secs = hsize, []
for _ in range(nsect):
    tag, sflags, ln = struct.unpack_from("<IIQ", d, at)
    secs.append([tag, sflags, d[at + 16:at + 16 + ln]])
    at += 16 + ln
host = b"evil\x1b[31mRED\nrank 0\x00hidden"
exe = b"/bin/\x07bell\x7fbad\xff"
for sec in secs:
    if sec[0] != 1:
        continue
    p = sec[2]
    ndrop, = struct.unpack_from("<I", p, 56)
    hl, el, bl = struct.unpack_from("<HHH", p, 60)
    fixed = 72 + 8 * ndrop
    bid = p[fixed + hl + el:fixed + hl + el + bl]
    q = bytearray(p[:fixed])
    struct.pack_into("<HH", q, 60, len(host), len(exe))
    q += host + exe + bid
    q += b"\0" * (-len(q) % 8)
    sec[2] = bytes(q)
out = bytearray(d[:hsize])
for tag, sflags, p in secs:
    out += struct.pack("<IIQ", tag, sflags, len(p)) + p
out += d[at:]
struct.pack_into("<Q", out, 24, len(out))
open(sys.argv[2], "wb").write(bytes(out))
PY
"$CP_DUMP" -H forged.callpath > head.txt 2> err.txt
cp_check "cpdump -H reads the forged file (exit $?)" test -s head.txt
cp_check "host: every byte shown, control characters and the NUL as \\xNN" \
	grep -qxF 'host evil\x1b[31mRED\x0arank 0\x00hidden' head.txt
cp_check "exe: BEL, DEL and a bad UTF-8 byte as \\xNN" grep -qxF 'exe /bin/\x07bell\x7fbad\xff' head.txt
cp_check "no escape character, BEL or DEL reaches the output" \
	bash -c "! LC_ALL=C grep -q \$'[\\x01-\\x08\\x0b-\\x1f\\x7f]' head.txt"
cp_check "no forged line: one 'rank' line, the real one" test "$(grep -c '^rank' head.txt)" -eq 1
cp_check "one line per header field (the forged newline is not one)" \
	test "$(wc -l < head.txt)" -eq "$("$CP_DUMP" -H gmon.out.callpath | wc -l)"

# names from -s NMFILE: nm output with control characters in a name
nm -nS acc | sed 's/ c$/ c\x1b]0;title\x07/' > acc.nm
"$CP_DUMP" -s acc.nm gmon.out.callpath > tree.txt
"$CP_DUMP" -f -s acc.nm gmon.out.callpath > folded.txt
cp_check "tree: a name's escape sequence shown as \\x1b ... \\x07" \
	grep -qF 'c\x1b]0;title\x07 <- ' tree.txt
cp_check "folded: the same name escaped" grep -qF ';c\x1b]0;title\x07 ' folded.txt
cp_check "no control character in the tree or the folded lines" \
	bash -c "! LC_ALL=C grep -q \$'[\\x01-\\x08\\x0b-\\x1f\\x7f]' tree.txt folded.txt"
cp_done
