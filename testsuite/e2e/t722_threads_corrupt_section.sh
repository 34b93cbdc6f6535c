#!/usr/bin/env bash
# A damaged threads section (a per-thread value changed so that the
# threads no longer add up to a node's calls; a record's node index past
# the node table; the section cut by a wrong thread count): --callpath,
# --html and cpdump refuse the file with an error that names it and the
# problem, exit non-zero, and leave no output behind.  The undamaged file
# is read.
. "$SRCDIR/testsuite/e2e/graph_lib.sh"
. "$SRCDIR/testsuite/e2e/views_lib.sh"
gcc -pg -O1 -g -o two "$SRCDIR/testsuite/fixtures/callpath/two_threads.c" -lpthread >build.log 2>&1 &&
	LD_PRELOAD="$CALLPATH_SO" ./two 20000000 >/dev/null || { cat build.log; echo "Bail out! cannot build and run two_threads.c"; exit 1; }
cp gmon.out.callpath good.callpath
# damage KIND: the file with its threads section changed
damage() {
	"$PY" - "$1" good.callpath gmon.out.callpath <<'PY'
import struct, sys
kind, src, dst = sys.argv[1:]
b = bytearray(open(src, "rb").read())
at = 32
while True:
    tag, flags, n = struct.unpack_from("<IIQ", b, at)
    if tag == 9:
        break
    at += 16 + n
p = at + 16
count, nvalues = struct.unpack_from("<II", b, p)
t = p + 16                       # the first thread
name_len = struct.unpack_from("<H", b, t + 24)[0]
rec = t + 32 + (name_len + 7) // 8 * 8
if kind == "calls":
    struct.pack_into("<Q", b, rec + 8, struct.unpack_from("<Q", b, rec + 8)[0] + 1)
elif kind == "node":
    struct.pack_into("<I", b, rec, 0xfffffff0)
elif kind == "count":
    struct.pack_into("<I", b, p, count + 1)
open(dst, "wb").write(b)
PY
}
"$EGPROF" -b --callpath two gmon.out >good.txt 2>err.txt
check "the undamaged file is read" [ $? = 0 ]
for kind in calls node count; do
	damage $kind
	"$EGPROF" -b --callpath two gmon.out >out.txt 2>err.txt
	rc=$?
	check "$kind: --callpath refuses it (exit $rc): $(head -c 300 err.txt)" \
		sh -c "[ $rc != 0 ] && grep -q 'gmon.out.callpath: bad thread' err.txt"
	rm -f r.html
	"$EGPROF" -b two gmon.out --html r.html >/dev/null 2>err.txt
	rc=$?
	check "$kind: --html refuses it (exit $rc), writes no page" \
		sh -c "[ $rc != 0 ] && grep -q 'gmon.out.callpath.*bad thread' err.txt && [ ! -e r.html ]"
	"$BUILDDIR/tools/cpdump/cpdump" gmon.out.callpath >/dev/null 2>err.txt
	rc=$?
	check "$kind: cpdump refuses it (exit $rc)" \
		sh -c "[ $rc != 0 ] && grep -q 'gmon.out.callpath: bad thread' err.txt"
done
done_testing
