#!/usr/bin/env bash
# --folded-calls writes only stacks that happened (issue 24 item 11): with
# indirect recursion (main -> a -> b -> c -> a ...), the calls c makes back
# to a are folded into a's frame, and the folded line was a's path, c, a:
# "main;a;c;a", a call a -> c that never happened, which flame graphs
# drew.  Now the line is the path of the frame that made the calls:
# "main;a;b;c;a" (model/recursion.h); when several frames of c could
# have (a reaches c through b and through d), the calls count on a's own
# line, as gprof counts a recursive function's calls.  In --folded-calls
# and cpdump -f; every prefix of every line is a line too (--folded-calls
# writes every frame of the tree), so no line names a frame that is not
# one.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cat > ind.c <<'C'
#include <stdlib.h>
int a(int n, int two);
/* main -> a -> b -> c -> a -> ...; with `two`, a also reaches c through d */
__attribute__((noinline)) int c(int n, int two) { return a(n - 1, two) + 1; }
__attribute__((noinline)) int b(int n, int two) { return c(n, two) + 1; }
__attribute__((noinline)) int d(int n, int two) { return c(n, two) + 2; }
__attribute__((noinline)) int a(int n, int two)
{
	return n > 0 ? (two && n % 2 ? d(n, two) : b(n, two)) + 1 : 0;
}
int main(int argc, char **argv)
{
	return a(argc > 1 ? atoi(argv[1]) : 5, argc > 2) == 12345;
}
C
gcc -pg -O1 -fno-optimize-sibling-calls -o ind ind.c || exit 1
nm -nS ind > ind.nm

LD_PRELOAD="$CP_SO" ./ind 5
"$EGPROF" -b --folded-calls one.folded ./ind gmon.out > /dev/null
"$CP_DUMP" -f -s ind.nm gmon.out.callpath > one.cpdump
cat > one.expected <<'END'
main 1
main;a 1
main;a;b 5
main;a;b;c 5
main;a;b;c;a 5
END
cp_same "c's calls back to a: main;a;b;c;a, not main;a;c;a" one.expected one.folded
cp_same "cpdump -f: the same lines" one.expected one.cpdump

# a reaches c through b and through d: which c made the calls is unknown
rm -f gmon.out gmon.out.callpath
LD_PRELOAD="$CP_SO" ./ind 6 two
"$EGPROF" -b --folded-calls two.folded ./ind gmon.out > /dev/null
"$CP_DUMP" -f -s ind.nm gmon.out.callpath > two.cpdump
cat > two.expected <<'END'
main 1
main;a 7
main;a;b 3
main;a;b;c 3
main;a;d 3
main;a;d;c 3
END
cp_same "two frames of c under a: the 6 recursive calls count on main;a (1+6)" \
	two.expected two.folded
cp_same "cpdump -f: the same lines" two.expected two.cpdump
cp_check "gprof's call graph also says a is called 7 times (in a cycle)" \
	bash -c "'$SYSGPROF' -b -q ./ind gmon.out | grep -qE '^\\[[0-9]+\\] .* 7 +a <cycle'"

# every line's stack happened: each prefix of each line is a line too
for f in one two; do
	awk '{ print $1 }' $f.folded | sort > $f.stacks
	cp_check "$f: every prefix of every line is a line (no invented frame)" \
		bash -c "awk -F';' '{ p = \$1; print p; for (i = 2; i <= NF; i++) { p = p \";\" \$i; print p } }' $f.stacks | sort -u | comm -23 - $f.stacks | grep -q . && exit 1 || exit 0"
done
cp_done
