#!/usr/bin/env bash
# GCC clones in the diff (issue 11 item 6).  At -O2 GCC splits and
# specialises functions into foo.part.0, foo.constprop.0, foo.isra.0 and
# foo.cold; upstream gprof drops those symbols, so their samples and calls
# land on whatever function precedes them in memory (GNU gprof shows one
# function with every call of the program).  The diff folds each clone into
# its base: an -O0 and an -O2 build of one program show the same call count
# for every function, the exact count the program makes, each clone's row
# says what it absorbed, and each function's samples are those the
# histogram has in its address ranges (checked here from the gmon file and
# nm).  Plain gprof output stays GNU gprof's.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
cd "$WORKDIR" || exit 1
cat > clones.c <<'C'
#include <stdio.h>
#include <stdlib.h>
struct big { long a, b, c, d, e, f, g, h; };
static volatile long sink;
/* .constprop.0.isra.0: a struct by value of which one field is used, and a
 * constant argument */
static __attribute__((noinline)) long use_a(struct big p, long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += p.a * i + (i >> 3);
	sink += 1;
	return s;
}
/* .constprop.0: always called with k = 7 */
static __attribute__((noinline)) long scale(long x, long k)
{
	long s = 0;
	for (long i = 0; i < 1000; i++)
		s += (x + i) * k;
	sink += 1;
	return s;
}
static __attribute__((cold, noinline)) void complain(long x)
{
	fprintf(stderr, "bad %ld\n", x);
}
/* .cold: the unlikely path split out */
static __attribute__((noinline)) long checked(long x, long lim)
{
	long s = 0;
	for (long i = 0; i < 100; i++) {
		if (__builtin_expect(x > lim, 0)) {
			complain(x);
			s -= x * i;
			sink += s;
		}
		s += x ^ i;
	}
	sink += 1;
	return s;
}
/* .part.0: the cheap test inlined into the callers, the loops split out */
long lookup(const long *tab, long n, long key)
{
	if (key < 0)
		return -1;
	long s = 0;
	for (long i = 0; i < n; i++)
		s += tab[i] == key ? i : tab[i] & 3;
	for (long i = 0; i < n; i++)
		s ^= tab[(i * 7) % n] + key;
	for (long i = 0; i < n; i++)
		s += tab[(i * 5) % n] * key;
	for (long i = 1; i < n; i++)
		s -= tab[(i * 3) % n] / i;
	sink += 1;
	return s;
}
long tab[64];
int main(int argc, char **argv)
{
	struct big b1 = { argc, 2, 3, 4, 5, 6, 7, 8 }, b2 = { 9, argc, 3, 4, 5, 6, 7, 8 };
	long n = argc > 1 ? atol(argv[1]) : 1000;
	for (long r = 0; r < n; r++) {
		sink += use_a(b1, 1500);
		sink += use_a(b2, 1000);
		sink += scale(r, 7);
		sink += scale(r + 1, 7);
		sink += checked(r, n);
		sink += lookup(tab, 64, r + 1);
		sink += lookup(tab, 32, r + 2);
		sink += lookup(tab, 48, r + 3);
		sink += lookup(tab, 16, r + 4);
	}
	return 0;
}
C
n=50000
gcc -pg -O0 -o o0 clones.c && gcc -pg -O2 -o o2 clones.c &&
	mkdir -p r0 r2 && (cd r0 && ../o0 $n) && (cd r2 && ../o2 $n) ||
	{ echo "not ok 1 - build and run"; echo "1..1"; exit 1; }
nm o2 > o2.nm
for c in 'lookup\.part\.0' 'scale\.constprop\.0' 'use_a\.constprop\.0\.isra\.0' 'checked\.cold'; do
	check "gcc -O2 made the clone $c" grep -Eq " t $c\$" o2.nm
done
"$SYSGPROF" -b -p o2 r2/gmon.out > gnu.txt
check "GNU gprof gives lookup's clone's calls to another function" \
	bash -c "! grep -Eq ' $((4 * n)) .* lookup\$' gnu.txt"

