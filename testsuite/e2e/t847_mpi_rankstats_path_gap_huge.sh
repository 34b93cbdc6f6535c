#!/usr/bin/env bash
# --rank-stats orders the paths of an imbalanced function by their gap,
# calls on the slowest rank minus calls on the fastest; the gap was taken
# as a signed 64-bit number, so one beyond 2^63 (counts reach 2^64 - 1: a
# damaged or forged sidecar, saturated sums) sorted as negative, last.
# t314's four ranks (relax called 30 times from main>init on every rank,
# 320 times from main>sweep>smooth on rank 2 and 40 on the others), with
# rank 2's main>init>relax set to 2^63 + 30 calls: its gap, 2^63, is the
# largest and comes first.
set -u
. "$SRCDIR/testsuite/e2e/lib.sh"
cd "$WORKDIR" || exit 1
CP="$BUILDDIR/callpath"
cat >prog.c <<'C'
#include <stdlib.h>
volatile double sink;
__attribute__((noinline)) void relax(void) { for (int i = 0; i < 800000; i++) sink += i * 0.5; }
__attribute__((noinline)) void smooth(int n) { for (int i = 0; i < n; i++) relax(); }
__attribute__((noinline)) void sweep(int n) { smooth(n); }
__attribute__((noinline)) void init(void) { for (int i = 0; i < 30; i++) relax(); }
int main(int argc, char **argv) { init(); sweep(atoi(argv[1]) == 2 ? 320 : 40); return 0; }
C
# no per-thread values (CALLPATH_THREADS=0): they would not add up to the
# forged counts (t722)
gcc -pg -O1 -o prog prog.c -L"$CP" -lcallpath -Wl,-rpath,"$CP" >build.log 2>&1 && mkdir run &&
	for r in 0 1 2 3; do CALLPATH_THREADS=0 PMI_RANK=$r GMON_OUT_PREFIX=$PWD/run/gmon ./prog $r || exit 1; done
side=$(grep -l . run/*.callpath | while read -r f; do
	"$BUILDDIR/tools/cpdump/cpdump" -H "$f" | grep -qx 'rank 2' && echo "$f"; done)
if [ -z "$side" ]; then
	not_ok "rank 2's sidecar"
	diag <build.log
	e2e_done
fi
nm -n prog > prog.nm
# the node of relax called from init (its only call with 30 calls): 2^63 + 30
python3 - "$side" prog.nm <<'PY'
import struct, sys
path = sys.argv[1]
syms = [(int(l.split()[0], 16), l.split()[-1]) for l in open(sys.argv[2]) if len(l.split()) == 3]
b = bytearray(open(path, 'rb').read())
hs, nsect = struct.unpack_from('<I', b, 12)[0], struct.unpack_from('<I', b, 20)[0]
at = hs
load = None
for _ in range(nsect):
    tag, flags, ln = struct.unpack_from('<IIQ', b, at)
    if tag == 1:
        load = struct.unpack_from('<Q', b, at + 16 + 32)[0]
    at += 16 + ln
def name(a):
    a -= load
    best = None
    for s, n in syms:
        if s <= a:
            best = n
    return best
at, done = hs, 0
for _ in range(nsect):
    tag, flags, ln = struct.unpack_from('<IIQ', b, at)
    if tag == 5:
        size, nm, count = struct.unpack_from('<IIQ', b, at + 16)
        for i in range(count):
            rec = at + 48 + i * size
            parent, nflags, site, callee, calls = struct.unpack_from('<IIQQQ', b, rec)
            if nflags == 0 and calls == 30 and name(callee) == 'relax' and name(site) == 'init':
                struct.pack_into('<Q', b, rec + 24, 2**63 + 30)
                done += 1
    at += 16 + ln
assert done == 1, done
open(path, 'wb').write(b)
PY
"$EGPROF" --rank-stats prog run >stats.out 2>stats.err
summary=$(sed -n '/most imbalanced/,/functions that ran/p' stats.out)
first_via=$(echo "$summary" | grep -m1 '^      via ')
if echo "$first_via" | grep -qE '^      via main>init>relax: 9223372036854775838 calls on rank 2, 30 on rank [013]$' &&
   echo "$summary" | grep -qE '^      via main>sweep>smooth>relax: 320 calls on rank 2, 40 on rank [013]$'; then
	ok "the gap of 2^63 comes first, before 320 - 40"
else
	not_ok "the gap of 2^63 comes first, before 320 - 40"
	echo "$summary" | diag
fi
e2e_done
