#!/usr/bin/env bash
# Copies of a static function defined in a header (issue 11 item 7): one per
# compilation unit, all with the header as their source file.  The diff
# prints each as "helper (memutils.h in UNIT.c)", matches each with the copy
# of its own unit in the second build (whose units link in another order),
# and the copy whose work changed is the one that differs.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
cd "$WORKDIR" || exit 1
cat > memutils.h <<'C'
static volatile double sink;
static __attribute__((noipa)) void helper(long n)
{
	for (long i = 0; i < n; i++)
		sink += (double)i * 0.5;
}
C
for u in alpha beta gamma; do
	cat > $u.c <<C
#include "memutils.h"
void run_$u(long n) { helper(n); }
C
done
cat > main.c <<'C'
#include <stdlib.h>
void run_alpha(long), run_beta(long), run_gamma(long);
int main(int argc, char **argv)
{
	long beta = argc > 1 ? atol(argv[1]) : 1;
	for (int k = 0; k < 20; k++) {
		run_alpha(2000000);
		run_beta(2000000 * beta);
		run_gamma(2000000);
	}
	return 0;
}
C
# DWARF 4: gprof then names the header as the copies' file, as it did for
# CoMD's memUtils.h (with DWARF 5 line tables BFD names the unit instead).
gcc -pg -O1 -gdwarf-4 -o v1 main.c alpha.c beta.c gamma.c &&
gcc -pg -O1 -gdwarf-4 -o v2 main.c gamma.c beta.c alpha.c &&
mkdir -p r1 r2 && (cd r1 && ../v1 1) && (cd r2 && ../v2 4) ||
	{ echo "not ok 1 - build and run"; echo "1..1"; exit 1; }
"$EGPROF" -b -p --extended --diff v1 r1/gmon.out v2 r2/gmon.out > ext.txt 2> ext.err
check "diff exits 0" test $? -eq 0
check "gprof names the header as the copies' file" \
	bash -c "'$SYSGPROF' -b -p --inline-file-names v1 r1/gmon.out | grep -q 'helper (memutils.h:'"

for u in alpha beta gamma; do
	check "the copy in $u.c has a row of its own, matched on both sides" \
		grep -Eq " XX +helper \(memutils.h in $u.c\)( +[~=])?$" ext.txt
done
check "three rows of helper, each qualified by its unit" test "$(grep -cE ' XX +helper \(memutils.h in ' ext.txt)" -eq 3
first=$(squeeze ext.txt | grep -E '^-?[0-9]' | head -1)
check "the first row is the copy in beta.c, which got 4x the work" \
	bash -c "echo '$first' | grep -q 'helper (memutils.h in beta.c)$'"
check "its second side is more than twice its baseline (4x the work)" python3 - "$first" <<'PY'
import sys
f = sys.argv[1].split()
sys.exit(0 if float(f[2]) > 2 * float(f[1]) else 1)
PY
"$SYSGPROF" -b -p v1 r1/gmon.out > sys.txt
"$EGPROF" -b -p v1 r1/gmon.out > ours.txt
check "plain gprof output is unchanged (GNU gprof's)" cmp -s sys.txt ours.txt
dl_done
