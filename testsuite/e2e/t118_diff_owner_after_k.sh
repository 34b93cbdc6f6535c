#!/usr/bin/env bash
# --diff with -k removing the only arcs (issue 11): a program whose only arc
# is main -> checked, compared with -k main/checked, was refused as "does
# not belong ... none of its calls connects two functions" because the
# ownership check looked at the arcs left after -k.  The file's own arcs
# are checked before -k (gprof-ext/gmon_owner.h): the pair is accepted,
# its self times are GNU gprof's with the same -k, and a gmon file of
# another program is still refused with -k.
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
cd "$WORKDIR" || exit 1
cat > onlyarc.c <<'C'
static volatile double sink;
__attribute__((noipa)) void checked(int n) { double s = 0; for (int i = 0; i < n; i++) s += i * 0.5; sink += s; }
int main(void) { for (int i = 0; i < 300; i++) checked(1000000); return 0; }
C
cat > other.c <<'C'
static volatile unsigned x = 1;
__attribute__((noipa)) void spin(long n) { for (long i = 0; i < n; i++) x = x * 69069u + 1u; }
__attribute__((noipa)) void helper_a(void) { spin(1000); }
__attribute__((noipa)) void helper_b(void) { spin(2000); }
__attribute__((noipa)) void helper_c(void) { spin(3000); }
int main(void) { for (int k = 0; k < 3000; k++) { helper_a(); helper_b(); helper_c(); } spin(30000000); return 0; }
C
build() { gcc -pg -g "$@" && return 0; echo "not ok 1 - build $*"; echo "1..1"; exit 1; }
build -O1 -o onlyarc onlyarc.c
build -O1 -o other other.c
for r in a b; do
	mkdir -p $r && (cd $r && ../onlyarc) || { echo "not ok 1 - run onlyarc"; echo "1..1"; exit 1; }
done
mkdir -p o && (cd o && ../other) || { echo "not ok 1 - run other"; echo "1..1"; exit 1; }

"$EGPROF" --diff -b -p -k main/checked ./onlyarc a/gmon.out ./onlyarc b/gmon.out > diff.txt 2> err.txt
rc=$?
check "-k main/checked: accepted (exit $rc)" test $rc -eq 0
check "-k main/checked: no ownership complaint" bash -c "! grep -q 'does not belong' err.txt"
sa=$("$SYSGPROF" -b -p -k main/checked ./onlyarc a/gmon.out | awk '$NF == "checked" { print $3 }')
sb=$("$SYSGPROF" -b -p -k main/checked ./onlyarc b/gmon.out | awk '$NF == "checked" { print $3 }')
row=$(squeeze diff.txt | awk '$NF == "checked"')
check "checked: self seconds are gprof's ($sa, $sb: $row)" \
	bash -c "echo '$row' | awk -v a='$sa' -v b='$sb' '{ d = a - b; e = \$3 - d; exit !(e < 0.006 && e > -0.006) }'"
"$EGPROF" --diff -b -p -k main/checked ./onlyarc a/gmon.out ./onlyarc o/gmon.out > foreign.txt 2> ferr.txt
rc=$?
check "-k main/checked: another program's gmon file still refused (exit $rc)" \
	bash -c "[ $rc -ne 0 ] && grep -q 'o/gmon.out: does not belong to' ferr.txt"
dl_done
