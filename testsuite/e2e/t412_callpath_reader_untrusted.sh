#!/usr/bin/env bash
# The reader does not trust a sidecar blindly: a sidecar left from another
# run beside a new gmon.out is refused naming both files (it records the
# size and hash of the gmon file it was written with); duplicate children
# are refused in a version-3 file, summed in a version-4 one, and neither is
# quadratic; /dev/zero and FIFOs are refused at once, with the output file
# left as it was.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cp_cc recurse recurse.c -O2 -fno-optimize-sibling-calls || exit 1
cp_cc acc acceptance.c -O1 || exit 1
cd "$WORKDIR" || exit 1

# 7: stale sidecar (fib 20 recorded, then fib 22 run without the runtime)
LD_PRELOAD="$CP_SO" ./recurse fib 20 > /dev/null
./recurse fib 22 > /dev/null
"$EGPROF" -b --callpath ./recurse gmon.out > stale.out 2> stale.err
rc=$?
cp_check "stale sidecar: non-zero exit ($rc)" test "$rc" -ne 0
cp_check "stale sidecar: the message names both files and what differs" \
	grep -q "gmon.out.callpath: does not belong to 'gmon.out': recorded with a gmon file of [0-9]* bytes, hash [0-9a-f]*, and 'gmon.out' has [0-9]* bytes, hash [0-9a-f]* (a sidecar left from another run? --force reads it anyway)" stale.err
echo keep > stale.folded
"$EGPROF" -b --folded stale.folded ./recurse gmon.out > /dev/null 2>&1
cp_check "stale sidecar: --folded leaves its output file as it was" \
	test "$(cat stale.folded)" = keep
LD_PRELOAD="$CP_SO" ./recurse fib 22 > /dev/null
"$EGPROF" -b --callpath ./recurse gmon.out > fresh.out 2> fresh.err
cp_check "fresh sidecar: accepted" test $? -eq 0 -a ! -s fresh.err

# 8: duplicate children (node 2 made a copy of its sibling, node 1): a
# version-3 file forbids them; version 4 sums them (a writer may stream a
# thread's nodes, two of them differing only by a call site it writes as 0).
# No per-thread values (CALLPATH_THREADS=0): they would no longer add up to
# the forged nodes, which the reader refuses (t722).
CALLPATH_THREADS=0 LD_PRELOAD="$CP_SO" ./acc
cp_v3_of gmon.out.callpath v3.callpath
dup_of() {
	python3 - "$1" "$2" "$3" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
if sys.argv[3] == '3':
    hsize, nsize = struct.unpack_from('<II', b, 12)
    count = struct.unpack_from('<Q', b, 24)[0]
else:  # version 4: find the node table
    at = struct.unpack_from('<I', b, 12)[0]
    for _ in range(struct.unpack_from('<I', b, 20)[0]):
        tag, fl, ln = struct.unpack_from('<IIQ', b, at)
        if tag == 5:
            nsize, nm, count = struct.unpack_from('<IIQ', b, at + 16)
            hsize = at + 16 + 32
        at += 16 + ln
nodes = [struct.unpack_from('<IIQQ', b, hsize + i * nsize) for i in range(count)]
# two children of one parent: copy the first one's site and callee
seen = {}
for i, (parent, flags, site, callee) in enumerate(nodes):
    if parent in seen:
        j = seen[parent]
        struct.pack_into('<QQ', b, hsize + i * nsize + 8, nodes[j][2], nodes[j][3])
        break
    seen[parent] = i
open(sys.argv[2], 'wb').write(b)
PY
}
dup_of v3.callpath dup.callpath 3
"$CP_DUMP" dup.callpath > /dev/null 2> dup.err
cp_check "duplicate children (version 3): cpdump refuses them" test $? -ne 0
cp_check "duplicate children (version 3): the message names the nodes" \
	grep -q "dup.callpath: node [0-9]* duplicates node [0-9]*" dup.err
"$EGPROF" -b --callpath=dup.callpath ./acc gmon.out > /dev/null 2> dup2.err
cp_check "duplicate children (version 3): gprof --callpath refuses them" \
	grep -q "node [0-9]* duplicates node" dup2.err
dup_of gmon.out.callpath dup4.callpath 4
calls=$(cp_header gmon.out.callpath calls)
"$CP_DUMP" -H dup4.callpath > dup4.h 2> dup4.err
cp_check "duplicate children (version 4): summed, every call kept ($calls)" \
	test "$(awk '$1 == "calls" { print $2 }' dup4.h)" = "$calls" \
	-a "$(awk '$1 == "nodes" { print $2 }' dup4.h)" -lt "$(cp_header gmon.out.callpath nodes)"

# 200,000 top-level nodes, all alike: refused in version 3 (was summed in
# quadratic time), summed into one node in version 4, fast either way
python3 - v3.callpath gmon.out.callpath many-dups <<'PY'
import struct, sys
n = 200000
node = struct.pack('<IIQQQQQ', 0xffffffff, 0, 0, 0x1000, 1, 0, 0)
b = bytearray(open(sys.argv[1], 'rb').read())
hsize = struct.unpack_from('<I', b, 12)[0]
out = b[:hsize] + node * n
struct.pack_into('<Q', out, 24, n)
open(sys.argv[3] + '.3.callpath', 'wb').write(out)
b = bytearray(open(sys.argv[2], 'rb').read())
at = struct.unpack_from('<I', b, 12)[0]
for _ in range(struct.unpack_from('<I', b, 20)[0]):
    tag, fl, ln = struct.unpack_from('<IIQ', b, at)
    if tag == 5:
        break
    at += 16 + ln
out = b[:at] + struct.pack('<IIQIIQIIQ', 5, 1, 32 + n * 48, 48, 1, n, 0, 1, 0) + node * n
struct.pack_into('<Q', out, 24, len(out))
open(sys.argv[3] + '.4.callpath', 'wb').write(out)
PY
start=$(date +%s%N)
timeout 60 "$CP_DUMP" -H many-dups.3.callpath many-dups.3.callpath > /dev/null 2> many.err
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
cp_check "200,000 duplicates (version 3): refused, not summed (exit $rc)" \
	bash -c "test $rc -eq 1 && grep -q 'duplicates node 0' many.err"
echo "# 200,000 duplicate nodes refused in $ms ms"
start=$(date +%s%N)
timeout 60 "$CP_DUMP" -H many-dups.4.callpath > many4.h 2> many4.err
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
cp_check "200,000 duplicates (version 4): summed into one node (exit $rc)" \
	test $rc -eq 0 -a "$(awk '$1 == "nodes" { print $2 }' many4.h)" = 1 \
	-a "$(awk '$1 == "calls" { print $2 }' many4.h)" = 200000
echo "# 200,000 duplicate nodes summed in $ms ms"

# 9: not a regular file
for f in /dev/zero fifo; do
	[ "$f" = fifo ] && mkfifo fifo
	timeout 20 "$CP_DUMP" "$f" > /dev/null 2> nreg.err
	rc=$?
	cp_check "cpdump $f: refused at once (exit $rc)" \
		bash -c "test $rc -eq 1 && grep -q \"$f: not a regular file\" nreg.err"
	echo keep > nreg.folded
	timeout 20 "$EGPROF" -b --callpath="$f" --folded nreg.folded ./acc gmon.out \
		> /dev/null 2> nreg.err
	rc=$?
	cp_check "gprof --callpath=$f: refused at once (exit $rc), output file kept" \
		bash -c "test $rc -eq 1 -a \"\$(cat nreg.folded)\" = keep &&
			grep -q \"$f: not a regular file\" nreg.err"
done
cp_done
