#!/usr/bin/env bash
# --diff across two genuinely different builds of one program (a function
# inlined away, one removed, one added, every address shifted, different
# sampling rates), and the property that each side of every row is what
# /usr/bin/gprof prints for that side alone.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
cat > prog.c <<'SRC'
#include <stdlib.h>
volatile double sink;
#ifdef V2
__attribute__((noinline)) void pad_a(void) { sink += 1; }   /* shifts addresses */
__attribute__((noinline)) void added(long n) { for (long i = 0; i < n; i++) sink += i * 0.25; }
#define HELPER_ATTR static inline __attribute__((always_inline))
#else
__attribute__((noinline)) void removed(long n) { for (long i = 0; i < n; i++) sink -= i * 0.5; }
#define HELPER_ATTR __attribute__((noinline))
#endif
HELPER_ATTR void helper(long n) { for (long i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) void work(long n) { for (long i = 0; i < n; i++) sink *= 1.0000001; helper(n); }
static __attribute__((noinline)) void local(long n) { for (long i = 0; i < n; i++) sink += 2; }
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3000000;
	for (int k = 0; k < 4; k++) { work(n); local(n); }
#ifdef V2
	added(n); pad_a();
#else
	removed(n);
#endif
	return 0;
}
SRC
cc -O1 -g -pg -o v1 prog.c && cc -O1 -g -pg -DV2 -o v2 prog.c ||
	{ echo "not ok 1 - build"; exit 1; }
mkdir -p r1 r2
(cd r1 && ../v1) && (cd r2 && ../v2) || { echo "not ok 1 - run"; exit 1; }
# The second side at 1000 Hz: same ticks, a tenth of the seconds.
python3 - r2/gmon.out <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
assert b[:4] == b"gmon" and b[20] == 0
struct.pack_into("<I", b, 20 + 1 + 8 + 8 + 4, 1000)
open(sys.argv[1], "wb").write(b)
PY
# The baseline's helper: called 4 times, and (deterministically) never
# sampled: the bins over its code are cleared, so whether a 100 Hz tick
# happened to land in it no longer decides what the row prints (issue 24
# item 15: it printed "---", absent, where gprof prints 0.00).
read -r hstart hsize < <(nm -S v1 | awk '$4 == "helper" { print $1, $2 }')
python3 - r1/gmon.out "$hstart" "$hsize" <<'PY'
import struct, sys
path, start, size = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3], 16)
b = bytearray(open(path, "rb").read())
off = 20
assert b[off] == 0
low, high, n = struct.unpack_from("<QQI", b, off + 1)
bins = off + 1 + 8 + 8 + 4 + 4 + 15 + 1
for i in range(n):
    lo = low + (high - low) * i // n
    hi = low + (high - low) * (i + 1) // n
    if lo < start + size and hi > start:
        struct.pack_into("<H", b, bins + 2 * i, 0)
open(path, "wb").write(b)
PY

"$EGPROF" -b -p --extended --diff v1 r1/gmon.out v2 r2/gmon.out > ext.txt 2> ext.err
check "diff of two builds exits 0" test $? -eq 0
squeeze ext.txt | grep -E '^-?[0-9]' > rows
check "removed function: on the baseline side only" grep -Eq ' X\. removed$' rows
check "added function: on the second side only" grep -Eq ' \.X added$' rows
check "inlined-away helper, called but never sampled: 0.00 4 on the baseline, --- and - on the second" \
	grep -Eq '^0\.00 0\.00 --- 0\.00 4 - 4 X\. helper$' rows
check "static function matched across builds" grep -Eq ' XX local$' rows

# Property: +self/-self equal each side's own gprof flat profile, diff
# equals their difference; calls likewise.
"$SYSGPROF" -b -p v1 r1/gmon.out | squeeze > sys1
"$SYSGPROF" -b -p v2 r2/gmon.out | squeeze > sys2
check "sampling rates differ (second side 1000 Hz)" grep -q 'Each sample counts as 0.001 seconds' sys2
python3 - rows sys1 sys2 > prop.txt <<'PY'
import sys
def flat(path):
    out = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 4 and f[0].replace('.', '').isdigit() and f[1].replace('.', '').isdigit():
            name = f[-1]
            calls = f[3] if len(f) == 7 else None
            out[name] = (f[2], calls)
    return out
a, b = flat(sys.argv[2]), flat(sys.argv[3])
bad = 0
n = 0
for line in open(sys.argv[1]):
    f = line.split()
    name = f[-1]
    n += 1
    for side, tab, sec, calls in ((0, a, f[1], f[4]), (1, b, f[2], f[5])):
        want = tab.get(name, ("---", None))
        wsec = want[0]
        if sec != wsec:
            print("side %d %s seconds %s, gprof %s" % (side, name, sec, wsec)); bad += 1
        if (want[1] or "-") != calls and not (want[1] is None and calls == "-"):
            print("side %d %s calls %s, gprof %s" % (side, name, calls, want[1])); bad += 1
    x = 0 if f[1] == "---" else float(f[1])
    y = 0 if f[2] == "---" else float(f[2])
    if abs((x - y) - float(f[3])) > 0.0101:
        print("%s diff %s != %s - %s" % (name, f[3], f[1], f[2])); bad += 1
missing = set(a) | set(b)
missing -= {l.split()[-1] for l in open(sys.argv[1])}
for m in missing:
    print("gprof lists %s, the diff does not" % m); bad += 1
print("checked %d rows, %d problems" % (n, bad))
sys.exit(1 if bad or n == 0 else 0)
PY
check "property: every row's sides equal /usr/bin/gprof's flat profiles" test $? -eq 0
cat prop.txt

# A directory side is the sum of its gmon files, as gprof sums them.
mkdir -p runs
(cd runs && GMON_OUT_PREFIX=$PWD/gmon ../v1 1000000 && GMON_OUT_PREFIX=$PWD/gmon ../v1 2000000)
"$SYSGPROF" -b -p v1 runs/gmon.* | squeeze > sysdir
"$EGPROF" -b -p --extended --diff v1 runs v1 r1/gmon.out | squeeze | grep -E '^-?[0-9]' > dirrows
want=$(awk '$NF=="work"{print $3}' sysdir)
got=$(awk '$NF=="work"{print $2}' dirrows)
check "directory operand sums its gmon files (work: $got = $want)" test "$got" = "$want"
check "directory side: noise rule used the spread of its runs" \
	bash -c "'$EGPROF' --diff v1 runs v1 r1/gmon.out | grep -q '(2 gmon files)'"
dl_done