"$EGPROF" -b -p --extended --diff o0 r0/gmon.out o2 r2/gmon.out > ext.txt 2> ext.err
check "diff exits 0" test $? -eq 0
# Row: impact +self -self diff +calls -calls diffcalls sym name
row() { squeeze ext.txt | grep -E " XX $1\$"; }
calls_are() {
	local r
	r=$(row "$1") || return 1
	set -- $r "$2"
	[ "$5" = "${!#}" ] && [ "$6" = "${!#}" ]
}
check "lookup (+ .part.0): $((4 * n)) calls on both sides" calls_are 'lookup \(\+ \.part\.0\)' $((4 * n))
check "use_a (+ .constprop.0.isra.0): $((2 * n)) calls on both sides" \
	calls_are 'use_a \(\+ \.constprop\.0\.isra\.0\)' $((2 * n))
check "scale (+ .constprop.0): $((2 * n)) calls on both sides" calls_are 'scale \(\+ \.constprop\.0\)' $((2 * n))
check "checked (+ .cold): $n calls on both sides" calls_are 'checked \(\+ \.cold\)' $n
check "no row of a clone's own name" bash -c "! grep -Eq '\\.(part|constprop|isra|cold)[. ]' <(grep -v '(+ ' ext.txt)"

# Each function's samples on the -O2 side: the histogram bins in its address
# ranges (its own and its clones', from nm), from the raw gmon file.
python3 - o2.nm r2/gmon.out ext.txt > samples.txt <<'PY'
import re, struct, sys
syms = []
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) == 3 and f[1] in "tT":
        syms.append((int(f[0], 16), f[2]))
syms.sort()
base = lambda s: re.sub(r'(\.(constprop|isra|part|lto_priv)\.\d+|\.cold)+$', '', s)
data = open(sys.argv[2], "rb").read()
pos, ticks = 20, {}
while pos < len(data):
    tag = data[pos]; pos += 1
    if tag == 0:
        low, high, n, rate = struct.unpack_from("<QQII", data, pos); pos += 24 + 16
        step = (high - low) / n
        for i in range(n):
            c = struct.unpack_from("<H", data, pos + 2 * i)[0]
            if c:
                a = low + int(i * step)
                owner = [s for s in syms if s[0] <= a][-1][1]
                ticks[base(owner)] = ticks.get(base(owner), 0) + c
        pos += 2 * n
    elif tag == 1:
        pos += 20
    else:
        break
names = {}
for line in open(sys.argv[3]):
    f = line.split()   # impact +self -self diff +calls -calls diff sym name
    if len(f) >= 9 and f[7] in ("XX", "X.", ".X"):
        names[f[8]] = 0 if f[2] == "---" else round(float(f[2]) * 100)
for f in ("lookup", "use_a", "scale", "checked", "main"):
    print(f, ticks.get(f, 0), names.get(f, 0))
PY
cat samples.txt
check "each function's -O2 samples are the histogram's in its and its clones' ranges" \
	awk '$2 != $3 { bad = 1 } END { exit bad || NR != 5 }' samples.txt
check "lookup has samples on the -O2 side" awk '$1 == "lookup" && $2 > 0 { ok = 1 } END { exit !ok }' samples.txt

# One binary on both sides: one loader sends the symbol table once and each
# file's numbers without names, and the front end folds the clones
# (gprof-ext/upstream.c, FRAME_SYMTAB).  A copy of the binary (another file)
# makes two loaders that each fold their own profile: the same diff.
mkdir -p r2b && (cd r2b && ../o2 $((n / 2))) && cp o2 o2copy ||
	{ echo "not ok - second run"; exit 1; }
for opts in "-p --extended" "-q" "-q --extended" "-z"; do
	"$EGPROF" -b $opts --diff o2 r2/gmon.out r2b/gmon.out > shared.txt 2>&1
	"$EGPROF" -b $opts --diff o2 r2/gmon.out o2copy r2b/gmon.out > apart.txt 2>&1
	check "one loader for both sides gives the diff two loaders give ($opts)" \
		cmp shared.txt apart.txt
done
check "the one-loader diff folded the clones" grep -q 'lookup (+ \.part\.0)' shared.txt

"$EGPROF" -b -p o2 r2/gmon.out > ours.txt
check "plain gprof output is unchanged (GNU gprof's)" cmp -s gnu.txt ours.txt
dl_done
