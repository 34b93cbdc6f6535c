#!/usr/bin/env bash
# --interval of files with sidecars that are not snapshots of one run: a
# name the last file lacks (a library function sampled in an earlier run
# only) was "internal error: ... is not among its side's functions" and
# exit 1 (seen in a loaded CI run, where one of two runs took a sample in
# the instrumentation).  Now every file's profile takes the names of all
# of them.  Run 1 spends about 0.2 s in libm's cos (about 200 samples at
# 1 kHz: the chance of none is e^-200), run 2 calls no libm at all.
. "$SRCDIR/testsuite/e2e/lib.sh"
CP="$BUILDDIR/callpath"
cd "$WORKDIR" || exit 1
cat > lm.c <<'C'
#include <math.h>
#include <stdlib.h>
volatile double sink;
__attribute__((noinline)) void use_libm(long n) { for (long i = 0; i < n; i++) sink += cos(sink + (double)i); }
__attribute__((noinline)) void arith(long n) { for (long i = 0; i < n; i++) sink += (double)i * 1e-9; }
int main(int argc, char **argv)
{
	if (argc > 1 && atoi(argv[1]))
		use_libm(20000000);
	arith(20000000);
	return 0;
}
C
gcc -pg -O1 -g -o lm lm.c -L"$CP" -lcallpath -Wl,-rpath,"$CP" -lm ||
	{ echo "Bail out! build"; exit 1; }
mkdir -p r1 r2 && (cd r1 && ../lm 1) && (cd r2 && ../lm 0) || { echo "Bail out! run"; exit 1; }
"$EGPROF" -b --folded r1.folded ./lm r1/gmon.out > /dev/null 2>&1 && grep -q 'cos' r1.folded ||
	{ echo "Bail out! run 1 has no sample in cos"; exit 1; }

"$EGPROF" --interval ./lm r1/gmon.out r2/gmon.out > iv.txt 2> iv.err
rc=$?
if [ "$rc" = 0 ] && ! grep -q 'internal error' iv.err; then
	ok "--interval of two runs, a libm function in the first only: exit 0"
else
	not_ok "--interval of two runs, a libm function in the first only: exit 0"
	diag < iv.err
fi
# (The table lists the top functions of the last file, the whole run when
# the files are snapshots: here the second run, without libm.)
if grep -q ' arith$' iv.txt; then
	ok "... the table lists the last file's functions"
else
	not_ok "... the table lists the last file's functions"
	diag < iv.txt
fi
"$EGPROF" --interval ./lm r2/gmon.out r1/gmon.out > iv2.txt 2> iv2.err
if [ "$?" = 0 ] && grep -Eq '(__)?cos' iv2.txt; then
	ok "... and in the other order, the libm row from the last file"
else
	not_ok "... and in the other order, the libm row from the last file"
	diag < iv2.err
fi
e2e_done
