#!/usr/bin/env bash
# --diff of programs with mutual recursion: gprof's cycles ("<cycle N as a
# whole>") are matched across the runs by their members, not by number,
# printed with their members, and a cycle one build no longer has is shown
# with a placeholder side.  The call graph ends with gprof's index (-w).
. "$SRCDIR/testsuite/e2e/diff_lib.sh"
cat > rec.c <<'SRC'
#include <stdlib.h>
volatile double sink;
__attribute__((noinline)) void burn(long n) { for (long i = 0; i < n; i++) sink += i; }
/* ring_a -> ring_b -> ring_a: a cycle in both builds */
__attribute__((noinline)) void ring_b(int n);
__attribute__((noinline)) void ring_a(int n) { burn(20000); if (n > 0) ring_b(n - 1); }
__attribute__((noinline)) void ring_b(int n) { burn(10000); if (n > 0) ring_a(n - 1); }
/* is_even <-> is_odd: a cycle only without V2 */
__attribute__((noinline)) int is_odd(unsigned n);
#ifdef V2
__attribute__((noinline)) int is_even(unsigned n) { burn(100); return n % 2 == 0; }
__attribute__((noinline)) int is_odd(unsigned n) { burn(100); return n % 2 == 1; }
#else
__attribute__((noinline)) int is_even(unsigned n) { burn(100); return n == 0 ? 1 : is_odd(n - 1); }
__attribute__((noinline)) int is_odd(unsigned n) { burn(100); return n == 0 ? 0 : is_even(n - 1); }
#endif
int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3;
	for (int r = 0; r < rounds; r++) {
		/* V2 builds the cycles in the other order: numbers differ. */
#ifndef V2
		is_even(40);
#endif
		ring_a(60);
#ifdef V2
		is_even(40);
		is_odd(41);
#endif
	}
	return 0;
}
SRC
cc -O0 -g -pg -o v1 rec.c && cc -O0 -g -pg -DV2 -o v2 rec.c ||
	{ echo "not ok 1 - build"; exit 1; }
mkdir -p r1 r2 r3
(cd r1 && ../v1 3) && (cd r2 && ../v2 3) && (cd r3 && ../v1 5) || { echo "not ok 1 - run"; exit 1; }

# Same binary, more rounds: both cycles on both sides.
"$EGPROF" -b -q --diff v1 r1/gmon.out r3/gmon.out > same.txt 2> same.err
check "diff of two runs with cycles exits 0" test $? -eq 0
check "both cycles are printed as a whole" \
	bash -c "grep -c '<cycle [12] as a whole> \[' same.txt | grep -qx 2"
ce=$(sed -n 's/.* is_even <cycle \([0-9]*\)> \[[0-9]*\]$/\1/p' same.txt | sort -u)
co=$(sed -n 's/.* is_odd <cycle \([0-9]*\)> \[[0-9]*\]$/\1/p' same.txt | sort -u)
ca=$(sed -n 's/.* ring_a <cycle \([0-9]*\)> \[[0-9]*\]$/\1/p' same.txt | sort -u)
check "is_even and is_odd are members of one cycle ($ce, $co)" \
	bash -c "[ -n '$ce' ] && [ '$ce' = '$co' ]"
check "ring_a is in the other cycle ($ca)" bash -c "[ -n '$ca' ] && [ '$ca' != '$ce' ]"
# The cycle's calls are gprof's, subtracted: ext+within per side.
calls() { "$SYSGPROF" -b -q v1 "$1" | awk -v m="<cycle $2 as a whole>" 'index($0, m) { print $5 }'; }
s1=$(sed -n 's/.* is_even <cycle \([0-9]*\)> \[[0-9]*\]$/\1/p' <("$SYSGPROF" -b -q v1 r1/gmon.out) | head -1)
a=$(calls r1/gmon.out "$s1") b=$(calls r3/gmon.out "$s1")
want=$(( ${a%+*} - ${b%+*} ))+$(( ${a#*+} - ${b#*+} ))
check "even/odd cycle calls are gprof's difference ($a - $b = $want)" \
	grep -Eq "^\[[0-9]+\] +[-0-9.]+ +[-0-9.]+ +[-0-9.]+ +${want//+/\\+} +<cycle $ce as a whole>" same.txt
check "a call within a cycle shows its count change only" \
	grep -Eq '^ {30,}-?[0-9]+ +is_odd <cycle' same.txt

# Two builds: the even/odd cycle exists in the baseline only, and the
# builds number their cycles differently.
"$EGPROF" -b -q --extended --diff v1 r1/gmon.out v2 r2/gmon.out > two.txt 2> two.err
check "diff of two builds with cycles exits 0" test $? -eq 0
"$SYSGPROF" -b -q v2 r2/gmon.out > sys2.txt
check "fixture: the second build has one cycle, ring_a's" \
	bash -c "grep -c 'as a whole' sys2.txt | grep -qx 1 && grep -q 'ring_a <cycle 1>' sys2.txt"
check "the ring cycle is matched by members: calls on both sides" \
	grep -Eq '^\[[0-9]+\] +[-0-9.]+ +[-0-9.]+ +[-0-9.]+ +[0-9]+\+[0-9]+ +[0-9]+\+[0-9]+ +-?[0-9]+\+-?[0-9]+ +<cycle [0-9]+ as a whole>' two.txt
check "the even/odd cycle: the second run's side is a placeholder" \
	grep -Eq '^\[[0-9]+\] +[-0-9.]+ +[-0-9.]+ +[-0-9.]+ +[0-9]+\+[0-9]+ +- +-?[0-9]+\+-?[0-9]+ +<cycle [0-9]+ as a whole>' two.txt
check "--extended call graph has the +calls -calls diff columns" \
	grep -q '^index  % time     self  children    +calls    -calls      diff   name$' two.txt

# The index by function name ends the call graph; -w sets its width.
"$EGPROF" -b -q -w 150 --diff v1 r1/gmon.out r3/gmon.out > wide.txt
check "the call graph ends with the index by function name" grep -q '^Index by function name$' same.txt
check "the index lists the cycles" grep -Eq '\[[0-9]+\] <cycle 1> *$' same.txt
w80=$(sed -n '/^Index by/,$p' same.txt | awk '{ if (length($0) > m) m = length($0) } END { print m }')
w150=$(sed -n '/^Index by/,$p' wide.txt | awk '{ if (length($0) > m) m = length($0) } END { print m }')
check "-w 150 widens the index ($w80 -> $w150)" bash -c "[ $w80 -lt 80 ] && [ $w150 -gt 80 ] && [ $w150 -lt 150 ]"
"$EGPROF" -q --diff v1 r1/gmon.out r3/gmon.out > blurb.txt
check "without -b the call graph's columns are explained" grep -q '^ called    the change of the function' blurb.txt
dl_done
