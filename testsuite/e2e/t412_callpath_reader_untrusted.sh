#!/usr/bin/env bash
# The reader does not trust a sidecar blindly: a sidecar left from another
# run beside a new gmon.out is refused naming both files (its per-function
# calls disagree with gmon.out's arcs); duplicate children are refused, and
# summing a tree with many of them is not quadratic; /dev/zero and FIFOs are
# refused at once, with the output file left as it was.
. "$SRCDIR/callpath/examples/testlib.sh"
cp_cc recurse recurse.c -O2 -fno-optimize-sibling-calls || exit 1
cp_cc acc acceptance.c -O1 || exit 1
cd "$WORKDIR" || exit 1

# 7: stale sidecar (fib 20 recorded, then fib 22 run without the runtime)
LD_PRELOAD="$CP_SO" ./recurse fib 20 > /dev/null
./recurse fib 22 > /dev/null
"$EGPROF" -b --callpath ./recurse gmon.out > stale.out 2> stale.err
rc=$?
cp_check "stale sidecar: non-zero exit ($rc)" test "$rc" -ne 0
cp_check "stale sidecar: the message names both files and the counts" \
	grep -q "'gmon.out.callpath' does not match 'gmon.out' (fib: 21891 calls in the sidecar, 57313 in the gmon file)" stale.err
echo keep > stale.folded
"$EGPROF" -b --folded stale.folded ./recurse gmon.out > /dev/null 2>&1
cp_check "stale sidecar: --folded leaves its output file as it was" \
	test "$(cat stale.folded)" = keep
LD_PRELOAD="$CP_SO" ./recurse fib 22 > /dev/null
"$EGPROF" -b --callpath ./recurse gmon.out > fresh.out 2> fresh.err
cp_check "fresh sidecar: accepted" test $? -eq 0 -a ! -s fresh.err

# 8: duplicate children (node 2 made a copy of its sibling, node 1)
LD_PRELOAD="$CP_SO" ./acc
python3 - gmon.out.callpath dup.callpath <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
hsize, nsize = struct.unpack_from('<II', b, 12)
count = struct.unpack_from('<Q', b, 24)[0]
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
"$CP_DUMP" dup.callpath > /dev/null 2> dup.err
cp_check "duplicate children: cpdump refuses them" test $? -ne 0
cp_check "duplicate children: the message names the nodes" \
	grep -q "cannot read 'dup.callpath': node [0-9]* duplicates node [0-9]*" dup.err
"$EGPROF" -b --callpath=dup.callpath ./acc gmon.out > /dev/null 2> dup2.err
cp_check "duplicate children: gprof --callpath refuses them" \
	grep -q "node [0-9]* duplicates node" dup2.err

# 200,000 top-level nodes, all alike: refused (was summed in quadratic time)
python3 - gmon.out.callpath many-dups.callpath <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
hsize, nsize = struct.unpack_from('<II', b, 12)
n = 200000
node = struct.pack('<IIQQQQQ', 0xffffffff, 0, 0, 0x1000, 1, 0, 0)
out = b[:hsize] + node * n
struct.pack_into('<Q', out, 24, n)
open(sys.argv[2], 'wb').write(out)
PY
start=$(date +%s%N)
timeout 60 "$CP_DUMP" -H many-dups.callpath many-dups.callpath > /dev/null 2> many.err
rc=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
cp_check "200,000 duplicates: refused, not summed (exit $rc)" \
	bash -c "test $rc -eq 1 && grep -q 'duplicates node 0' many.err"
echo "# 200,000 duplicate nodes refused in $ms ms"

# 9: not a regular file
for f in /dev/zero fifo; do
	[ "$f" = fifo ] && mkfifo fifo
	timeout 20 "$CP_DUMP" "$f" > /dev/null 2> nreg.err
	rc=$?
	cp_check "cpdump $f: refused at once (exit $rc)" \
		bash -c "test $rc -eq 1 && grep -q \"cannot read '$f': not a regular file\" nreg.err"
	echo keep > nreg.folded
	timeout 20 "$EGPROF" -b --callpath="$f" --folded nreg.folded ./acc gmon.out \
		> /dev/null 2> nreg.err
	rc=$?
	cp_check "gprof --callpath=$f: refused at once (exit $rc), output file kept" \
		bash -c "test $rc -eq 1 -a \"\$(cat nreg.folded)\" = keep &&
			grep -q \"cannot read '$f': not a regular file\" nreg.err"
done
cp_done
