#!/usr/bin/env bash
# A folded node whose names are those of a frame of calls: the model made
# them one frame, a frame of folded recursion with children, and lost
# counts; where a child of it was the maker of the folded calls,
# --folded-calls walked between them for ever, writing past its buffer
# (SIGSEGV on a real sidecar with two bytes of its load address zeroed;
# valgrind: invalid write of size 4), while --callpath, --folded, --html
# and --pprof accepted the file.  Now:
# - the frames stay apart: in a -pg shared library every function is
#   [unknown], so a recursion there folds into a node named as the other
#   calls of that library made from the same place; every call is counted;
# - a sidecar whose load address (or program range) is not the objects
#   section's main program's is refused by the one sidecar reader, by every
#   output, naming the file and the field;
# - the same damage in a file without objects (version 3) cannot be seen:
#   its addresses name other functions, and every output is written, every
#   call counted.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1

# ---- a recursion inside a -pg shared library
cat > lib.c <<'C'
__attribute__((noinline)) int leafwork(int x) { return x * 3 + 1; }
__attribute__((noinline)) int walk(int n) { return n <= 0 ? 0 : leafwork(n) + walk(n - 1); }
C
cat > app.c <<'C'
#include <stdio.h>
int walk(int n);
int main(void)
{
	long s = 0;
	for (int i = 0; i < 100; i++)
		s += walk(20);
	printf("%ld\n", s);
	return 0;
}
C
gcc -pg -O1 -fno-optimize-sibling-calls -fPIC -shared -o libw.so lib.c &&
	gcc -pg -O1 -o app app.c -L. -lw -Wl,-rpath,"$PWD" || exit 1
LD_PRELOAD="$CP_SO" ./app > /dev/null || exit 1
# main 1 call; walk 100 from main and 2,000 recursive; leafwork 2,000
cp_check "the sidecar counts 4,101 calls" test "$(cp_header gmon.out.callpath calls)" -eq 4101
"$EGPROF" -b --folded-calls calls.folded --callpath ./app gmon.out > report.txt 2> err.txt
cp_check "--folded-calls: the lines sum to 4,101 calls" \
	test "$(awk '{ s += $NF } END { print s }' calls.folded)" -eq 4101
cp_check "--folded-calls: leafwork's 2,000 calls on their own line" \
	grep -qx 'main;\[unknown\];\[unknown\] 2000' calls.folded
cp_check "--callpath: 4,101 calls along 3 paths" \
	grep -qF "From 'gmon.out.callpath': 4101 calls along 3 paths" report.txt

# ---- a real sidecar with two bytes of its load address zeroed
cp_cc acc acceptance.c -O1 || exit 1
mkdir -p real && (cd real && LD_PRELOAD="$CP_SO" ../acc) || exit 1
load=$(cp_header real/gmon.out.callpath load-address)
cp_check "the program is a PIE ($load)" test "$((load))" -gt 0
# zero PATH OUT K: OUT is the sidecar PATH with bytes K, K+1 of the
# process section's load_address zeroed (the section header at 32, its
# payload at 48, load_address at 32 in it)
zero() {
	python3 - "$@" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
hs = struct.unpack_from('<I', b, 12)[0]
assert struct.unpack_from('<I', b, hs)[0] == 1, 'the process section first'
at = hs + 16 + 32 + int(sys.argv[3])
b[at] = b[at + 1] = 0
open(sys.argv[2], 'wb').write(b)
PY
}
refused=0 tried=0
for k in 0 1 2 3 4; do
	d=z$k
	mkdir -p $d && cp real/gmon.out $d/ && zero real/gmon.out.callpath $d/gmon.out.callpath $k
	cmp -s real/gmon.out.callpath $d/gmon.out.callpath && continue	# those bytes were 0
	tried=$((tried + 1))
	for out in "--callpath" "--folded f.folded" "--folded-calls c.folded" "--html p.html" \
		   "--pprof p.pb.gz"; do
		# shellcheck disable=SC2086 # the option and its file
		(cd $d && timeout 60 "$EGPROF" -b $out ../acc gmon.out > out.txt 2> err.txt)
		rc=$?
		if [ $rc -eq 1 ] && grep -qF "gmon.out.callpath: bad load address" $d/err.txt &&
		   [ -z "$(cd $d && ls f.folded c.folded p.html p.pb.gz 2> /dev/null)" ]; then
			refused=$((refused + 1))
		else
			echo "# bytes $k, $out: exit $rc, $(head -c 300 $d/err.txt)"
		fi
	done
done
cp_check "every output refuses each damaged load address, naming it ($refused of $((5 * tried)))" \
	test $refused -eq $((5 * tried)) -a $tried -ge 3

# ---- the same damage without an objects section to compare with
cp_v3_of real/gmon.out.callpath v3.callpath || exit 1
bad=0
for k in 0 1 2 3 4; do
	d=v$k
	mkdir -p $d && cp real/gmon.out $d/
	# version 3: load_address at byte 64 of the header
	python3 - v3.callpath $d/gmon.out.callpath $k <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
at = 64 + int(sys.argv[3])
b[at] = b[at + 1] = 0
open(sys.argv[2], 'wb').write(b)
PY
	(cd $d && timeout 60 "$EGPROF" -b --folded-calls c.folded --callpath \
		--html p.html --pprof p.pb.gz ../acc gmon.out > out.txt 2> err.txt)
	rc=$?
	sum=$(awk '{ s += $NF } END { print s + 0 }' $d/c.folded 2> /dev/null)
	want=$(cp_header $d/gmon.out.callpath calls)
	if [ $rc -ne 0 ] || [ "$sum" != "$want" ] || [ ! -s $d/p.html ] || [ ! -s $d/p.pb.gz ]; then
		bad=$((bad + 1))
		echo "# v3, bytes $k: exit $rc, $sum of $want calls; $(head -c 300 $d/err.txt)"
	fi
done
cp_check "version 3 with a damaged load address: every output written, every call counted" \
	test $bad -eq 0
cp_done
