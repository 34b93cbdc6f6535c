#!/usr/bin/env bash
# The path diff's changes beyond 2^63: counts go up to 2^64 - 1 (sums
# saturate there; a forged or damaged sidecar holds any), and the change
# table took A - B as a signed 64-bit subtraction, undefined beyond 2^63
# (UBSan: -9223372036854771808 - 6000 with --diff --metric ... --callpath)
# and wrong in print: 2^64 - 1 calls against 3 were "-4".  A sidecar of a
# real run with a's calls set to 2^64 - 1 and b's to 2^63 + 4000.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cp_cc acc acceptance.c -O0 || exit 1
mkdir -p one two
# CALLPATH_HZ=10: a tick the short runs never reach, so that the reports
# have no time columns whatever the machine's load
# no per-thread values: they would not add up to the forged counts (t722)
export CALLPATH_THREADS=0
(cd one && CALLPATH_HZ=10 LD_PRELOAD="$CP_SO" ../acc) && (cd two && CALLPATH_HZ=10 LD_PRELOAD="$CP_SO" ../acc) || exit 1
# the count of every node of `count` calls of main's child at call site
# number k is set: a (3 calls, main -> a) and b (9 calls)
python3 - one/gmon.out.callpath <<'PY'
import struct, sys
path = sys.argv[1]
b = bytearray(open(path, 'rb').read())
hs, nsect = struct.unpack_from('<I', b, 12)[0], struct.unpack_from('<I', b, 20)[0]
at, done = hs, 0
for _ in range(nsect):
    tag, flags, ln = struct.unpack_from('<IIQ', b, at)
    if tag == 5:
        size, nm, count = struct.unpack_from('<IIQ', b, at + 16)
        top = [i for i in range(count)
               if struct.unpack_from('<I', b, at + 48 + i * size)[0] == 0xffffffff]
        for i in range(count):
            rec = at + 48 + i * size
            parent, nflags, site, callee, calls = struct.unpack_from('<IIQQQ', b, rec)
            if parent in top and nflags == 0 and calls == 3:
                struct.pack_into('<Q', b, rec + 24, 2**64 - 1); done += 1
            elif parent in top and nflags == 0 and calls == 9:
                struct.pack_into('<Q', b, rec + 24, 2**63 + 4000); done += 1
    at += 16 + ln
assert done == 2, done
open(path, 'wb').write(b)
PY
cp_check "a's calls are 2^64 - 1 in the first sidecar" \
	bash -c "'$EGPROF' -b --callpath ./acc one/gmon.out | grep -qE '^18446744073709551615 +[0-9.]+  main -> a '"
"$EGPROF" -b --diff --callpath ./acc one/gmon.out two/gmon.out > out.txt 2> err.txt
cp_check "--diff --callpath: exit 0" test $? -eq 0
cp_check "a's path: 2^64 - 1 against 3 is +18446744073709551612" \
	grep -qE '^18446744073709551615 +3 +\+18446744073709551612 .  main;a$' out.txt
cp_check "b's path: 2^63 + 4000 against 9 is +9223372036854779799" \
	grep -qE '^ *9223372036854779808 +9 +\+9223372036854779799 .  main;b$' out.txt
cp_check "the function lines say the same" \
	bash -c "grep -qx 'a: +18446744073709551612 calls' out.txt &&
		 grep -qx 'b: +9223372036854779799 calls' out.txt"
# and the other way round
"$EGPROF" -b --diff --callpath ./acc two/gmon.out one/gmon.out > rev.txt 2> err.txt
cp_check "reversed: -18446744073709551612 and -9223372036854779799" \
	bash -c "grep -qE '^ +3 18446744073709551615 -18446744073709551612 .  main;a$' rev.txt &&
		 grep -qx 'b: -9223372036854779799 calls' rev.txt"
cp_done
