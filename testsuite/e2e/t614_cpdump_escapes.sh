#!/usr/bin/env bash
# cpdump printed a sidecar's host and exe strings raw (issue 28 item 6): an
# escape sequence reached the terminal, a newline forged a header line
# ("rank 0" from a host name), and a NUL cut the name.  They are written as
# \xNN now (utils/printable.h), as every writer of ours writes such bytes
# (doc/outputs.md), and so are names from -s NMFILE.
. "$SRCDIR/callpath/examples/testlib.sh"
cp_cc acc acceptance.c -O1 || exit 1
cd "$WORKDIR" || exit 1
LD_PRELOAD="$CP_SO" ./acc > /dev/null
# forged strings in the version-3 header: host at 136, then exe, then the
# build-id, padded to a multiple of 8 before the node table
python3 - gmon.out.callpath forged.callpath <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
hsize, = struct.unpack_from("<I", d, 12)
hl, el, bl = struct.unpack_from("<HHH", d, 104)
bid = d[136 + hl + el:136 + hl + el + bl]
host = b"evil\x1b[31mRED\nrank 0\x00hidden"
exe = b"/bin/\x07bell\x7f\xff"
hdr = bytearray(d[:136])
struct.pack_into("<HH", hdr, 104, len(host), len(exe))
body = bytearray(bytes(hdr) + host + exe + bid)
body += b"\0" * (-len(body) % 8)
struct.pack_into("<I", body, 12, len(body))
open(sys.argv[2], "wb").write(bytes(body) + d[hsize:])
PY
"$CP_DUMP" -H forged.callpath > head.txt 2> err.txt
cp_check "cpdump -H reads the forged file (exit $?)" test -s head.txt
cp_check "host: every byte shown, control characters and the NUL as \\xNN" \
	grep -qxF 'host evil\x1b[31mRED\x0arank 0\x00hidden' head.txt
cp_check "exe: BEL, DEL and a bad UTF-8 byte as \\xNN" grep -qxF 'exe /bin/\x07bell\x7f\xff' head.txt
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
