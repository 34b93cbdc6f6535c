#!/usr/bin/env bash
# A directory side whose runs have different cycles (found on Lua built
# -fno-inline: "the runs of 'lua' do not line up with their sum", exit 1).
# gprof finds cycles in each run's own call graph, so a run where ping and
# pong recurse into each other has a "<cycle 1 as a whole>" the other runs
# lack; the runs' functions still line up, index for index, and the diff
# goes on, its cycle's noise from the pair as for one run per side.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
cat > cyc.c <<'C'
#include <stdlib.h>
volatile double sink;
__attribute__((noinline)) void work(long n) { for (long i = 0; i < n; i++) sink += i * 0.5; }
int pong(int n);
__attribute__((noinline)) int ping(int n) { work(20000); return n > 0 ? pong(n - 1) : 0; }
__attribute__((noinline)) int pong(int n) { work(20000); return n > 0 ? ping(n - 1) : 0; }
int main(int argc, char **argv)
{
	int deep = argc > 1 ? atoi(argv[1]) : 0;
	for (int i = 0; i < 200; i++)
		ping(deep);
	work(3000000);
	return 0;
}
C
gcc -pg -O1 -o cyc cyc.c || { echo "not ok 1 - build"; echo "1..1"; exit 1; }
mkdir -p a b
# a: one run with the cycle, one without; b: both without
(./cyc 3 && mv gmon.out a/gmon.1 && ./cyc 0 && mv gmon.out a/gmon.2 &&
	./cyc 0 && mv gmon.out b/gmon.1 && ./cyc 0 && mv gmon.out b/gmon.2) ||
	{ echo "not ok 1 - runs"; echo "1..1"; exit 1; }
cp_check "one run of a has a cycle, the other none" \
	bash -c "/usr/bin/gprof -b -q ./cyc a/gmon.1 | grep -q '<cycle 1 as a whole>' &&
		 ! /usr/bin/gprof -b -q ./cyc a/gmon.2 | grep -q '<cycle 1'"
"$EGPROF" -b -p --extended --diff ./cyc a ./cyc b > d.txt 2> err.txt
cp_check "the diff of the two directories exits 0" test $? = 0
cp_check "nothing on stderr" test ! -s err.txt
cp_check "ping's calls: 600 in a (200 runs of ping(3) call it twice, 200 of ping(0) once), 400 in b" \
	grep -Eq ' 600 +400 +200 +XX +ping' d.txt
"$EGPROF" -p --extended --diff ./cyc a ./cyc b > h.txt 2>&1
cp_check "the header names both sides' two runs" \
	test "$(grep -c '^  [a-z]*: *./cyc [ab] (2 gmon files)$' h.txt)" = 2
cp_done
